"""Probability order (lexc.lexicons.probability) against a brute-force count of draws: every
set of tiles of a small bag, each tile its own, that spells the word."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations as subsets
from pathlib import Path

import pytest

from lexc.lexicons.probability import combinations, probability_ranks
from lexc.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = load_ruleset("english")


@pytest.fixture(scope="module")
def small_bag(tmp_path_factory):
    """The tiny ruleset with two blanks (its own has one), so the two-blank term counts."""
    text = (ROOT / "src" / "lexc" / "rulesets" / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('"?" = [1, 0]', '"?" = [2, 0]').replace("tile_total = 40", "tile_total = 41")
    path = tmp_path_factory.mktemp("rules") / "two-blanks.toml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(str(path))


@cache
def draws(ruleset, size: int) -> Counter:
    """Every draw of ``size`` distinct tiles of the full bag (blanks are code 0), counted by the
    tiles it holds (sorted codes)."""
    bag = ruleset.bag_tiles()
    return Counter(tuple(sorted(bag[i] for i in draw)) for draw in subsets(range(len(bag)), size))


def brute_force(codes: bytes, ruleset, blanks: int) -> int:
    """The draws of len(codes) tiles whose letters all belong to the word and whose blanks, at
    most ``blanks``, make up the rest (as many tiles as letters: the blanks fill exactly
    what the letters leave)."""
    need = Counter(codes)
    count = 0
    for held, ways in draws(ruleset, len(codes)).items():
        tiles = Counter(held)
        used = tiles.pop(0, 0)
        if used <= blanks and all(need[t] >= n for t, n in tiles.items()):
            count += ways
    return count


def test_the_worked_example():
    qi = ENGLISH.alphabet.encode("QI")
    assert [combinations(qi, ENGLISH, b) for b in (0, 1, 2)] == [9, 29, 30]


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_combinations_count_every_draw_that_spells_the_word(small_bag, blanks):
    rng = random.Random(blanks)
    alphabet = small_bag.alphabet
    words = ["A", "AA", "AAA", "AAAA", "EEE", "QI", "JAZZ", "ABBE", "DEED", "SEAT", "EASE"]
    words += ["".join(rng.choice("AEIDLNORST") for _ in range(rng.randint(2, 4))) for _ in range(12)]
    for word in words:
        codes = alphabet.encode(word)
        assert combinations(codes, small_bag, blanks) == brute_force(codes, small_bag, blanks), (word, blanks)


def test_one_blank_in_the_bag_gives_no_two_blank_draws():
    tiny = load_ruleset("tiny")
    for word in ("QI", "ABE", "EEE"):
        codes = tiny.alphabet.encode(word)
        assert combinations(codes, tiny, 2) == combinations(codes, tiny, 1) == brute_force(codes, tiny, 2)


def test_ranks_per_length_ties_share_a_rank():
    encode = ENGLISH.alphabet.encode
    words = [encode(w) for w in ("AE", "EA", "QI", "ZA", "XU", "ZZZ", "EAT", "TEA", "ETA")]
    ranks = probability_ranks(words, ENGLISH)
    by = {ENGLISH.alphabet.decode(w): r for w, r in ranks.items()}
    assert by["AE"] == by["EA"] == 1  # anagrams draw alike: a tie
    assert by["QI"] == by["ZA"] == 3 and by["XU"] == 5  # after a tie, the next rank skips it (30, 30, 15)
    assert by["EAT"] == by["TEA"] == by["ETA"] == 1 and by["ZZZ"] == 4  # each length its own ranking
    assert combinations(encode("ZZZ"), ENGLISH, 0) == 0 < combinations(encode("ZZZ"), ENGLISH, 2)


def test_blanks_must_be_0_1_or_2():
    with pytest.raises(ValueError, match="0, 1 or 2"):
        combinations(b"\x01", ENGLISH, 3)


def test_multi_character_tiles_are_one_tile():
    spanish = load_ruleset("spanish")
    codes = spanish.alphabet.encode("CHE")
    ch, e = spanish.alphabet.code("CH"), spanish.alphabet.code("E")
    assert len(codes) == 2
    assert combinations(codes, spanish, 0) == spanish.count(ch) * spanish.count(e)
