"""MAGPIE's KWG as its ``convert text2kwg`` lays it out, entry for entry (``formats/kwg.md``,
"MAGPIE's order").

The graph is the one wolges builds (``wolgesgraph.build_states``): the DAWG and the GADDAG
over one set of states, every list of edges equal to another one list, a GADDAG separator
edge leading to the DAWG list of the prefix it reverses. MAGPIE spells the GADDAG out in
full (every rev(w[:i]) + SEP + w[i:]) and merges equal lists, which gives the same lists.
What differs is the array:

- **no tail sharing**: each distinct list is written out whole, once (wolges points a list
  that is the tail of a longer one into the longer one's entries);
- **breadth first**: after the two root pointers, the DAWG root's list, then the GADDAG
  root's, then the lists in the order a queue first reaches them, each list's children
  queued from its **last** edge to its first (highest tile first);
- no padding: the lists follow one another.

The same words give the same bytes as MAGPIE's (``tests/test_interop_kwg.py`` holds
lexc to MAGPIE's own files).
"""

from __future__ import annotations

from array import array

from . import edges as edgemod
from .edges import U32
from .errors import FormatError
from .wolgesgraph import States

TILE_SHIFT = U32.letter_shift
ACCEPTS = 1 << U32.terminal_bit
END = 1 << U32.last_bit


def layout(states: States, most: int) -> array[int]:
    """The KWG entries (u32, the KWG's bits) of ``states`` in MAGPIE's order: entry 0 points
    at the DAWG root's list, entry 1 at the GADDAG root's (0 for a DAWG only), then each
    distinct list once, breadth first (module docstring). FormatError past ``most``
    entries."""
    tiles, accepts, arcs, nexts = states.tiles, states.accepts, states.arcs, states.nexts
    out = array("I", [END, END])
    holds: list[int] = [0, 0]  # the state each entry writes
    base = [0] * len(tiles)  # where the list a state heads begins (its first, lowest tile)
    queued = bytearray(len(tiles))
    queue: list[int] = []

    def lay(head: int) -> int:
        """Write the list at ``head`` (ascending tiles, the last with the end bit), queue the
        lists below it not queued yet, highest tile first; where it begins."""
        members = []
        state = head
        while state:
            members.append(state)
            state = nexts[state]
        at = base[head] = len(out)
        out.extend(tiles[s] << TILE_SHIFT | (ACCEPTS if accepts[s] else 0) for s in members)
        out[-1] |= END
        holds.extend(members)
        for s in reversed(members):
            child = arcs[s]
            if child and not queued[child]:
                queued[child] = 1
                queue.append(child)
        return at

    for root in (states.dawg_root, states.gaddag_root):
        if root and not queued[root]:  # (a root reached already from the DAWG's root is laid where reached)
            lay(root)
            queued[root] = 1
    for head in queue:  # (the queue grows while it is read)
        lay(head)
    if len(out) > most:
        raise FormatError(f"the graph needs {len(out):,} entries, more than the {most:,} the format addresses")
    for i in range(2, len(out)):
        child = arcs[holds[i]]
        if child:
            out[i] |= base[child]
    for slot, root in enumerate((states.dawg_root, states.gaddag_root)):
        out[slot] |= base[root] if root else 0
    return out


def kwg_bytes(states: States, most: int) -> bytes:
    """``layout`` as the file's little-endian bytes."""
    return edgemod.to_bytes(layout(states, most))


__all__ = ["kwg_bytes", "layout"]
