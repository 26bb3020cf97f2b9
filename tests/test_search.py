"""lexc search: every condition, alone, negated and combined, against brute force over a Python
set of words (tile by tile, so a Spanish CH is one tile), on every format (each path), on
hand-made English and Spanish lists and on ENABLE; the study table and the command."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

import reference as ref
from lexc.lexicons.probability import combinations
from lexc.lexicons.search import (
    AnagramCount,
    AnagramMatch,
    BeginsWith,
    Contains,
    DropsFirst,
    DropsLast,
    EndsWith,
    InLexicon,
    Length,
    Pattern,
    ProbabilityRank,
    SearchError,
    SubAnagram,
    TakesBackHook,
    TakesFrontHook,
    make_condition,
    rows,
    search,
    sorted_rows,
    study_table,
)
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from lexicons import LEXICON_KINDS, SMALL, build_kind
from test_cli import TINY, _cache_env, cache_dir, run_main  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parent.parent
ENGLISH, SPANISH = load_ruleset("english"), load_ruleset("spanish")
WORDS = sorted(set(SMALL["paper"] + SMALL["hooks"] + ["QI", "QAT", "QUA", "AQUA", "SCAT", "ACTS", "TACT", "ATT"]))
SPANISH_WORDS = [line.strip() for line in (ROOT / "wordlists" / "spanish-sample.txt").read_text(encoding="utf-8")
                 .splitlines() if line.strip() and not line.startswith("#")]


class Brute:
    """The words as tuples of tiles, and the answer of each condition by brute force."""

    def __init__(self, words, rules):
        self.rules, self.alphabet = rules, rules.alphabet
        self.tiles = {tuple(self.alphabet.split(w.upper())): w.upper() for w in words}
        self.set = set(self.tiles)

    def split(self, text):
        return tuple(self.alphabet.split(text.upper()))

    def where(self, test):
        return sorted(self.alphabet.encode("".join(t)) for t in self.set if test(t))

    def rank(self, word, blanks=2):
        same = [w for w in self.set if len(w) == len(word)]
        mine = combinations(self.alphabet.encode("".join(word)), self.rules, blanks)
        return 1 + sum(combinations(self.alphabet.encode("".join(w)), self.rules, blanks) > mine for w in same)

    def anagram_count(self, word):
        return sum(Counter(w) == Counter(word) for w in self.set)


def cases(brute: Brute, other: set):
    """(condition, its brute-force test) for every kind of condition."""
    letters = sorted({t for w in brute.set for t in w})
    first, last = letters[0], letters[-1]
    yield Pattern(f"{first}*"), lambda w: w[0] == first
    yield Pattern("??"), lambda w: len(w) == 2
    yield Pattern(f"*[{first}-{letters[2]}]"), lambda w: first <= w[-1] <= letters[2] and w[-1] in letters[:3]
    rack = next(iter(sorted(brute.set, key=len, reverse=True)))
    yield AnagramMatch("".join(rack)), lambda w: Counter(w) == Counter(rack)
    yield AnagramMatch("".join(rack[:2]) + "?"), lambda w: len(w) == 3 and not Counter(rack[:2]) - Counter(w)
    yield AnagramMatch("".join(rack[:1]) + "*"), lambda w: not Counter(rack[:1]) - Counter(w)
    yield SubAnagram("".join(rack[:3]) + "?"), lambda w: sum((Counter(w) - Counter(rack[:3])).values()) <= 1
    yield Length(3, 4), lambda w: 3 <= len(w) <= 4
    yield Length(4, None), lambda w: len(w) >= 4
    yield Contains(first + first), lambda w: w.count(first) >= 2
    yield BeginsWith("".join(rack[:2])), lambda w: w[:2] == rack[:2]
    yield EndsWith(last), lambda w: w[-1] == last
    yield AnagramCount(2, None), lambda w: brute.anagram_count(w) >= 2
    yield AnagramCount(2, 2), lambda w: brute.anagram_count(w) == 2
    yield Contains(last + first), lambda w: not Counter((last, first)) - Counter(w)
    yield TakesFrontHook(), lambda w: any((t, *w) in brute.set for t in letters)
    yield TakesFrontHook(first), lambda w: (first, *w) in brute.set
    yield TakesBackHook(last), lambda w: (*w, last) in brute.set
    yield DropsFirst(), lambda w: len(w) > 1 and w[1:] in brute.set
    yield DropsLast(), lambda w: len(w) > 1 and w[:-1] in brute.set
    yield ProbabilityRank(1, 2), lambda w: brute.rank(w) <= 2
    yield ProbabilityRank(1, 1, blanks=0), lambda w: brute.rank(w, 0) == 1
    yield InLexicon(None), lambda w: w in other  # (the other lexicon is filled in by the test)


@pytest.mark.parametrize("kind", LEXICON_KINDS)
@pytest.mark.parametrize("language", ["english", "spanish"])
def test_every_condition_alone_negated_and_combined_is_brute_force(kind, language):
    rules = ENGLISH if language == "english" else SPANISH
    words = WORDS if language == "english" else SPANISH_WORDS
    lexicon = build_kind(from_words(words, rules.alphabet, min_len=1), kind, ruleset=language)
    brute = Brute(words, rules)
    other_words = words[::2]
    other = build_kind(from_words(other_words, rules.alphabet, min_len=1), "dawg", ruleset=language)
    other_set = {brute.split(w) for w in other_words}
    every = list(cases(brute, other_set))
    every[-1] = (InLexicon(other, "other"), every[-1][1])
    for condition, test in every:
        assert search(lexicon, [condition], rules) == brute.where(test), condition
        negated = type(condition)(**{**condition.__dict__, "negated": True})
        assert search(lexicon, [negated], rules) == brute.where(lambda w, t=test: not t(w)), negated
    for (a, ta), (b, tb) in zip(every, every[3:] + every[:3], strict=True):  # pairs: a driving condition, a filter
        assert search(lexicon, [a, b], rules) == brute.where(lambda w, ta=ta, tb=tb: ta(w) and tb(w)), (a, b)


ENABLE_SEARCHES = {
    "Q without U": [Pattern("*Q*"), Contains("U", negated=True)],
    "a 7 with a front S": [AnagramMatch("AEINST?"), TakesFrontHook("S")],
    "2s no first drop, Z back": [Length(2, 2), DropsFirst(negated=True), TakesBackHook("Z")],
    "QU subanagrams": [SubAnagram("QUIZ?"), BeginsWith("QU"), EndsWith("Z", negated=True), DropsLast(negated=True),
                       AnagramCount(1, 1)],
    "ZY 4s and 5s by rank": [AnagramMatch("ZY*"), Length(4, 5), ProbabilityRank(1, 300)],
}


@pytest.fixture(scope="module")
def enable_searched(enable_set):
    """Brute force's answer to each of ``ENABLE_SEARCHES`` over the Python set, worked out once
    (every format is held to the same answers)."""
    rules = ENGLISH
    encode = rules.alphabet.encode
    alphagrams = Counter("".join(sorted(v)) for v in enable_set)
    fours_fives = {n: {v: combinations(encode(v), rules, 2) for v in enable_set if len(v) == n} for n in (4, 5)}

    def rank(word):
        mine = fours_fives[len(word)][word]
        return 1 + sum(c > mine for c in fours_fives[len(word)].values())
    return {
        "Q without U": sorted(encode(w) for w in enable_set if "Q" in w and "U" not in w),
        "a 7 with a front S": sorted(encode(w) for w in ref.anagrams(enable_set, "AEINST?", False)
                                     if "S" + w.upper() in enable_set),
        "2s no first drop, Z back": sorted(encode(w) for w in enable_set if len(w) == 2 and w[1:] not in enable_set
                                           and w + "Z" in enable_set),
        "QU subanagrams": sorted(encode(w.upper()) for w in ref.anagrams(enable_set, "QUIZ?", True)
                                 if w.upper().startswith("QU") and not w.upper().endswith("Z")
                                 and w.upper()[:-1] not in enable_set and alphagrams["".join(sorted(w.upper()))] == 1),
        "ZY 4s and 5s by rank": sorted(encode(w) for w in enable_set
                                       if 4 <= len(w) <= 5 and "Z" in w and "Y" in w and rank(w) <= 300),
    }


def test_enable_searches_agree_with_brute_force(enable_lexicon, enable_searched):
    for name, conditions in ENABLE_SEARCHES.items():
        assert search(enable_lexicon, conditions, ENGLISH) == enable_searched[name], name


def test_costly_drivers_wait_for_the_cheap_ones(monkeypatch):
    """A hook, contains, ends-with or anagram-count condition lists words only when no cheap
    condition (a rack, a pattern, a prefix, a length) does; a small search counts anagrams by
    searching, without the whole lexicon's study index."""
    import lexc.lexicons.search as module

    lexicon = build_kind(from_words(WORDS, ENGLISH.alphabet, min_len=1), "dawg")
    refuse = lambda *a, **k: pytest.fail("a costly driver ran beside a cheap one")  # noqa: E731
    for cls in (TakesBackHook, Contains, EndsWith, AnagramCount):
        monkeypatch.setattr(cls, "drive", refuse)
    monkeypatch.setattr(module, "study_index", lambda *a, **k: pytest.fail("the whole index for a small search"))
    found = search(lexicon, [AnagramMatch("ACT"), TakesBackHook("S"), Contains("C"), EndsWith("T"),
                             AnagramCount(1, None)], ENGLISH)
    assert found == [ENGLISH.alphabet.encode("CAT")]
    monkeypatch.undo()
    threes = search(lexicon, [Length(3, 3)], ENGLISH)
    assert search(lexicon, [TakesBackHook("S"), Length(3, 3)], ENGLISH) == [
        w for w in threes if lexicon.contains_codes(w + ENGLISH.alphabet.encode("S"))]


def test_the_study_table():
    lexicon = build_kind(from_words(WORDS, ENGLISH.alphabet, min_len=1), "gaddawg")
    found = search(lexicon, [Length(3, 3)], ENGLISH)
    table = {r.word: r for r in rows(lexicon, found, ENGLISH)}
    cat = table["CAT"]
    assert (cat.front, cat.back) == ("S", "S") and cat.inner_front is True and cat.inner_back is False  # AT; CA no
    assert cat.alphagram == "ACT" and cat.anagrams == 1 and cat.score == 5 and cat.length == 3
    [acts] = rows(lexicon, [ENGLISH.alphabet.encode("ACTS")], ENGLISH)
    assert acts.anagrams == 3  # ACTS, CATS, SCAT
    assert cat.combinations == combinations(ENGLISH.alphabet.encode("CAT"), ENGLISH, 2)
    ordered = sorted_rows(list(table.values()), "probability")
    assert [r.rank for r in ordered] == sorted(r.rank for r in ordered)
    grouped = sorted_rows(list(table.values()), "alpha", group=True)
    alphagrams = [r.alphagram for r in grouped]
    assert all(alphagrams.index(a) + alphagrams.count(a) - 1 == len(alphagrams) - 1 - alphagrams[::-1].index(a)
               for a in alphagrams)  # each anagram set together
    with pytest.raises(SearchError, match="unknown sort"):
        sorted_rows([], "nope")
    every = search(lexicon, [], ENGLISH)
    for sort in ("alpha", "length", "probability", "score"):
        for group in (False, True):
            whole = sorted_rows(rows(lexicon, every, ENGLISH), sort, group)
            for limit in (1, 5, None):  # (alpha and length work out only the rows shown)
                assert study_table(lexicon, every, ENGLISH, 2, sort, group, limit) == whole[:limit], (sort, limit)


@pytest.mark.parametrize("kind, value, message", [
    ("length", "7-5", "not a range"), ("length", "x", "expected N"), ("nope", "1", "unknown condition"),
    ("pattern", "[^]", "names no letter"), ("contains", "A?", "blank"), ("in", "", "lexicon file"),
])
def test_bad_conditions_are_one_line_errors(kind, value, message):
    with pytest.raises(SearchError, match=message.replace("[", r"\[").replace("^", r"\^")):
        condition = make_condition(kind, value)
        search(build_kind(from_words(WORDS, ENGLISH.alphabet, min_len=1), "dawg"), [condition], ENGLISH)


def test_the_command(tiny_dawg, capsys, tmp_path):
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "3", "--front-hook", "S", "--json")
    data = json.loads(out)
    assert code == 0 and data and all(r["length"] == 3 and "S" in r["front"] for r in data)
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "3", "--csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and {"word", "front", "back", "rank", "alphagram", "anagrams"} <= set(table[0])
    code, out, err = run_main(capsys, "search", tiny_dawg, "--pattern", "ZZZ*")
    assert (code, out, err) == (1, "", "lexc: no words\n")
    other = tmp_path / "other.txt"
    other.write_text("CAT\nCATS\n", encoding="utf-8")
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "3-4", "--not", f"in={other}", "--json")
    assert code == 0 and {"CAT", "CATS"}.isdisjoint(r["word"] for r in json.loads(out))
    code, out, _ = run_main(capsys, "search", tiny_dawg, "--length", "3", "--sort", "probability", "--group")
    assert code == 0 and out.strip()
    code, _, err = run_main(capsys, "search", tiny_dawg, "--not", "frobnicate=1")
    assert code == 2 and "unknown condition" in err
