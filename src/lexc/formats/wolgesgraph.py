"""wolges's word graph as its builder makes it, node for node: the states of the minimal
DAWG (and GADDAG) in the order they are created, and the array layout wolges gives them
(``formats/kwgfamily.md``, "Node order").

lexc's own ``gaddawg`` is the same graph with its nodes in another order (``formats/kwg.md``).
The files of wolges's family that other programs compare byte for byte (the DAWG-only KWG,
the KAD, the KBWG, Lexpert's ``.lxd``, Macondo's legacy ``.dawg``/``.gaddag``) are laid out
from these states, so lexc writes the very bytes wolges writes from the same words.

A *state* is one edge of a sibling list, with the index of the next edge of its list
(``nexts``; 0 ends the list) and of the first edge of its child's list (``arcs``; 0: none).
States are made by the classic incremental construction over sorted words: when a list is
complete it is interned edge by edge from its last edge, so equal lists, and equal list
tails, are one state. State 0 is the empty list. Every state's ``arcs`` and ``nexts`` are
smaller than its own index, so the states are topologically sorted.

The layout (wolges's default, "dawg first, then frequent first") places each list in
16-entry blocks (a 64-byte cache line), lists reached by more paths first; an all-zero entry
may remain in a block no list filled (padding, never reached).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .edges import U64
from .errors import FormatError

SATURATED = 0xFFFFFFFF  # wolges counts paths in a saturating u32
UNPLACED = 0xFFFFFFFF


@dataclass
class States:
    """The interned edges of a word graph: parallel lists indexed by state."""

    tiles: list[int] = field(default_factory=lambda: [0])
    accepts: list[int] = field(default_factory=lambda: [0])
    arcs: list[int] = field(default_factory=lambda: [0])
    nexts: list[int] = field(default_factory=lambda: [0])
    dawg_root: int = 0
    gaddag_root: int = 0  # 0: a DAWG only
    _finder: dict[tuple[int, int, int, int], int] = field(default_factory=lambda: {(0, 0, 0, 0): 0}, repr=False)

    def __len__(self) -> int:
        return len(self.tiles)

    def intern(self, batch: list[list[int]]) -> int:
        """The state of a complete sibling list ([tile, accepts, arc] each, ascending),
        interned from its last edge back: equal tails are one state."""
        ret = 0
        finder, tiles, accepts, arcs, nexts = self._finder, self.tiles, self.accepts, self.arcs, self.nexts
        for tile, accept, arc in reversed(batch):
            key = (tile, accept, arc, ret)
            state = finder.get(key)
            if state is None:
                state = finder[key] = len(tiles)
                tiles.append(tile)
                accepts.append(accept)
                arcs.append(arc)
                nexts.append(ret)
            ret = state
        return ret

    def chain(self, state: int) -> Iterator[tuple[int, int, int]]:
        """(tile, accepts, arc) of the list that starts at ``state``, in order."""
        tiles, accepts, arcs, nexts = self.tiles, self.accepts, self.arcs, self.nexts
        while state:
            yield tiles[state], accepts[state], arcs[state]
            state = nexts[state]

    def seek(self, state: int, tile: int) -> int:
        """The arc of the edge labelled ``tile`` in the list at ``state`` (the tile is there)."""
        tiles, nexts = self.tiles, self.nexts
        while tiles[state] != tile:
            state = nexts[state]
        return self.arcs[state]


def _add_language(states: States, strings: Sequence[bytes], dawg_root: int = 0, gaddag: bool = False) -> int:
    """Intern the trie of sorted, distinct ``strings`` (bottom-up, one list at a time) and
    return its root. In the GADDAG phase a string ending in the separator (tile 0) does not
    accept: its separator edge leads to the DAWG state of the prefix it reverses."""
    transitions: list[list[int]] = []  # the open lists, one after another
    starts: list[int] = []  # where each open list starts in ``transitions``
    previous: bytes = b""
    for string in strings:
        depth = len(starts)
        limit = min(len(string), depth)
        common = 0
        while common < limit and previous[common] == string[common]:
            common += 1
        for _ in range(common, depth):
            start = starts.pop()
            transitions[start - 1][2] = states.intern(transitions[start:])
            del transitions[start:]
        for tile in string[common:]:
            transitions.append([tile, 0, 0])
            starts.append(len(transitions))
        if gaddag and string[-1] == 0:
            starts.pop()  # the separator edge opens no list of its own
            state = dawg_root
            for tile in reversed(string[:-1]):  # rev(p) + SEP: follow p in the DAWG
                state = states.seek(state, tile)
            transitions[-1][2] = state
        else:
            transitions[-1][1] = 1
        previous = string
    while starts:
        start = starts.pop()
        transitions[start - 1][2] = states.intern(transitions[start:])
        del transitions[start:]
    return states.intern(transitions)


def gaddag_strings(words: Sequence[bytes]) -> list[bytes]:
    """The GADDAG's input for sorted words: each word reversed, and rev(p) + SEP for each
    proper prefix p not already given by the previous word (the separator edge then links
    to p's DAWG state); sorted."""
    out: list[bytes] = []
    previous: bytes | None = None
    for word in words:
        n = len(word)
        common = 0
        if previous is not None:
            most = min(n, len(previous) - 1)  # CAR -> CARE still needs RAC + SEP
            while common < most and previous[common] == word[common]:
                common += 1
        reverse = word[::-1]
        out.append(reverse)
        linked = reverse + b"\x00"
        out.extend(linked[drop:] for drop in range(1, n - common))
        previous = word
    out.sort()
    return out


def build_states(words: Sequence[bytes], gaddag: bool = False) -> States:
    """The states of the minimal DAWG of sorted, distinct ``words`` (tiles in the engine's
    numbering), and with ``gaddag`` of the GADDAG sharing them, as wolges makes them."""
    states = States()
    states.dawg_root = _add_language(states, words)
    if gaddag:
        states.gaddag_root = _add_language(states, gaddag_strings(words), states.dawg_root, gaddag=True)
    return states


def layout(states: States, most: int) -> array[int]:
    """The KWG entries of ``states`` in wolges's default layout, packed as lexc's ``u64``
    edges (letter, terminal, last, child: ``edges.U64``): entry 0 points at the DAWG root,
    entry 1 (a GADDAG) at the GADDAG root. FormatError past ``most`` entries."""
    tiles, accepts, arcs, nexts = states.tiles, states.accepts, states.arcs, states.nexts
    n = len(tiles)
    gaddag = bool(states.gaddag_root)
    heads = list(range(n))  # the first state of the list a state ends (the earliest list)
    for p in range(n - 1, 0, -1):
        heads[nexts[p]] = p
    for p in range(n - 1, 0, -1):
        heads[p] = heads[heads[p]]
    to_end = [1] * n  # entries from a state to the end of its list
    for p in range(1, n):
        if nexts[p]:
            to_end[p] += to_end[nexts[p]]
    ways = [0] * n  # paths from the roots (saturating)
    ways[states.dawg_root] = 1
    if gaddag:
        ways[states.gaddag_root] = 1
    for p in range(n - 1, 0, -1):
        here = ways[p]
        for q in (nexts[p], arcs[p]):
            ways[q] = min(SATURATED, ways[q] + here)
    if gaddag:  # the DAWG's lists first
        in_dawg = [False] * n
        for p in range(1, states.dawg_root + 1):
            in_dawg[p] = True
        for p in range(states.dawg_root + 1, n):
            in_dawg[p] = in_dawg[nexts[p]]
        order = sorted(range(1, n), key=lambda p: (not in_dawg[p], -ways[p], -to_end[p], p))
    else:
        order = sorted(range(1, n), key=lambda p: (-ways[p], -to_end[p], p))
    placer = _Placer(heads, to_end, arcs, nexts, 2 if gaddag else 1)
    for p in order:
        placer.place(p)
    written = ((len(placer.block_len) - 1) << 4) + placer.block_len[-1]
    if written > most:
        raise FormatError(f"the graph needs {written:,} entries, more than the {most:,} the format addresses")
    dest = placer.dest
    dest[0] = 0
    last, terminal, shift = 1 << U64.last_bit, 1 << U64.terminal_bit, U64.letter_shift
    out = array("Q", bytes(8 * written))
    out[0] = last | dest[states.dawg_root]
    if gaddag:
        out[1] = last | dest[states.gaddag_root]
    for p in range(1, n):
        at = dest[p]
        if not at:
            continue
        while True:
            q = nexts[p]
            out[at] = tiles[p] << shift | (terminal if accepts[p] else 0) | (0 if q else last) | dest[arcs[p]]
            if not q:
                break
            p = q
            at += 1
    return out


class _Placer:
    """Places lists in 16-entry blocks: a list longer than 16 takes whole blocks from an even
    block; a shorter one the fullest block it fits in, else a new block."""

    def __init__(self, heads: list[int], to_end: list[int], arcs: list[int], nexts: list[int], reserved: int):
        self.heads, self.to_end, self.arcs, self.nexts = heads, to_end, arcs, nexts
        self.dest = [0] * len(heads)
        self.dest[0] = UNPLACED
        self.block_len = [reserved]  # the root pointers
        self.with_len: list[list[int]] = [[] for _ in range(16)]  # blocks by how full they are
        self.with_len[reserved].append(0)

    def _reserve(self, num: int) -> int:
        block_len, with_len = self.block_len, self.with_len
        blocks = len(block_len)
        if num > 16:
            if blocks & 1:
                with_len[0].append(blocks)
                block_len.append(0)
                blocks += 1
            first = blocks << 4
            while num > 16:
                block_len.append(16)
                num -= 16
            if num < 16:
                with_len[num].append(len(block_len))
            block_len.append(num)
            return first
        gap = 16 - num
        while True:
            if with_len[gap]:
                place = with_len[gap].pop()
                first = place << 4 | gap
                gap += num
                if gap < 16:
                    with_len[gap].append(place)
                block_len[place] = gap
                return first
            if not gap:
                first = blocks << 4
                if num < 16:
                    with_len[num].append(blocks)
                block_len.append(num)
                return first
            gap -= 1

    def _enter(self, p: int, stack: list[list[int]]) -> None:
        """Reserve the place of the list that ``p`` ends (its earliest list's head), unless
        placed already, and stack it for its children: [head, size, first place, next state]."""
        p = self.heads[p]
        if self.dest[p]:
            return
        self.dest[p] = UNPLACED
        num = self.to_end[p]
        stack.append([p, num, self._reserve(num), p])

    def place(self, p: int) -> None:
        """Place the list of ``p``, then (depth first, each list as it is reached) the lists
        below it, then give the list's states their places (a tail placed already with an
        earlier list keeps its place). An explicit stack: a chain of heads can be long."""
        stack: list[list[int]] = []
        self._enter(p, stack)
        dest, arcs, nexts = self.dest, self.arcs, self.nexts
        while stack:
            frame = stack[-1]
            state = frame[3]
            if state:
                frame[3] = nexts[state]
                if arcs[state]:
                    self._enter(arcs[state], stack)
                continue
            stack.pop()
            head, num, first, _ = frame
            dest[head] = 0
            for offset in range(num):
                if dest[head]:
                    break
                dest[head] = first + offset
                head = nexts[head]


__all__ = ["States", "build_states", "gaddag_strings", "layout"]
