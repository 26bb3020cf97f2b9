"""The DAWG is exactly minimal, structurally sound, and its layouts agree."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexc
import reference as ref
from lexc.formats import build, dumps, loads
from lexc.formats.dawg import Dawg
from lexc.formats.edges import U32, U64, choose_layout
from lexc.formats.errors import FormatError
from lexc.wordlist import from_words
from lexicons import SMALL, enable_built


def edge_lists(dawg: Dawg) -> list[tuple[int, ...]]:
    return [edges for _, edges in dawg.node_lists()]


@pytest.fixture(scope="module")
def enable_dawg(enable_list):
    return enable_built(enable_list, "dawg")


def test_enable_dawg_is_minimal(enable_dawg):
    lists = edge_lists(enable_dawg)
    assert len(lists) == len(set(lists)), "two equal edge lists: not minimal"
    assert enable_dawg.check() == []


def test_enable_dawg_size(enable_dawg):
    stats = enable_dawg.stats()
    # Appel & Jacobson shrank a 117,150-node trie to 19,853 nodes; ENABLE's trie is bigger
    assert stats["trie_nodes"] == 387_881  # distinct prefixes of ENABLE, counted independently below
    assert stats["nodes"] < stats["trie_nodes"] / 5
    assert stats["bytes"] == 4 * (stats["edges"] + 1)
    assert stats["bytes"] <= 500_000


def test_trie_node_count_is_the_number_of_prefixes(enable_list):
    prefixes = {w[:i] for w in enable_list.words for i in range(len(w) + 1)}
    assert len(prefixes) == 387_881


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_lists_match_brute_force_minimizer(english, name):
    words = {w.upper() for w in SMALL[name]}
    dawg = build(from_words(words, english.alphabet, min_len=1), "dawg")
    nodes, edges = ref.minimal_graph_size(words)
    assert dawg.stats()["edges"] == edges
    assert dawg.stats()["nodes"] == nodes + 1  # plus the node with no edges


@settings(max_examples=150, deadline=None)
@given(st.sets(st.text(alphabet="ABCD", min_size=1, max_size=8), min_size=1, max_size=60))
def test_random_lists_are_minimal(english, words):
    dawg = build(from_words(sorted(words), english.alphabet, min_len=1), "dawg")
    lists = edge_lists(dawg)
    assert len(lists) == len(set(lists))
    nodes, edges = ref.minimal_graph_size(words)
    assert dawg.stats()["edges"] == edges
    assert len(lists) == nodes
    assert dawg.check() == []
    assert list(dawg) == sorted(words)


def test_u64_layout_gives_the_same_graph(english):
    words = from_words(SMALL["paper"], english.alphabet, min_len=1)
    narrow, wide = build(words, "dawg", layout="u32"), build(words, "dawg", layout="u64")
    assert wide.layout is U64 and narrow.layout is U32
    assert [U32.unpack(e) for e in narrow.edges] == [U64.unpack(e) for e in wide.edges]
    again = loads(dumps(wide))
    assert again.layout is U64 and list(again) == list(narrow)
    assert again.anagrams("CARES?", sub=True) == narrow.anagrams("CARES?", sub=True)


def test_layout_choice():
    assert choose_layout(10) is U32
    assert choose_layout(U32.max_edges) is U32
    assert choose_layout(U32.max_edges + 1) is U64
    with pytest.raises(FormatError):
        choose_layout(U32.max_edges + 1, "u32")


def test_edge_packing_round_trips():
    for layout in (U32, U64):
        for fields in [(1, True, False, 0), (127, False, True, layout.child_mask), (26, True, True, 12345)]:
            assert layout.unpack(layout.pack(*fields)) == fields


def test_multi_character_tiles():
    spanish = lexc.load_ruleset("spanish")
    words = ["CHURRO", "LLAMA", "PERRO", "CARRO", "CHAL", "ÑU", "AÑO", "CALLE"]
    dawg = build(from_words(words, spanish.alphabet), "dawg")
    assert "churro" in dawg and "ÑU" in dawg and "CHUR" not in dawg
    assert dawg.walk(spanish.alphabet.encode("CHURRO")) is not None
    assert len(spanish.alphabet.encode("CHURRO")) == 4
    assert dawg.anagrams("RROUCH") == ["CHURRO"]
    assert dawg.hooks("ÑU").as_dict()["valid"] is True
    assert set(dawg) == set(words)
    assert dawg.check() == []


def test_check_detects_a_duplicated_edge_list(english):
    dawg = build(from_words(["AB", "CB"], english.alphabet), "dawg")
    assert dawg.check() == []
    # append a copy of an existing node: the array is no longer minimal
    lst = list(dawg.edges)
    first = next(iter(dawg.node_lists()))[1]
    tampered = Dawg(type(dawg.edges)(dawg.edges.typecode, lst + list(first)), dawg.layout, dawg.alphabet, 2)
    assert any("equal edge lists" in p for p in tampered.check())
