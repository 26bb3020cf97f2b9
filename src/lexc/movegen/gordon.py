"""Gordon's GADDAG move generation (1994): from each anchor, read leftwards, then cross the
separator and read rightwards.

Every word w that puts its letter w[i] on the anchor is in the GADDAG as
rev(w[:i+1]) + SEP + w[i+1:] (or rev(w) when the anchor holds its last letter). So the
search starts on the anchor square at the GADDAG root and places letters leftwards (over
the board's tiles, and over empty squares that are not anchors: a play reaching an anchor
further left is found from that anchor); wherever the square to the left is free it may
cross the separator and go on rightwards from the square after the anchor. A terminal edge
reached where the next square in the direction of travel is free ends a word. Unlike
Appel & Jacobson's left part, no letter is placed that cannot lead to a word through the
anchor ("more than twice as fast", Gordon). The children a node offers the rack are looked up
once per position and remembered (``Rack.children_in``, as for Appel & Jacobson; once the
rack's blanks are down, only those for its own letters), and so is each node's separator
child; each square's cross-check only filters them.
"""

from __future__ import annotations

from typing import Any

from ..alphabet import BLANK_FLAG, UNBLANK
from ..board.notation import THROUGH
from ..formats.base import Capability
from .lanes import Lane
from .rack import TILE_BYTES, Rack

NAME = "gordon"
SEP = 0


def applicable(lexicon: Any) -> bool:
    """Needs the GADDAG primitives (gaddag_root, child with the separator)."""
    return Capability.GADDAG in lexicon.capabilities


def lane_plays(lane: Lane, rack: Rack, lexicon: Any) -> list[tuple[int, bytes]]:
    """(start, tiles) of every play in the lane: tiles has THROUGH on board squares."""
    squares, anchors, checks, n = lane.squares, lane.anchors, lane.checks, len(lane.squares)
    letters = squares.translate(UNBLANK)  # the board's letters, blank or not
    child, is_word = lexicon.child, lexicon.is_word
    counts = rack.counts
    rack_children = rack.children_in(lexicon)  # only letters the rack can supply are tried
    own_children = rack.children_in(lexicon, blanks=False)  # ... once the blanks are down
    separator = rack.remembered("separator", lambda node: child(node, SEP))  # node -> its SEP child
    out: list[tuple[int, bytes]] = []

    # Gordon's Gen (go_left, go_right) tries each tile on a square; his GoOn (left_on,
    # right_on) goes on from the tile placed, leftwards or (past the separator) rightwards.
    def go_left(pos: int, node: Any, right: bytes, anchor: int, end_free: bool) -> None:
        """Each tile on square ``pos`` before the tiles ``right``: the board's, or each rack
        tile that the cross-check allows and the GADDAG continues with."""
        if squares[pos]:
            nxt = child(node, letters[pos])
            if nxt is not None:
                left_on(pos, THROUGH, nxt, right, anchor, end_free)
            return
        allowed = checks[pos]
        for letter, nxt in (rack_children if counts[0] else own_children)[node]:  # never SEP: no letter is 0
            if not allowed >> letter & 1:
                continue
            if counts[letter]:  # the rack's own tile, then a blank as the letter
                counts[letter] -= 1
                left_on(pos, letter, nxt, right, anchor, end_free)
                counts[letter] += 1
            if counts[0]:
                counts[0] -= 1
                left_on(pos, letter | BLANK_FLAG, nxt, right, anchor, end_free)
                counts[0] += 1

    def left_on(pos: int, tile: int, node: Any, right: bytes, anchor: int, end_free: bool) -> None:
        """``tile`` is on square ``pos`` (``node`` read it): a play when the word is whole,
        then on leftwards, and across the separator to the right of the anchor."""
        tiles = TILE_BYTES[tile] + right
        free_left = pos == 0 or not squares[pos - 1]
        if free_left and end_free and len(tiles) > 1 and is_word(node):
            out.append((pos, tiles))
        if pos and (squares[pos - 1] or not anchors[pos - 1]):
            go_left(pos - 1, node, tiles, anchor, end_free)
        if free_left and anchor + 1 < n:
            after = separator[node]
            if after is not None:
                go_right(anchor + 1, after, tiles, pos)

    def go_right(pos: int, node: Any, tiles: bytes, start: int) -> None:
        """Each tile on square ``pos`` after ``tiles`` (from ``start``), as ``go_left``."""
        if squares[pos]:
            nxt = child(node, letters[pos])
            if nxt is not None:
                right_on(pos, THROUGH, nxt, tiles, start)
            return
        allowed = checks[pos]
        for letter, nxt in (rack_children if counts[0] else own_children)[node]:
            if not allowed >> letter & 1:
                continue
            if counts[letter]:
                counts[letter] -= 1
                right_on(pos, letter, nxt, tiles, start)
                counts[letter] += 1
            if counts[0]:
                counts[0] -= 1
                right_on(pos, letter | BLANK_FLAG, nxt, tiles, start)
                counts[0] += 1

    def right_on(pos: int, tile: int, node: Any, tiles: bytes, start: int) -> None:
        """``tile`` is on square ``pos``: a play when the word ends here, then on rightwards."""
        tiles += TILE_BYTES[tile]
        if (pos + 1 == n or not squares[pos + 1]) and is_word(node):
            out.append((start, tiles))
        if pos + 1 < n:
            go_right(pos + 1, node, tiles, start)

    root = lexicon.gaddag_root()
    for anchor in range(n):
        if anchors[anchor]:
            go_left(anchor, root, b"", anchor, anchor + 1 == n or not squares[anchor + 1])
    return out
