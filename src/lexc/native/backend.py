"""The one seam between lexc and its compiled core: a backend runs the hot operations.

A lexicon is given a backend when it is made (built, loaded, opened: ``lexc.native.select``)
and keeps it; its format, the move generator and the searches hand every hot operation to it
and never ask which one it is. Each operation comes with its *reference*: the pure-Python code
that defines the answer (a word graph's queries, the minimizer, Shapiro & Smith's search, a
position's plays, Zyzzyva's combinations). ``Backend`` (``native.PURE``) runs the reference;
``CompiledBackend`` (``native.COMPILED``) runs the compiled core where it has the operation and
the reference where it has not (a strategy it does not implement, a lexicon that is no word
graph, a count past 64 bits), so the callers never ask which one they hold, and the agreement
tests hold the two to the same answers, on the bundled rulesets and on generated ones.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from .errors import UnsupportedWord

T = TypeVar("T")

# the strategies the compiled core runs for a whole position, by name (0: over the DAWG root)
CORE_STRATEGIES = {"appel-jacobson": 0, "gordon": 1}
_GROUP = struct.Struct("<BBIQQ")  # findwords: depth, blank-made letters, words, bytes read, nodes read


@dataclass(frozen=True)
class GraphSpec:
    """How a word graph's edges are laid out, what its walks start from, and what the core
    needs beside the stored edges (``src/lexc/native/README.md``)."""

    layout: str  # "u32" or "u64" (formats/dawg.md), or "packed" (formats/dawg-packed.md)
    letter_shift: int
    terminal_bit: int
    last_bit: int
    child_bits: int
    letters: int  # the alphabet's size: letters are 1..letters
    pointers: int  # root pointer slots at the array's start
    separator: bool  # letter 0 may label an edge (a GADDAG)
    extra: bytes = b""  # little-endian u64 edges kept in memory after the stored ones
    encode: bytes | None = None  # 256 bytes: Latin-1 character -> letter code (0: none)
    member_root: int = -1  # the edge `word in lexicon` walks from, forwards
    edge_bytes: int = 0  # "packed": bytes a stored edge (its payload then ends in 8 - edge_bytes zeros)


Generator = Callable[[bytes, bytes, int], tuple[bytes, int, int]]  # Backend.generator's: (board, tiles, cap)


class Position(NamedTuple):
    """A position as the compiled core reads it: the board (n x n codes, row-major), the rack
    (counts by letter code, index 0 the blanks), the ruleset's tile values (256 int32 by board
    code) and the letter and word premium of every square, the rack size, bingo bonus and start
    square. (A named tuple: one is made for every move generation, and a frozen dataclass
    costs three times as long to make.)"""

    board: bytes
    size: int
    rack: bytes
    values: bytes
    letter_mult: bytes
    word_mult: bytes
    rack_size: int
    bingo: int
    start: tuple[int, int]


@dataclass(frozen=True)
class Weights:
    """What the static equity of a position's plays is computed from (``lexc.equity``): each
    tile code's weight in the number of the tiles a play uses (256: ``place``), the term of
    each such number (``terms``, in the rule's units), the units a point (``resolution``),
    and on the opening each code's vowel flag (256 bytes, else empty) and the penalty of
    each square of the start row and column (``penalties``: across by column, then down by
    row, for a ``size`` x ``size`` board)."""

    place: tuple[int, ...]
    terms: tuple[int, ...]
    resolution: int
    size: int
    vowel: bytes = b""
    penalties: tuple[int, ...] = ()


@dataclass(frozen=True)
class Weighed:
    """The static equities of a position's plays (``Backend.equities``): each play's, in the
    order generated; the largest (None without a play) and the places where it is, ascending
    (the best plays, found without a Python step a play on the compiled core)."""

    values: Sequence[int]
    best: int | None
    places: Sequence[int]

    @classmethod
    def of(cls, values: Sequence[int]) -> Weighed:
        """The equities, their largest and where it is."""
        best = max(values, default=None)
        return cls(values, best, [k for k, value in enumerate(values) if value == best])


class Backend:
    """The pure-Python backend: every hot operation runs its reference. The compiled backend
    overrides the operations the core implements."""

    name = "pure Python"
    compiled = False
    zero_copy = False  # whether a loaded file's edges are read in place (no Python list made)

    def cgp_board(self, text: str, n: int, table: bytes) -> bytes | None:
        """A CGP board field's n x n squares read at C speed (``board.parse_cgp``), or None for
        the Python reading (here: always)."""
        return None

    def graph(self, edges: Any, spec: GraphSpec, reference: Callable[[], T]) -> Any:
        """A word graph's query object (walks, listings, hooks, anagrams, patterns, the proof):
        the reference's here (``formats.graph.PureGraph``)."""
        return reference()

    def scan_u32(self, data: Any, slots: int, reference: Callable[[], T]) -> T | tuple[bool, int, int]:
        """An engine's headerless u32 array (a KWG-family file's bytes) in one pass, before it is
        read: whether every child index is inside it, the first entry from ``slots`` leading to
        a smaller tile (-1: none), the first all-zero entry from ``slots`` (-1: none): the
        reference's here (``formats.kwgfamily.scan_u32``)."""
        return reference()

    def unpad_u32(self, data: Any, slots: int, reference: Callable[[], T]) -> T | bytes | None:
        """An engine's u32 array with wolges's padding closed (the unreached all-zero entries
        after a list's end), or None when none is: the reference's here
        (``formats.kwgfamily.unpadded_u32``)."""
        return reference()

    def keyset(self, stream: Any, letters: int, encode: bytes | None, reference: Callable[[], T]) -> Any:
        """A prefix set's key stream, proved and ready for lookups (``formats.keystream.PureKeySet``'s
        calls): the reference's store here (Norvig's Python sets)."""
        return reference()

    def minimizer(self, reference: Callable[[], T], choose_layout: Callable[[int, str], Any]) -> Any:
        """A new incremental minimizer (``formats.minimize.Minimizer``'s interface; its ``pack``
        picks the edge layout with ``choose_layout(edges, requested)``)."""
        return reference()

    def combinations(self, words: Sequence[bytes], bag: tuple[int, ...], in_bag: int, blanks: int,
                     reference: Callable[[], list[int]]) -> list[int]:
        """Zyzzyva's combinations of each word (``lexicons.probability``)."""
        return reference()

    def findwords(self, data: Any, disk: int, letters: Sequence[int], blanks: int, rank: bytes, made: bytes,
                  n_letters: int, record: Callable[[int, int], None],
                  reference: Callable[[], Iterator[tuple[list[bytes], bytes]]]) -> Iterator[tuple[list[bytes], bytes]]:
        """Shapiro & Smith's findwords2 on an anagram trie's letter table: its groups in the
        paper's order, each (words, blank-made letters); ``record(bytes, nodes)`` is told what
        the search has read as it stood at each group, and at the end."""
        return reference()

    def scan_words(self, data: Any, disk: int, letters: int,
                   reference: Callable[[], Iterable[bytes]]) -> Iterable[bytes]:
        """Every word of an anagram trie's letter table, in file order."""
        return reference()

    def klv_rank(self, edges: Any, counts: Any, root: int, tiles: bytes,
                 reference: Callable[[], int | None]) -> int | None:
        """A leave's rank in a proven KLV graph (``formats.klv.KlvGraph.rank``): ``edges`` and
        ``counts`` u32 arrays (n and n + 1), ``tiles`` the engine's numbers sorted; None when
        the leave is not stored."""
        return reference()

    def generator(self, graph: Any, strategy: str, roots: tuple[int, int, int], size: int, values: bytes,
                  letter_mult: bytes, word_mult: bytes, rack_size: int, bingo: int,
                  start: tuple[int, int]) -> Generator | None:
        """A whole-position move generator for one graph, strategy and ruleset (its tile
        values by board code, every square's letter and word premium, rack size, bingo bonus,
        start square), called ``(board, tiles, cap)`` for each position (the board's n x n
        codes, the rack's letter codes with 0 for a blank) and giving ``(records, count,
        edges read)``: ``AnswerCap`` past ``cap`` plays. None where the backend does not run
        the strategy whole over the graph (here: never; the strategy then runs lane by lane,
        in Python)."""
        return None

    def runs_whole(self, strategy: str, graph: Any) -> bool:
        """Whether ``generator`` runs this strategy itself for a whole position over ``graph`` (what
        the bench reports; the move generator need not know)."""
        return False

    def equities(self, records: bytes, count: int, weights: Weights,
                 reference: Callable[[], Sequence[int]]) -> Weighed:
        """The static equity of each of ``count`` play records (``lexc.equity``): the
        reference's here."""
        return Weighed.of(reference())

    def endgame(self, position: Position, other: bytes, graph: Any, strategy: str, roots: tuple[int, int, int],
                scoreless: int, seconds: float, table_bits: int, max_depth: int,
                report: Callable[[int, int, int, float, bool], None] | None = None) -> tuple[Any, ...]:
        """The exact endgame search over ``graph`` (``lexc.engine.endgame``): (value, proven,
        depth, nodes, seconds, line records, stopped); ``report(depth, value, nodes, seconds,
        proven)`` after each iteration. Only the compiled core runs it; the engine runs its
        pure-Python reference where ``runs_whole`` is false."""
        raise NotImplementedError("the endgame search runs in the compiled core")

    def __repr__(self) -> str:
        return f"<backend: {self.name}>"


class CompiledBackend(Backend):
    """The compiled core's backend: its own code where it has the operation."""

    name = "compiled core (C)"
    compiled = True
    zero_copy = True

    def __init__(self, core: Any) -> None:
        self.core = core

    def cgp_board(self, text: str, n: int, table: bytes) -> bytes | None:
        """The core's reading of a CGP board field of one-character Latin-1 tiles (``table``:
        a character's code, 0 for none); None where it is anything else, for Python to read
        and name."""
        found: bytes | None = self.core.cgp_board(text, n, table)
        return found

    def scan_u32(self, data: Any, slots: int, reference: Callable[[], T]) -> T | tuple[bool, int, int]:
        """The core's one pass over an engine's u32 array (``scan_u32``: in C, where Python's
        passes took 3 ms for each check of a DAWG-only KWG of ENABLE and 20 for a KAD's
        alphagram check)."""
        found: tuple[bool, int, int] = self.core.scan_u32(data, slots)
        return found

    def unpad_u32(self, data: Any, slots: int, reference: Callable[[], T]) -> T | bytes | None:
        """The core's two passes (``unpad_u32``: where Python's passes took 16 ms for a KAD
        of ENABLE's 15 padding entries)."""
        found: bytes | None = self.core.unpad_u32(data, slots)
        return found

    def graph(self, edges: Any, spec: GraphSpec, reference: Callable[[], T]) -> Any:
        """The core's ``Graph`` over the stored edges, read in place (its constructor checks
        what its walks rely on: ``MalformedGraph`` otherwise)."""
        return self.core.Graph(edges, spec.layout, spec.letters, spec.pointers, spec.separator, spec.extra,
                               spec.member_root, spec.encode,
                               (spec.edge_bytes, spec.child_bits) if spec.edge_bytes else None)

    def keyset(self, stream: Any, letters: int, encode: bytes | None, reference: Callable[[], T]) -> Any:
        """The core's ``KeySet``: the stream proved in one pass and searched in place
        (``MalformedTable`` naming its first fault otherwise)."""
        return self.core.KeySet(stream, letters, encode)

    def minimizer(self, reference: Callable[[], T], choose_layout: Callable[[int, str], Any]) -> Any:
        """The core's minimizer, the reference's step for step."""
        return CompiledMinimizer(self.core, choose_layout)

    def combinations(self, words: Sequence[bytes], bag: tuple[int, ...], in_bag: int, blanks: int,
                     reference: Callable[[], list[int]]) -> list[int]:
        """The core's counts in one call; the reference where a count (or a binomial it needs)
        does not fit 64 bits, or a word is not one the core takes."""
        from math import comb

        one, two = comb(in_bag, 1), comb(in_bag, 2)
        if not words or two >= 1 << 64:
            return reference()
        table, big = _binomials(bag)
        try:  # (the core refuses an empty word, one over 64 tiles, a code outside the bag)
            out = self.core.combinations(b"\0".join(words) + b"\0", table, big, len(bag) - 1, one, two, blanks)
        except UnsupportedWord:
            return reference()
        if out is None or len(out) != 8 * len(words):  # a code 0 inside a word split it in two
            return reference()
        return memoryview(out).cast("Q").tolist()

    def findwords(self, data: Any, disk: int, letters: Sequence[int], blanks: int, rank: bytes, made: bytes,
                  n_letters: int, record: Callable[[int, int], None],
                  reference: Callable[[], Iterator[tuple[list[bytes], bytes]]]) -> Iterator[tuple[list[bytes], bytes]]:
        """The core's findwords2: every group at once, as one buffer, handed out group by group
        (``DamagedRecord`` for a damaged record)."""
        if len(letters) >= 128 or blanks > 64:
            return reference()
        return self._groups(data, disk, letters, blanks, rank, made, n_letters, record)

    def _groups(self, data: Any, disk: int, letters: Sequence[int], blanks: int, rank: bytes, made: bytes,
                n_letters: int, record: Callable[[int, int], None]) -> Iterator[tuple[list[bytes], bytes]]:
        record(0, 0)
        blob, count, nbytes, nodes = self.core.findwords(data, disk, struct.pack(f"<{len(letters)}H", *letters),
                                                         blanks, rank, made, n_letters)
        p = 0
        for _ in range(count):
            depth, nmade, nwords, read, seen = _GROUP.unpack_from(blob, p)
            p += _GROUP.size
            blanked = blob[p : p + nmade]
            p += nmade
            record(read, seen)  # as the search stood at this group (the detach point)
            yield [blob[q : q + depth] for q in range(p, p + nwords * depth, depth)], blanked
            p += nwords * depth
        record(nbytes, nodes)

    def scan_words(self, data: Any, disk: int, letters: int,
                   reference: Callable[[], Iterable[bytes]]) -> Iterable[bytes]:
        """The core's pass over the file; the reference names a damaged record (the core
        only says there is one)."""
        blob = self.core.scan_words(data, disk, letters)
        return reference() if blob is None else blob.split(b"\0")[:-1]

    def klv_rank(self, edges: Any, counts: Any, root: int, tiles: bytes,
                 reference: Callable[[], int | None]) -> int | None:
        """The core's walk (``src/lexc/native/leaves.c``) over the same two arrays; the
        reference for a leave of more than 255 tiles."""
        if not tiles or len(tiles) > 255:
            return reference()
        rank: int = self.core.klv_rank(edges, counts, root, tiles)
        return None if rank < 0 else rank

    def generator(self, graph: Any, strategy: str, roots: tuple[int, int, int], size: int, values: bytes,
                  letter_mult: bytes, word_mult: bytes, rack_size: int, bingo: int,
                  start: tuple[int, int]) -> Generator | None:
        """The core's ``Generator`` (``src/lexc/native/movegen.c``) for Appel & Jacobson's and
        Gordon's strategies over a graph it holds: the graph and ruleset checked once, then
        each position searched whole; None for any other strategy or lexicon."""
        if not self.runs_whole(strategy, graph):
            return None
        made = self.core.Generator(graph, size, CORE_STRATEGIES[strategy], roots[0], roots[1], roots[2], values,
                                   letter_mult, word_mult, rack_size, bingo, start[0], start[1])
        plays: Generator = made.plays
        return plays

    def runs_whole(self, strategy: str, graph: Any) -> bool:
        """Appel & Jacobson's and Gordon's strategies over a graph of the core's own."""
        return strategy in CORE_STRATEGIES and isinstance(graph, self.core.Graph)

    def endgame(self, position: Position, other: bytes, graph: Any, strategy: str, roots: tuple[int, int, int],
                scoreless: int, seconds: float, table_bits: int, max_depth: int,
                report: Callable[[int, int, int, float, bool], None] | None = None) -> tuple[Any, ...]:
        """The core's search (``src/lexc/native/endgame.c``), ``position.rack`` the side to
        move's, ``other`` the opponent's (counts by letter code)."""
        found: tuple[Any, ...] = self.core.endgame(
            graph, position.board, position.size, position.rack, other, CORE_STRATEGIES[strategy], roots[0],
            roots[1], roots[2], position.values, position.letter_mult, position.word_mult, position.rack_size,
            position.bingo, position.start[0], position.start[1], scoreless, seconds, table_bits, max_depth, report)
        return found

    def equities(self, records: bytes, count: int, weights: Weights,
                 reference: Callable[[], Sequence[int]]) -> Weighed:
        """The static equity of each play record, summed by the core (an ``array('q')``), and
        the best; the reference where a record is past the core's bounds (a crafted ruleset's
        score)."""
        from array import array

        found = self.core.equities(records, count, array("i", weights.place).tobytes(),
                                   array("q", weights.terms).tobytes(), weights.resolution, weights.vowel,
                                   array("q", weights.penalties).tobytes(), weights.size)
        if found is None:
            return Weighed.of(reference())
        blob, best, at = found
        values, places = array("q"), array("q")
        values.frombytes(blob)
        places.frombytes(at)
        return Weighed(values, best, places)

    def ranked(self, records: bytes, count: int, board: bytes, size: int, texts: tuple[bytes, ...],
               limit: int) -> tuple[list[str], list[int]]:
        """The plays of the core's records best first: (notations, scores), the first ``limit``."""
        ranked: tuple[list[str], list[int]] = self.core.ranked(records, count, board, size, texts, limit)
        return ranked

    def notations(self, records: bytes, count: int, board: bytes, size: int, texts: tuple[bytes, ...]) -> list[str]:
        """The notation of each of the core's play records."""
        notations: list[str] = self.core.notations(records, count, board, size, texts)
        return notations

    def batch_json(self, records: bytes, count: int, board: bytes, size: int, texts: tuple[bytes, ...],
                   json_texts: tuple[bytes, ...], limit: int) -> bytes:
        """The line ``lexc moves --batch --json`` prints for the core's records."""
        line: bytes = self.core.batch_json(records, count, board, size, texts, json_texts, limit)
        return line


class CompiledMinimizer:
    """The core's minimizer (``src/lexc/native/minimize.c``) with the reference's interface:
    the same algorithm step for step, so the same node indices and the same packed bytes (the
    tests build every word graph on both backends and compare the files)."""

    def __init__(self, core: Any, choose_layout: Callable[[int, str], Any]) -> None:
        self._m = core.Minimizer()
        self._choose_layout = choose_layout

    def add_language(self, words: Any, linked: bool = False) -> int:
        """``Minimizer.add_language``."""
        return int(self._m.add_language(words, linked))

    def child(self, node: int, letter: int) -> int:
        """``Minimizer.child``."""
        return int(self._m.child(node, letter))

    @property
    def n_nodes(self) -> int:
        """Distinct edge lists registered."""
        return int(self._m.counts()[0])

    @property
    def trie_nodes(self) -> int:
        """Nodes of the equivalent trie."""
        return int(self._m.counts()[1])

    def pack(self, roots: Sequence[int], layout: str = "auto", *, share_tails: bool = False,
             parents_first: bool = False) -> tuple[Any, Any, int]:
        """``Minimizer.pack``: the positions are laid out in C, the layout chosen by the
        caller's rule, and the array written in C."""
        from array import array

        roots = list(roots)
        size, reached = self._m.layout(roots, share_tails, parents_first)
        chosen = self._choose_layout(size, layout)
        out = array(chosen.typecode)
        out.frombytes(self._m.emit(roots, chosen.itemsize, chosen.letter_shift, chosen.terminal_bit,
                                   chosen.last_bit, chosen.child_bits))
        return out, chosen, int(reached)


_BINOMIALS: dict[tuple[int, ...], tuple[bytes, bytes]] = {}


def _binomials(bag: tuple[int, ...]) -> tuple[bytes, bytes]:
    """C(bag count, k) for every code and k = 0..64 as the core reads them (u64 little-endian,
    row by row), and a byte per entry marking those that do not fit 64 bits (kept per bag)."""
    kept = _BINOMIALS.get(bag)
    if kept is None:
        from math import comb

        values, big = [], bytearray()
        for count in bag:
            for k in range(65):
                value = comb(count, k)
                values.append(value if value < 1 << 64 else 0)
                big.append(value >= 1 << 64)
        if len(_BINOMIALS) >= 16:
            _BINOMIALS.clear()
        kept = _BINOMIALS[bag] = (b"".join(v.to_bytes(8, "little") for v in values), bytes(big))
    return kept
