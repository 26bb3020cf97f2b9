"""KLV, KLV2 and KLV16: the leave-value files of wolges and MAGPIE (``formats/klv.md``).

A KLV file is a u32 count of edges, that many KWG edges (``formats/kwg.md``: tile in bits
24-31, accepts 23, end of siblings 22, child index 0-21) holding a DAWG of the leaves (each
leave its tiles sorted, the blank tile 0 first), a u32 count of leaves, and one value per
leave in the order of the leaves' ranks: the index of a leave's value is the number of
leaves before it in the graph, siblings in their stored order. KLV2 stores f32 values, KLV
i16 in 1/256 points, KLV16 (wolges, for magpie-retro) i16 in 1/8 points; the bytes of a KLV16
cannot be told from a KLV's, so it is read only by name. Little-endian throughout, no
magic, no checksum: ``KlvGraph.open`` proves everything before any lookup.

Two writers: wolges's (``buildlex english-klv2`` and the like: a minimal DAWG sharing the
ends of sibling lists, laid out in wolges's order), and MAGPIE's (``convert csv2klv``: every
leave the bag can hold, children lists shared only when equal, laid out breadth-first under
each node), each giving that engine's bytes for the same input.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections import deque
from typing import TYPE_CHECKING, ClassVar

from ..plural import plural
from .errors import FormatError
from .foreign import tile_map
from .leaves import (
    BLANK,
    F32,
    I16_8,
    I16_256,
    MAGPIE_F32,
    MAX_LEAVES,
    LeaveFormat,
    LeaveTable,
    Precision,
    Rounding,
    drawable_leaves,
)

if TYPE_CHECKING:
    from .. import native
    from ..ruleset import Ruleset
    from .base import LexiconBase

CHILD = 0x3FFFFF
END = 1 << 22
ACCEPTS = 1 << 23
MAX_EDGES = 1 << 22  # the 22-bit child index addresses no more
ALL = 0xFFFFFFFF


def _u32s(data: bytes) -> array[int]:
    out = array("I")
    out.frombytes(data)
    if sys.byteorder == "big":
        out.byteswap()
    return out


def _layout(data: bytes) -> tuple[int, int, int] | None:
    """(edges, leaves, bytes a value) of a KLV-family file's sizes, or None when the counts
    do not add up (a leave count of 0 reads as f32)."""
    if len(data) < 8:
        return None
    edges = int.from_bytes(data[:4], "little")
    if not 1 <= edges <= MAX_EDGES or 8 + 4 * edges > len(data):
        return None
    leaves = int.from_bytes(data[4 + 4 * edges : 8 + 4 * edges], "little")
    rest = len(data) - 8 - 4 * edges
    if rest == 4 * leaves:
        return edges, leaves, 4
    if rest == 2 * leaves:
        return edges, leaves, 2
    return None


def looks_like_klv(head: bytes, size: int, width: int) -> bool:
    """Whether a file starting with ``head`` (of ``size`` bytes) has a KLV's shape with
    values ``width`` bytes wide: an edge count that fits, the first edge the pointer to the
    DAWG root (tile 0, end of siblings, not accepting), the rest a whole number of values
    (their count checked where the head holds it)."""
    if len(head) < 8 or size < 12:
        return False
    edges = int.from_bytes(head[:4], "little")
    pointer = int.from_bytes(head[4:8], "little")
    if not 1 <= edges <= MAX_EDGES or 8 + 4 * edges > size or pointer & ~CHILD != END or pointer & CHILD >= edges:
        return False
    rest = size - 8 - 4 * edges
    if rest % width:
        return False
    if len(head) >= 8 + 4 * edges:
        leaves = int.from_bytes(head[4 + 4 * edges : 8 + 4 * edges], "little")
        return rest == width * leaves
    return True


class KlvGraph:
    """A KLV's leave DAWG, proven: its edges as stored (tile numbers the engine's), the root,
    and for each edge the number of leaves at and after it in its sibling list (``counts``,
    the engines' ``count_words``): the rank of a leave is the sum, along its path, of the
    leaves before each edge taken in its list, and of the leaves ending above it."""

    def __init__(self, edges: array[int], root: int, counts: list[int], to_engine: bytes,
                 backend: native.Backend | None = None):
        from .. import native as core

        self.edges, self.root, self.counts, self.to_engine = edges, root, counts, to_engine
        self.backend = backend if backend is not None else core.select()  # (the rank walk's: C or Python)
        self._counts32: array[int] | None = None

    @classmethod
    def open(cls, edges: array[int], leaves: int, name: str, ruleset: Ruleset,
             engine: str = "wolges") -> tuple[KlvGraph, list[bytes]]:
        """The proven graph and its leaves in rank order (lexc's codes, sorted). Checked
        first, each failure one FormatError line: the root pointer; every edge's child inside
        the array and its tile inside the alphabet (0 the blank); every sibling list ending
        inside the array, its tiles strictly ascending; no cycle; no leave longer than the
        rack; every leave's tiles in order (the engines look leaves up sorted: another order
        is never found); the number of leaves equal to the values' count."""
        n = len(edges)
        to_lexc, to_engine = tile_map(ruleset, engine)
        letters = len(ruleset.alphabet)
        pointer = edges[0]
        if pointer & ~CHILD != END:
            raise FormatError(f"{name}: edge 0 is not the pointer to the leaves' root (tile 0, end of siblings): "
                              f"0x{pointer:08x}")
        root = pointer & CHILD
        if root >= n:
            raise FormatError(f"{name}: the root pointer {root} is outside the {plural(n, 'edge')}")
        for i in range(1, n):
            e = edges[i]
            if e & CHILD >= n:
                raise FormatError(f"{name}: edge {i} points at {e & CHILD}, outside the {plural(n, 'edge')}")
            if e >> 24 > letters:
                raise FormatError(f"{name}: edge {i} holds tile {e >> 24}, outside the {ruleset.name} alphabet "
                                  f"(0 the blank, 1..{letters})")
        counts = [0] * (n + 1)
        depth = [0] * (n + 1)  # the longest leave below a list's first edge
        state = bytearray(n + 1)  # 0 unseen, 1 on the path, 2 done (a list, by its first edge)
        longest = ruleset.rack_size
        if root:
            stack = [(root, False)]
            while stack:
                start, ready = stack.pop()
                if ready:
                    cls._finish(edges, start, counts, depth, leaves, name)
                    if depth[start] > longest:
                        raise FormatError(f"{name}: holds a leave of {depth[start]} tiles or more, longer than the "
                                          f"{ruleset.name} rack's {longest}")
                    state[start] = 2
                    continue
                if state[start] == 2:
                    continue
                if state[start] == 1:
                    raise FormatError(f"{name}: the graph has a cycle through edge {start}")
                state[start] = 1
                stack.append((start, True))
                i, previous = start, -1
                while True:
                    if i >= n:
                        raise FormatError(f"{name}: the sibling list at edge {start} runs off the end of the array")
                    e = edges[i]
                    if e >> 24 <= previous:
                        raise FormatError(f"{name}: edge {i} breaks the ascending tile order of its sibling list "
                                          f"(tile {e >> 24} after {previous})")
                    previous = e >> 24
                    child = e & CHILD
                    if child:
                        if state[child] == 1:
                            raise FormatError(f"{name}: the graph has a cycle through edge {child}")
                        if state[child] == 0:
                            stack.append((child, False))
                    if e & END:
                        break
                    i += 1
        total = counts[root] if root else 0
        if total != leaves:
            raise FormatError(f"{name}: the graph holds {plural(total, 'leave')} but the file has "
                              f"{plural(leaves, 'value')}")
        graph = cls(edges, root, counts, to_engine)
        return graph, graph._leaves(to_lexc, name)

    @staticmethod
    def _finish(edges: array[int], start: int, counts: list[int], depth: list[int], cap: int, name: str) -> None:
        """The counts of a sibling list whose children's lists are done, from its last edge
        back (a count above ``cap``, the file's values, is refused before it can grow)."""
        run = []
        i = start
        while True:
            run.append(i)
            if edges[i] & END:
                break
            i += 1
        after, deepest = 0, 0
        for i in reversed(run):
            e = edges[i]
            child = e & CHILD
            below = counts[child] if child else 0
            after += (1 if e & ACCEPTS else 0) + below
            if after > cap:
                raise FormatError(f"{name}: the graph holds more leaves than the file's {plural(cap, 'value')}")
            counts[i] = after
            deepest = max(deepest, 1 + (depth[child] if child else 0))
        depth[start] = deepest

    def _leaves(self, to_lexc: bytes, name: str) -> list[bytes]:
        """Every leave in rank order (a depth-first walk, siblings in stored order), in
        lexc's codes sorted; a FormatError for a leave whose tiles are not in order."""
        out: list[bytes] = []
        edges = self.edges
        if not self.root:
            return out
        path: list[int] = []
        stack = [(self.root, 0)]
        while stack:
            i, depth = stack.pop()
            del path[depth:]
            e = edges[i]
            tile = e >> 24
            if path and tile < path[-1]:
                raise FormatError(f"{name}: a leave's tiles are out of order (tile {tile} after {path[-1]} at edge {i}:"
                                  " the engines look leaves up sorted, so it could never be found)")
            if not e & END:
                stack.append((i + 1, depth))
            path.append(tile)
            if e & ACCEPTS:
                out.append(bytes(sorted(bytes(path).translate(to_lexc))))
            if e & CHILD:
                stack.append((e & CHILD, depth + 1))
        return out

    def rank(self, leave: bytes) -> int | None:
        """The rank of a leave (lexc's codes, sorted) as wolges finds it, on the graph's backend:
        the compiled core's walk over the file's arrays, or ``rank_pure`` (its reference)."""
        tiles = bytes(sorted(leave.translate(self.to_engine)))
        if not tiles or not self.root:
            return None
        if not self.backend.compiled:
            return self.rank_pure(tiles)
        if self._counts32 is None:
            self._counts32 = array("I", self.counts)
        return self.backend.klv_rank(self.edges, self._counts32, self.root, tiles, lambda: self.rank_pure(tiles))

    def rank_pure(self, tiles: bytes) -> int | None:
        """The reference walk: the tiles (the engine's numbers, sorted) followed from the
        root; at each list the leaves of the edges passed over are added, and one for each
        accepting edge taken; None when a tile is missing or the last edge does not accept."""
        if not tiles:
            return None
        edges, counts = self.edges, self.counts
        p, index, last = self.root, 0, len(tiles) - 1
        for k, tile in enumerate(tiles):
            if not p:
                return None
            while edges[p] >> 24 != tile:
                if edges[p] & END:
                    return None
                index += counts[p] - counts[p + 1]
                p += 1
            e = edges[p]
            if k == last:
                return index if e & ACCEPTS else None
            index += 1 if e & ACCEPTS else 0
            p = e & CHILD
        return None


# -- writing ----------------------------------------------------------------------------------

def _edge(tile: int, accepts: bool, end: bool, child: int) -> int:
    return tile << 24 | (ACCEPTS if accepts else 0) | (END if end else 0) | child


def build_wolges(words: list[bytes]) -> list[int]:
    """The edges of wolges's DAWG-only KWG of ``words`` (sorted, distinct; tiles the
    engine's numbers, the blank 0), node for node as ``buildlex`` lays it out: the layout of
    every wolges file lexc writes (``wolgesgraph``: lists sharing their ends, placed by how
    many paths reach them into blocks of 16 edges)."""
    from .kwgfamily import kwg_bytes
    from .wolgesgraph import build_states, layout

    raw = kwg_bytes(layout(build_states(words, gaddag=False), MAX_EDGES))
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def build_magpie(words: list[bytes]) -> list[int]:
    """The edges of MAGPIE's DAWG of ``words`` (sorted, distinct; MAGPIE's tile numbers)
    as ``kwg_maker`` lays out a KLV's: a trie whose nodes share their children lists only
    when the lists are equal (the last such node, in the order the trie made them, keeps
    it), the DAWG root's pointer at edge 0, an empty GADDAG root at edge 1, then each kept
    node's children together, the nodes taken breadth first and each node's children last
    to first (found by comparing with MAGPIE's own file: ``formats/klv.md``)."""
    tiles: list[int] = [0]
    accepts: list[bool] = [False]
    children: list[list[int]] = [[]]
    for word in words:
        node = 0
        for tile in word:
            for child in children[node]:
                if tiles[child] == tile:
                    node = child
                    break
            else:
                tiles.append(tile)
                accepts.append(False)
                children.append([])
                children[node].append(len(tiles) - 1)
                node = len(tiles) - 1
        accepts[node] = True
    total = len(tiles)
    # equal children lists, bottom-up: a node's id with itself, and the id of its list
    kid_id = [0] * total
    node_id: dict[tuple[int, bool, int], int] = {}
    list_id: dict[tuple[int, ...], int] = {}
    own = [0] * total
    for n in range(total - 1, -1, -1):  # (a child is made after its parent)
        kid_id[n] = list_id.setdefault(tuple(own[c] for c in children[n]), len(list_id))
        own[n] = node_id.setdefault((tiles[n], accepts[n], kid_id[n]), len(node_id))
    keeper: dict[int, int] = {}
    merged = [-1] * total
    for n in range(total - 1, -1, -1):  # (MAGPIE's table keeps the last node made with a list)
        last = keeper.setdefault(kid_id[n], n)
        if last != n:
            merged[n] = last
    final = [0] * total
    end = [False] * total
    order = [0, -1]  # the DAWG root, the (empty) GADDAG root
    queue = deque([0])
    while queue:  # breadth first, each node's children taken last to first
        node = queue.popleft()
        if merged[node] >= 0:
            continue
        kids = children[node]
        for i, child in enumerate(kids):
            end[child] = i == len(kids) - 1
            final[child] = len(order)
            order.append(child)
        queue.extend(reversed(kids))
    if len(order) > MAX_EDGES:
        raise FormatError(f"too big for a KLV: {len(order):,} edges (at most {MAX_EDGES:,})")
    out = [_edge(0, False, True, final[children[0][0]] if children[0] else 0), END]
    for node in order[2:]:
        kids = children[merged[node] if merged[node] >= 0 else node]
        out.append(_edge(tiles[node], accepts[node], end[node], final[kids[0]] if kids else 0))
    return out


def pack(edges: list[int], values: list[float], precision: Precision) -> bytes:
    """A KLV file: the edge count, the edges, the value count, the values (f32, or i16 in
    ``precision``'s steps), little-endian."""
    head = struct.pack(f"<I{len(edges)}I", len(edges), *edges)
    count = struct.pack("<I", len(values))
    if precision.f32:
        return head + count + struct.pack(f"<{len(values)}f", *values)
    return head + count + struct.pack(f"<{len(values)}h", *(precision.units(v) for v in values))


# -- the formats ------------------------------------------------------------------------------

class _KlvFamily(LeaveFormat):
    """What KLV, KLV2 and KLV16 share: one reader (the value width told by the file's size,
    as wolges tells it), two writers (wolges's, MAGPIE's)."""

    engine = "wolges, MAGPIE"
    width: ClassVar[int] = 4
    by_name_only: ClassVar[bool] = False

    @classmethod
    def sniff(cls, head: bytes, size: int) -> bool:
        return not cls.by_name_only and looks_like_klv(head, size, cls.width)

    @classmethod
    def read(cls, data: bytes, name: str, ruleset: Ruleset, backend: native.Backend | None = None) -> LexiconBase:
        found = _layout(data)
        kind = "KLV2" if found is not None and found[2] == 4 else "KLV (or KLV16)"
        raise FormatError(f"{name}: a {kind} leave-value file (wolges, MAGPIE), not a lexicon: read it with "
                          f"'lexc leaves {name}'")

    @classmethod
    def read_leaves(cls, data: bytes, name: str, ruleset: Ruleset) -> LeaveTable:
        """The table of a KLV-family file, after every check (``KlvGraph.open``); a KLV2 and a
        KLV are told apart by their size, as wolges does; a KLV16 is read only when named."""
        found = _layout(data)
        if found is None:
            raise FormatError(f"{name}: not a KLV file ({_shape(data)})")
        count, leaves, width = found
        if leaves > MAX_LEAVES:
            raise FormatError(f"{name}: {plural(leaves, 'leave')}, more than the {MAX_LEAVES:,} lexc reads")
        if cls.by_name_only and width != cls.width and leaves:
            raise FormatError(f"{name}: its values are {width} bytes each, a KLV2's, not a {cls.name.upper()}'s")
        fmt: type[_KlvFamily] = cls if width == cls.width or not leaves else (Klv2 if width == 4 else Klv)
        edges = _u32s(data[4 : 4 + 4 * count])
        graph, order = KlvGraph.open(edges, leaves, name, ruleset)
        raw = data[8 + 4 * count :]
        if width == 4:
            values = list(struct.unpack(f"<{leaves}f", raw))
            for leave, value in zip(order, values, strict=True):
                if value != value or value in (float("inf"), float("-inf")):
                    raise FormatError(f"{name}: the value of a leave of {plural(len(leave), 'tile')} is not a number")
        else:
            step = fmt.precision.step
            assert step is not None
            values = [v * step for v in struct.unpack(f"<{leaves}h", raw)]
        return LeaveTable(dict(zip(order, values, strict=True)), ruleset, fmt.precision, fmt.name, name, graph)

    @classmethod
    def write_leaves(cls, table: LeaveTable, ruleset: Ruleset, like: str = "") -> tuple[bytes, Rounding]:
        """The table as this format's bytes, as wolges's ``buildlex`` writes them (its node
        order, the leaves the table holds); ``like="magpie"``: as MAGPIE's ``csv2klv``, every
        leave of 1 to rack-size - 1 tiles the bag can hold (0 for one the table lacks)."""
        engine = "magpie" if like == "magpie" else "wolges"
        _, to_engine = tile_map(ruleset, engine)
        if like == "magpie" and cls.precision.f32:  # MAGPIE keeps milli-points, and writes them back as f32
            values, rounding = table.at(MAGPIE_F32)
        else:
            values, rounding = table.at(cls.precision)
        if like == "magpie":
            wanted = list(drawable_leaves(ruleset))
            known = set(wanted)
            stray = next((leave for leave in values if leave not in known), None)
            if stray is not None:
                raise FormatError(f"leave {table.text(stray)} is not one MAGPIE's KLV holds (it holds every leave of "
                                  f"1 to {ruleset.rack_size - 1} tiles the {ruleset.name} bag can hold)")
            pairs = [(bytes(sorted(leave.translate(to_engine))), values.get(leave, 0.0)) for leave in wanted]
        else:
            pairs = [(bytes(sorted(leave.translate(to_engine))), v) for leave, v in values.items()]
        pairs.sort()
        words = [tiles for tiles, _ in pairs]
        edges = build_magpie(words) if like == "magpie" else build_wolges(words)
        return pack(edges, [v for _, v in pairs], cls.precision), rounding


def _shape(data: bytes) -> str:
    """Why a file's sizes are not a KLV's, in a few words."""
    if len(data) < 8:
        return f"{plural(len(data), 'byte')}; a KLV holds at least an edge count and a leave count"
    edges = int.from_bytes(data[:4], "little")
    if not 1 <= edges <= MAX_EDGES or 8 + 4 * edges > len(data):
        return f"its first four bytes count {edges:,} edges, which {plural(len(data), 'byte')} cannot hold"
    leaves = int.from_bytes(data[4 + 4 * edges : 8 + 4 * edges], "little")
    need = 8 + 4 * edges
    return (f"{plural(edges, 'edge')} and {plural(leaves, 'leave')} take {need + 2 * leaves:,} bytes (KLV, KLV16) "
            f"or {need + 4 * leaves:,} (KLV2); the file has {len(data):,}")


class Klv2(_KlvFamily):
    """wolges's and MAGPIE's KLV2: f32 values."""

    name = "klv2"
    extensions = (".klv2",)
    description = "KLV2 leave values: a DAWG of the leaves (KWG edges) and one f32 value a leave, by rank"
    spec = "formats/klv.md"
    precision = F32
    width = 4


class Klv(_KlvFamily):
    """wolges's KLV: i16 values in 1/256 points."""

    name = "klv"
    engine = "wolges"
    extensions = (".klv",)
    description = "KLV leave values: a DAWG of the leaves (KWG edges) and one i16 value a leave in 1/256 points"
    spec = "formats/klv.md"
    precision = I16_256
    width = 2


class Klv16(_KlvFamily):
    """wolges's KLV16 (for magpie-retro): i16 values in 1/8 points; its bytes are a KLV's,
    so it is read only when named (``--format klv16``, a ``.klv16`` file name)."""

    name = "klv16"
    engine = "wolges"
    extensions = (".klv16",)
    description = "KLV16 leave values: as KLV, i16 values in 1/8 points (read only by name: its bytes are a KLV's)"
    spec = "formats/klv.md"
    precision = I16_8
    width = 2
    by_name_only = True


__all__ = ["BLANK", "Klv", "Klv2", "Klv16", "KlvGraph", "build_magpie", "build_wolges", "looks_like_klv", "pack"]
