"""What ``lexc play`` tells the person when the referee refuses a play they typed.

The referee's reason stands, with at most one suggestion, and a suggestion is offered only
when the referee, on the same board with the same rack and lexicon, judges it legal:

- a play written from the wrong square (``H9 OE`` where the word starts at H8): the notation's
  ``write H8 (S)OE`` is kept when that play is legal; when it is not, the person is told why
  the play would still be refused instead (``H9 ZZZ`` with no Z: no ``write H8 (S)ZZZ``);
- a play that needs a letter the rack lacks while the rack has a blank for it: the person is
  told to write that letter in lower case, with the play so written when it is legal (the
  best-scoring choice of which of the word's letters the blank stands for), else with the
  reason the play would still be refused.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from typing import Any

from ..alphabet import BLANK_FLAG
from ..board.board import Board
from ..board.notation import THROUGH, PlacementError, Play, PlayError, parse_play
from ..board.referee import Ruling, judge

MAX_BLANK_TRIES = 256  # plays judged to place the blanks (2 blanks in a 15-letter word: 105)


def explain_refusal(board: Board, rack: str, typed: str, reason: str, lexicon: Any) -> str:
    """The refusal of the play ``typed`` (notation) on ``board`` with ``rack``, as the person
    is told it: the referee's ``reason``, its suggestion kept only if that play is legal, and
    the blank's spelling when the rack has a blank for a letter it lacks (see the module)."""
    try:
        play, fault = parse_play(typed, board), ""
    except PlacementError as exc:
        if exc.suggestion is None:
            return reason
        try:
            play = parse_play(exc.suggestion, board)
        except PlayError:  # (the notation's own writing of a play always reads back)
            return str(exc).removesuffix(f": write {exc.suggestion}")
        fault = str(exc).removesuffix(f": write {exc.suggestion}")
    except PlayError:
        return reason
    ruling = judge(board, rack, play, lexicon)
    if ruling.legal:
        return reason  # (only a misplaced play gets here: its "write ..." names a legal play)
    blank = blank_advice(board, rack, play, lexicon)
    if fault:
        return f"{fault}, and {blank}" if blank else f"{fault}, and the play would still be illegal: {ruling.reason}"
    return blank or reason


def blank_advice(board: Board, rack: str, play: Play, lexicon: Any) -> str | None:
    """When ``play`` uses letters the rack lacks and the rack's unused blanks can stand for
    them: how to write them (lower case), with the best legal play so written, or the reason
    the play is refused even then; None otherwise."""
    alphabet = board.ruleset.alphabet
    try:
        letters, blanks = alphabet.parse_rack(rack)
    except ValueError:
        return None
    needed = play.rack_letters()
    held = Counter(letters)
    missing = Counter(c for c in needed if c) - held
    free = blanks - needed.count(0)
    if not missing or sum(missing.values()) > free:
        return None
    labels = [alphabet.label(c) for c in sorted(missing.elements())]
    lacking = " and ".join(f"no {alphabet.label(c)}" if not held[c] else f"only {held[c]} {alphabet.label(c)}"
                           for c in sorted(missing))
    how = (f"to play the blank as {labels[0]}, write it in lower case" if len(labels) == 1
           else f"to play blanks as {' and '.join(labels)}, write them in lower case")
    best, first = _best_with_blanks(board, rack, play, missing, lexicon)
    if best is not None:
        return f"you have {lacking}: {how}: {best.play}"
    still = f", and with the blank{'s' if len(labels) > 1 else ''} the play is still illegal: {first.reason}" \
        if first is not None else ""
    return f"you have {lacking} ({how}){still}"


def _best_with_blanks(board: Board, rack: str, play: Play, missing: Counter[int],
                      lexicon: Any) -> tuple[Ruling | None, Ruling | None]:
    """The highest-scoring legal ruling among the ways to make blanks of the ``missing``
    letters the play places (the first such way on a tie), and the ruling of the first way
    (None if there is no way within ``MAX_BLANK_TRIES``)."""
    where = {c: [i for i, t in enumerate(play.tiles) if t != THROUGH and t == c] for c in missing}
    choices = [combinations(where[c], missing[c]) for c in sorted(missing)]
    best: Ruling | None = None
    first: Ruling | None = None
    for n, pick in enumerate(product(*choices)):
        if n == MAX_BLANK_TRIES:
            break
        tiles = bytearray(play.tiles)
        for i in (i for group in pick for i in group):
            tiles[i] |= BLANK_FLAG
        ruling = judge(board, rack, Play(play.row, play.col, play.down, bytes(tiles)), lexicon)
        first = first or ruling
        if ruling.legal and (best is None or (ruling.score or 0) > (best.score or 0)):
            best = ruling
    return best, first
