"""Appel & Jacobson's algorithm (1988) over the trie primitives: LeftPart and ExtendRight.

For each anchor, LeftPart builds every left part from the rack over the empty non-anchor
squares before it, walking the trie (DAWG) as it goes, so only prefixes of words are ever
tried; when the square before the anchor holds tiles, the left part is those tiles.
ExtendRight then walks on from the left part's node through the anchor: on an empty square
it tries each child whose letter the rack holds (or a blank) and the square's cross-check
allows; on an occupied square it follows that letter's edge; a terminal node reached on an
empty square (or at the edge) past the anchor is a play. Cross-checks are letter bitmasks
computed once per position (``crosssets``). LeftPart walks the same left parts again for
every anchor, so the children a node offers the rack are looked up once per position and
remembered (``Rack.children_in``; once the rack's blanks are down, only those for its own
letters): the cross-checks only filter them.
"""

from __future__ import annotations

from typing import Any

from ..alphabet import BLANK_FLAG, UNBLANK
from ..board.notation import THROUGH
from ..formats.base import Capability
from .lanes import Lane
from .rack import TILE_BYTES, Rack

NAME = "appel-jacobson"
THROUGH_BYTE = TILE_BYTES[THROUGH]


def applicable(lexicon: Any) -> bool:
    """Needs the trie primitives (root, child, children, is_word)."""
    return Capability.TRIE in lexicon.capabilities


def lane_plays(lane: Lane, rack: Rack, lexicon: Any) -> list[tuple[int, bytes]]:
    """(start, tiles) of every play in the lane: tiles has THROUGH on board squares."""
    squares, checks, n = lane.squares, lane.checks, len(lane.squares)
    letters = squares.translate(UNBLANK)  # the board's letters, blank or not
    child, is_word = lexicon.child, lexicon.is_word
    counts = rack.counts
    out: list[tuple[int, bytes]] = []
    rack_children = rack.children_in(lexicon)  # node -> its children whose letter the rack holds
    own_children = rack.children_in(lexicon, blanks=False)  # ... once the blanks are down

    def extend_right(node: Any, tiles: bytes, pos: int, anchor: int) -> None:
        # tiles: the play so far, on the squares before pos (it starts at pos - len(tiles))
        while pos < n and squares[pos]:  # a tile on the board: follow its letter
            node = child(node, letters[pos])
            if node is None:
                return
            tiles += THROUGH_BYTE
            pos += 1
        if pos > anchor and len(tiles) > 1 and is_word(node):
            out.append((pos - len(tiles), tiles))
        if pos == n:
            return
        allowed = checks[pos]
        for letter, nxt in (rack_children if counts[0] else own_children)[node]:
            if not allowed >> letter & 1:
                continue
            if counts[letter]:  # the rack's own tile, then a blank as the letter
                counts[letter] -= 1
                extend_right(nxt, tiles + TILE_BYTES[letter], pos + 1, anchor)
                counts[letter] += 1
            if counts[0]:
                counts[0] -= 1
                extend_right(nxt, tiles + TILE_BYTES[letter | BLANK_FLAG], pos + 1, anchor)
                counts[0] += 1

    def left_part(node: Any, tiles: bytes, limit: int, anchor: int) -> None:
        extend_right(node, tiles, anchor, anchor)
        if not limit:
            return
        for letter, nxt in (rack_children if counts[0] else own_children)[node]:
            if counts[letter]:
                counts[letter] -= 1
                left_part(nxt, tiles + TILE_BYTES[letter], limit - 1, anchor)
                counts[letter] += 1
            if counts[0]:
                counts[0] -= 1
                left_part(nxt, tiles + TILE_BYTES[letter | BLANK_FLAG], limit - 1, anchor)
                counts[0] += 1

    root = lexicon.root()
    for anchor, start, limit in lane.left_parts():
        if start < anchor:  # the left part is on the board
            node = lexicon.walk(letters[start:anchor])
            if node is not None:
                extend_right(node, bytes(anchor - start), anchor, anchor)
            continue
        left_part(root, b"", limit, anchor)
    return out
