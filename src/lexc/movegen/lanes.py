"""Lanes: each row (for plays across) and each column (for plays down) as a 1-D line of
squares with its cross-checks and anchors, so that every strategy is written once, for
one direction (wolges's word)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..board.board import Board
from .crosschecks import anchors, cross_checks


@dataclass(frozen=True)
class Lane:
    """One line of the board: ``index`` (the row, or the column when ``down``), its squares
    (0 empty, else a tile code), each empty square's cross-check mask and anchor flag."""

    index: int
    down: bool
    squares: bytes
    checks: tuple[int, ...]
    anchors: tuple[bool, ...]

    def has_anchor(self) -> bool:
        """Whether a play can be made in this lane."""
        return any(self.anchors)

    def left_parts(self) -> Iterator[tuple[int, int, int]]:
        """(anchor, start, limit) for each anchor, the way Appel & Jacobson split a play at
        its leftmost anchor: when tiles lie just before the anchor, the left part is that run
        of tiles from ``start`` (``limit`` 0); else ``start`` is the anchor and up to
        ``limit`` rack tiles may go before it, on the empty squares back to the previous
        anchor (none of them has a cross-check, or it would be an anchor)."""
        squares, anchors = self.squares, self.anchors
        for anchor, is_anchor in enumerate(anchors):
            if not is_anchor:
                continue
            if anchor and squares[anchor - 1]:
                start = anchor - 1
                while start and squares[start - 1]:
                    start -= 1
                yield anchor, start, 0
                continue
            limit = 0
            while anchor - limit > 0 and not squares[anchor - limit - 1] and not anchors[anchor - limit - 1]:
                limit += 1
            yield anchor, anchor, limit


def lanes(board: Board, lexicon: Any) -> Iterator[Lane]:
    """Every row (across) then every column (down) that holds an anchor."""
    marks = anchors(board)
    searched: dict[bytes, list[bytes]] = {}  # the cross-checks' anagram searches, shared by both directions
    for down, grid in ((False, board), (True, board.transposed())):
        checks = cross_checks(grid, lexicon, searched)
        flags = marks if not down else [list(col) for col in zip(*marks, strict=True)]
        for i in range(board.size):
            lane = Lane(i, down, grid.line(i, down=False), tuple(checks[i]), tuple(flags[i]))
            if lane.has_anchor():
                yield lane
