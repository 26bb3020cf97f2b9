"""The referee: is a play legal on this board with this rack and lexicon, what words does it
form, what does it score, and if it is illegal, why; and is an exchange or a pass legal.

It shares nothing with move generation but ``scoring``: the geometry is checked square by
square from the tiles placed, and every word formed is looked up in the lexicon. Notation
is read by ``play.parse_play`` (MAGPIE's strict rule: the coordinate is the whole word's
first square and the notation spells the whole word); GCG's ``-ABC`` is an exchange, legal
when the rack holds the tiles and the bag at least a rack's worth, and ``-`` a pass, always
legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..alphabet import BLANK_FLAG, UNBLANK, Alphabet
from ..plural import plural
from ..wordlist import excerpt
from .board import Board, overdrawn, square_name, unseen
from .notation import MAX_NOTATION, THROUGH, PlacementError, Play, PlayError, parse_play
from .scoring import score, tile_run, words_formed


@dataclass(frozen=True)
class Ruling:
    """The referee's answer. ``words`` are (word, valid) for every word formed, main word
    first; ``score`` is set for a legal play and for one whose only fault is invalid words
    (what it would have scored, as a challenged phony); ``play`` is the canonical notation."""

    legal: bool
    reason: str | None = None
    play: str | None = None
    words: tuple[tuple[str, bool], ...] = ()
    score: int | None = None
    tiles_played: int = 0
    leave: str | None = None
    invalid_words: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {"legal": self.legal, "reason": self.reason, "play": self.play,
                "words": [{"word": w, "valid": v} for w, v in self.words], "invalid_words": list(self.invalid_words),
                "score": self.score, "tiles_played": self.tiles_played, "leave": self.leave}


def judge(board: Board, rack: str, play: str | Play, lexicon: Any, opponent: str | None = None) -> Ruling:
    """Judge a play given in notation (or as a Play) on ``board`` with ``rack``, or an
    exchange (``-ABC``) or a pass (``-``) in GCG notation. ``opponent`` is the other
    player's rack when it is known (it sets the bag an exchange needs; unknown or empty,
    the opponent is taken to hold a full rack). Notation that cannot be read raises
    PlayError; one that does not fit the board is an illegal play."""
    if isinstance(play, str) and len(play) > MAX_NOTATION:
        raise PlayError(f"a play of {len(play):,} characters; at most {MAX_NOTATION}")
    if isinstance(play, str) and play.strip().startswith("-"):
        return judge_exchange(board, rack, play.strip()[1:], opponent)
    if isinstance(play, str):
        try:
            play = parse_play(play, board)
        except PlacementError as exc:
            return Ruling(False, str(exc))
    n, length = board.size, len(play.tiles)
    last_row, last_col = (play.row + length - 1, play.col) if play.down else (play.row, play.col + length - 1)
    if not (0 <= play.row < n and 0 <= play.col < n and last_row < n and last_col < n):
        for r, c, _ in play.squares():  # the first square off the board
            if not (0 <= r < n and 0 <= c < n):
                return Ruling(False, f"off the board at {square_name(min(r, n - 1), min(c, n - 1))}")
    return judge_tiles(board, rack, play.placed(), lexicon)


def judge_tiles(board: Board, rack: str, placed: list[tuple[int, int, int]], lexicon: Any) -> Ruling:
    """Judge a placement given as (row, col, code) tiles (BLANK_FLAG on blanks)."""
    alphabet, n = board.ruleset.alphabet, board.size
    if not placed:
        return Ruling(False, "no tile placed")
    for r, c, _code in placed:
        if not (0 <= r < n and 0 <= c < n):
            return Ruling(False, f"off the board at row {r + 1}, column {c + 1}")
        if board.at(r, c):
            return Ruling(False, f"square occupied: {square_name(r, c)} holds {alphabet.label(board.at(r, c))}")
    if len(placed) > 1 and len({(r, c) for r, c, _ in placed}) != len(placed):
        return Ruling(False, "two tiles on one square")
    leave = _take_from_rack(rack, [0 if code & BLANK_FLAG else code for _, _, code in placed], board)
    if isinstance(leave, Ruling):
        return leave
    play = _as_play(board, placed)
    if isinstance(play, Ruling):
        return play
    formed = words_formed(board, play)
    if board.is_empty():
        if not any((r, c) == board.ruleset.start for r, c, _ in placed):
            return Ruling(False, f"the first play must cover the start square {square_name(*board.ruleset.start)}")
    elif len(formed) == 1 and all(formed[0].new):  # no cross word, no board tile in the main word
        return Ruling(False, "not connected to the tiles on the board")
    if len(formed[0].codes) < 2:
        return Ruling(False, "a play must form a word of at least two letters")
    words = tuple([(alphabet.decode(w.codes), lexicon.contains_codes(w.codes.translate(UNBLANK)))
                   for w in formed if len(w.codes) > 1])
    invalid = tuple([w for w, ok in words if not ok])
    points = score(board, play)
    notation = play.notation(board)
    if invalid:
        return Ruling(False, f"invalid {'word' if len(invalid) == 1 else 'words'}: {', '.join(invalid)}", notation,
                      words, points, len(placed), leave, invalid)
    return Ruling(True, None, notation, words, points, len(placed), leave)


def judge_exchange(board: Board, rack: str, tiles: str, opponent: str | None = None) -> Ruling:
    """Judge an exchange of ``tiles`` (a rack text; ``''`` is a pass, always legal; digits
    alone, GCG's ``-3``, exchange that many unnamed tiles). Legal when the rack holds the
    tiles and the bag holds at least a rack's worth (``rack_size``): the bag is what the
    board and both racks leave unseen, with a full rack for the opponent when ``opponent``
    is unknown (None or empty). PlayError when ``tiles`` is not a rack text."""
    alphabet, need = board.ruleset.alphabet, board.ruleset.rack_size
    if tiles.strip() != tiles or tiles.startswith("-"):
        raise PlayError(f"{excerpt('-' + tiles)} is not a move (a play '8H WORD', an exchange '-ABC' or a pass '-')")
    held = _rack_codes(rack, board)
    if isinstance(held, Ruling):
        return held
    if not tiles:
        return Ruling(True, None, "-", (), 0, 0, alphabet.rack_text(sorted(c for c in held if c), held.count(0)))
    if tiles.isascii() and tiles.isdigit():
        count = int(tiles) if len(tiles) <= 4 else 10**4
        if not 0 < count <= len(held):
            return Ruling(False, f"cannot exchange {plural(count, 'tile')}: the rack holds {len(held)}")
        codes, notation = None, f"-{count}"
    else:
        try:
            letters, blanks = alphabet.parse_rack(tiles)
        except ValueError as exc:
            raise PlayError(f"exchange {excerpt('-' + tiles)}: {exc}") from None
        codes = sorted(letters) + [0] * blanks
        count, notation = len(codes), "-" + alphabet.rack_text(sorted(letters), blanks)
    leave = _take_from_rack(rack, codes, board) if codes is not None else None
    if isinstance(leave, Ruling):
        return leave
    left = unseen(board, rack, opponent) if opponent else unseen(board, rack)
    short = overdrawn(left, alphabet)
    if short:
        return Ruling(False, f"the board and the racks hold more tiles than the set has: {short}", notation)
    bag = sum(left.values()) - (0 if opponent else need)
    if bag < need:
        return Ruling(False, f"no exchange with {plural(max(bag, 0), 'tile')} in the bag (it takes at least "
                             f"{need})", notation)
    return Ruling(True, None, notation, (), 0, count, leave)


def _rack_codes(rack: str, board: Board) -> list[int] | Ruling:
    """The rack's tiles as codes (0 a blank), or a Ruling saying why the rack cannot be."""
    try:
        letters, blanks = _parsed_rack(board.ruleset.alphabet, rack)
    except ValueError as exc:
        return Ruling(False, f"rack {rack!r}: {exc}")
    if len(letters) + blanks > board.ruleset.rack_size:
        return Ruling(False, f"rack {rack!r} has {plural(len(letters) + blanks, 'tile')}; the {board.ruleset.name} "
                             f"rack holds {board.ruleset.rack_size}")
    return list(letters) + [0] * blanks


@lru_cache(maxsize=64)
def _parsed_rack(alphabet: Alphabet, rack: str) -> tuple[tuple[int, ...], int]:
    """``alphabet.parse_rack(rack)`` (the letters as a tuple), remembered: the referee judges
    many plays from one rack."""
    letters, blanks = alphabet.parse_rack(rack)
    return tuple(letters), blanks


def _take_from_rack(rack: str, codes: list[int], board: Board) -> str | Ruling:
    """The leave after taking tiles (letter codes, 0 a blank) from the rack, or a Ruling
    saying which tile the rack lacks."""
    alphabet = board.ruleset.alphabet
    held = _rack_codes(rack, board)
    if isinstance(held, Ruling):
        return held
    left = sorted(held)
    for need in codes:
        if need not in left:
            what = "a blank" if need == 0 else alphabet.label(need)
            return Ruling(False, f"tile not on the rack: {what} ({f'rack {rack}' if rack else 'the rack is empty'})")
        left.remove(need)
    return alphabet.rack_text([c for c in left if c], left.count(0))


def _as_play(board: Board, placed: list[tuple[int, int, int]]) -> Play | Ruling:
    """The canonical Play of tiles in one line with no gap: the whole word's extent, a
    single tile across when it forms an across word (else down)."""
    rows = {r for r, _, _ in placed}
    cols = {c for _, c, _ in placed}
    if len(rows) > 1 and len(cols) > 1:
        return Ruling(False, "the tiles are not in one line")
    if len(placed) == 1:
        r, c, _ = placed[0]
        row = board.rows[r]
        down = not ((c > 0 and row[c - 1]) or (c + 1 < board.size and row[c + 1]))
    else:
        down = len(cols) == 1
    index = next(iter(cols if down else rows))  # the play's column, or its row
    line = board.line(index, down)
    tiles = {r if down else c: code for r, c, code in placed}  # by square along the line
    first, last = min(tiles), max(tiles)
    for i in range(first + 1, last):  # every square between the first and last tile is filled
        if i not in tiles and not line[i]:
            return Ruling(False, f"the play leaves a gap at {square_name(i, index) if down else square_name(index, i)}")
    start, end = tile_run(line, first, last + 1)
    codes = bytes([tiles.get(i, THROUGH) for i in range(start, end)])
    return Play(start, index, True, codes) if down else Play(index, start, False, codes)
