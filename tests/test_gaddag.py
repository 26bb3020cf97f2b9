"""The GADDAG (alone and sharing its array with the DAWG) spells exactly Gordon's strings, is
exactly minimal, is laid out as specified, and is built the same way with or without links.

The shared parametrized tests (test_queries.py) already hold every query of both formats to
brute force; this file checks the structure itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as ref
from lexc.formats import build, dumps, load, loads
from lexc.formats.errors import FormatError
from lexc.formats.gaddag import GADDAG_SLOT, SEP, Gaddag, Gaddawg
from lexc.formats.minimize import Minimizer
from lexc.wordlist import from_words
from lexicons import SMALL, enable_built

GADDAG_FORMATS = ["gaddag", "gaddawg"]
U32_LAST = 1 << 22


def gordon_strings(words: set[str]) -> set[str]:
    """rev(w[:i]) + '@' + w[i:] for i = 1..n, without '@' when i = n (the issue's rule)."""
    out = set()
    for w in words:
        for i in range(1, len(w) + 1):
            out.add(w[:i][::-1] + ("@" + w[i:] if i < len(w) else ""))
    return out


def spelled(lex: Gaddag, start: int) -> set[str]:
    """Every string the graph spells from a pointer edge, separators as '@'."""
    label = {SEP: "@"} | {c: lex.alphabet.label(c) for c in lex.alphabet.codes}
    out: set[str] = set()
    stack = [(start, "")]
    while stack:
        node, path = stack.pop()
        for letter, sub in lex.children(node):
            word = path + label[letter]
            if lex.is_word(sub):
                out.add(word)
            stack.append((sub, word))
    return out


def reachable_lists(lex: Gaddag) -> dict[int, tuple[int, ...]]:
    """Node lists reachable from the stored root pointers, by first edge."""
    return lex._reachable()[0]


def built(english, fmt: str, words) -> Gaddag:
    return build(from_words(sorted(words), english.alphabet, min_len=1), fmt)


# -- the language -------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", GADDAG_FORMATS)
@pytest.mark.parametrize("name", sorted(SMALL))
def test_spells_gordons_strings(english, fmt, name):
    words = {w.upper() for w in SMALL[name]}
    lex = built(english, fmt, words)
    assert spelled(lex, GADDAG_SLOT) == gordon_strings(words)
    assert spelled(lex, lex.root()) == words  # the DAWG part: stored (gaddawg) or rebuilt (gaddag)
    assert lex.stats()["strings"] == sum(len(w) for w in words)


@pytest.mark.parametrize("fmt", GADDAG_FORMATS)
@pytest.mark.parametrize("name", sorted(SMALL))
def test_exactly_minimal(english, fmt, name):
    words = {w.upper() for w in SMALL[name]}
    lex = built(english, fmt, words)
    lists = reachable_lists(lex)
    assert len(set(lists.values())) == len(lists), "two equal edge lists: not minimal"
    languages = [gordon_strings(words)] + ([words] if fmt == "gaddawg" else [])
    nodes, edges = ref.minimal_graph_size(*languages)
    assert len(lists) == nodes
    assert lex.stats()["nodes"] == nodes + 1  # plus the node with no edges
    assert sum(map(len, lists.values())) == edges
    assert lex.check() == []


@settings(max_examples=100, deadline=None)
@given(st.sets(st.text(alphabet="ABCD", min_size=1, max_size=7), min_size=1, max_size=40),
       st.sampled_from(GADDAG_FORMATS))
def test_random_lists(english, words, fmt):
    lex = built(english, fmt, words)
    assert lex.check() == []
    assert spelled(lex, GADDAG_SLOT) == gordon_strings(words)
    lists = reachable_lists(lex)
    languages = [gordon_strings(words)] + ([words] if fmt == "gaddawg" else [])
    nodes, edges = ref.minimal_graph_size(*languages)
    assert len(lists) == nodes == len(set(lists.values()))
    assert sum(map(len, lists.values())) == edges
    assert list(lex) == sorted(words)
    again = loads(dumps(lex))
    assert dumps(again) == dumps(lex) and list(again) == sorted(words)


@pytest.mark.parametrize("fmt", GADDAG_FORMATS)
def test_links_give_the_same_array_as_spelling_every_string_out(english, fmt):
    words = from_words(SMALL["paper"] + SMALL["hooks"], english.alphabet, min_len=1).words
    fast = build(from_words(SMALL["paper"] + SMALL["hooks"], english.alphabet, min_len=1), fmt)
    m = Minimizer()
    dawg_root = m.add_language(words)
    strings = sorted({w[:i][::-1] + (b"\x00" + w[i:] if i < len(w) else b"") for w in words
                      for i in range(1, len(w) + 1)})
    gaddag_root = m.add_language(strings)  # no links: every string spelled out
    roots = [dawg_root if fmt == "gaddawg" else 0, gaddag_root]
    slow, _, _ = m.pack(roots, share_tails=True, parents_first=True)
    assert slow == fast.edges


# -- the layout ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", GADDAG_FORMATS)
def test_layout(english, fmt):
    lex = built(english, fmt, SMALL["paper"])
    edges = lex.edges.tolist()
    slots = [e >> 24 for e in edges[:2]], [bool(e & U32_LAST) for e in edges[:2]]
    assert slots == ([0, 0], [True, True])  # two pointer edges, DAWG root first
    assert (edges[0] & 0x3FFFFF != 0) == (fmt == "gaddawg")
    for start, lst in reachable_lists(lex).items():
        letters = [e >> 24 for e in lst]
        assert letters == sorted(letters), f"letters of node {start} not ascending"  # the separator first
    # parents first: every child index after its edge, so the loader proves the graph in one sweep
    assert all(e & 0x3FFFFF > i for i, e in enumerate(edges) if i >= 2 and e & 0x3FFFFF)
    # tails shared as far as that order allows: no stored run is a proper suffix of a run stored
    # after it (a list is the tail only of a list built before it, which is laid out after it)
    later: set[tuple[int, ...]] = set()  # the proper suffixes of the runs after this one
    for _, run in sorted(lex.node_lists(), reverse=True):
        assert run not in later
        later |= {run[j:] for j in range(1, len(run))}


def words_part(lex: Gaddag) -> tuple[int, set[int]]:
    """(the lowest stored position the DAWG root's lists start from, every stored position the
    DAWG root reaches): the part of the graph a count of the words proves."""
    edges, mask, last = lex.edges, lex._cmask, lex._lbit
    starts = [lex._edge(i) & mask for _, i in lex._rebuilt_edges()] or [edges[0] & mask]
    starts = [s for s in starts if s]
    seen: set[int] = set()
    stack = list(starts)
    while stack:
        i = stack.pop()
        while i not in seen:
            seen.add(i)
            if edges[i] & mask:
                stack.append(edges[i] & mask)
            if edges[i] & last:
                break
            i += 1
    return min(starts, default=len(edges)), seen


def assert_the_words_are_stored_last(lex: Gaddag) -> None:
    """gaddag.md, "Layout" 4: the DAWG's runs are built first, so stored last, as one stretch
    at the array's end: a count of the words sweeps that stretch alone."""
    lowest, reached = words_part(lex)
    assert reached == set(range(lowest, len(lex.edges)))


@settings(max_examples=60, deadline=None)
@given(st.sets(st.text(alphabet="ABCD", min_size=1, max_size=7), min_size=1, max_size=40),
       st.sampled_from(GADDAG_FORMATS))
def test_the_words_are_stored_last(english, words, fmt):
    assert_the_words_are_stored_last(built(english, fmt, words))


def test_combined_costs_only_the_dawg_root(english):
    words = from_words(SMALL["paper"], english.alphabet, min_len=1)
    alone, both = build(words, "gaddag"), build(words, "gaddawg")
    first_letters = {w[0] for w in words.words}
    assert both.stats()["edges"] - alone.stats()["edges"] == len(first_letters)


def test_separator_primitives(english):
    lex = built(english, "gaddawg", SMALL["paper"])
    enc = english.alphabet.encode
    node = lex.gaddag_walk(enc("RAC") + bytes([SEP]))  # CAR, then rightwards
    assert node is not None
    assert english.alphabet.mask_labels(lex.word_letters(node)) == ["E", "S"]  # CARE, CARS
    assert lex.gaddag_walk(enc("RAC") + bytes([SEP]) + enc("ES")) is not None
    assert lex.is_word(lex.gaddag_walk(enc("RAC") + bytes([SEP]) + enc("ES")))
    assert lex.gaddag_walk(enc("SERAC")) is not None and lex.is_word(lex.gaddag_walk(enc("SERAC")))
    assert lex.child(lex.gaddag_walk(enc("SERAC")), SEP) is None  # CARES extends no further
    assert lex.gaddag_walk(bytes([SEP])) is None  # no string starts with the separator


# -- ENABLE -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def enable_gaddags(enable_list):
    return {fmt: enable_built(enable_list, fmt) for fmt in GADDAG_FORMATS}


def test_enable_sizes(enable_gaddags):
    alone, both = enable_gaddags["gaddag"], enable_gaddags["gaddawg"]
    # wolges's KWG of ENABLE is 808,272 entries, every tail shared; lexc shares a tail only inside a
    # list built before it, so that its array stays parents first (provable in one sweep): 16,177 more
    assert len(both.edges) == 824_449
    assert both.stats()["nodes"] == 419_253  # the same minimal graph
    assert len(dumps(both)) - both.layout.itemsize * len(both.edges) < 1_000  # the container's header
    assert both.stats()["edges"] - alone.stats()["edges"] == 26  # the DAWG root list
    assert both.stats()["trie_nodes"] == 4_259_315  # distinct prefixes of the 1,570,508 strings
    assert both.stats()["strings"] == 1_570_508


def test_enable_invariants(enable_gaddags):
    for lex in enable_gaddags.values():
        assert lex.check() == []
        assert_the_words_are_stored_last(lex)
    lowest, _ = words_part(enable_gaddags["gaddawg"])
    assert 0.85 < lowest / len(enable_gaddags["gaddawg"].edges) < 0.86  # a count sweeps the last 15%


def test_enable_front_hooks_through_the_gaddag(enable_gaddags, enable_set):
    lex = enable_gaddags["gaddag"]
    for word in ["CARE", "ABLE", "ZA", "QI", "OX", "RACE", "EAT", "XYZZY", "AT"]:
        expected = "".join(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c + word in enable_set)
        assert "".join(lex.hooks(word).front) == expected, word


def test_corrupt_gaddag_root_is_a_format_error(english):
    lex = built(english, "gaddag", SMALL["paper"])
    edges = lex.edges.tolist()
    edges[GADDAG_SLOT] = U32_LAST | 0x3FFFFF  # GADDAG root far outside the array
    with pytest.raises(FormatError):
        Gaddag(type(lex.edges)("I", edges), lex.layout, lex.alphabet, lex.word_count)


def test_gaddawg_is_a_gaddag():
    assert issubclass(Gaddawg, Gaddag)
    assert Gaddawg.stores_dawg_root and not Gaddag.stores_dawg_root


@pytest.mark.parametrize("name", ["three-v1.gaddag", "three-v1.gaddawg"])
def test_version_1_file_is_refused_with_how_to_rebuild(name):
    """Version 1 (lexc before issue 17) put the separator last; such a file is refused in
    one line that says how to rebuild it, never read with the separator unfound."""
    path = Path(__file__).parent / "data" / name
    with pytest.raises(FormatError) as info:
        load(path)
    message = str(info.value)
    assert "version 1 is not supported" in message and "lexc build WORDLIST -f" in message
    assert "\n" not in message
