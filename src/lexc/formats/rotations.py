"""The proof that a GADDAG spells exactly the rotations of its lexicon's words (``lexc verify``).

For a word w of n letters Gordon's GADDAG holds the n strings

    rot(w, i) = rev(w[:i]) + SEP + w[i:]   for i = 1 … n-1,     rot(w, n) = rev(w)

and nothing else. The loader proves that the graph is sound and counts what each root
spells, but a file crafted with one edge letter changed (keeping sibling order) and re-sealed
keeps every count: its DAWG part still lists CAT while its GADDAG spells TAD for TAC, so
``lexc check CAT`` says no. ``prove`` closes that gap. W is what the DAWG root spells (stored
in a ``gaddawg``, rebuilt from the GADDAG root for ``gaddag``: then W is read from the
GADDAG itself, and the same argument ties the two together).

**The argument.**

1. The rotations are distinct: a string with a separator splits there into rev(w[:i]) and
   w[i:], which give back w and i; one without is rev(w), i = n. So the rotations of W are
   exactly N = Σ|w| distinct strings.
2. The GADDAG root spells exactly ``meta.strings`` distinct strings: the loader's proof
   (``graph.prove``, made before any listing) and ``check()`` count the accepted paths, and
   siblings strictly ascending by letter (checked on every load) make distinct paths
   distinct strings.
3. Every rotation is spelled (below). So the GADDAG's strings include N distinct ones, and
   when ``meta.strings`` = N they are exactly those: the languages are equal. When
   ``meta.strings`` > N some string is no rotation; a GADDAG built from W names one.

Step 3 without spelling 1.57 million strings (ENABLE): for each word, rev(w) must end a
word of the GADDAG (the i = n rotation); for each distinct proper prefix p of a word, the
node after rev(p) + SEP must spell exactly what follows p in W: the language of the DAWG
node of p. In lexc's minimal graph these two are **the same node** (the GADDAG's links,
``formats/gaddag.md``), which is checked in O(1); any other pair is compared letter by
letter (memoized per pair of nodes), which finds a witness if they differ. The DAWG nodes
of the prefixes come from one pass over the sorted words; the walks of rev(p) are made in
sorted order of rev(p), each resuming from the longest common start with the one before:
1.3 million edge steps in all for ENABLE's 276,373 prefixes (the trie of all 1,570,508
strings has 4.3 million nodes), 1.8 s on the compiled core, 2.8 s on the pure path. Only
the lexicon protocol's primitives are used (``root``, ``gaddag_root``, ``child``,
``children``, ``is_word``) and the GADDAG's ``gaddag_contains``, so any format with a GADDAG is
proved alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .base import LexiconBase
from .errors import FormatError

if TYPE_CHECKING:
    from .gaddag import Gaddag

SEP = 0  # the separator's letter code


def prove(lexicon: Gaddag, words: Sequence[bytes]) -> str | None:
    """None when the GADDAG of ``lexicon`` spells exactly the rotations of ``words`` (what its
    DAWG root spells, strictly increasing), else a one-line finding naming a word or a
    string: "the GADDAG does not spell CAT's rotation TAC", "the GADDAG spells TAD, which
    is no rotation of a word (DAT is not a word)"."""
    total = sum(map(len, words))
    missing = _first_missing(lexicon, words)
    if missing is not None:
        return missing
    strings = lexicon.strings  # what the GADDAG root spells, proved on load and by check()
    if strings == total:
        return None
    # every rotation is there and the root spells more: find a string that is none
    reference = type(lexicon).build(list(words), lexicon.alphabet)
    found = _difference(lexicon, lexicon.gaddag_root(), reference, reference.gaddag_root(), {})
    if found is not None and not found[1]:
        return _extra(lexicon, found[0])
    return f"the GADDAG spells {strings:,} strings, more than the {total:,} rotations of its words"


def _prefix_keys(lexicon: LexiconBase, words: Sequence[bytes]) -> list[tuple[bytes, Any, bytes]]:
    """(rev(p), DAWG handle of p, a word starting with p) for each distinct proper prefix p,
    sorted by rev(p). The handles come from one walk down the sorted words, each resuming
    where it parts from the word before."""
    child = lexicon.child
    keys: list[tuple[bytes, Any, bytes]] = []
    path = [lexicon.root()]  # path[i]: the DAWG handle of the current word's first i letters
    previous = b""
    for word in words:
        n, common = len(word), _common(word, previous)
        del path[max(0, min(common, len(previous) - 1)) + 1 :]
        for i in range(len(path), n):  # the proper prefixes word[:i] not met before
            handle = child(path[i - 1], word[i - 1])
            if handle is None:
                raise FormatError(f"the DAWG does not spell {spelled(lexicon, word)}, one of its own words")
            path.append(handle)
            keys.append((word[i - 1 :: -1], handle, word))
        previous = word
    keys.sort(key=itemgetter(0))
    return keys


def _first_missing(lexicon: Gaddag, words: Sequence[bytes]) -> str | None:
    """A finding for the first rotation (in the order of the keys) the GADDAG does not spell,
    or for a string it spells in place of one; None when every rotation is spelled."""
    contains = lexicon.gaddag_contains  # rev(w) from the GADDAG root, terminal
    for word in words:  # the i = n rotations
        if not contains(word):
            return _missing(lexicon, word, len(word))
    child, is_word = lexicon.child, lexicon.is_word
    walked: list[int | None] = [lexicon.gaddag_root()]  # walked[k]: the GADDAG handle after key[:k] (None: no path)
    previous = b""
    same: dict[tuple[Any, Any], tuple[bytes, bool] | None] = {}
    for key, dawg, word in _prefix_keys(lexicon, words):
        del walked[_common(key, previous) + 1 :]
        for k in range(len(walked) - 1, len(key)):
            at = walked[k]
            walked.append(None if at is None else child(at, key[k]))
        previous = key
        end, i = walked[-1], len(key)
        turn = None if end is None else child(end, SEP)
        if turn is None:
            return _missing(lexicon, word, i)
        if is_word(turn):
            return _extra(lexicon, key + bytes((SEP,)))
        found = _difference(lexicon, turn, lexicon, dawg, same)
        if found is not None:
            rest, in_dawg = found
            return _missing(lexicon, word[:i] + rest, i) if in_dawg else _extra(lexicon, key + bytes((SEP,)) + rest)
    return None


def _difference(a: LexiconBase, x: Any, b: LexiconBase, y: Any,
                memo: dict[tuple[Any, Any], tuple[bytes, bool] | None]) -> tuple[bytes, bool] | None:
    """None when the node reached by handle ``x`` of ``a`` spells the same strings as the one
    reached by ``y`` of ``b``; else (a string only one of them spells, whether it is ``y``'s).
    Within one lexicon the same node is equal at once; other pairs are compared letter by
    letter, each pair once (``memo``, keyed by the nodes' first edges)."""
    first_x, first_y = next(iter(a.children(x)), None), next(iter(b.children(y)), None)
    if a is b and first_x == first_y:  # the same first edge: the same node (lexc's own GADDAGs always)
        return None
    key = (first_x, first_y)
    if key not in memo:
        memo[key] = _letter_by_letter(a, dict(a.children(x)), b, dict(b.children(y)), memo)
    return memo[key]


def _letter_by_letter(a: LexiconBase, ex: dict[int, Any], b: LexiconBase, ey: dict[int, Any],
                      memo: dict[tuple[Any, Any], tuple[bytes, bool] | None]) -> tuple[bytes, bool] | None:
    """``_difference`` of two nodes given as {letter: handle of its edge}."""
    for letter in sorted(ex.keys() | ey.keys()):
        here = bytes((letter,))
        u, v = ex.get(letter), ey.get(letter)
        if u is None or v is None:  # one side has no edge: any string the other spells from it
            lex, handle = (b, v) if u is None else (a, u)
            if lex.is_word(handle):
                return here, u is None
            rest = some_string_below(lex, handle, set())
            if rest is not None:
                return here + rest, u is None
            continue
        if a.is_word(u) != b.is_word(v):
            return here, b.is_word(v)
        found = _difference(a, u, b, v, memo)
        if found is not None:
            return here + found[0], found[1]
    return None


def _common(a: bytes, b: bytes) -> int:
    """The length of the longest common start of two strings of letter codes (each below
    0xFF and at most ``_PAD`` long): the first differing bit of the two, padded with 0xFF,
    read as numbers (a few C-level calls instead of a loop)."""
    x = int.from_bytes(a.ljust(_PAD, b"\xff"), "big") ^ int.from_bytes(b.ljust(_PAD, b"\xff"), "big")
    return min(len(a), len(b), _PAD - (x.bit_length() + 7) // 8)


_PAD = 66  # longer than any GADDAG string (64 letters and the separator)


def spelled(lexicon: LexiconBase, codes: bytes) -> str:
    """A GADDAG string as text: the separator as ``@``, tiles joined by ``·`` when a label
    has several characters (A·LL@A), else plain (TAC, AC@T)."""
    joiner = "" if lexicon.alphabet.single_char else "·"
    return joiner.join("@" if c == SEP else lexicon.alphabet.label(c) for c in codes)


def _missing(lexicon: LexiconBase, word: bytes, i: int) -> str:
    """The finding for a rotation rot(word, i) the GADDAG does not spell."""
    rotation = word[:i][::-1] + (bytes((SEP,)) + word[i:] if i < len(word) else b"")
    return f"the GADDAG does not spell {spelled(lexicon, word)}'s rotation {spelled(lexicon, rotation)}"


def _extra(lexicon: LexiconBase, string: bytes) -> str:
    """The finding for a string the GADDAG spells that is no rotation of a word."""
    left, sep, right = string.partition(bytes((SEP,)))
    if sep and not right:
        why = "a rotation never ends at the separator"
    else:
        why = f"{spelled(lexicon, left[::-1] + right)} is not a word" if left else "nothing precedes the separator"
    return f"the GADDAG spells {spelled(lexicon, string)}, which is no rotation of a word ({why})"


def some_string_below(lexicon: LexiconBase, handle: Any, dead: set[Any]) -> bytes | None:
    """The letters of some string spelled below the node reached by ``handle`` (the first in
    code order), or None when nothing below it ends one (a crafted graph may hold edges that
    lead to no word); ``dead`` remembers the handles found empty."""
    if handle in dead:
        return None
    for letter, sub in lexicon.children(handle):
        if lexicon.is_word(sub):
            return bytes((letter,))
        rest = some_string_below(lexicon, sub, dead)
        if rest is not None:
            return bytes((letter,)) + rest
    dead.add(handle)
    return None
