"""The plays of a position, as compact as each backend makes them, and what the compiled
core reads of a position.

``Plays`` holds every play of a position: ``len()``, ``scores()``, ``pairs(top)``,
``batch_json(top)`` and ``moves(top)``, ranked best first (score descending, then notation).
``CorePlays`` is the compiled core's buffer of fixed records (score, square, direction,
tiles; ``src/lexc/native/README.md``) and nothing else: ``Move`` objects and their notation
are made only for the plays a caller asks for. ``ListedPlays`` holds the pure-Python
strategies' plays as tuples. Which one a position gives is the lexicon's backend's affair
(``native.Backend.generator``): the move generator never asks.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from .. import native
from ..board.board import Board, tile_text
from ..board.notation import Play
from ..formats.base import LexiconBase
from ..ruleset import Ruleset

RECORD = 40  # bytes of a play record (lexc.native._core.RECORD): int64 score, row, column, down, length, tiles
DOWN = 10  # where a record's direction byte is (1: down)
TILES = 12  # where a record's tiles start
COMPILED_STRATEGIES = tuple(native.backend.CORE_STRATEGIES)  # the strategies the compiled core runs whole
# ... and those whose search runs in it (Shapiro & Smith's, over the core's findwords2)
CORE_SEARCHED = (*COMPILED_STRATEGIES, "shapiro-smith")
MAX_PLAYS = 5_000_000  # plays one position may have before the compiled core stops (a crafted lexicon)


class Plays:
    """The plays of one position: ``len()``, ``scores()``, and the plays ranked best first
    (score descending, then notation) as (notation, score) pairs, a JSON line, or ``Move``
    objects; each only for the best ``top`` plays when it is given."""

    board: Board
    count: int

    def __len__(self) -> int:
        return self.count

    def scores(self) -> list[int]:
        """Each play's score, in the order generated (not ranked)."""
        raise NotImplementedError

    def pairs(self, top: int | None = None) -> list[tuple[str, int]]:
        """(notation, score) of the plays, best first (as ``moves``), the best ``top`` if
        given: what ``lexc moves`` prints, without a ``Move`` object per play."""
        raise NotImplementedError

    def batch_json(self, top: int | None = None) -> str:
        """The JSON line ``lexc moves --batch`` prints for the position (``batch_line`` of
        ``pairs(top)``, as ``json.dumps`` writes it)."""
        return json.dumps(batch_line(self.pairs(top)))

    def batch_bytes(self, top: int | None = None) -> bytes:
        """``batch_json(top)`` as the ASCII bytes a batch writes (json.dumps escapes the rest)."""
        return self.batch_json(top).encode("ascii")

    def moves(self, top: int | None = None) -> list[Any]:
        """The plays as ``Move`` objects, best first; only the best ``top`` if given."""
        raise NotImplementedError

    def across(self) -> Plays:
        """The plays across only (``movegen.counted_plays``: an empty board's plays, counted
        as the engines count them)."""
        raise NotImplementedError

    def fields(self) -> Iterator[tuple[int, int, int, bool, bytes]]:
        """(score, row, col, down, tiles) of each play, in the order generated."""
        raise NotImplementedError

    def picked(self, indices: Sequence[int]) -> list[Any]:
        """The plays at these places of the generated order, as ``Move`` objects, in the
        order given."""
        raise NotImplementedError

    def equities(self, weights: native.Weights, reference: Callable[[], Sequence[int]]) -> native.Weighed:
        """Each play's static equity (``lexc.equity``), in the order generated, and the best:
        on the backend that made the plays, ``reference()`` (over ``fields``) defining the
        answer."""
        return native.Weighed.of(reference())


class ListedPlays(Plays):
    """The pure-Python strategies' plays: a (score, notation, row, col, down, tiles) tuple
    each, ranked and made into ``Move`` objects only when asked for (then kept)."""

    def __init__(self, board: Board, listed: list[tuple[int, str, int, int, bool, bytes]]):
        self.board = board
        self.count = len(listed)
        self._listed = listed
        self._ranked_listed: list[tuple[int, str, int, int, bool, bytes]] | None = None  # ranked (made once)
        self._ranked_moves: list[Any] | None = None  # ... as Move objects (made once)

    def scores(self) -> list[int]:
        """Each play's score, in the order generated (not ranked)."""
        return [play[0] for play in self._listed]

    def pairs(self, top: int | None = None) -> list[tuple[str, int]]:
        """(notation, score) of the plays, best first."""
        return [(notation, score) for score, notation, *_ in self._ranked(top)]

    def _ranked(self, top: int | None) -> list[tuple[int, str, int, int, bool, bytes]]:
        """The plays, best first (score descending, then notation, as ``ranked``), the best
        ``top`` if given."""
        if self._ranked_listed is None:
            self._ranked_listed = sorted(self._listed, key=lambda play: (-play[0], play[1]))
        return self._ranked_listed if top is None else self._ranked_listed[:top]

    def moves(self, top: int | None = None) -> list[Any]:
        """The plays as ``Move`` objects, best first (made once, for all of them)."""
        from . import Move

        if self._ranked_moves is None:
            self._ranked_moves = [Move(score, notation, Play(row, col, down, tiles))
                                  for score, notation, row, col, down, tiles in self._ranked(None)]
        return self._ranked_moves[:] if top is None else self._ranked_moves[:top]

    def across(self) -> ListedPlays:
        """The plays across only."""
        return ListedPlays(self.board, [play for play in self._listed if not play[4]])

    def fields(self) -> Iterator[tuple[int, int, int, bool, bytes]]:
        """(score, row, col, down, tiles) of each play, in the order generated."""
        return ((score, row, col, down, tiles) for score, _, row, col, down, tiles in self._listed)

    def picked(self, indices: Sequence[int]) -> list[Any]:
        """The plays at these places, as ``Move`` objects."""
        from . import Move

        listed = self._listed
        return [Move(score, notation, Play(row, col, down, tiles))
                for score, notation, row, col, down, tiles in (listed[i] for i in indices)]


class CorePlays(Plays):
    """The compiled core's plays: its buffer of fixed records and nothing else (``Move``
    objects and notations are made, by the core, only for the plays asked for);
    ``search_edges``: the edges its searches read (for the bench)."""

    def __init__(self, board: Board, backend: Any, records: bytes, count: int, search_edges: int = 0):
        self.board = board
        self.backend = backend
        self.records = records
        self.count = count
        self.search_edges = search_edges

    def scores(self) -> list[int]:
        """Each play's score, in the order generated (not ranked)."""
        return [s for (s,) in struct.iter_unpack("<q32x", self.records)]

    def pairs(self, top: int | None = None) -> list[tuple[str, int]]:
        """(notation, score) of the plays, best first, ranked and written by the core."""
        records, count = self._best(top)
        board = self.board
        notes, scores = self.backend.ranked(records, count, b"".join(board.rows), board.size,
                                            _tile_texts(board.ruleset.alphabet.labels),
                                            count if top is None else top)
        return list(zip(notes, scores, strict=True))

    def batch_json(self, top: int | None = None) -> str:
        """The JSON line ``lexc moves --batch`` prints, made by the core from its records."""
        return self.batch_bytes(top).decode("ascii")

    def batch_bytes(self, top: int | None = None) -> bytes:
        """The JSON line as the core writes it (ASCII bytes), with no str made on the way."""
        records, count = self._best(top)
        board = self.board
        labels = board.ruleset.alphabet.labels
        return bytes(self.backend.batch_json(records, count, b"".join(board.rows), board.size, _tile_texts(labels),
                                             _json_texts(labels), count if top is None else top))

    def across(self) -> CorePlays:
        """The plays across only: the records whose direction byte is 0."""
        records = self.records
        kept = [records[i : i + RECORD] for i in range(0, self.count * RECORD, RECORD) if not records[i + DOWN]]
        return CorePlays(self.board, self.backend, b"".join(kept), len(kept), self.search_edges)

    def fields(self) -> Iterator[tuple[int, int, int, bool, bytes]]:
        """(score, row, col, down, tiles) of each record, in the order generated."""
        for score, row, col, down, length, tiles in struct.iter_unpack("<qBBBB28s", self.records):
            yield score, row, col, bool(down), tiles[:length]

    def picked(self, indices: Sequence[int]) -> list[Any]:
        """The plays at these places, as ``Move`` objects (their notations made by the core)."""
        from . import Move

        records = self.records
        chosen = b"".join(records[i * RECORD : (i + 1) * RECORD] for i in indices)
        board = self.board
        notes = self.backend.notations(chosen, len(indices), b"".join(board.rows), board.size,
                                       _tile_texts(board.ruleset.alphabet.labels))
        out = []
        for (score, row, col, down, length, tiles), note in zip(struct.iter_unpack("<qBBBB28s", chosen), notes,
                                                                 strict=True):
            out.append(Move(score, note, Play(row, col, bool(down), tiles[:length])))
        return out

    def equities(self, weights: native.Weights, reference: Callable[[], Sequence[int]]) -> native.Weighed:
        """Each record's static equity, summed by the core, and the best."""
        result: native.Weighed = self.backend.equities(self.records, self.count, weights, reference)
        return result

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

        if top is not None and top <= 0:
            return []
        records, count = self._best(top)
        board = self.board
        notes = self.backend.notations(records, count, b"".join(board.rows), board.size,
                                       _tile_texts(board.ruleset.alphabet.labels))
        out = []
        fields = struct.iter_unpack("<qBBBB28x", records)
        for k, ((score, row, col, down, length), note) in enumerate(zip(fields, notes, strict=True)):
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


def applicable(lexicon: LexiconBase, strategy: str) -> bool:
    """Whether the lexicon's backend generates whole positions of this strategy itself (the
    compiled core over a word graph): what the bench reports."""
    return bool(lexicon.backend.runs_whole(strategy, lexicon.search_graph(strategy)[0]))


def position(board: Board, counts: list[int]) -> native.Position:
    """A position as the compiled core reads it (``native.Position``)."""
    ruleset = board.ruleset
    values, letter, word = _ruleset_arrays(ruleset)
    return native.Position(b"".join(board.rows), board.size, bytes(counts), values, letter, word, ruleset.rack_size,
                           ruleset.bingo_bonus, ruleset.start)


def generator(ruleset: Ruleset, lexicon: LexiconBase, strategy: str) -> native.backend.Generator | None:
    """The lexicon's backend's whole-position generator of ``strategy`` for the ruleset
    (``native.Backend.generator``), which a caller keeps for the positions after; None where
    the strategy runs lane by lane, in Python (the reference)."""
    values, letter, word = _ruleset_arrays(ruleset)
    graph, roots = lexicon.search_graph(strategy)
    return lexicon.backend.generator(graph, strategy, roots, ruleset.board_size, values, letter, word,
                                     ruleset.rack_size, ruleset.bingo_bonus, ruleset.start)


def core_plays(board: Board, tiles: bytes, run: native.backend.Generator, backend: Any) -> CorePlays:
    """Every play of the position found by ``run`` (``generator``'s) for the rack's tiles
    (letter codes, 0 a blank). ``MoveGenError`` past ``MAX_PLAYS`` plays (a crafted lexicon)."""
    try:
        records, count, edges = run(b"".join(board.rows), tiles, MAX_PLAYS)
    except native.AnswerCap:
        from . import MoveGenError  # (imported where raised: an import costs every call 0.3 us)

        raise MoveGenError(f"more than {MAX_PLAYS:,} plays in one position: the lexicon spells too much") from None
    except ValueError as exc:  # (a position the core refuses: the Python side checks boards first)
        from . import MoveGenError

        raise MoveGenError(f"the position cannot be searched ({exc})") from None
    return CorePlays(board, backend, records, count, edges)
