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
may remain in a block no list filled (padding, never reached). MAGPIE lays the same states
out its own way (``magpiegraph``).

Pure Python, written for speed where it loops once an edge or a state (ENABLE's KWG has
737,294 states): the construction keeps its open lists in flat stacks and interns a list
inline, the common prefix of two strings is found in C (an XOR of two ints), the placement
order is one sort of int keys, and each list's room is written once.
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


def _add_language(states: States, strings: Sequence[bytes], links: dict[bytes, int] | None = None,
                  targets: dict[bytes, int] | None = None) -> int:
    """Intern the trie of sorted, distinct ``strings`` (bottom-up, one list at a time) and
    return its root. With ``links`` (the DAWG pass), every finished list is recorded there
    under the GADDAG string that links to it: rev(p) + SEP, p the prefix whose list it is.
    With ``targets`` (the GADDAG pass), a string ending in the separator (tile 0) does not
    accept: its separator edge leads to the state ``targets`` gives it (the DAWG state of the
    prefix it reverses). The open lists are three parallel stacks, and a finished list is
    interned edge by edge from its last (``States.intern``, inlined: it runs once a list)."""
    finder, tiles, accepts, arcs, nexts = states._finder, states.tiles, states.accepts, states.arcs, states.nexts
    open_tiles: list[int] = []  # the open lists' edges, one list after another
    open_accepts: list[int] = []
    open_arcs: list[int] = []
    starts: list[int] = []  # where each open list starts: the list of the path's first k tiles at starts[k - 1]
    previous: bytes = b""
    number = int.from_bytes
    for string in [*strings, b""]:  # (the empty string closes every list but the root's)
        limit = min(len(string), len(starts))
        differ = number(previous[:limit]) ^ number(string[:limit])  # the common prefix, in C
        common = limit - (differ.bit_length() + 7 >> 3)
        while len(starts) > common:
            start = starts.pop()
            end = len(open_tiles)
            if start == end:
                continue  # an empty list: a word's last tile, extended by no later string
            if start == end - 1:  # one edge (most lists)
                full = (open_tiles.pop(), open_accepts.pop(), open_arcs.pop(), 0)
                found = finder.get(full)
                if found is not None:
                    ret = found
                else:
                    ret = finder[full] = len(tiles)
                    tiles.append(full[0])
                    accepts.append(full[1])
                    arcs.append(full[2])
                    nexts.append(0)
            else:
                ret = 0
                for key in zip(reversed(open_tiles[start:]), reversed(open_accepts[start:]),
                               reversed(open_arcs[start:]), strict=True):
                    full = (*key, ret)
                    state = finder.get(full)
                    if state is None:
                        state = finder[full] = len(tiles)
                        tiles.append(key[0])
                        accepts.append(key[1])
                        arcs.append(key[2])
                        nexts.append(ret)
                    ret = state
                del open_tiles[start:], open_accepts[start:], open_arcs[start:]
            open_arcs[start - 1] = ret
            if links is not None:
                links[previous[len(starts)::-1] + b"\x00"] = ret
        if not string:
            break
        for tile in string[common:]:
            open_tiles.append(tile)
            open_accepts.append(0)
            open_arcs.append(0)
            starts.append(len(open_tiles))
        if targets is not None and not string[-1]:
            starts.pop()  # the separator edge opens no list of its own
            open_arcs[-1] = targets[string]
        else:
            open_accepts[-1] = 1
        previous = string
    return states.intern([[t, a, c] for t, a, c in zip(open_tiles, open_accepts, open_arcs, strict=True)])


def build_states(words: Sequence[bytes], gaddag: bool = False) -> States:
    """The states of the minimal DAWG of sorted, distinct ``words`` (tiles in the engine's
    numbering), and with ``gaddag`` of the GADDAG sharing them, as wolges makes them. The
    GADDAG's input is each word reversed and, for each distinct proper prefix p of a word,
    the link rev(p) + SEP (its separator edge leads to p's DAWG state), sorted: the DAWG pass
    records p's state under rev(p) + SEP as it finishes p's list, so the GADDAG pass finds
    each link's target in a dict instead of walking the DAWG."""
    states = States()
    links: dict[bytes, int] | None = {} if gaddag else None
    states.dawg_root = _add_language(states, words, links)
    if links is not None:
        strings = [word[::-1] for word in words]
        strings.extend(links)
        strings.sort()
        states.gaddag_root = _add_language(states, strings, targets=links)
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
    heads[0] = 0  # (no child: state 0 counts as placed)
    to_end = [1] * n  # entries from a state to the end of its list
    for p in range(1, n):
        if nexts[p]:
            to_end[p] += to_end[nexts[p]]
    dest, rooms, written = _place(_order(states, to_end), heads, to_end, arcs, nexts, 2 if gaddag else 1)
    if written > most:
        raise FormatError(f"the graph needs {written:,} entries, more than the {most:,} the format addresses")
    last, terminal, shift = 1 << U64.last_bit, 1 << U64.terminal_bit, U64.letter_shift
    out = array("Q", bytes(8 * written))
    out[0] = last | dest[states.dawg_root]
    if gaddag:
        out[1] = last | dest[states.gaddag_root]
    for p, at in rooms:  # each list's room, from its head (a room may hold a copy of a tail placed before)
        while True:
            q = nexts[p]
            out[at] = tiles[p] << shift | (terminal if accepts[p] else 0) | (0 if q else last) | dest[arcs[p]]
            if not q:
                break
            p = q
            at += 1
    return out


def _order(states: States, to_end: list[int]) -> list[int]:
    """The states in the order wolges places their lists: the DAWG's first (a KWG's), then
    more paths from the roots first (a saturating u32 count), then longer lists, then older
    states. The count is summed exactly and saturated once at the end: saturating additions
    of counts that never decrease give the same numbers. The order is one sort of ints (one
    key a state, the state in its low bits)."""
    arcs, nexts = states.arcs, states.nexts
    n = len(arcs)
    ways = [0] * n
    ways[states.dawg_root] = 1
    if states.gaddag_root:
        ways[states.gaddag_root] = 1
    for p in range(n - 1, 0, -1):  # (a state's child and next state are older: smaller)
        here = ways[p]
        ways[nexts[p]] += here
        ways[arcs[p]] += here
    if states.gaddag_root:  # the GADDAG's own states: a state after the DAWG root whose list ends outside the DAWG
        gaddag = bytearray(n)
        gaddag[0] = 1
        for p in range(states.dawg_root + 1, n):
            gaddag[p] = gaddag[nexts[p]]
        gaddag[0] = 0
    else:
        gaddag = bytearray(n)
    bits, longest = n.bit_length(), max(to_end).bit_length()
    keys = [((g << 32 | SATURATED - min(w, SATURATED)) << longest | (1 << longest) - 1 - t) << bits | p
            for p, g, w, t in zip(range(1, n), gaddag[1:], ways[1:], to_end[1:], strict=True)]
    keys.sort()
    mask = (1 << bits) - 1
    return [key & mask for key in keys]


def _place(order: list[int], heads: list[int], to_end: list[int], arcs: list[int], nexts: list[int],
           reserved: int) -> tuple[list[int], list[tuple[int, int]], int]:
    """Each state's entry (``dest``; 0: a state no list holds), its list placed when a state
    of it is first taken in ``order``; the rooms given to lists (head state, first entry); and
    the number of entries written.

    Lists go in 16-entry blocks: a list of more than 16 entries takes whole blocks from an
    even block; a shorter one the fullest block it fits in, else a new block. A list is given
    its room when first reached; then the lists below it are placed, depth first, each as it
    is reached; then its states take their places, a tail placed already with an earlier
    list keeping its place (an explicit stack: a chain of lists can be long)."""
    dest = [0] * len(heads)
    dest[0] = UNPLACED
    rooms: list[tuple[int, int]] = []
    block_len = [reserved]  # entries used in each block; the root pointers first
    with_len: list[list[int]] = [[] for _ in range(16)]  # the blocks by how full they are
    with_len[reserved].append(0)

    def reserve(num: int) -> int:
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
                if num < 16:
                    with_len[num].append(blocks)
                block_len.append(num)
                return blocks << 4
            gap -= 1

    for p in order:
        head = heads[p]
        if dest[head]:
            continue
        dest[head] = UNPLACED
        stack = [[head, to_end[head], reserve(to_end[head]), head]]  # [head, size, first entry, next state]
        while stack:
            frame = stack[-1]
            state = frame[3]
            if state:
                frame[3] = nexts[state]
                child = heads[arcs[state]]
                if not dest[child]:
                    dest[child] = UNPLACED
                    stack.append([child, to_end[child], reserve(to_end[child]), child])
                continue
            stack.pop()
            head, num, first, _ = frame
            rooms.append((head, first))
            dest[head] = 0
            for offset in range(num):
                if dest[head]:
                    break
                dest[head] = first + offset
                head = nexts[head]
    dest[0] = 0
    return dest, rooms, ((len(block_len) - 1) << 4) + block_len[-1]


__all__ = ["States", "build_states", "layout"]
