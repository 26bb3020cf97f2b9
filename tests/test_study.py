"""The study index (lexc.lexicons.study): ranks and anagram counts against brute force, on both
paths and every format; its disk cache (round trip, damage, another key, turned off); and the
compiled core's combinations against the pure path, including counts that do not fit 64 bits."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from lexc import formats, native
from lexc.lexicons import study
from lexc.lexicons.probability import _bag, _combinations, combinations, combinations_list, probability_ranks
from lexc.lexicons.study import StudyIndex, study_index, work_out
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from lexicons import LEXICON_KINDS, SMALL, build_kind, enable_built

ENGLISH, SPANISH = load_ruleset("english"), load_ruleset("spanish")
WORDS = sorted({w for words in SMALL.values() for w in words} | {"QI", "QAT", "ZA", "ZAX", "XU", "EAT", "TEA", "ETA"})


def brute(words: list[bytes], ruleset, blanks: int):
    """Each word's rank (1 + words of its length with more combinations) and anagram count."""
    counts = {w: combinations(w, ruleset, blanks) for w in words}
    rank = {w: 1 + sum(counts[v] > counts[w] for v in words if len(v) == len(w)) for w in words}
    sets = Counter(bytes(sorted(w)) for w in words)
    return rank, {w: sets[bytes(sorted(w))] for w in words}


@pytest.fixture(autouse=True)
def _fresh(monkeypatch, tmp_path):
    """Each test its own cache directory, the disk cache on, and no index kept from before."""
    monkeypatch.setenv("LEXC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("LEXC_STUDY_CACHE", "1")
    study.forget_all()
    yield
    study.forget_all()


@pytest.mark.parametrize("kind", LEXICON_KINDS)
@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_ranks_and_anagram_counts_are_brute_force(kind, blanks):
    lexicon = build_kind(from_words(WORDS, ENGLISH.alphabet, min_len=1), kind)
    words = list(lexicon.iter_codes())
    rank, anagrams = brute(words, ENGLISH, blanks)
    index = study_index(lexicon, ENGLISH, blanks)  # (on the lexicon's own backend)
    for word in words:
        assert index.rank(len(word), combinations(word, ENGLISH, blanks)) == rank[word], word
        assert index.anagram_count(word) == anagrams[word], word
    assert sum(index.words(n) for n in range(1, 10)) == len(words)


def test_enable_index_is_the_ranking_of_every_word(enable_list, english):
    lexicon = enable_built(enable_list, "dawg")
    index = study_index(lexicon, english, 2)
    ranks = probability_ranks(list(lexicon.iter_codes()), english, 2, native.PURE)  # the reference, word by word
    assert all(index.rank(len(w), combinations(w, english, 2)) == r for w, r in ranks.items())
    sets = Counter(bytes(sorted(w)) for w in ranks)
    assert index.anagram_sets == {a: n for a, n in sets.items() if n > 1}


def test_spanish_multi_character_tiles():
    words = ["CHE", "ECHO", "LLAMA", "LLAMAS", "AMAS", "MASA", "RRE", "CARRO", "CORRA"]
    lexicon = build_kind(from_words(words, SPANISH.alphabet, min_len=1), "gaddawg", ruleset="spanish")
    codes = list(lexicon.iter_codes())
    rank, anagrams = brute(codes, SPANISH, 2)
    index = study_index(lexicon, SPANISH, 2)
    for word in codes:
        assert index.rank(len(word), combinations(word, SPANISH, 2)) == rank[word]
        assert index.anagram_count(word) == anagrams[word]
    assert index.words(2) == 2 and index.words(3) == 1  # CHE, RRE; ECHO (CH and RR are one tile)


def _cached(tmp_path):
    return sorted((tmp_path / "cache" / "study").glob("*.study"))


def test_the_disk_cache_round_trip(tmp_path, monkeypatch):
    lexicon = formats.loads(formats.dumps(formats.build(from_words(WORDS, ENGLISH.alphabet, min_len=1), "dawg")))
    made = study_index(lexicon, ENGLISH, 2)
    [path] = _cached(tmp_path)
    study.forget_all()
    monkeypatch.setattr(study, "work_out", lambda *a: pytest.fail("worked out again: the cache was not read"))
    again = study_index(lexicon, ENGLISH, 2)
    assert again is not made
    assert {n: list(c) for n, c in again.by_length.items()} == {n: list(c) for n, c in made.by_length.items()}
    assert again.anagram_sets == made.anagram_sets
    other = formats.loads(formats.dumps(formats.build(from_words(WORDS, ENGLISH.alphabet, min_len=1), "gaddawg")))
    monkeypatch.setattr(study, "work_out", work_out)
    study_index(other, ENGLISH, 1)  # another payload and blanks: another key, another file
    assert len(_cached(tmp_path)) == 2 and path in _cached(tmp_path)


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "other key"])
def test_a_damaged_or_foreign_cache_file_is_not_used(tmp_path, damage):
    lexicon = formats.loads(formats.dumps(formats.build(from_words(WORDS, ENGLISH.alphabet, min_len=1), "dawg")))
    made = study_index(lexicon, ENGLISH, 2)
    [path] = _cached(tmp_path)
    data = path.read_bytes()
    if damage == "flip":
        data = data[:100] + bytes([data[100] ^ 1]) + data[101:]
    elif damage == "truncate":
        data = data[:-9]
    elif damage == "empty":
        data = b""
    else:  # a sound file made for another key, put where this key's file goes
        study.forget_all()
        study_index(lexicon, ENGLISH, 0)
        data = next(p for p in _cached(tmp_path) if p != path).read_bytes()
    path.write_bytes(data)
    study.forget_all()
    key = study._key(lexicon, _bag(ENGLISH), ENGLISH.blanks, 2)
    assert study._read(key, lexicon.word_count) is None
    again = study_index(lexicon, ENGLISH, 2)  # worked out again, and the file written again
    assert {n: list(c) for n, c in again.by_length.items()} == {n: list(c) for n, c in made.by_length.items()}
    assert study._read(key, lexicon.word_count) is not None
    assert study._read(key, lexicon.word_count + 1) is None  # a file that counts other words than the lexicon's


def test_no_disk_cache_when_turned_off_or_the_words_are_not_certain(tmp_path, monkeypatch):
    built = formats.build(from_words(WORDS, ENGLISH.alphabet, min_len=1), "dawg")
    monkeypatch.setenv("LEXC_STUDY_CACHE", "0")
    study_index(built, ENGLISH, 2)
    assert _cached(tmp_path) == []
    monkeypatch.setenv("LEXC_STUDY_CACHE", "1")
    study.forget_all()
    built.wordlist_sha256 = ""  # (as a KWG file: no list recorded, no payload digest)
    study_index(built, ENGLISH, 2)
    assert _cached(tmp_path) == []
    assert study._key(built, _bag(ENGLISH), 2, 2) == ""


def test_a_lexicon_built_from_a_list_is_keyed_by_the_list():
    built = formats.build(from_words(WORDS, ENGLISH.alphabet, min_len=1), "dawg")
    loaded = formats.loads(formats.dumps(built))
    assert '"list:' in study._key(built, _bag(ENGLISH), 2, 2)
    assert '"payload:' in study._key(loaded, _bag(ENGLISH), 2, 2)


def test_the_index_is_the_same_on_both_paths():
    words = from_words(WORDS, ENGLISH.alphabet, min_len=1)
    native_index = work_out(formats.build(words, "dawg"), ENGLISH, 2)
    pure_index = work_out(formats.build(words, "dawg", backend=native.PURE), ENGLISH, 2)
    assert {n: list(c) for n, c in native_index.by_length.items()} == pure_index.by_length
    assert native_index.anagram_sets == pure_index.anagram_sets


@pytest.mark.skipif(not native.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("ruleset", ["english", "spanish", "catalan", "tiny", "wwf"])
def test_native_combinations_agree_with_the_pure_path(ruleset):
    rules = load_ruleset(ruleset)
    rng = random.Random(ruleset)
    codes = list(rules.alphabet.codes)
    words = [bytes(rng.choice(codes) for _ in range(rng.randint(1, 15))) for _ in range(2000)]
    words += [bytes([codes[0]] * n) for n in (1, 2, 9, 10, 20, 64)]  # more of a tile than the bag holds
    for blanks in (0, 1, 2):
        pure = combinations_list(words, rules, blanks, native.PURE)
        assert combinations_list(words, rules, blanks, native.COMPILED) == pure
        assert pure == [combinations(w, rules, blanks) for w in words]


@pytest.mark.skipif(not native.available(), reason="the compiled core was not built")
def test_counts_over_64_bits_are_left_to_the_pure_path():
    core = native.COMPILED
    bag = (40,) + (300,) * 26  # C(300, 30) has 44 digits
    words = [b"\x01" * 30, b"\x01\x02", b"\x05" * 3]
    exact = [_combinations(w, bag, 40, 2) for w in words]
    assert exact[0] >= 1 << 64

    def deferred():
        return None  # the core handed the counting to its reference

    assert core.combinations(words, bag, 40, 2, deferred) is None  # one does not fit: none are given
    assert core.combinations(words[1:], bag, 40, 2, deferred) == exact[1:]
    assert core.combinations([b"\x01\x00\x02"], bag, 40, 2, deferred) is None  # a code 0 inside: not the core's


@pytest.mark.skipif(not native.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("blob, message", [
    (b"\x1b\x00", "outside"), (b"\x01", "ends with a 0"), (b"\x00", "1 to 64"), (b"\x01" * 65 + b"\x00", "1 to 64"),
])
def test_the_core_refuses_what_it_was_not_promised(blob, message):
    from lexc.native.backend import _binomials

    core = native.COMPILED.core
    bag = _bag(ENGLISH)
    table, big = _binomials(bag)
    with pytest.raises(ValueError, match=message):
        core.combinations(blob, table, big, 26, 2, 1, 2)
    with pytest.raises(ValueError, match="table"):
        core.combinations(b"\x01\x00", table[:-8], big, 26, 2, 1, 2)
    with pytest.raises(OverflowError):
        core.combinations(b"\x01\x00", table, big, 26, 1 << 64, 1, 2)


def test_an_empty_index():
    index = StudyIndex({}, {})
    assert index.rank(7, 100) == 1 and index.words(7) == 0
