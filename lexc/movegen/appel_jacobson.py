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
remembered (``rack.memo``): the cross-checks only filter them.
"""

from __future__ import annotations

from typing import Any

from ..alphabet import BLANK_FLAG, UNBLANK
from ..formats.base import Capability
from ..board.notation import THROUGH
from .lanes import Lane
from .rack import Rack

NAME = "appel-jacobson"


def applicable(lexicon: Any) -> bool:
    """Needs the trie primitives (root, child, children, is_word)."""
    return Capability.TRIE in lexicon.capabilities


def lane_plays(lane: Lane, rack: Rack, lexicon: Any) -> list[tuple[int, bytes]]:
    """(start, tiles) of every play in the lane: tiles has THROUGH on board squares."""
    squares, checks, n = lane.squares, lane.checks, len(lane.squares)
    child, is_word = lexicon.child, lexicon.is_word
    counts = rack.counts
    out: list[tuple[int, bytes]] = []
    usable_children = rack.children_in(lexicon)

    def extend_right(node: Any, tiles: bytes, start: int, pos: int, anchor: int) -> None:
        if pos < n and squares[pos]:
            nxt = child(node, squares[pos] & ~BLANK_FLAG)
            if nxt is not None:
                extend_right(nxt, tiles + bytes((THROUGH,)), start, pos + 1, anchor)
            return
        if pos > anchor and len(tiles) > 1 and is_word(node):
            out.append((start, tiles))
        if pos == n:
            return
        allowed = checks[pos]
        for letter, nxt in usable_children(node):
            if not allowed >> letter & 1:
                continue
            for tile in _tiles_for(letter, counts):
                counts[0 if tile & BLANK_FLAG else tile] -= 1
                extend_right(nxt, tiles + bytes((tile,)), start, pos + 1, anchor)
                counts[0 if tile & BLANK_FLAG else tile] += 1

    def left_part(node: Any, tiles: bytes, limit: int, anchor: int) -> None:
        extend_right(node, tiles, anchor - len(tiles), anchor, anchor)
        if limit:
            for letter, nxt in usable_children(node):
                for tile in _tiles_for(letter, counts):
                    counts[0 if tile & BLANK_FLAG else tile] -= 1
                    left_part(nxt, tiles + bytes((tile,)), limit - 1, anchor)
                    counts[0 if tile & BLANK_FLAG else tile] += 1

    root = lexicon.root()
    for anchor, start, limit in lane.left_parts():
        if start < anchor:  # the left part is on the board
            node = lexicon.walk(squares[start:anchor].translate(UNBLANK))
            if node is not None:
                extend_right(node, bytes(anchor - start), start, anchor, anchor)
            continue
        left_part(root, b"", limit, anchor)
    return out


def _tiles_for(letter: int, counts: list[int]) -> tuple[int, ...]:
    """The rack's tiles that can stand for ``letter``: the letter itself, and a blank."""
    if counts[letter]:
        return (letter, letter | BLANK_FLAG) if counts[0] else (letter,)
    return (letter | BLANK_FLAG,) if counts[0] else ()
