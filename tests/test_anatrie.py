"""Shapiro & Smith's anagram trie: the paper's Table 1, findwords' order, findwords2's
required letters, both disk layouts, every canonical order, and searching the mapped file.

The shared parametrized tests (test_queries.py) already hold every protocol query of the
format to brute force on ENABLE and small lists; this file checks what is particular to it."""

from __future__ import annotations

import mmap
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexc
from lexc.formats import build, dumps, load, loads, save
from lexc.formats.anatrie import AnagramTrie, canonical_order
from lexc.formats.errors import FormatError
from lexc.wordlist import from_words
from lexicons import SMALL, enable_built, random_racks

FIGURE4 = ["QUA", "ELK", "LIVES", "EVILS", "LIVE", "EVIL", "VILE", "NO", "ON"]
DISKS = ["pascal", "simula"]
ORDERS = ["1979", "1977", "alpha", "values"]


def anatrie(english, words, **options) -> AnagramTrie:
    return build(from_words(words, english.alphabet, min_len=1), "anatrie", **options)


def formable(word: str, rack: str, required: str = "") -> bool:
    """Brute force: the word uses every required letter, and the rest comes from the rack's
    letters and blanks."""
    if len(word) > len(rack) + len(required):  # every letter comes from one or the other
        return False
    if any(word.count(letter) < required.count(letter) for letter in set(required)):
        return False
    missing = sum(max(0, word.count(letter) - required.count(letter) - rack.count(letter)) for letter in set(word))
    return missing <= rack.count("?")


def test_formable_is_the_multiset_rule():
    """The brute force above against the multiset arithmetic it stands for."""
    for word, rack, required in [("CAT", "CAT", ""), ("CAT", "CA?", ""), ("CAT", "CA", ""), ("CATS", "CA?", "S"),
                                 ("CAT", "CAT", "S"), ("EEL", "E?", "L"), ("EEL", "EL", "E"), ("EEL", "L", "EE"),
                                 ("EEL", "L?", "EEE"), ("ABC", "??", "A"), ("ABC", "?", "A")]:
        need, have, req = Counter(word), Counter(rack.replace("?", "")), Counter(required)
        expected = not (req - need) and sum(((need - req) - have).values()) <= rack.count("?")
        assert formable(word, rack, required) == expected, (word, rack, required)


# -- the paper ----------------------------------------------------------------------------

@pytest.mark.parametrize("disk", DISKS)
def test_table_1(english, disk):
    """Shapiro & Smith 1977, Table 1: rack #VSIE over the lexicon of Figure 4."""
    lex = anatrie(english, FIGURE4, order="1977", disk=disk)
    search = lex.findwords("?VSIE")
    assert sorted(next(search)) == ["EVIlS", "lIVES"]  # the first detach
    assert lex.last_stats["nodes_read"] == 9  # Q U K L V L S I E, as in the table's rows
    assert sorted(next(search)) == ["EVIl", "VIlE", "lIVE"]  # resumed: the second detach
    assert next(search, None) is None
    assert lex.last_stats["nodes_read"] == 13  # ... I E N O: the table's node visits, each read once
    # the spec's trace: pascal reads 72 of its 91 bytes (O passed by seek: letter and flags),
    # simula 139 (its skips walk Q's, K's, S's and V's success subtries)
    assert lex.last_stats["bytes_read"] == {"pascal": 72, "simula": 139}[disk]


def test_findwords2_requires_the_board_letters(english):
    lex = anatrie(english, FIGURE4, order="1977")
    assert [sorted(g) for g in lex.findwords2("?VIE", "S")] == [["EVIlS", "lIVES"]]
    assert [sorted(g) for g in lex.findwords2("VIE", "L")] == [["EVIL", "LIVE", "VILE"]]
    assert list(lex.findwords2("VIE", "LS")) == [["EVILS", "LIVES"]]  # both board letters used
    assert list(lex.findwords2("VIE", "N")) == []  # NO and ON need an O
    assert list(lex.words_from("VIES", required="LL")) == []  # no word has two Ls


@pytest.mark.slow
def test_words_before_their_sub_collections(enable_list):
    lex = enable_built(enable_list, "anatrie")
    for rack in ["RETAINS", "AEIRST?", "QUIZ?ES"]:
        groups = [(len(g[0]), Counter(g[0].upper())) for g in lex.findwords(rack)]
        for i, (size, earlier) in enumerate(groups):
            for bigger, later in groups[i + 1 :]:  # a proper sub-collection has fewer letters
                assert not (size < bigger and not earlier - later), \
                    f"{rack}: a sub-collection came before its collection"


def test_higher_valued_letters_first(enable_list):
    """The first group uses the rack's most valuable letter (canonical order: Q, Z, X, ...)."""
    lex = enable_built(enable_list, "anatrie")
    first = next(lex.findwords("QIZSTAE"))
    assert all("Q" in w for w in first)


def test_findwords_is_resumable(enable_list):
    lex = enable_built(enable_list, "anatrie")
    whole = list(lex.findwords("RETAIN?"))
    search = lex.findwords("RETAIN?")
    head = [next(search) for _ in range(5)]
    assert head + list(search) == whole


# -- correctness against brute force ------------------------------------------------------

@pytest.fixture(scope="module")
def enable_simula(enable_list):
    """ENABLE's anagram trie in the simula disk layout (the pascal one is the shared build)."""
    return build(enable_list, "anatrie", disk="simula")


@pytest.mark.parametrize("disk", DISKS)
@pytest.mark.slow
def test_findwords2_matches_brute_force_on_enable(enable_list, enable_set, enable_simula, disk):
    lex = enable_built(enable_list, "anatrie") if disk == "pascal" else enable_simula
    cases = [("RETAIN?", "S"), ("QUIZ??", "E"), ("EAT", "BL"), ("ST??", "Z"), ("AEINRST", "QU")]
    if disk == "simula":
        cases = cases[:2]  # the simula layout reads megabytes per query
    for rack, required in cases:
        found = {w.upper() for w in lex.words_from(rack, required)}
        assert found == {w for w in enable_set if formable(w, rack, required)}, (rack, required)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.text(alphabet="ABCDE", min_size=1, max_size=6), min_size=1, max_size=40),
       st.text(alphabet="ABCDE?", max_size=6), st.text(alphabet="ABCDE", max_size=2),
       st.sampled_from(DISKS), st.sampled_from(ORDERS))
def test_random_lists(english, words, rack, required, disk, order):
    lex = anatrie(english, sorted(words), disk=disk, order=order)
    assert lex.check() == []
    found = [w.upper() for w in lex.words_from(rack, required)]
    assert len(found) == len(set(found)), "a word came out twice"
    assert set(found) == {w for w in words if formable(w, rack, required)}
    alphabet = english.alphabet
    letters, blanks = alphabet.parse_rack(rack)
    using = [alphabet.decode(w) for w in lex.words_using(letters, blanks, alphabet.encode(required))]
    assert sorted(using) == sorted(found)  # the codes-level form move generation uses: same words, once each
    assert sorted(lex) == sorted(words)
    again = loads(dumps(lex))
    assert dumps(again) == dumps(lex)
    assert again.anagrams(rack, sub=True) == lex.anagrams(rack, sub=True)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("disk", DISKS)
def test_every_order_and_layout_gives_the_same_answers(english, order, disk):
    words = sorted({w.upper() for lst in SMALL.values() for w in lst})
    lex, ref = anatrie(english, words, order=order, disk=disk), anatrie(english, words)
    assert lex.check() == []
    for rack in ["CARES", "A?", "TRACE??", "BATS", "AB?"]:
        assert lex.anagrams(rack, sub=True) == ref.anagrams(rack, sub=True)
    assert all(w in lex for w in words)


# -- orders, layouts, files ---------------------------------------------------------------

def test_canonical_orders(english):
    alpha = english.alphabet
    decode = lambda codes: "".join(alpha.label(c) for c in codes)  # noqa: E731
    assert decode(canonical_order(alpha)) == "QZXJKHFYWVCMPBGDLUTNRIOAES"
    assert decode(canonical_order(alpha, "1977")) == "ZQJXKVWYFHBPMCGDULSIRNOATE"
    assert decode(canonical_order(alpha, "alpha")) == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    values = decode(canonical_order(alpha, "values"))
    assert values[:2] == "QZ" and values[-1] == "E"  # 10 points, rarest first; E: 1 point, 12 tiles
    with pytest.raises(FormatError):
        canonical_order(alpha, "ABC")
    spanish = lexc.load_ruleset("spanish")
    order = canonical_order(spanish.alphabet, ruleset="spanish")  # auto: by tile values
    assert [spanish.value(c) for c in order] == sorted((spanish.value(c) for c in order), reverse=True)


@pytest.mark.slow
def test_the_order_changes_the_size(enable_list):
    counts = {order: build(enable_list, "anatrie", order=order).stats()["nodes"] for order in ("1977", "alpha")}
    counts["1979"] = enable_built(enable_list, "anatrie").stats()["nodes"]  # the default order for A-Z
    assert enable_built(enable_list, "anatrie").order == canonical_order(enable_list.alphabet, "1979")
    assert counts == {"1979": 459_588, "1977": 548_759, "alpha": 402_715}


@pytest.mark.slow
def test_simula_reads_more_than_pascal(enable_list, enable_simula):
    pascal = enable_built(enable_list, "anatrie")
    simula = enable_simula
    for rack in random_racks(seed=4, n=3, tiles=7, blanks=1):
        assert pascal.anagrams(rack, sub=True) == simula.anagrams(rack, sub=True)
        assert 0 < pascal.last_stats["bytes_read"] < simula.last_stats["bytes_read"]
        assert pascal.last_stats["bytes_read"] < len(pascal.payload()) / 50  # a small part of the file


def test_a_loaded_file_is_searched_in_place(english, tmp_path):
    lex = anatrie(english, FIGURE4)
    path = tmp_path / "f.anatrie"
    save(lex, path)
    loaded = load(path)
    assert isinstance(loaded.file.data, memoryview) and isinstance(loaded.file.data.obj, mmap.mmap)
    assert loaded.anagrams("?VSIE", sub=True) == lex.anagrams("?VSIE", sub=True)
    assert loaded.last_stats["bytes_read"] > 0


@pytest.mark.parametrize("disk", DISKS)
def test_check_finds_a_corrupt_word(english, disk):
    lex = anatrie(english, FIGURE4, disk=disk)
    data = bytearray(lex.payload())
    at = data.find(english.alphabet.encode("LIVES"))
    data[at] = english.alphabet.code("Z")  # ZIVES is not a permutation of its path
    bad = AnagramTrie(bytes(data), lex.alphabet, lex.word_count, lex.order, disk)
    assert any("not a permutation" in p for p in bad.check())
    truncated = AnagramTrie(bytes(data[:-3]), lex.alphabet, lex.word_count, lex.order, disk)
    assert truncated.check()


@pytest.mark.parametrize("disk", DISKS)
def test_empty_lexicon(english, disk):
    lex = AnagramTrie.build([], english.alphabet, disk=disk)  # (as `lexc edit` can leave one)
    for one in (lex, loads(dumps(lex))):
        assert one.anagrams("ABC?", sub=True) == [] and "A" not in one and list(one) == []
        assert not one.is_prefix("A") and one.pattern("*") == [] and one.check() == []
        assert list(one.dump_rows()) == []


def test_options_are_recorded(english):
    lex = anatrie(english, FIGURE4, order="1977", disk="simula")
    header = loads(dumps(lex)).header
    assert header["options"] == {"disk": "simula", "order": "1977"}
    assert header["meta"]["disk"] == "simula" and len(header["meta"]["order"]) == 26
    with pytest.raises(FormatError):
        anatrie(english, FIGURE4, disk="tape")


def test_crafted_fail_offsets_are_caught(english):
    """A file whose checksum holds but whose fail offsets lie: check() names it, and a
    search refuses a backward offset instead of looping."""
    lex = anatrie(english, FIGURE4, order="1977")
    data = bytearray(lex.payload())
    assert data[1] & 2  # the root node Q has a fail sibling (K); its offset is bytes 2..5
    forward = bytearray(data)
    forward[2:6] = (int.from_bytes(data[2:6], "little") + 2).to_bytes(4, "little")
    wrong = AnagramTrie(bytes(forward), lex.alphabet, lex.word_count, lex.order, "pascal")
    assert any("fail offset" in p for p in wrong.check())
    data[2:6] = bytes(4)  # back to the root itself
    looping = AnagramTrie(bytes(data), lex.alphabet, lex.word_count, lex.order, "pascal")
    with pytest.raises(FormatError, match="does not point forward"):
        list(looping.findwords("?VSIE"))


@pytest.mark.slow
def test_exact_anagrams_use_every_tile(enable_list, enable_set):
    lex = enable_built(enable_list, "anatrie")
    for rack in ["RETAINS", "RETAIN?", "QUIZ?", "AEINST??"]:
        found = lex.anagrams(rack)
        assert all(len(w) == len(rack) for w in found)
        assert {w.upper() for w in found} == {w for w in enable_set if len(w) == len(rack) and formable(w, rack)}
