"""Whole-position move generation in the compiled core, and the compact result both paths share.

``Plays`` holds every play of a position. From the compiled core it is the core's buffer of
fixed records (score, square, direction, tiles; ``src/lexc/native/README.md``) and nothing else:
``Move`` objects and their notation are made only for the plays a caller asks for
(``moves()`` for all of them, ``moves(top=N)`` for the best N, ``len()`` and ``scores()``
for none). From the pure-Python strategies it wraps their list of moves.
"""

from __future__ import annotations

import json
import struct
from functools import lru_cache
from typing import Any

from .. import native
from ..board.board import Board, tile_text
from ..board.notation import Play
from ..ruleset import Ruleset

RECORD = 40  # bytes of a play record (lexc.native._core.RECORD): int64 score, row, column, down, length, tiles
TILES = 12  # where a record's tiles start
COMPILED_STRATEGIES = ("appel-jacobson", "gordon")  # the strategies the compiled core runs whole
# ... and those whose search runs in it (Shapiro & Smith's, over the core's findwords2)
CORE_SEARCHED = COMPILED_STRATEGIES + ("shapiro-smith",)
MAX_PLAYS = 5_000_000  # plays one position may have before the compiled core stops (a crafted lexicon)


class Plays:
    """The plays of one position: ``len()``, ``scores()``, and ``moves(top)`` ranked best
    first (score descending, then notation).

    From the compiled core it holds the core's records; from the pure-Python strategies,
    ``listed``: a (score, notation, row, col, down, tiles) tuple per play, ranked and made
    into ``Move`` objects only when asked for (then kept)."""

    def __init__(self, board: Board, records: bytes = b"", count: int = 0,
                 listed: list[tuple[int, str, int, int, bool, bytes]] | None = None, search_edges: int | None = None):
        self.board = board
        self.records = records
        self.search_edges = search_edges  # edges the compiled search read (None on the pure path)
        self.count = count if listed is None else len(listed)
        self._listed = listed
        self._ranked_listed: list | None = None  # the pure path's plays, ranked (made once)
        self._ranked_moves: list | None = None  # ... as Move objects (made once)

    def __len__(self) -> int:
        return self.count

    def scores(self) -> list[int]:
        """Each play's score, in the order generated (not ranked)."""
        if self._listed is not None:
            return [play[0] for play in self._listed]
        return [s for (s,) in struct.iter_unpack("<q32x", self.records)]

    def pairs(self, top: int | None = None) -> list[tuple[str, int]]:
        """(notation, score) of the plays, best first (as ``moves``), the best ``top`` if
        given: what ``lexc moves`` prints, without a ``Move`` object per play."""
        if self._listed is not None:
            return [(notation, score) for score, notation, *_ in self._ranked(top)]
        records, count = self._best(top)
        board = self.board
        notes, scores = native.core().ranked(records, count, b"".join(board.rows), board.size,
                                             _tile_texts(board.ruleset.alphabet.labels), count if top is None else top)
        return list(zip(notes, scores))

    def batch_json(self, top: int | None = None) -> str:
        """The JSON line ``lexc moves --batch`` prints for the position (``batch_line`` of
        ``pairs(top)``, as ``json.dumps`` writes it); made in the compiled core from its
        records."""
        if self._listed is not None:
            return json.dumps(batch_line(self.pairs(top)))
        records, count = self._best(top)
        board = self.board
        labels = board.ruleset.alphabet.labels
        line = native.core().batch_json(records, count, b"".join(board.rows), board.size, _tile_texts(labels),
                                        _json_texts(labels), count if top is None else top)
        return line.decode("ascii")

    def _notations(self, records: bytes, count: int) -> list[str]:
        """The notation of each record, made by the compiled core."""
        board = self.board
        return native.core().notations(records, count, b"".join(board.rows), board.size,
                                       _tile_texts(board.ruleset.alphabet.labels))

    def _ranked(self, top: int | None) -> list[tuple[int, str, int, int, bool, bytes]]:
        """The pure path's plays, best first (score descending, then notation, as ``ranked``),
        the best ``top`` if given."""
        if self._ranked_listed is None:
            self._ranked_listed = sorted(self._listed, key=lambda play: (-play[0], play[1]))
        return self._ranked_listed if top is None else self._ranked_listed[:top]

    def _best(self, top: int | None) -> tuple[bytes, int]:
        """The records of the best ``top`` plays and those tied with the last of them (all
        of them without ``top``), and how many."""
        if top is None or top >= self.count:
            return self.records, self.count
        if top <= 0:
            return b"", 0
        scores = self.scores()
        cut = sorted(scores, reverse=True)[top - 1]
        keep = [i for i, s in enumerate(scores) if s >= cut]  # ties at the cut are ranked by notation
        return b"".join(self.records[i * RECORD : (i + 1) * RECORD] for i in keep), len(keep)

    def moves(self, top: int | None = None) -> list[Any]:
        """The plays as ``Move`` objects, best first; only the best ``top`` if given (the
        notation of the others is never made)."""
        from . import Move, ranked

        if self._listed is not None:
            if self._ranked_moves is None:
                self._ranked_moves = [Move(score, notation, Play(row, col, down, tiles))
                                      for score, notation, row, col, down, tiles in self._ranked(None)]
            return self._ranked_moves[:] if top is None else self._ranked_moves[:top]
        if top is not None and top <= 0:
            return []
        records, count = self._best(top)
        notes = self._notations(records, count)
        out = []
        for k, ((score, row, col, down, length), note) in enumerate(zip(struct.iter_unpack("<qBBBB28x", records), notes)):
            tiles = records[k * RECORD + TILES : k * RECORD + TILES + length]
            out.append(Move(score, note, Play(row, col, bool(down), tiles)))
        found = ranked(out)
        return found if top is None else found[:top]


def batch_line(pairs: list[tuple[str, int]]) -> dict[str, Any]:
    """One position's plays as ``lexc moves --batch`` prints them (a JSON line each)."""
    return {"count": len(pairs), "moves": [{"move": n, "score": s} for n, s in pairs]}


@lru_cache(maxsize=16)
def _json_texts(labels: tuple[str, ...]) -> tuple[bytes, ...]:
    """Each board code's text in notation as ``json.dumps`` escapes it inside a string (ASCII)."""
    return tuple(json.dumps(text.decode("utf-8"))[1:-1].encode("ascii") for text in _tile_texts(labels))


@lru_cache(maxsize=16)
def _tile_texts(labels: tuple[str, ...]) -> tuple[bytes, ...]:
    """Each board code's text in notation, as UTF-8 (what ``tile_text`` writes)."""
    from ..alphabet import Alphabet

    alphabet = Alphabet(labels)
    known = set(alphabet.codes)
    return tuple(tile_text(alphabet, code).encode("utf-8") if code & 0x7F in known else b"?" for code in range(256))


_ARRAYS: dict[int, tuple[Ruleset, tuple[bytes, bytes, bytes]]] = {}  # by id(ruleset): hashing one costs microseconds


def _ruleset_arrays(ruleset: Ruleset) -> tuple[bytes, bytes, bytes]:
    """The ruleset as the compiled core reads it: tile values by board code (256 int32),
    letter and word multipliers of every square (n x n bytes)."""
    kept = _ARRAYS.get(id(ruleset))
    if kept is not None and kept[0] is ruleset:
        return kept[1]
    values = struct.pack("<256i", *ruleset.tile_values)
    letter = bytes(lm for row in ruleset.premiums for lm, _ in row)
    word = bytes(wm for row in ruleset.premiums for _, wm in row)
    if len(_ARRAYS) >= 16:
        _ARRAYS.clear()
    _ARRAYS[id(ruleset)] = (ruleset, (values, letter, word))  # (the ruleset kept alive: its id stays its own)
    return values, letter, word


def applicable(lexicon: Any, strategy: str) -> bool:
    """Whether the compiled core generates for this lexicon and strategy: Appel & Jacobson
    over a word graph's DAWG root, Gordon over its GADDAG root."""
    if getattr(lexicon, "_native", None) is None:
        return False
    return strategy == "appel-jacobson" or (strategy == "gordon" and hasattr(lexicon, "gaddag_root"))


def plays(board: Board, counts: list[int], lexicon: Any, strategy: str) -> Plays:
    """Every play of the position, from the compiled core (``applicable`` must hold)."""
    ruleset = board.ruleset
    values, letter, word = _ruleset_arrays(ruleset)
    root = lexicon.gaddag_root() if strategy == "gordon" else lexicon._root
    start_row, start_col = ruleset.start
    try:
        records, count, edges = native.core().movegen(
            lexicon._native, b"".join(board.rows), board.size, bytes(counts), 1 if strategy == "gordon" else 0,
            lexicon._root, root, values, letter, word, ruleset.rack_size, ruleset.bingo_bonus, start_row, start_col,
            MAX_PLAYS)
    except native.AnswerCap:
        from . import MoveGenError
        raise MoveGenError(f"more than {MAX_PLAYS:,} plays in one position: the lexicon spells too much") from None
    except ValueError as exc:  # (a position the core refuses: the Python side checks boards first)
        from . import MoveGenError
        raise MoveGenError(f"the position cannot be searched ({exc})") from None
    return Plays(board, records, count, search_edges=edges)
