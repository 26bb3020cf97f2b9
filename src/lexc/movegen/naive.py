"""Norvig's anchor-and-prefix method ("naive"): it asks the lexicon only membership and
is-prefix, so it runs on every format.

For each anchor, the part of the word before it is either the board's tiles just left of the
anchor, or a prefix made from the rack over the empty squares that are not anchors (no
cross-check constrains them); then the word is extended rightwards through the anchor,
letter by letter while it is still a prefix of some word, recording it whenever it is a
word that ends on an empty square or the edge (Norvig 2015, "all_plays").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..alphabet import BLANK_FLAG, UNBLANK
from ..board.notation import THROUGH
from .lanes import Lane
from .rack import Rack

NAME = "naive"


def applicable(lexicon: Any) -> bool:
    """Every format answers membership and is-prefix."""
    return True


def lane_plays(lane: Lane, rack: Rack, lexicon: Any) -> Iterator[tuple[int, bytes]]:
    """(start, tiles) of every play in the lane: tiles has THROUGH on board squares."""
    squares, n = lane.squares, len(lane.squares)
    is_prefix, is_word = lexicon.is_prefix_codes, lexicon.contains_codes

    def extend_right(word: bytes, tiles: bytes, start: int, pos: int, anchor: int) -> Iterator[tuple[int, bytes]]:
        if pos == n or not squares[pos]:
            if pos > anchor and len(word) > 1 and is_word(word):
                yield start, tiles
            if pos == n:
                return
        if squares[pos]:
            longer = word + bytes((squares[pos] & ~BLANK_FLAG,))
            if is_prefix(longer):
                yield from extend_right(longer, tiles + bytes((THROUGH,)), start, pos + 1, anchor)
            return
        allowed = lane.checks[pos]
        for letter, tile in rack.tiles(allowed):
            longer = word + bytes((letter,))
            if is_prefix(longer):
                rack.take(tile)
                yield from extend_right(longer, tiles + bytes((tile,)), start, pos + 1, anchor)
                rack.put_back(tile)

    def prefixes(word: bytes, tiles: bytes, limit: int) -> Iterator[tuple[bytes, bytes]]:
        yield word, tiles
        if len(word) < limit:
            for letter, tile in rack.tiles():
                longer = word + bytes((letter,))
                if is_prefix(longer):
                    rack.take(tile)
                    yield from prefixes(longer, tiles + bytes((tile,)), limit)
                    rack.put_back(tile)

    for anchor, start, limit in lane.left_parts():
        if start < anchor:  # the board's tiles before the anchor
            word = squares[start:anchor].translate(UNBLANK)
            if is_prefix(word):
                yield from extend_right(word, bytes(anchor - start), start, anchor, anchor)
            continue
        for word, tiles in prefixes(b"", b"", limit):  # (lazily: the rack lacks the prefix meanwhile)
            yield from extend_right(word, tiles, anchor - len(word), anchor, anchor)
