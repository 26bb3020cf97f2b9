"""Scoring: one pure function shared by the move generators and the referee.

The play's main word and every cross word it forms (the perpendicular word through a newly
placed tile, when it is at least two letters long) each score the sum of their letters'
values, a newly placed tile's value multiplied by its square's letter premium, then the
product of the word premiums under the newly placed tiles; premiums under tiles already on
the board count no more; a blank scores 0. A play using the whole rack (``rack_size``
tiles) earns the ruleset's bingo bonus. Nothing here looks at a lexicon.

The one scoring function is ``LaneScoring.score``: a lane's premiums and cross-sums are
computed once (``lane_scoring``), and a play in the lane is then scored in one pass over its
tiles. The move generators use it lane by lane; ``score`` builds the lane for one play, for
the referee. ``words_formed`` lists the words a play forms (for the referee to judge).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ruleset import Ruleset
from .board import Board
from .notation import THROUGH, Play


@dataclass(frozen=True)
class FormedWord:
    """A word a play forms: where it starts, its direction, its tile codes (BLANK_FLAG on
    blanks) and which of its squares the play filled."""

    row: int
    col: int
    down: bool
    codes: bytes
    new: tuple[bool, ...]


def words_formed(board: Board, play: Play) -> list[FormedWord]:
    """The main word (the whole run of tiles along the play's line) and then the cross
    words of the placed tiles in order, each at least two letters long. The main word is
    listed even when it is one letter (a lone tile), so the caller can tell."""
    placed = play.placed()
    out = [_main_word(board, play, placed)]
    for r, c, code in placed:
        cross = _cross_word(board, r, c, code, not play.down)
        if cross is not None:
            out.append(cross)
    return out


def tile_run(line: bytes | bytearray, start: int, end: int) -> tuple[int, int]:
    """(start, end) of the whole run of tiles on ``line`` around the squares ``start``..``end``
    (end excluded): widened while the square before it, or after it, holds a tile."""
    while start and line[start - 1]:
        start -= 1
    while end < len(line) and line[end]:
        end += 1
    return start, end


def _main_word(board: Board, play: Play, placed: list[tuple[int, int, int]]) -> FormedWord:
    """The maximal run of tiles through the play's first square along its line, with the
    placed tiles laid on it (new where their square was empty)."""
    down = play.down
    index, pos = (play.col, play.row) if down else (play.row, play.col)
    line = bytearray(board.line(index, down))
    new = set()
    for r, c, code in placed:  # every placed tile is on the play's line
        i = r if down else c
        if not line[i]:
            new.add(i)
        line[i] = code
    start, end = tile_run(line, pos, pos + 1)
    return FormedWord(start if down else index, index if down else start, down, bytes(line[start:end]),
                      tuple(i in new for i in range(start, end)))


def _cross_word(board: Board, row: int, col: int, code: int, down: bool) -> FormedWord | None:
    """The word a tile placed at (row, col) forms with the board's tiles along ``down`` (the
    direction across the play), or None when it has no tile beside it that way."""
    index, pos = (col, row) if down else (row, col)
    line = board.line(index, down)
    start, end = tile_run(line, pos, pos + 1)
    if end - start == 1:
        return None
    new = not line[pos]
    return FormedWord(start if down else index, index if down else start, down,
                      line[start:pos] + bytes((code,)) + line[pos + 1 : end],
                      tuple(i == pos and new for i in range(start, end)))


@dataclass(frozen=True)
class LaneScoring:
    """What scoring needs to know about one lane (a row for plays across, a column for plays
    down), computed once so that a play in it scores in one pass over its tiles (Appel &
    Jacobson's cross-sums): each square's letter and word premium, and for an empty square
    the sum of the values of the tiles in line with it across the lane (the cross word's
    existing letters), or -1 when there are none."""

    squares: bytes
    values: tuple[int, ...]  # by board code: letter values, 0 for blank-marked codes (Ruleset.tile_values)
    letter_mult: tuple[int, ...]
    word_mult: tuple[int, ...]
    cross: tuple[int, ...]
    rack_size: int
    bingo_bonus: int

    def score(self, start: int, tiles: bytes) -> int:
        """The score of the play ``tiles`` (THROUGH on the lane's tiles) from ``start``: the
        main word (the caller makes it the whole run of tiles; a lone letter is no word and
        scores nothing), each cross word in full, and the bingo bonus when a whole rack is
        played."""
        values, squares, cross = self.values, self.squares, self.cross
        letter_mult, word_mults = self.letter_mult, self.word_mult
        main = crossed = placed = 0
        factor = 1
        for i, tile in enumerate(tiles, start):
            if tile == THROUGH:
                main += values[squares[i]]
                continue
            placed += 1
            value = values[tile] * letter_mult[i]
            main += value
            word_mult = word_mults[i]
            factor *= word_mult
            if cross[i] >= 0:
                crossed += (cross[i] + value) * word_mult
        total = main * factor + crossed if len(tiles) > 1 else crossed  # one letter is no word
        return total + self.bingo_bonus if placed == self.rack_size else total


def lane_scoring(board: Board, index: int, down: bool, ruleset: Ruleset | None = None) -> LaneScoring:
    """The premiums and cross-sums of row ``index`` (or column, when ``down``); a board
    remembers its own (it never changes), so the referee judging many plays on one board
    computes each lane once."""
    if ruleset is None or ruleset is board.ruleset:
        kept = board._lanes.get((index, down))
        if kept is None:
            kept = board._lanes[index, down] = _lane_scoring(board, index, down, board.ruleset)
        return kept
    return _lane_scoring(board, index, down, ruleset)


def _lane_scoring(board: Board, index: int, down: bool, ruleset: Ruleset) -> LaneScoring:
    """``lane_scoring``, computed."""
    n = board.size
    values = ruleset.tile_values
    squares = board.line(index, down)
    premiums = [ruleset.premiums[i][index] if down else ruleset.premiums[index][i] for i in range(n)]
    cross = []
    for i in range(n):
        total, found = 0, False
        if not squares[i]:
            for step in (-1, 1):
                j = index + step
                while 0 <= j < n:
                    code = board.at(i, j) if down else board.at(j, i)
                    if not code:
                        break
                    total, found, j = total + values[code], True, j + step
        cross.append(total if found else -1)
    return LaneScoring(squares, values, tuple(p[0] for p in premiums), tuple(p[1] for p in premiums), tuple(cross),
                       ruleset.rack_size, ruleset.bingo_bonus)


def score(board: Board, play: Play, ruleset: Ruleset | None = None) -> int:
    """The score of a play (assumed placeable: its tiles on empty squares, in one line):
    the main word (the whole run of tiles along the play's line, even where the play's
    tiles stop short of the board's), the cross words, and the bingo bonus."""
    lane = lane_scoring(board, play.col if play.down else play.row, play.down, ruleset)
    squares = lane.squares
    start = play.row if play.down else play.col
    end = start + len(play.tiles)
    first = start
    while first and squares[first - 1]:
        first -= 1
    last = end
    while last < len(squares) and squares[last]:
        last += 1
    return lane.score(first, bytes(start - first) + play.tiles + bytes(last - end))
