"""Scoring: one pure function shared by the move generators and the referee.

The play's main word and every cross word it forms (the perpendicular word through a newly
placed tile, when it is at least two letters long) each score the sum of their letters'
values, a newly placed tile's value multiplied by its square's letter premium, then the
product of the word premiums under the newly placed tiles; premiums under tiles already on
the board count no more; a blank scores 0. A play using the whole rack (``rack_size``
tiles) earns the ruleset's bingo bonus. Nothing here looks at a lexicon.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .play import THROUGH, Play
from .ruleset import Ruleset


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
    placed = {(r, c): code for r, c, code in play.placed()}
    main = _run(board, placed, play.row, play.col, play.down)
    out = [main]
    for r, c, _ in play.placed():
        cross = _run(board, placed, r, c, not play.down, only=(r, c))
        if len(cross.codes) > 1:
            out.append(cross)
    return out


def _run(board: Board, placed: dict, row: int, col: int, down: bool, only: tuple[int, int] | None = None) -> FormedWord:
    """The maximal run of tiles through (row, col) along a direction, with the placed
    tiles (all of them, or ``only`` one for a cross word) counted as new."""
    dr, dc = (1, 0) if down else (0, 1)
    n = board.size

    def tile(r: int, c: int) -> int:
        if not (0 <= r < n and 0 <= c < n):
            return 0
        if only is None or (r, c) == only:
            return placed.get((r, c)) or board.at(r, c)
        return board.at(r, c)

    r, c = row, col
    while tile(r - dr, c - dc):
        r, c = r - dr, c - dc
    start = (r, c)
    codes, new = [], []
    while tile(r, c):
        codes.append(tile(r, c))
        new.append((r, c) in placed and (only is None or (r, c) == only) and not board.at(r, c))
        r, c = r + dr, c + dc
    return FormedWord(start[0], start[1], down, bytes(codes), tuple(new))


def word_score(word: FormedWord, ruleset: Ruleset) -> int:
    """One formed word's score: letter values with the letter premiums of new tiles, times
    the word premiums of new tiles."""
    total, factor = 0, 1
    dr, dc = (1, 0) if word.down else (0, 1)
    for i, (code, new) in enumerate(zip(word.codes, word.new)):
        value = ruleset.value(code)
        if new:
            letter_mult, word_mult = ruleset.premiums[word.row + dr * i][word.col + dc * i]
            value *= letter_mult
            factor *= word_mult
        total += value
    return total * factor


def score(board: Board, play: Play, ruleset: Ruleset | None = None) -> int:
    """The score of a play (assumed placeable: its tiles on empty squares, in one line):
    the main word, the cross words, and the bingo bonus."""
    ruleset = ruleset or board.ruleset
    words = words_formed(board, play)
    total = sum(word_score(w, ruleset) for w in words if len(w.codes) > 1)
    if sum(1 for code in play.tiles if code != THROUGH) == ruleset.rack_size:
        total += ruleset.bingo_bonus
    return total
