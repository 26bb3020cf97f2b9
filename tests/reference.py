"""Brute-force reference answers over a plain Python set of words (A-Z style alphabets).

Deliberately naive and independent of lexc's traversal code: every format must agree with
these on every query.
"""

from __future__ import annotations

import re
from collections import Counter


def contains(words: set[str], word: str) -> bool:
    return word.upper() in words


def is_prefix(words: set[str], prefix: str) -> bool:
    prefix = prefix.upper()
    return any(w.startswith(prefix) for w in words)


def with_prefix(words: set[str], prefix: str) -> list[str]:
    prefix = prefix.upper()
    return sorted(w for w in words if w.startswith(prefix))


def anagrams(words: set[str], rack: str, sub: bool) -> list[str]:
    """Words from the rack; blank-made letters lower case, naturals used first, left to right."""
    rack = rack.upper()
    blanks = rack.count("?")
    have = Counter(rack.replace("?", ""))
    tiles = len(rack)
    out = []
    for w in words:
        if len(w) > tiles or (not sub and len(w) != tiles):
            continue
        need = Counter(w)
        if sum(max(0, n - have[c]) for c, n in need.items()) > blanks:
            continue
        left = Counter(have)
        form = []
        for c in w:
            if left[c]:
                left[c] -= 1
                form.append(c)
            else:
                form.append(c.lower())
        out.append("".join(form))
    return sorted(out, key=lambda s: (-len(s), s.upper()))


def pattern(words: set[str], pat: str, letters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ") -> list[str]:
    pat = pat.upper()
    rx, i = "", 0
    while i < len(pat):
        ch = pat[i]
        if ch in "?.":
            rx += f"[{letters}]"
        elif ch == "*":
            rx += f"[{letters}]*"
        elif ch == "[":
            j = pat.index("]", i)
            inner = pat[i + 1 : j].replace(",", "")
            if inner.startswith("^"):
                rx += "[" + "".join(c for c in letters if c not in inner[1:]) + "]"
            else:
                rx += "[" + inner + "]"
            i = j
        else:
            rx += re.escape(ch)
        i += 1
    compiled = re.compile(rx)
    return sorted(w for w in words if compiled.fullmatch(w))


def hooks(words: set[str], word: str, letters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ") -> dict:
    word = word.upper()
    return {
        "word": word,
        "valid": word in words,
        "front": "".join(c for c in letters if c + word in words),
        "back": "".join(c for c in letters if word + c in words),
    }


def right_languages(words: set[str]) -> set[frozenset[str]]:
    """The distinct non-empty sets of continuations {s != '' : prefix + s is a word} over all
    prefixes (Myhill-Nerode), by brute force."""
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    languages = set()
    for p in prefixes:
        cont = frozenset(w[len(p):] for w in words if w.startswith(p) and len(w) > len(p))
        if cont:
            languages.add(cont)
    return languages


def minimal_graph_size(*languages: set[str]) -> tuple[int, int]:
    """(nodes with edges, edges) of the minimal word graph with per-edge terminal bits that
    holds one or more languages (one register for all), computed from right languages, not
    from any trie or register: one node per distinct non-empty set of continuations."""
    nodes = set().union(*(right_languages(words) for words in languages))
    return len(nodes), sum(len({s[0] for s in node}) for node in nodes)
