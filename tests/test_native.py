"""The compiled core's switch and plumbing: which path is active and how to choose it, that a
lexicon keeps the path it was made on, and what the core's graph refuses. The agreement of
the two paths' answers is tested where each answer is (queries, move generation, alphabets,
the big list), over both paths (``lexicons.ENGINES``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexc
from lexc import formats, native
from lexc.formats import build
from lexc.wordlist import from_words

from lexicons import enable_built

ROOT = Path(__file__).resolve().parent.parent
HOOK = ROOT / "formats" / "golden" / "hook.gaddawg"

needs_core = pytest.mark.skipif(not native.enabled(), reason="the compiled core is not built here, or LEXC_PURE=1")


def _lexc(*args: str, **env: str) -> subprocess.CompletedProcess:
    """``python -m lexc`` on the lexc under test (installed, or the source tree)."""
    parent = str(Path(lexc.__file__).resolve().parent.parent)
    environ = dict(os.environ, PYTHONPATH=parent, **env)
    return subprocess.run([sys.executable, "-m", "lexc", *args], capture_output=True, text=True, env=environ,
                          timeout=120)


def test_version_names_the_active_path():
    done = _lexc("--version")
    assert done.returncode == 0
    expected = "engine: compiled core (C)" if native.enabled() else "engine: pure Python"
    assert expected in done.stdout


def test_lexc_pure_forces_the_pure_path():
    done = _lexc("--version", LEXC_PURE="1")
    assert done.returncode == 0 and "engine: pure Python" in done.stdout and "compiled core (C)" not in done.stdout
    info = _lexc("info", str(HOOK), LEXC_PURE="1")
    assert "engine: pure Python" in info.stdout


@needs_core
def test_info_says_which_path_answers():
    done = _lexc("info", str(HOOK))
    assert done.returncode == 0 and "engine: compiled core (C)" in done.stdout


def test_a_lexicon_keeps_the_path_it_was_made_on(english):
    words = from_words(["AT", "CAT", "TA"], english.alphabet)
    with native.pure():
        reference = build(words, "gaddawg")
    assert reference.engine == "pure Python"
    compiled = build(words, "gaddawg")
    assert compiled.engine == ("compiled core (C)" if native.enabled() else "pure Python")
    assert formats.dumps(reference) == formats.dumps(compiled)  # one file, whichever path built it
    assert sorted(reference) == sorted(compiled) == ["AT", "CAT", "TA"]


@needs_core
def test_the_core_graph_refuses_what_it_cannot_walk():
    """The core checks on construction what its walks rely on; the loader's own checks name
    the fault (tests/test_hostile.py covers the files), the core never reads past its arrays."""
    core = native.core()
    ok = bytes(4) + (1 << 22 | 2).to_bytes(4, "little") + (1 << 24 | 1 << 23 | 1 << 22).to_bytes(4, "little")
    with pytest.raises(native.MalformedGraph):  # a buffer that is not whole edges
        core.Graph(ok[:-1], "u32", 26, 1, False, b"", -1, False, bytes(256))
    with pytest.raises(native.MalformedGraph):  # a child index outside the array
        bad = ok[:8] + (1 << 24 | 1 << 23 | 1 << 22 | 9).to_bytes(4, "little")
        core.Graph(bad, "u32", 26, 1, False, b"", -1, False, bytes(256))
    with pytest.raises(native.MalformedGraph):  # a letter outside the alphabet
        bad = ok[:8] + (27 << 24 | 1 << 23 | 1 << 22).to_bytes(4, "little")
        core.Graph(bad, "u32", 26, 1, False, b"", -1, False, bytes(256))


@needs_core
def test_a_loaded_graph_is_not_copied_into_python_objects(tmp_path, english):
    """The loaded DAWG family reads the mapped file's edges in place: no list of edges."""
    lines = (ROOT / "wordlists" / "enable1.txt").read_text().split()[:20000]
    path = tmp_path / "e.dawg"
    formats.save(build(from_words(lines, english.alphabet), "dawg"), path)
    lexicon = formats.load(path)
    assert lexicon.engine == "compiled core (C)"
    assert "BAT" in lexicon and "BATZ" not in lexicon and lexicon.anagrams("TAB") == ["BAT"]
    assert "_list" not in vars(lexicon)  # the pure path's list of edges was never made


@pytest.mark.parametrize("disk", ["pascal", "simula"])
def test_findwords_reads_what_the_reference_reads(english, disk):
    """Shapiro & Smith's findwords2 in the core gives the reference's groups, in its order,
    and reads the same bytes and nodes (``last_stats``: what the papers measured)."""
    lines = (ROOT / "wordlists" / "enable1.txt").read_text().split()[::7]
    data = formats.dumps(build(from_words(lines, english.alphabet), "anatrie", disk=disk))
    compiled = formats.loads(data)
    with native.pure():
        reference = formats.loads(data)
    assert reference.engine == "pure Python"
    for rack, required in [("RETAINS", ""), ("QUIZ??", ""), ("AEINRST?", ""), ("??", ""), ("ZZZ", ""),
                           ("TRE?", "A"), ("ES", "QU"), ("AB", "Z")]:
        got = list(compiled.findwords2(rack, required) if required else compiled.findwords(rack))
        stats = compiled.last_stats
        expected = list(reference.findwords2(rack, required) if required else reference.findwords(rack))
        assert got == expected, rack
        assert stats == reference.last_stats, rack


def test_a_gaddag_answers_membership_from_one_half_on_both_paths():
    """A crafted gaddawg (found by the fuzzer: it passes the loader) whose DAWG half spells
    CATS and whose GADDAG half does not: membership and hooks' validity are read from the
    GADDAG half on both paths (a GADDAG's ``contains_codes``), never one half on one path
    and the other on the other."""
    data = (ROOT / "tests" / "data" / "halves-disagree.gaddawg").read_bytes()
    compiled = formats.loads(data)
    with native.pure():
        reference = formats.loads(data)
    for word in ("CATS", "CAT", "DOG", "QUIZ", "AB", "A", "AAH"):
        assert (word in compiled) == (word in reference) == reference.contains_codes(reference.encode(word)), word
        assert compiled.hooks(word) == reference.hooks(word), word
    assert "CATS" not in compiled and compiled.is_prefix("CATS")  # the DAWG half has it, the GADDAG half does not


@needs_core
def test_membership_runs_in_the_core_and_hands_the_rest_to_python(english):
    """``word in lexicon`` for the DAWG family is the core's ``__contains__`` (no Python
    frame); what it does not answer itself (bytes, other types, text it cannot encode, a
    lexicon made on the pure path) gets the Python path's answer."""
    words = ["CARE", "CARES", "ZYZZYVA", "QI", "care", "Cares", "", "ÇA", "C?RE", "CARE ", "A" * 80]
    built = from_words(["CARE", "CARES", "ZYZZYVA", "AA"], english.alphabet)
    for fmt in ("dawg", "gaddag", "gaddawg"):
        compiled = formats.build(built, fmt)
        with native.pure():
            reference = formats.build(built, fmt)
        assert type(compiled).__contains__ is formats.Dawg.__contains__
        assert "method_descriptor" in type(type(compiled).__contains__).__name__
        for word in words + [b"CARE", compiled.encode("CARE"), 3, None]:
            assert (word in compiled) == (word in reference) == reference._contains(word), (fmt, word)


# -- the minimizer -----------------------------------------------------------------------------

GRAPHS = ("dawg", "gaddag", "gaddawg")


def _both_paths(words, name: str, **options) -> tuple[bytes, bytes]:
    """The file bytes of one build on the pure path and one on the active path."""
    with native.pure():
        reference = formats.dumps(build(words, name, **options))
    return reference, formats.dumps(build(words, name, **options))


@needs_core
@settings(max_examples=60, deadline=None)
@given(st.lists(st.text("ABCDE", min_size=1, max_size=9), max_size=40), st.sampled_from(GRAPHS),
       st.sampled_from(["auto", "u64"]))
def test_the_compiled_minimizer_builds_the_same_bytes(english, words, name, layout):
    """Every word graph, built by the C minimizer and by the reference, is the same file."""
    wordlist = from_words(words or ["A"], english.alphabet, min_len=1)
    reference, compiled = _both_paths(wordlist, name, layout=layout)
    assert compiled == reference


@needs_core
@pytest.mark.slow
def test_the_compiled_minimizer_builds_enables_gaddawg_byte_for_byte(enable_list):
    """The session's ENABLE gaddawg (built once per run by ``build`` on the active path: the
    compiled minimizer, which this test requires) is the file the reference minimizer builds."""
    with native.pure():
        reference = formats.dumps(build(enable_list, "gaddawg"))
    assert formats.dumps(enable_built(enable_list, "gaddawg")) == reference


@needs_core
def test_the_compiled_minimizer_refuses_what_the_reference_refuses():
    from lexc.formats.minimize import Minimizer, link

    for make in (Minimizer, native.core().Minimizer):
        m = make()
        with pytest.raises(ValueError, match="strictly increasing"):
            m.add_language([b"\x02", b"\x01"])
        m = make()
        root = m.add_language([b"\x01\x02", b"\x02"])
        assert m.child(root, 1) and m.child(root, 2) == 0
        with pytest.raises(ValueError, match="no edge 3"):
            m.child(root, 3)
        with pytest.raises(ValueError, match="points at no node"):
            m.add_language([link(b"\x01", 10**6)], True)
        with pytest.raises(ValueError, match="points at no node"):
            m.add_language([b"\x01\x00\x00"], True)
        with pytest.raises(ValueError, match="is extended by"):
            low, high = sorted([root, m.child(root, 1)])  # two nodes: the second link extends the first's letters
            m.add_language([link(b"\x01", low), link(b"\x01", high)], True)


# -- the deep check --------------------------------------------------------------------------------

def _tampered(lexicon, how: str):
    """A copy of a built word graph's file with one rule of ``check`` broken, loadable."""
    from array import array

    edges = array(lexicon.edges.typecode, lexicon.edges)
    layout = lexicon.layout
    slots = len(lexicon.pointers)
    if how == "copy":  # a copy of the first stored run: not minimal, and a run of no node
        end = next(i for i in range(slots, len(edges)) if edges[i] >> layout.last_bit & 1)
        edges.extend(edges[slots : end + 1])
    elif how == "separator":  # a terminal separator edge
        i = next(i for i in range(slots, len(edges)) if not edges[i] >> layout.letter_shift & 0xFF)
        edges[i] |= 1 << layout.terminal_bit
    elif how == "pointer":  # a letter on a root pointer
        edges[0] |= 1 << layout.letter_shift
    count = lexicon.word_count + (how == "count")  # a header that says one word more
    return type(lexicon)(edges, layout, lexicon.alphabet, count, lexicon.build_options,
                         **{k: lexicon.meta().get(k) for k in lexicon.meta_counts})


@pytest.mark.parametrize("name, how", [(name, how) for name in GRAPHS for how in ("none", "copy", "pointer", "count")]
                         + [("gaddag", "separator"), ("gaddawg", "separator")])
def test_the_deep_check_names_the_same_problems_on_both_paths(english, name, how):
    """``check`` runs its node rules in the core (``lists_ok``) and its counts by the core's
    proof walk; whatever it finds, the list is the pure path's word for word."""
    words = from_words(["AB", "ABS", "CAB", "CABS", "BA", "BAS", "SCAB"], english.alphabet)
    with native.pure():
        reference = _tampered(build(words, name), how).check()
    compiled = _tampered(build(words, name), how).check()
    assert compiled == reference
    assert (reference == []) == (how == "none")


# -- the anagram trie's passes over its file -----------------------------------------------------

def _passes(lexicon) -> list:
    """What the passes over an anagram trie's file answer (or the error each raises)."""
    out = []
    for ask in (lambda: lexicon.words("CA"), lambda: lexicon.pattern("?A*"), lambda: lexicon.is_prefix("SC"),
                lambda: lexicon.is_prefix("ZQ"), lambda: list(lexicon)):
        try:
            out.append(ask())
        except formats.FormatError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize("disk", ["pascal", "simula"])
def test_the_anagram_tries_passes_answer_alike_on_both_paths_even_damaged(english, disk):
    """The core's pass over the letter table gives the Python pass's words; at a damaged
    record it hands back to the Python pass, so the error is the pure path's word for word."""
    words = from_words(["CAB", "CABS", "SCAB", "ABS", "BA", "CAT", "ACT", "TACT", "TA", "AT", "CAR"], english.alphabet)
    lex = build(words, "anatrie", disk=disk)
    data = bytes(lex.file.data)
    rng = __import__("random").Random(7)
    variants = [data, data[:-1], data[: len(data) // 2], data + b"\x01"]
    for _ in range(40):
        damaged = bytearray(data)
        damaged[rng.randrange(len(data))] = rng.randrange(256)
        variants.append(bytes(damaged))
    for variant in variants:
        def make():
            return type(lex)(variant, lex.alphabet, lex.word_count, lex.order, disk)
        with native.pure():
            reference = _passes(make())
        assert _passes(make()) == reference
    assert _passes(type(lex)(data, lex.alphabet, lex.word_count, lex.order, disk))[0] == ["CAB", "CABS", "CAR", "CAT"]
