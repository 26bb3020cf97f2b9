"""Every query of every registered format equals brute force over a Python set,
on ENABLE and on small hand-made lexicons."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as ref
from lexc.formats.base import in_anagram_order
from lexc.wordlist import from_words
from lexicons import LEXICON_KINDS, build_kind, random_racks

PATTERNS = ["C?T", "*QU*Z*", "[AEIOU][^AEIOU]", "?", "??", "Z*Z", "*ING", "[XZ]?[XZ]*", "JA*", "*", "Q[^U]*",
            "CA[RT]*S", "*A*E*I*O*U*"]


# -- ENABLE ------------------------------------------------------------------------------

def test_enable_size(enable_lexicon, enable_set):
    assert len(enable_lexicon) == len(enable_set) == 172820


def test_enable_iteration_is_the_sorted_list(enable_lexicon, enable_set):
    assert list(enable_lexicon) == sorted(enable_set)


def test_enable_membership(enable_lexicon, enable_set):
    rng = random.Random(1)
    sample = rng.sample(sorted(enable_set), 2000)
    for w in sample:
        assert w in enable_lexicon and w.lower() in enable_lexicon
        # near misses: one letter changed, appended or dropped
        for probe in (w[:-1], w + "Q", w[1:], w[:2] + "X" + w[3:]):
            assert (probe in enable_lexicon) == (probe in enable_set), probe
    assert "" not in enable_lexicon
    assert "ZZZZZZZZZ" not in enable_lexicon
    assert 42 not in enable_lexicon


def test_enable_prefixes(enable_lexicon, enable_set):
    for p in ["", "Q", "QU", "QUI", "XYL", "ZZ", "ABAC", "ZYZZYVA", "ZYZZYVAS", "ZYZZYVASS", "JQ", "CARE"]:
        assert enable_lexicon.is_prefix(p) == ref.is_prefix(enable_set, p), p
    for p in ["QUI", "ZYZ", "CARET", "XU", "ABSORBABI"]:
        assert enable_lexicon.words(p) == ref.with_prefix(enable_set, p), p


@pytest.mark.parametrize("blanks", [0, 1, 2])
@pytest.mark.parametrize("sub", [False, True])
def test_enable_anagrams(enable_lexicon, enable_set, blanks, sub):
    racks = random_racks(seed=blanks * 10 + sub, n=3, tiles=7, blanks=blanks)
    racks += ["RETAINS"[: 7 - blanks] + "?" * blanks]
    for rack in racks:
        assert enable_lexicon.anagrams(rack, sub=sub) == ref.anagrams(enable_set, rack, sub), rack


def test_enable_anagram_known_answers(enable_lexicon):
    # ENABLE's anagrams of RETAINS (the classic "satire" stem); each word appears once
    assert set(enable_lexicon.anagrams("RETAINS")) >= {"RETINAS", "RETSINA", "STAINER", "STEARIN", "NASTIER"}
    found = enable_lexicon.anagrams("EE?", sub=True)
    assert "EEe" not in found and "EE" not in found  # EE is not a word; blanks only where needed
    assert len(found) == len({w.upper() for w in found})


@pytest.mark.parametrize("pat", PATTERNS)
def test_enable_patterns(enable_lexicon, enable_set, pat):
    if pat == "*":
        assert enable_lexicon.pattern(pat) == sorted(enable_set)
    else:
        assert enable_lexicon.pattern(pat) == ref.pattern(enable_set, pat)


def test_enable_hooks(enable_lexicon, enable_set):
    for w in ["CARE", "AT", "QI", "XI", "HOOK", "ZZZ", "LAUGH", "AA", "OX", "ABSORBABILITY"]:
        assert enable_lexicon.hooks(w).as_dict() == ref.hooks(enable_set, w), w


# -- small hand-made lexicons ------------------------------------------------------------

def test_small_all_queries(small_lexicon):
    lex, words = small_lexicon
    letters = sorted({c for w in words for c in w})
    assert list(lex) == sorted(words)
    probes = {w[:i] for w in words for i in range(len(w) + 2)} | {w + c for w in words for c in letters}
    for p in probes:
        assert (p in lex) == (p in words), p
        assert lex.is_prefix(p) == ref.is_prefix(words, p), p
        assert lex.hooks(p).as_dict() == ref.hooks(words, p), p  # the empty word too: one-letter words
    for p in sorted(probes)[:50]:
        assert lex.words(p) == ref.with_prefix(words, p)
    for rack in ["CARES", "ACE?", "??", "A", "TCA?S", "ABAB?", "BATO?", "Z?", "?????"]:
        for sub in (False, True):
            assert lex.anagrams(rack, sub=sub) == ref.anagrams(words, rack, sub), (rack, sub)
    for pat in ["*", "?A*", "*S", "C*", "[BC]?T*", "[^C]*", "A?A*", "*B*A*"]:
        assert lex.pattern(pat) == ref.pattern(words, pat), pat


WORD = st.text(alphabet="ABCDE", min_size=1, max_size=7)


@pytest.mark.parametrize("kind", LEXICON_KINDS)
@settings(max_examples=60, deadline=None)
@given(words=st.sets(WORD, min_size=1, max_size=40), rack=st.text(alphabet="ABCDE?", max_size=6),
       pat=st.text(alphabet="ABE?*", min_size=1, max_size=5), probes=st.lists(WORD, max_size=8))
def test_random_lexicons_match_brute_force(english, kind, words, rack, pat, probes):
    lex = build_kind(from_words(sorted(words), english.alphabet, min_len=1), kind)
    assert list(lex) == sorted(words)
    for probe in probes:
        assert (probe in lex) == (probe in words)
        assert lex.is_prefix(probe) == ref.is_prefix(words, probe)
        assert lex.hooks(probe).as_dict() == ref.hooks(words, probe)
    assert len(lex) == len(words)
    assert lex.anagrams(rack, sub=True) == ref.anagrams(words, rack, True)
    assert lex.anagrams(rack) == ref.anagrams(words, rack, False)
    assert lex.pattern(pat) == ref.pattern(words, pat, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for w in list(words)[:5]:
        assert lex.hooks(w).as_dict() == ref.hooks(words, w)
        assert lex.words(w[:1]) == ref.with_prefix(words, w[:1])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=6).map(lambda b: bytes(1 + c % 5 | (c & 0x80) for c in b)),
                min_size=1, max_size=30, unique=True))
def test_anagram_order_of_codes(found):
    """Longest first, then the letters (blank-made or not), then natural before blank-made."""
    expected = sorted(found, key=lambda w: (-len(w), bytes(c & 0x7F for c in w), w))
    assert in_anagram_order(found) == b"\x00".join(expected)
    long = [b"\x01" * 300, b"\x02" * 255, b"\x81"]  # lengths past a key byte: the general sort
    assert in_anagram_order(long) == b"\x00".join(long)
