"""Shapiro & Smith's place-then-look-up method (1977) over the canonical anagram trie.

The 1977 program did not walk the board letter by letter: it asked the lexicon manager for
the words that can be made from the rack *and* the letters already on the board where a play
would go (``findwords2``, the board letters required), then kept the words that fit. Here a
*window* is a stretch of a lane a word could fill: it covers at least one anchor, holds at
most a rackful of empty squares, and has an empty square or the edge on either side. Windows
that hold the same board letters share one findwords2 search (and windows in every lane
with the same board letters share it too, through the rack's memo), whose words are sorted
by length; a word is a play in a window of its length when its letters match the window's
board letters square by square and every other letter passes its square's cross-check.
Each such word is then placed in every way the rack allows: a natural tile or a blank for
each letter, as the play set's convention counts them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..alphabet import BLANK_FLAG
from ..board.notation import THROUGH
from ..formats.base import Capability
from .crosschecks import ANY
from .lanes import Lane
from .rack import TILE_BYTES, Rack

NAME = "shapiro-smith"
THROUGH_BYTE = TILE_BYTES[THROUGH]


def applicable(lexicon: Any) -> bool:
    """Needs the anagram index (findwords2 with required letters)."""
    return Capability.ANAGRAM_INDEX in lexicon.capabilities


def windows(lane: Lane, most: int) -> dict[tuple[int, ...], list[tuple[int, int]]]:
    """The lane's windows (start, end), grouped by their board letters in sorted order:
    each covers an anchor, holds 1..``most`` empty squares and is bounded by empty squares
    or the edges."""
    squares, anchors, n = lane.squares, lane.anchors, len(lane.squares)
    out: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for start in range(n):
        if start and squares[start - 1]:
            continue
        empties, anchored, board = 0, False, []
        for end in range(start, n):
            if squares[end]:
                board.append(squares[end] & ~BLANK_FLAG)
            else:
                empties += 1
                if empties > most:
                    break
                anchored = anchored or anchors[end]
            if end + 1 < n and squares[end + 1]:
                continue  # a word cannot stop just before a tile
            if anchored and end > start:
                out.setdefault(tuple(sorted(board)), []).append((start, end + 1))
    return out


def lane_plays(lane: Lane, rack: Rack, lexicon: Any) -> Iterator[tuple[int, bytes]]:
    """(start, tiles) of every play in the lane: tiles has THROUGH on board squares."""
    counts = rack.counts
    letters = [code for code in range(1, len(counts)) for _ in range(counts[code])]
    for required, spans in windows(lane, sum(counts)).items():
        by_length = rack.memo.get(required)
        if by_length is None:
            by_length = rack.memo[required] = _by_length(lexicon.words_using(letters, counts[0], required))
        for start, end in spans:
            words = by_length.get(end - start)
            if not words:
                continue
            board, crossed = _constraints(lane, start, end)
            for word in words:
                if _fits(word, board, crossed):
                    for tiles in _placements(lane.squares, start, word, counts, board):
                        yield start, tiles


def _by_length(words: Iterator[bytes]) -> dict[int, list[bytes]]:
    """Words grouped by length."""
    out: dict[int, list[bytes]] = {}
    for word in words:
        out.setdefault(len(word), []).append(word)
    return out


def _constraints(lane: Lane, start: int, end: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """What a word must meet to fill the window ``start``..``end``: (offset, letter) of each
    board tile in it, and (offset, cross-check) of each empty square whose cross-check is
    not ANY (a square with no tile beside it takes any letter)."""
    squares, checks = lane.squares, lane.checks
    board, crossed = [], []
    for offset, square in enumerate(squares[start:end]):
        if square:
            board.append((offset, square & ~BLANK_FLAG))
        elif checks[start + offset] != ANY:
            crossed.append((offset, checks[start + offset]))
    return board, crossed


def _fits(word: bytes, board: list[tuple[int, int]], crossed: list[tuple[int, int]]) -> bool:
    """Whether the word has the window's board letters on their squares (``board``) and
    passes the cross-check of its other squares (``crossed``; see ``_constraints``)."""
    for offset, letter in board:
        if word[offset] != letter:
            return False
    for offset, allowed in crossed:  # noqa: SIM110 (a loop: all() over a generator is slower on this hot path)
        if not allowed >> word[offset] & 1:
            return False
    return True


def _placements(squares: bytes, start: int, word: bytes, counts: list[int],
                board: list[tuple[int, int]]) -> list[bytes]:
    """Every way to lay the word's new letters from the rack: a natural tile or a blank for
    each (THROUGH on the board's squares, at the ``board`` offsets). findwords2's words use
    the window's board letters and the rack's, so without a blank on the rack there is one
    way: a natural tile for each new letter."""
    if not counts[0]:
        tiles = bytearray(word)
        for offset, _ in board:
            tiles[offset] = THROUGH
        return [bytes(tiles)]
    left = list(counts)
    out: list[bytes] = []

    def place(i: int, tiles: bytes) -> None:
        while i < len(word) and squares[start + i]:  # the board's tiles
            tiles += THROUGH_BYTE
            i += 1
        if i == len(word):
            out.append(tiles)
            return
        letter = word[i]
        if left[letter]:  # a natural tile, then a blank
            left[letter] -= 1
            place(i + 1, tiles + TILE_BYTES[letter])
            left[letter] += 1
        if left[0]:
            left[0] -= 1
            place(i + 1, tiles + TILE_BYTES[letter | BLANK_FLAG])
            left[0] += 1

    place(0, b"")
    return out
