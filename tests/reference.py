"""Brute-force reference answers over a plain Python set of words (A-Z style alphabets).

Deliberately naive and independent of lexc's traversal code: every format must agree with
these on every query.
"""

from __future__ import annotations

import copy
import functools
import re
from collections import Counter

_MEMO: dict = {}


def memo(fn):
    """Remember the answers over big word sets (ENABLE, the big list): every format is checked
    against the same brute-force answer, so it is computed once per query, not once per format.
    The set is kept alive with its answers, so its id cannot be reused; callers get a copy."""
    @functools.wraps(fn)
    def wrapper(words, *args):
        if len(words) < 10_000:
            return fn(words, *args)
        key = (fn.__name__, id(words), args)
        if key not in _MEMO:
            _MEMO[key] = (words, fn(words, *args))
        return copy.deepcopy(_MEMO[key][1])
    return wrapper


def contains(words: set[str], word: str) -> bool:
    return word.upper() in words


@memo
def is_prefix(words: set[str], prefix: str) -> bool:
    prefix = prefix.upper()
    return any(w.startswith(prefix) for w in words)


@memo
def with_prefix(words: set[str], prefix: str) -> list[str]:
    prefix = prefix.upper()
    return sorted(w for w in words if w.startswith(prefix))


@memo
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


@memo
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


@memo
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


class SetLexicon:
    """A plain set of encoded words, answering the one question the referee asks."""

    def __init__(self, words: set[str], alphabet):
        self.codes = {alphabet.encode(w) for w in words}

    def contains_codes(self, codes: bytes) -> bool:
        return bytes(codes) in self.codes


def all_plays(board, rack: str, words: set[str]) -> set[tuple[str, int]]:
    """Every legal play as (notation, score), by brute force: every maximal segment of a
    row or column with an empty square in it, every way to fill its empty squares from the
    rack (a blank as each letter the words use), each placement judged by the referee."""
    from itertools import permutations

    from lexc.alphabet import BLANK_FLAG
    from lexc.board.referee import judge_tiles

    alphabet = board.ruleset.alphabet
    lexicon = SetLexicon(words, alphabet)
    letters, blanks = alphabet.parse_rack(rack)
    used = sorted({alphabet.code(ch) for w in words for ch in w})
    tiles = list(letters) + [0] * blanks
    n = board.size
    out = set()
    for down in (False, True):
        for line in range(n):
            squares = [(c, line) if down else (line, c) for c in range(n)]
            for s in range(n):
                for e in range(s + 1, n):
                    if (s and board.at(*squares[s - 1])) or (e + 1 < n and board.at(*squares[e + 1])):
                        continue
                    empty = [sq for sq in squares[s : e + 1] if not board.at(*sq)]
                    if not empty or len(empty) > len(tiles):
                        continue
                    for order in set(permutations(tiles, len(empty))):
                        for choice in _blank_choices(order, used):
                            placed = [(r, c, code) for (r, c), code in zip(empty, choice, strict=True)]
                            word = "".join(alphabet.label(code & ~BLANK_FLAG) for code in
                                           ({(r, c): x for r, c, x in placed}.get(sq) or board.at(*sq)
                                            for sq in squares[s : e + 1]))
                            if word not in words:
                                continue
                            ruling = judge_tiles(board, rack, placed, lexicon)
                            if ruling.legal:
                                out.add((ruling.play, ruling.score))
    return out


def _blank_choices(order, used):
    """The tile sequences with each blank (0) replaced by each used letter, flagged."""
    from lexc.alphabet import BLANK_FLAG

    if 0 not in order:
        yield order
        return
    i = order.index(0)
    for letter in used:
        yield from _blank_choices((*order[:i], letter | BLANK_FLAG, *order[i + 1:]), used)


# Norvig's example position on the WWF board (test_board.py explains how his square numbers map
# to ours); BACKBENCH = 116 is played on it.
NORVIG_PICTURE = """
...............
...............
...............
...............
...............
..............B
...........TOUR
.G.....BE.C...I
.A..M...N.HEARD
.VIRULeNT.I...L
.E..S...E.LYTHE
....E...RED...S
....S.....R....
..........E....
..........N....
"""
