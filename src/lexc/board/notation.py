"""A play (a placement of tiles in one line) and its standard notation.

``8H WORD`` is across (row number first), ``H8 WORD`` down (column letter first); the
coordinate is the square of the whole word's first letter; every letter of the word is
written, the letters already on the board in parentheses (one pair per run:
``10B (QUOIN)s``, ``G7 R(EF)``); a blank is lower case; a multi-character tile is written
in brackets (``[CH]``).

On input the rule is MAGPIE's: the coordinate must be the first square of the whole word
along the play's line and the notation must spell the word to its last square, or the play
is refused naming the square where the word really starts or continues. A letter already on
the board may be written in parentheses, as GCG's ``.``, or as a plain letter: a letter
written on an occupied square is the board's tile when it is the same letter, whatever the
case (a blank designation on a square holding that letter is just the board tile, natural
or blank), and refused naming the square when it is another letter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..alphabet import BLANK_FLAG, Alphabet, fold
from ..errors import LexcError
from .board import Board, square_name, tile_text

THROUGH = 0  # a square of the play that holds a tile already on the board


class PlayError(LexcError, ValueError):
    """Notation that cannot be read; the message says why in one line."""


class PlacementError(PlayError):
    """Readable notation that does not fit the board: off the board, or a letter marked as
    on the board that is not there. The referee reports it as the play's fault.
    ``suggestion`` is the play written as the rule wants it when the only fault is where
    the word starts or ends (the message's ``write ...``), else None; it is notation, not
    a ruling: the play it names may still be illegal."""

    def __init__(self, message: str, suggestion: str | None = None):
        super().__init__(message)
        self.suggestion = suggestion


@dataclass(frozen=True, order=True)
class Play:
    """Tiles in one line from (row, col): ``tiles`` has one code per square of the whole
    word, THROUGH (0) where the board already has the tile, BLANK_FLAG on placed blanks."""

    row: int
    col: int
    down: bool
    tiles: bytes

    def squares(self) -> Iterator[tuple[int, int, int]]:
        """(row, col, code) of every square of the word (code THROUGH on board tiles)."""
        dr, dc = (1, 0) if self.down else (0, 1)
        for i, code in enumerate(self.tiles):
            yield self.row + dr * i, self.col + dc * i, code

    def placed(self) -> list[tuple[int, int, int]]:
        """(row, col, code) of the tiles the play puts on the board."""
        row, col = self.row, self.col
        if self.down:
            return [(row + i, col, code) for i, code in enumerate(self.tiles) if code != THROUGH]
        return [(row, col + i, code) for i, code in enumerate(self.tiles) if code != THROUGH]

    def word(self, board: Board) -> bytes:
        """The word along the play: the placed tiles and the board's."""
        return bytes(code or board.at(r, c) for r, c, code in self.squares())

    def coordinate(self) -> str:
        """``8H`` (across) or ``H8`` (down)."""
        return coordinate(self.row, self.col, self.down)

    def notation(self, board: Board) -> str:
        """Standard notation, board letters in parentheses."""
        line = board.line(self.col if self.down else self.row, self.down)
        start = self.row if self.down else self.col
        return f"{self.coordinate()} {spelled(tile_texts(board.ruleset.alphabet), line, start, self.tiles)}"

    def rack_letters(self) -> list[int]:
        """The rack tiles the play uses: letter codes, 0 for each blank."""
        return [0 if code & BLANK_FLAG else code for code in self.tiles if code != THROUGH]


def coordinate(row: int, col: int, down: bool) -> str:
    """The coordinate of a play from square (row, col): ``8H`` across (row number first),
    ``H8`` down (column letter first)."""
    name = square_name(row, col)
    return name if down else f"{row + 1}{name[0]}"


def spelled(texts: tuple[str, ...], line: bytes, start: int, tiles: bytes) -> str:
    """The word part of a play's notation: ``tiles`` laid on ``line`` (a row or a column)
    from ``start``, each square written as its tile's text (``texts``, from ``tile_texts``),
    the runs of the line's own tiles (THROUGH in ``tiles``) in parentheses."""
    text, inside = "", False
    for square, code in enumerate(tiles, start):
        if code == THROUGH:
            if not inside:
                text, inside = text + "(", True
            text += texts[line[square]]
        else:
            if inside:
                text, inside = text + ")", False
            text += texts[code]
    return text + ")" if inside else text


@lru_cache(maxsize=16)
def tile_texts(alphabet: Alphabet) -> tuple[str, ...]:
    """Each board code's text in notation, by code (``tile_text``: lower case for a blank, a
    multi-character tile in brackets); a code that is no tile as ``Alphabet.decode`` writes it."""
    known = set(alphabet.codes)
    return tuple(tile_text(alphabet, code) if code & ~BLANK_FLAG in known else alphabet.decode(bytes((code,)))
                 for code in range(256))


_COORD = re.compile(r"^\s*(?:([0-9]{1,2})([A-Za-z])|([A-Za-z])([0-9]{1,2}))\s+(\S+)\s*$")
MAX_NOTATION = 256  # characters of a play (a word of 64 tiles with every tile bracketed fits)


def parse_play(text: str, board: Board) -> Play:
    """A play from notation, checked against the board's letters (see the module's rule):
    PlayError for notation that cannot be read; PlacementError (a PlayError) for notation
    that does not fit the board: off the board, a letter other than the board's on an
    occupied square, a letter marked as on the board on an empty square, or a coordinate
    or an end that is not the whole word's (the message names the square and the play as
    it should be written)."""
    if len(text) > MAX_NOTATION:
        raise PlayError(f"a play of {len(text):,} characters; at most {MAX_NOTATION}")
    m = _COORD.match(text)
    if not m:
        raise PlayError(f"{text.strip()!r} is not a play (expected e.g. '8H WORD' across or 'H8 WORD' down)")
    if m.group(1):
        row, col, down, word = int(m.group(1)) - 1, ord(m.group(2).upper()) - ord("A"), False, m.group(5)
    else:
        row, col, down, word = int(m.group(4)) - 1, ord(m.group(3).upper()) - ord("A"), True, m.group(5)
    n, alphabet = board.size, board.ruleset.alphabet
    written = text.strip()
    if not (0 <= row < n and 0 <= col < n):
        raise PlacementError(f"{m.group(1) or ''}{m.group(2) or m.group(3)}{m.group(4) or ''}: off the board "
                        f"(the {board.ruleset.name} board is {n}x{n})")
    tiles = []
    line = board.line(col if down else row, down)
    first = row if down else col  # the play's first square along its line
    for square, (token, marked) in enumerate(_tokens(word, alphabet), first):
        r, c = (square, col) if down else (row, square)
        if square >= n:
            raise PlacementError(f"{written}: off the board (runs past {square_name(min(r, n - 1), min(c, n - 1))})")
        have = line[square]
        if marked and not have:
            raise PlacementError(f"{written}: {square_name(r, c)} is empty, but the play says a tile is there")
        if have and token is not None and (token & ~BLANK_FLAG) != (have & ~BLANK_FLAG):
            raise PlacementError(f"{written}: {square_name(r, c)} holds {alphabet.label(have)}, "
                                 f"not {alphabet.label(token)}")
        tiles.append(THROUGH if have or token is None else token)  # (no token, '.': a tile is there)
    if not tiles:
        raise PlayError(f"{written!r}: no letters")
    return _whole_word(written, Play(row, col, down, bytes(tiles)), board)


def _whole_word(written: str, play: Play, board: Board) -> Play:
    """``play`` if it spans the whole word along its line, else PlacementError naming the
    square where the word starts or continues and the play as it should be written."""
    n = board.size
    dr, dc = (1, 0) if play.down else (0, 1)
    r, c = play.row, play.col
    while r - dr >= 0 and c - dc >= 0 and board.at(r - dr, c - dc):
        r, c = r - dr, c - dc
    before = (play.row - r) // dr if dr else (play.col - c) // dc
    end_r, end_c = play.row + dr * len(play.tiles), play.col + dc * len(play.tiles)
    er, ec = end_r, end_c
    while er < n and ec < n and board.at(er, ec):
        er, ec = er + dr, ec + dc
    after = (er - end_r) // dr if dr else (ec - end_c) // dc
    if not before and not after:
        return play
    whole = Play(r, c, play.down, bytes([THROUGH]) * before + play.tiles + bytes([THROUGH]) * after)
    starts = f"starts at {whole.coordinate()}, not {play.coordinate()}" if before else ""
    continues = f"continues at {Play(end_r, end_c, play.down, b'').coordinate()}" if after else ""
    fault = f"{starts}, and {continues}" if starts and continues else starts or continues
    suggestion = whole.notation(board)
    raise PlacementError(f"{written}: the word {fault}: write {suggestion}", suggestion)


def _tokens(word: str, alphabet: Alphabet) -> Iterator[tuple[int | None, bool]]:
    """(code or None for '.', on the board?) for each square of a written word."""
    if not word.isascii():  # (ASCII text is in NFC, and each of its letters has one upper case)
        word = unicodedata.normalize("NFC", word)
        for ch in word:
            if len(ch.upper()) != 1:  # (ß, ﬁ: no tile is written so)
                raise PlayError(f"{word}: {ch!r} is not a letter of the alphabet")
    i, inside = 0, False
    folded = word.upper()
    chars: Mapping[str, int] = alphabet.char_codes() or {}  # one-character tiles, looked up at once
    while i < len(word):
        ch = word[i]
        code = chars.get(ch)
        if code is not None:
            yield code, inside
            i += 1
            continue
        if ch == "(":
            if inside:
                raise PlayError(f"{word}: nested parentheses")
            inside, i = True, i + 1
            continue
        if ch == ")":
            if not inside:
                raise PlayError(f"{word}: ')' without '('")
            inside, i = False, i + 1
            continue
        if ch == ".":
            yield None, True
            i += 1
            continue
        label: str | None
        if ch == "[":
            end = word.find("]", i)
            if end < 0:
                raise PlayError(f"{word}: '[' without ']'")
            raw, i = word[i + 1 : end], end + 1
            label = fold(raw)
            if alphabet.match_label(label, 0) != label:
                raise PlayError(f"{word}: [{raw}] is not a tile of the alphabet")
        else:
            label = alphabet.match_label(folded, i)
            if label is None:
                raise PlayError(f"{word}: {ch!r} is not a letter of the alphabet")
            raw, i = word[i : i + len(label)], i + len(label)
        code = alphabet.code(label)
        yield (code | BLANK_FLAG if raw != fold(raw) else code), inside
    if inside:
        raise PlayError(f"{word}: '(' without ')'")
