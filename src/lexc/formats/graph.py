"""The proof a loaded word graph owes before anything follows its edges (pure-Python reference).

Whatever the layout (children before parents, tail-shared lists inside other lists, a KWG
written by another engine), a loaded DAWG, GADDAG or KWG is checked here once, on load:
the graph reachable from its roots has no cycle, no path is longer than a word may be, and
each root spells a number of strings that is counted, not taken from the header. The loader
compares the counts with the header's. After this, every traversal ends, every enumeration
is as long as the header says, and recursion is bounded by the longest word: what the
queries and the compiled core (``lexc.native``) rely on (``formats/README.md``, "What the
loader guarantees").

The graph is walked over *positions*: position ``i`` spells the strings that start with the
edge at ``i`` or with a later sibling of it, ``S[i] = terminal(i) + S[child(i)] + S[i + 1]``
(the last term only when ``i`` is not the last edge of its list). Its longest string is
``H[i] = max(1 + H[child(i)], H[i + 1])``, and the most GADDAG separators (letter 0) on one
of its strings ``Z[i] = max([letter(i) = 0] + Z[child(i)], Z[i + 1])``: a DAWG root must
reach none and a GADDAG root at most one, so no word ever holds the separator's code. A
node is the position of its first edge, so a
list stored inside another (tail sharing) needs nothing special. The position graph has a
cycle exactly when the word graph has one.
"""

from __future__ import annotations

from typing import Sequence

from .errors import FormatError


def prove(edges: Sequence[int], child_mask: int, terminal_bit: int, last_bit: int, letter_shift: int,
          roots: Sequence[int], longest: int, most: int) -> list[tuple[int, int]]:
    """(strings spelled, most separators on one string) of each root position (a root of
    position 0 spells nothing).

    ``edges`` are the decoded edges (child index in ``child_mask``, the terminal flag at bit
    ``terminal_bit``, the last-sibling flag ``last_bit`` as a mask, the letter at
    ``letter_shift``); child indices are already known to be inside ``edges``. FormatError for
    a cycle, a string longer than ``longest`` letters, or more than ``most`` strings from one
    position."""
    n = len(edges)
    count = [-1] * n  # -1: not yet known
    height = [0] * n
    seps = bytearray(n)
    on_path = bytearray(n)
    totals = []
    for root in roots:
        if not root:
            totals.append((0, 0))
            continue
        stack = [root]
        on_path[root] = 1
        while stack:
            i = stack[-1]
            e = edges[i]
            c = e & child_mask
            if c and count[c] < 0:
                if on_path[c]:
                    raise FormatError(message("cycle", c, longest, most))
                on_path[c] = 1
                stack.append(c)
                continue
            if e & last_bit:
                rest = high = most_seps = 0
            else:
                j = i + 1
                if count[j] < 0:
                    if on_path[j]:
                        raise FormatError(message("cycle", j, longest, most))
                    on_path[j] = 1
                    stack.append(j)
                    continue
                rest, high, most_seps = count[j], height[j], seps[j]
            below = count[c] if c else 0
            total = (e >> terminal_bit & 1) + below + rest
            if total > most:
                raise FormatError(message("most", i, longest, most))
            deep = height[c] + 1 if c else 1
            if deep > longest:
                raise FormatError(message("deep", i, longest, most))
            sep = (not e >> letter_shift & 0xFF) + (seps[c] if c else 0)
            count[i] = total
            height[i] = deep if deep > high else high
            seps[i] = min(2, sep if sep > most_seps else most_seps)
            on_path[i] = 0
            stack.pop()
        totals.append((count[root], seps[root]))
    return totals


def message(kind: str, edge: int, longest: int, most: int) -> str:
    """The one-line reason of a failed proof (the same from the pure path and the compiled core)."""
    if kind == "cycle":
        return f"the word graph has a cycle through edge {edge}"
    if kind == "deep":
        return f"a path of more than {longest} letters from edge {edge}: longer than any word"
    return f"edge {edge} begins more than {most:,} strings: the graph spells more than its header says"
