"""An independent KWG reader and a small GADDAG move generator on top of it, for the tests.

It stands in for wolges, Macondo or MAGPIE: it reads a ``.kwg`` file's bytes itself and
uses nothing of lexc's lexicon or graph code, so a play lexc finds and this engine misses
is a play those engines would miss on lexc's file. From lexc it takes only the board, the
ruleset data and ``Play`` (to write a found play as notation).

The KWG layout (formats/kwg.md): little-endian u32 edges, tile in bits 24-31 (0 is the
GADDAG separator), accepts bit 23, end-of-siblings bit 22, child index in bits 0-21;
entry 0 points at the DAWG root, entry 1 at the GADDAG root. A tile is looked up the
wolges way: walk the siblings in ascending order and stop at the first tile that is not
smaller than the one sought. That only works when every sibling list is ascending with
the separator first.
"""

from __future__ import annotations

import sys
from array import array

from lexc.board.board import Board
from lexc.board.notation import Play
from lexc.ruleset import Ruleset

SEP = 0
ACCEPTS = 1 << 23
END = 1 << 22
CHILD = (1 << 22) - 1
BLANK = 0x80  # a blank on the board (or placed) is its letter's code | BLANK


class Kwg:
    """The edges of a KWG file, with the lookups an engine does on them. A *node* is the
    index of its first edge; an *edge* is an index into ``edges``."""

    def __init__(self, data: bytes):
        if len(data) % 4 or len(data) < 8:
            raise ValueError(f"not a KWG: {len(data)} bytes")
        edges = array("I")
        assert edges.itemsize == 4
        edges.frombytes(data)
        if sys.byteorder == "big":
            edges.byteswap()
        self.edges = edges.tolist()
        self.dawg_root = self.edges[0] & CHILD
        self.gaddag_root = self.edges[1] & CHILD

    @classmethod
    def read(cls, path) -> Kwg:
        """The KWG in a file."""
        with open(path, "rb") as f:
            return cls(f.read())

    def tile(self, edge: int) -> int:
        return self.edges[edge] >> 24

    def accepts(self, edge: int) -> bool:
        return bool(self.edges[edge] & ACCEPTS)

    def child(self, edge: int) -> int:
        """The node below an edge (0: none)."""
        return self.edges[edge] & CHILD

    def siblings(self, node: int):
        """The edges of a node, in stored order."""
        edges, p = self.edges, node
        while True:
            yield p
            if edges[p] & END:
                return
            p += 1

    def seek(self, node: int, tile: int) -> int:
        """The edge of ``tile`` in ``node`` (-1 if none), found as wolges finds it: scan the
        ascending siblings, stop at the first tile >= ``tile``."""
        edges, p = self.edges, node
        while True:
            e = edges[p]
            t = e >> 24
            if t >= tile:
                return p if t == tile else -1
            if e & END:
                return -1
            p += 1

    def walk(self, node: int, tiles) -> int:
        """The edge of the last of ``tiles`` read from ``node`` (-1 if the path breaks;
        ``tiles`` must not be empty)."""
        edge = -1
        for t in tiles:
            if not node:
                return -1
            edge = self.seek(node, t)
            if edge < 0:
                return -1
            node = self.edges[edge] & CHILD
        return edge

    def spell(self, node: int, prefix: tuple = ()) -> list[tuple]:
        """Every accepted tile string below a node (for the DAWG half: its words)."""
        out = []
        for edge in self.siblings(node):
            path = (*prefix, self.tile(edge))
            if self.accepts(edge):
                out.append(path)
            if self.child(edge):
                out += self.spell(self.child(edge), path)
        return out

    def cross_set(self, before: list[int], after: list[int]) -> int:
        """The letters L (bitmask, bit L) such that ``before`` + L + ``after`` is a word,
        through the DAWG half: walk ``before``, then try each child letter with ``after``."""
        node = self.dawg_root
        if before:
            edge = self.walk(node, before)
            node = self.child(edge) if edge >= 0 else 0
        mask = 0
        if node:
            for edge in self.siblings(node):
                if after:
                    end = self.walk(self.child(edge), after)
                    ok = end >= 0 and self.accepts(end)
                else:
                    ok = self.accepts(edge)
                if ok:
                    mask |= 1 << self.tile(edge)
        return mask


class Lane:
    """One row of a grid (a column of the board, for plays down, from the transposed grid):
    its squares, and per square the cross-check mask, the cross-sum (the value of the tiles
    in line with it across the lane, -1 if none), the premiums and the anchor flag."""

    def __init__(self, kwg: Kwg, grid, index: int, premiums, anchors, values, every_letter: int):
        n = len(grid)
        self.squares = grid[index]
        self.anchors = anchors[index]
        self.letter_mult = [p[0] for p in premiums[index]]
        self.word_mult = [p[1] for p in premiums[index]]
        self.checks, self.cross = [0] * n, [-1] * n
        for c in range(n):
            if self.squares[c]:
                continue
            above = _run(grid, index - 1, c, -1)[::-1]
            below = _run(grid, index + 1, c, 1)
            if not above and not below:
                self.checks[c] = every_letter
                continue
            self.checks[c] = kwg.cross_set([t & ~BLANK for t in above], [t & ~BLANK for t in below])
            self.cross[c] = sum(values[t] for t in above + below)


def _run(grid, row: int, col: int, step: int) -> list[int]:
    """The tiles in column ``col`` from ``row`` on, going by ``step``, up to an empty square."""
    out = []
    while 0 <= row < len(grid) and grid[row][col]:
        out.append(grid[row][col])
        row += step
    return out


class LaneSearch:
    """Gordon's search in one lane: from each anchor, read leftwards through the GADDAG
    (board tiles, or rack tiles on empty squares that are not anchors: a play is found from
    its leftmost anchor), then past the separator rightwards from the square after the
    anchor. Found plays are (start, tiles, score), tiles 0 on squares played through."""

    def __init__(self, kwg: Kwg, lane: Lane, counts: list[int], ruleset: Ruleset, values, down: bool):
        self.kwg, self.edges, self.lane, self.counts = kwg, kwg.edges, lane, counts
        self.values, self.down = values, down
        self.rack_size, self.bingo = ruleset.rack_size, ruleset.bingo_bonus
        self.tiles = sum(counts)
        self.n = len(lane.squares)
        self.cur = [0] * self.n  # the tile placed on each square (0: none)
        self.found: list[tuple[int, bytes, int]] = []
        self.anchor = 0

    def run(self) -> list[tuple[int, bytes, int]]:
        for anchor, flag in enumerate(self.lane.anchors):
            if flag:
                self.anchor = anchor
                self.cover(anchor, self.kwg.gaddag_root, anchor, 0, 1, 0, 0, self.went_left)
        return self.found

    def free(self, pos: int) -> bool:
        """Off the lane, or an empty square: a word may end beside it."""
        return not 0 <= pos < self.n or not self.lane.squares[pos]

    def cover(self, pos, node, lo, main, factor, cross, placed, then):
        """Cover square ``pos`` from GADDAG ``node``: with its board tile, or with each rack
        tile (natural, then blank) the node and the cross-check allow; then ``then``."""
        board_tile = self.lane.squares[pos]
        if board_tile:
            edge = self.kwg.seek(node, board_tile & ~BLANK)
            if edge >= 0:
                then(pos, edge, lo, main + self.values[board_tile], factor, cross, placed)
            return
        if placed == self.tiles:
            return
        edges, counts, mask = self.edges, self.counts, self.lane.checks[pos]
        for edge in self.kwg.siblings(node):
            t = edges[edge] >> 24
            if t and mask >> t & 1:
                if counts[t]:
                    self.put(pos, edge, t, t, lo, main, factor, cross, placed, then)
                if counts[0]:
                    self.put(pos, edge, t | BLANK, 0, lo, main, factor, cross, placed, then)

    def put(self, pos, edge, code, rack_slot, lo, main, factor, cross, placed, then):
        """Place a rack tile (``code``, from rack slot ``rack_slot``: 0 = a blank), score it
        and go on."""
        lane = self.lane
        value = self.values[code] * lane.letter_mult[pos]
        mult = lane.word_mult[pos]
        if lane.cross[pos] >= 0:
            cross += (lane.cross[pos] + value) * mult
        self.counts[rack_slot] -= 1
        self.cur[pos] = code
        then(pos, edge, lo, main + value, factor * mult, cross, placed + 1)
        self.cur[pos] = 0
        self.counts[rack_slot] += 1

    def went_left(self, pos, edge, lo, main, factor, cross, placed):
        """After covering ``pos`` leftwards: a word ending at the anchor, further left, or
        the separator and rightwards."""
        e, anchor = self.edges[edge], self.anchor
        if e & ACCEPTS and pos < anchor and self.free(pos - 1) and self.free(anchor + 1):
            self.emit(pos, anchor, main, factor, cross, placed)
        child = e & CHILD
        if not child:
            return
        if pos > 0 and (self.lane.squares[pos - 1] or not self.lane.anchors[pos - 1]):
            self.cover(pos - 1, child, pos - 1, main, factor, cross, placed, self.went_left)
        if self.free(pos - 1) and anchor + 1 < self.n:
            sep = self.kwg.seek(child, SEP)
            if sep >= 0 and self.edges[sep] & CHILD:
                self.cover(anchor + 1, self.edges[sep] & CHILD, pos, main, factor, cross, placed, self.went_right)

    def went_right(self, pos, edge, lo, main, factor, cross, placed):
        """After covering ``pos`` rightwards: a word ending here, or further right."""
        e = self.edges[edge]
        if e & ACCEPTS and self.free(pos + 1):
            self.emit(lo, pos, main, factor, cross, placed)
        if e & CHILD and pos + 1 < self.n:
            self.cover(pos + 1, e & CHILD, lo, main, factor, cross, placed, self.went_right)

    def emit(self, lo, hi, main, factor, cross, placed):
        """Record the play on squares lo..hi, unless it is a one-tile play down that also
        forms a word across (listed once, as the across play)."""
        tiles = bytes(self.cur[lo : hi + 1])
        if self.down and placed == 1:
            (pos,) = [lo + i for i, t in enumerate(tiles) if t]
            if self.lane.cross[pos] >= 0:
                return
        score = main * factor + cross + (self.bingo if placed == self.rack_size else 0)
        self.found.append((lo, tiles, score))


def anchors_of(grid, start: tuple[int, int]) -> list[list[bool]]:
    """Empty squares next to a tile; the start square alone on an empty board."""
    n = len(grid)
    if not any(any(row) for row in grid):
        return [[(r, c) == start for c in range(n)] for r in range(n)]
    return [[not grid[r][c] and any(0 <= r + dr < n and 0 <= c + dc < n and grid[r + dr][c + dc]
                                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
             for c in range(n)] for r in range(n)]


def _transposed(grid):
    return [list(column) for column in zip(*grid, strict=True)]


def generate(kwg: Kwg, board: Board, rack: str) -> list[tuple[Play, int]]:
    """Every play (as a lexc ``Play``) with its score, for ``rack`` on ``board``."""
    ruleset = board.ruleset
    n = board.size
    letters, blanks = ruleset.alphabet.parse_rack(rack)
    counts = [blanks] + [0] * len(ruleset.alphabet)
    for code in letters:
        counts[code] += 1
    values = [0] * 256
    for code in ruleset.alphabet.codes:
        values[code] = ruleset.value(code)
    every_letter = sum(1 << code for code in ruleset.alphabet.codes)
    grid = [[board.at(r, c) for c in range(n)] for r in range(n)]
    anchors = anchors_of(grid, ruleset.start)
    premiums = [list(row) for row in ruleset.premiums]
    out = []
    for down in (False, True):
        g, a, p = ((_transposed(grid), _transposed(anchors), _transposed(premiums)) if down
                   else (grid, anchors, premiums))
        for i in range(n):
            if not any(a[i]):
                continue
            lane = Lane(kwg, g, i, p, a, values, every_letter)
            for start, tiles, score in LaneSearch(kwg, lane, counts, ruleset, values, down).run():
                out.append((Play(start, i, True, tiles) if down else Play(i, start, False, tiles), score))
    return out
