"""KWG files written by wolges and MAGPIE (``tests/interop.py``: read where they are): lexc
reads each and lists exactly the engine's own listing of its words, on both backends, and a
lexc-written KWG of the same words is the same graph (same size, same words, same GADDAG
strings; wolges numbers its nodes in another order: ``formats/kwg.md``)."""

from __future__ import annotations

import pytest

from interop import engine_file, engine_lines
from lexc import native
from lexc.formats.foreign import read_foreign, recognise
from lexc.formats.kwg import Kwg
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

ENGLISH = load_ruleset("english")
BACKENDS = [native.PURE] + ([native.COMPILED] if native.COMPILED is not None else [])

# (engine folder, KWG file, the engine's listing of its words)
KWGS = [
    ("wolges", "tiny.kwg", "tiny.kwg.txt"),
    ("wolges", "len15.kwg", "len15.kwg.txt"),
    ("magpie", "TWL_tiny.kwg", "TWL_tiny.dawg2text.txt"),
    ("magpie", "TWL_len15.kwg", "TWL_len15.dawg2text.txt"),
]


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: "compiled" if b.compiled else "pure")
@pytest.mark.parametrize("engine, name, listing", KWGS, ids=[f"{e}-{n}" for e, n, _ in KWGS])
def test_lexc_lists_exactly_the_engines_words(engine, name, listing, backend):
    path = engine_file(engine, name)
    assert recognise(path) is Kwg
    lexicon = read_foreign(path, Kwg, ENGLISH, backend)
    assert list(lexicon) == engine_lines(engine, listing)
    assert lexicon.file_layout == "kwg" and lexicon.engine == backend.name


def test_the_gaddag_half_spells_the_engines_gaddag_strings():
    """wolges's listing of a KWG's GADDAG strings (the separator written '@'), read by lexc's
    walk of the GADDAG root."""
    lexicon = read_foreign(engine_file("wolges", "len15.kwg"), Kwg, ENGLISH)
    alphabet = lexicon.alphabet
    found = []

    def walk(node, path):
        for letter, child in lexicon.children(node):
            step = path + ("@" if letter == 0 else alphabet.label(letter))
            if lexicon.is_word(child):
                found.append(step)
            walk(child, step)

    walk(lexicon.gaddag_root(), "")
    assert sorted(found) == sorted(engine_lines("wolges", "len15.kwg.gaddag.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("engine, name, listing", [("wolges", "ENABLE.kwg", "ENABLE.kwg.txt.gz"),
                                                   ("magpie", "TWL_ENABLE.kwg", "TWL_ENABLE.dawg2text.txt.gz")])
def test_enable_from_the_engines(engine, name, listing):
    lexicon = read_foreign(engine_file(engine, name), Kwg, ENGLISH)
    assert list(lexicon) == engine_lines(engine, listing)


@pytest.mark.parametrize("name, listing", [("tiny.kwg", "tiny.kwg.txt"), ("len15.kwg", "len15.kwg.txt")])
def test_lexcs_kwg_of_the_same_words_is_the_same_graph(name, listing):
    """The same size (both minimal, both tail-shared), the same words and GADDAG strings; only
    the order of the nodes in the array differs from wolges's."""
    theirs = engine_file("wolges", name).read_bytes()
    words = from_words(engine_lines("wolges", listing), ENGLISH.alphabet)
    lexicon = Kwg.read(theirs, name, ENGLISH)
    ours = Kwg.write(lexicon, ENGLISH)
    assert len(ours) == len(theirs)
    again = Kwg.read(ours, "ours", ENGLISH)
    assert list(again) == list(lexicon) == list(words.texts())
    assert again.strings == lexicon.strings
