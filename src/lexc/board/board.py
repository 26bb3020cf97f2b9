"""The board: an immutable grid of tiles on a ruleset's layout, read and written as CGP or as
a text picture.

A square holds 0 when empty, else a letter code; a blank on the board carries BLANK_FLAG
(code | 0x80) and scores nothing. Rows and columns count from 0 here; the notation names
them 1.. and A.. (``square_name``).

**CGP** (the FEN-like position notation of Macondo and Woogles)::

    15/15/15/15/15/15/15/7RETAINS/15/... AEINRST/ 0/0 0 lex NWL20;

the rows top to bottom separated by ``/`` (a number is a run of empty squares, upper case a
tile, lower case a blank; a multi-character tile is written in brackets, ``[CH]``, or
``[ch]`` for a blank), then the racks of the player to move and of the other player
separated by ``/`` (``?`` a blank; either may be empty, as MAGPIE reads it: an empty rack, so
``... / 0/0 0`` is a position where neither player holds a tile), the two scores ``S1/S2``, the
number of consecutive scoreless turns, and optional operations ``op args;`` (such as
``lex NWL20;``).

A **text picture** has one line per row, ``.`` for an empty square and the tiles as in CGP
(spaces between squares are allowed and ignored).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .. import native
from ..alphabet import BLANK_FLAG, Alphabet, AlphabetError, written
from ..errors import LexcError
from ..plural import plural
from ..ruleset import Ruleset
from ..textfile import read_text

if TYPE_CHECKING:
    from .scoring import LaneScoring

MAX_CGP = 8192  # characters of a CGP string, and bytes of a board picture file


class PositionError(LexcError, ValueError):
    """A malformed position (CGP string or picture): the message is one line for the user."""


def square_name(row: int, col: int) -> str:
    """``H8`` style name of a square (column letter, row number)."""
    return f"{chr(ord('A') + col)}{row + 1}"


@dataclass(frozen=True)
class Board:
    """The tiles on a ruleset's board: ``rows[r][c]`` is 0 (empty) or a letter code, with
    BLANK_FLAG for a blank."""

    ruleset: Ruleset
    rows: tuple[bytes, ...]
    _columns: tuple[bytes, ...] | None = field(init=False, repr=False, compare=False)  # (made when first read)
    # scoring.lane_scoring's, remembered
    _lanes: dict[tuple[int, bool], LaneScoring] = field(init=False, repr=False, compare=False)
    _empty: bool = field(init=False, repr=False, compare=False)  # no tile on the board (is_empty)

    def __post_init__(self) -> None:
        n = self.ruleset.board_size
        if len(self.rows) != n or set(map(len, self.rows)) != {n}:
            raise PositionError(f"the {self.ruleset.name} board is {n}x{n}")
        flat = b"".join(self.rows)
        if flat.translate(None, _square_codes(self.ruleset.alphabet.codes)):  # a code no square holds
            known = set(self.ruleset.alphabet.codes)
            for r, row in enumerate(self.rows):
                for c, code in enumerate(row):
                    if code and (code & ~BLANK_FLAG) not in known:
                        raise PositionError(f"square {square_name(r, c)}: code {code} is not a letter of the alphabet")
        object.__setattr__(self, "_columns", None)  # (the compiled move generator reads none)
        object.__setattr__(self, "_lanes", {})
        object.__setattr__(self, "_empty", flat.count(0) == len(flat))

    @classmethod
    def empty(cls, ruleset: Ruleset) -> Board:
        """The empty board of a ruleset."""
        return cls(ruleset, tuple(bytes(ruleset.board_size) for _ in range(ruleset.board_size)))

    @property
    def size(self) -> int:
        """Squares per side."""
        return self.ruleset.board_size

    def at(self, row: int, col: int) -> int:
        """The tile code at a square (0 when empty)."""
        return self.rows[row][col]

    def line(self, index: int, down: bool) -> bytes:
        """Row ``index`` (across) or column ``index`` (down): a lane's squares."""
        return self.columns()[index] if down else self.rows[index]

    def columns(self) -> tuple[bytes, ...]:
        """The board's columns, each top to bottom (made on the first call, then kept)."""
        columns = self._columns
        if columns is None:
            flat, n = b"".join(self.rows), len(self.rows)
            columns = tuple(flat[c::n] for c in range(n))
            object.__setattr__(self, "_columns", columns)
        return columns

    def is_empty(self) -> bool:
        """No tile on the board."""
        return self._empty

    def tile_count(self) -> int:
        """The number of tiles on the board."""
        return sum(1 for row in self.rows for code in row if code)

    def with_tiles(self, tiles: list[tuple[int, int, int]]) -> Board:
        """A new board with (row, col, code) tiles added (the squares must be empty)."""
        rows = [bytearray(row) for row in self.rows]
        n = self.size
        for r, c, code in tiles:
            if not (0 <= r < n and 0 <= c < n):
                raise PositionError(f"row {r + 1}, column {c + 1} is off the {n}x{n} board")
            if rows[r][c]:
                raise PositionError(f"square {square_name(r, c)} is occupied")
            rows[r][c] = code
        return Board(self.ruleset, tuple(bytes(row) for row in rows))

    def transposed(self) -> Board:
        """The board mirrored on its main diagonal: down lines become across lines."""
        return Board(self.ruleset, self.columns())

    # -- text ---------------------------------------------------------------------------
    def picture(self) -> str:
        """The text picture: one line per row, ``.`` for empty squares."""
        return "\n".join("".join(tile_text(self.ruleset.alphabet, c) if c else "." for c in row)
                         for row in self.rows)

    def cgp_rows(self) -> str:
        """The board part of a CGP string."""
        out = []
        for row in self.rows:
            text, run = "", 0
            for code in row:
                if not code:
                    run += 1
                    continue
                if run:
                    text, run = text + str(run), 0
                text += tile_text(self.ruleset.alphabet, code)
            out.append(text + (str(run) if run else ""))
        return "/".join(out)

    @classmethod
    def from_picture(cls, text: str, ruleset: Ruleset) -> Board:
        """A board from a text picture (blank lines around it are ignored)."""
        lines = [line.strip() for line in text.strip("\n").splitlines()]
        lines = [line for line in lines if line]
        if len(lines) != ruleset.board_size:
            raise PositionError(f"the picture has {plural(len(lines), 'row')}; the {ruleset.name} board has "
                                f"{ruleset.board_size}")
        rows = []
        for r, line in enumerate(lines):
            squares = _tiles(line.replace(" ", ""), ruleset.alphabet, f"row {r + 1}", empty=".")
            if len(squares) != ruleset.board_size:
                raise PositionError(f"row {r + 1} has {plural(len(squares), 'square')}; the board has "
                                    f"{ruleset.board_size}")
            rows.append(bytes(squares))
        return cls(ruleset, tuple(rows))

    def __str__(self) -> str:
        return self.picture()


@dataclass(frozen=True)
class Position:
    """A board, the racks (the player to move first), the scores, the count of consecutive
    scoreless turns and the CGP operations (``{"lex": "NWL20"}``). ``racks_given``: whether
    the racks were given (a CGP's rack field, even ``/``: two empty racks), or not at all (a
    board picture, a CGP of the board alone), when a command asks for a rack elsewhere."""

    board: Board
    racks: tuple[str, str] = ("", "")
    scores: tuple[int, int] = (0, 0)
    scoreless_turns: int = 0
    ops: tuple[tuple[str, str], ...] = ()
    racks_given: bool = field(default=False, compare=False)  # (how the position was given, not what it is)

    @property
    def rack(self) -> str:
        """The rack of the player to move."""
        return self.racks[0]

    def op(self, name: str) -> str | None:
        """The argument of a CGP operation, or None."""
        for key, value in self.ops:
            if key == name:
                return value
        return None

    def cgp(self) -> str:
        """The position as a CGP string."""
        parts = [self.board.cgp_rows(), "/".join(self.racks), f"{self.scores[0]}/{self.scores[1]}",
                 str(self.scoreless_turns)]
        parts += [f"{key} {value};".replace(" ;", ";") for key, value in self.ops]
        return " ".join(parts)


_CGP_SCORES = re.compile(r"(-?[0-9]{1,9})/(-?[0-9]{1,9})")
_CGP_ZEROS = re.compile(r"[0-9]{1,4}")


def parse_cgp(text: str, ruleset: Ruleset) -> Position:
    """A position from a CGP string; PositionError with a one-line reason if malformed."""
    if len(text) > MAX_CGP:
        raise PositionError(f"a CGP string of {len(text):,} characters; at most {MAX_CGP:,}")
    fields = text.strip().split(None, 4)
    if not fields:
        raise PositionError("empty CGP string")
    alphabet, n = ruleset.alphabet, ruleset.board_size
    rows_text = fields[0].split("/")
    if len(rows_text) != n:
        raise PositionError(f"CGP board has {plural(len(rows_text), 'row')}; the {ruleset.name} board has {n}")
    cgp = alphabet.cgp_table()
    read = native.select().cgp_board(fields[0], n, cgp) if cgp is not None else None  # (the core's, plain rows)
    rows = [read[r * n : (r + 1) * n] for r in range(n)] if read is not None else _cgp_rows(rows_text, alphabet, n)
    board = Board(ruleset, tuple(rows))
    racks: tuple[str, str] = ("", "")
    if len(fields) > 1:
        parts = fields[1].split("/")
        if len(parts) != 2:
            raise PositionError(f"CGP racks {fields[1][:40]!r} must be two racks separated by '/'")
        for part in parts:
            try:
                alphabet.parse_rack(part)
            except ValueError as exc:  # AlphabetError is one
                raise PositionError(f"CGP rack {part[:40]!r}: {exc}") from None
        racks = (parts[0], parts[1])
    scores = (0, 0)
    if len(fields) > 2:
        m = _CGP_SCORES.fullmatch(fields[2])
        if not m:
            raise PositionError(f"CGP scores {fields[2][:40]!r} must be two integers (of at most 9 digits) "
                                "separated by '/'")
        scores = (int(m.group(1)), int(m.group(2)))
    zeros = 0
    if len(fields) > 3:
        if not _CGP_ZEROS.fullmatch(fields[3]):
            raise PositionError(f"CGP scoreless-turn count {fields[3][:40]!r} must be a number of at most 4 digits")
        zeros = int(fields[3])
    ops = []
    if len(fields) > 4:
        for op in fields[4].split(";"):
            op = op.strip()
            if op:
                key, _, value = op.partition(" ")
                ops.append((key, value.strip()))
        if not fields[4].rstrip().endswith(";"):
            raise PositionError("a CGP operation must end with ';'")
    return Position(board, racks, scores, zeros, tuple(ops), racks_given=len(fields) > 1)




def _cgp_rows(rows_text: list[str], alphabet: Alphabet, n: int) -> list[bytes]:
    """The squares of a CGP board's rows, read in Python (every alphabet; names any fault)."""
    rows = []
    for r, row_text in enumerate(rows_text):
        squares: list[int] = []
        for token in re.findall(r"[0-9]+|\[[^\]]*\]|.", row_text):
            if token[0] in "0123456789":
                squares += [0] * (min(int(token), n + 1) if len(token) <= 3 else n + 1)  # a huge run: too long
            else:
                squares += _tiles(token, alphabet, f"CGP row {r + 1}")
            if len(squares) > n:
                break
        if len(squares) != n:
            raise PositionError(f"CGP row {r + 1} has {plural(len(squares), 'square')}; the board has {n}")
        rows.append(bytes(squares))
    return rows


@lru_cache(maxsize=64)
def _square_codes(codes: range) -> bytes:
    """The byte values a square may hold: 0 (empty), a letter code, a letter code with
    BLANK_FLAG (``bytes.translate`` deletes them, leaving any other)."""
    return bytes(sorted({0, *codes, *(code | BLANK_FLAG for code in codes if code | BLANK_FLAG < 256)}))


def tile_text(alphabet: Alphabet, code: int) -> str:
    """A tile as CGP, pictures and play notation write it: upper case, lower case for a blank, brackets
    around a multi-character label."""
    return written(alphabet.label(code))


def _tiles(text: str, alphabet: Alphabet, where: str, empty: str = "") -> list[int]:
    """The squares of a piece of CGP or picture text: single characters, or brackets around
    a multi-character label; lower case is a blank; ``empty`` (``.``) an empty square."""
    out = []
    for token in re.findall(r"\[[^\]]*\]|.", text):
        if empty and token == empty:
            out.append(0)
            continue
        label = token[1:-1] if token.startswith("[") else token
        try:
            code = alphabet.code(label.upper())
        except (KeyError, ValueError, AlphabetError):
            raise PositionError(f"{where}: {token!r} is not a tile of the alphabet") from None
        out.append(code | BLANK_FLAG if label != label.upper() else code)
    return out


def neighbours(board: Board, row: int, col: int) -> Iterator[tuple[int, int]]:
    """The squares next to a square, on the board."""
    n = board.size
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < n and 0 <= c < n:
            yield r, c


def unseen(board: Board, *racks: str) -> Counter[int]:
    """The tiles of the ruleset's full bag that are neither on ``board`` nor on any of
    ``racks``, by code (0 for a blank; a blank on the board counts as a blank). Counts may be
    negative: a negative count is a tile the board and the racks hold more of than the tile
    set has (``overdrawn``). With every rack of a game known, this is the bag."""
    out = Counter(board.ruleset.bag_tiles())
    out.subtract(0 if c & BLANK_FLAG else c for row in board.rows for c in row if c)
    for rack in racks:
        letters, blanks = board.ruleset.alphabet.parse_rack(rack)
        out.subtract(letters)
        out[0] -= blanks
    return out


def overdrawn(tiles: Counter[int], alphabet: Alphabet) -> str:
    """The tiles of an ``unseen`` count that went below zero, as rack text ('' if none)."""
    short = [code for code, n in sorted(tiles.items()) if n < 0 for _ in range(-n)]
    return alphabet.rack_text([c for c in short if c], short.count(0))


def read_position(ruleset: Ruleset, cgp: str | None = None, picture_path: str | None = None) -> Position:
    """A position from a CGP string or from a file holding a text picture (or a CGP line)."""
    if (cgp is None) == (picture_path is None):
        raise PositionError("give a position as a CGP string or as a board file, not both or neither")
    if cgp is not None:
        return parse_cgp(cgp, ruleset)
    assert picture_path is not None  # (one of the two, checked above)
    text = read_text(picture_path, MAX_CGP, "board", PositionError)
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1 and "/" in lines[0]:
        return parse_cgp(lines[0], ruleset)
    return Position(Board.from_picture(text, ruleset))
