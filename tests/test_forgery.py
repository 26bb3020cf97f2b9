"""Forged files that passed ``lexc verify`` (issue 34), crafted at run time from freshly built
files (``tools/forge.py``, which also wrote the regression files in ``tests/data``):

(a) a GADDAG edge relabelled, keeping sibling order: ``verify`` must prove that the GADDAG
    spells exactly the rotations of the words (``formats/rotations.py``);
(b) a header alphabet whose labels make a stored word read back as other tiles (LL added to
    AL ALL BALL): the loader refuses it, and a build never writes one
    (``formats/rereading.py``)."""

from __future__ import annotations

import itertools
import re
import struct
import time
import unicodedata

import pytest

from forge import JOIN_WORDS, ROTATION_WORDS, built, forge_join, forge_rotation, relabel
from fuzz import seal, split
from lexc import formats
from lexc.alphabet import Alphabet
from lexc.formats import FormatError
from lexc.formats.edges import U32
from lexc.formats.gaddag import Gaddawg
from lexc.lexicons.compile import verify
from lexc.ruleset import load_ruleset
from lexc.wordlist import WordList, from_words
from lexicons import SMALL, backend_of, enable_built, engine_kinds
from test_cli import ROOT, SPANISH, assert_one_error_line, run_main
from test_hostile import dawg_file, exponential

DATA = ROOT / "tests" / "data"
ENGLISH = load_ruleset("english").alphabet
SPANISH_ALPHABET = load_ruleset("spanish").alphabet
GADDAG_KINDS = engine_kinds(["gaddag", "gaddawg"])
MISSING_TAC = "the GADDAG does not spell CAT's rotation TAC"
JOINS_LL = "the alphabet reads the stored word A·L·L back as A·LL: label LL joins L + L"


def loads(data: bytes, kind: str = ""):
    """``formats.loads`` on the kind's backend (``NAME:pure``: the pure-Python one), the
    whole-graph proof made (as every command's open makes it)."""
    lexicon = formats.loads(data, backend=backend_of(kind))
    settle = getattr(lexicon, "settle_proof", None)
    if settle is not None:
        settle()
    return lexicon


# -- (a) a GADDAG that spells other strings than its words' rotations -----------------------

@pytest.mark.parametrize("kind", GADDAG_KINDS)
def test_a_relabelled_gaddag_edge_is_a_verify_finding_on_both_paths(kind):
    fmt = kind.split(":")[0]
    honest = loads(built(ROTATION_WORDS, fmt), kind)
    assert verify(honest)["ok"]
    forged = loads(forge_rotation(built(ROTATION_WORDS, fmt)), kind)
    # the forgery does what issue 34 says: the words list CAT, and so does membership (it reads
    # the DAWG root as the listing does), but the GADDAG lacks CAT's i = n string TAC
    assert forged.words() == ROTATION_WORDS and "CAT" in forged and forged.anagrams("TAC") == ["CAT"]
    assert not forged.gaddag_contains(forged.encode("CAT")) and honest.gaddag_contains(honest.encode("CAT"))
    result = verify(forged)
    assert not result["ok"] and result["problems"] == [MISSING_TAC]


@pytest.mark.parametrize("name", ["forged-tac.gaddag", "forged-tac.gaddawg"])
def test_the_rotation_regression_files_fail_verify(capsys, name):
    code, out, err = run_main(capsys, "verify", DATA / name)
    assert (code, out, err) == (1, f"FAILED: {MISSING_TAC}\n", "")
    code, out, _ = run_main(capsys, "check", DATA / name, "CAT")
    assert code == 0  # the file loads (its checksums and counts are right), CAT is in its DAWG: only verify can tell


def gaddag_language(lexicon) -> set[bytes]:
    """Every string the GADDAG root spells, by brute force over the trie primitives."""
    found, stack = set(), [(lexicon.gaddag_root(), b"")]
    while stack:
        node, path = stack.pop()
        for letter, sub in lexicon.children(node):
            if lexicon.is_word(sub):
                found.add(path + bytes((letter,)))
            stack.append((sub, path + bytes((letter,))))
    return found


def rotations_of(words) -> set[bytes]:
    """Gordon's strings rev(w[:i]) + SEP + w[i:] (no SEP for i = n) of every word."""
    return {w[:i][::-1] + (b"\x00" + w[i:] if i < len(w) else b"") for w in words for i in range(1, len(w) + 1)}


@pytest.mark.parametrize("kind", GADDAG_KINDS)
def test_verify_finds_every_relabelled_edge_that_changes_the_language(kind):
    """Every edge of a small GADDAG relabelled to each letter its siblings allow: ``verify``
    finds fault exactly when the GADDAG no longer spells its words' rotations (brute force),
    and then names a string of the difference."""
    fmt = kind.split(":")[0]
    data = built(SMALL["hooks"], fmt)
    edges = len(split(data)[1]) // 4
    outcomes = set()
    for edge, letter in itertools.product(range(2, edges), (1, 2, 6, 15, 20, 26)):
        try:
            forged = loads(relabel(data, edge, letter), kind)
        except (ValueError, FormatError):  # breaks sibling order, or a count the loader proves
            continue
        result = verify(forged)
        if result["words"] is None:  # check() found fault first (two nodes with equal lists...)
            assert not result["ok"]
            continue
        exact = gaddag_language(forged) == rotations_of(forged.iter_codes())
        finding = [p for p in result["problems"] if p.startswith(("the GADDAG does not spell ", "the GADDAG spells "))]
        assert len(finding) == (0 if exact else 1), (edge, letter, result["problems"])
        outcomes.add(exact)
    assert outcomes == {True, False}  # both kinds of mutant reached the rotation proof


def test_an_extra_string_counted_in_the_header_is_named():
    """One more string (the GADDAG root's A made terminal) with ``meta.strings`` raised to
    match: the loader's counts agree, every rotation is there, and verify names the string
    that is none."""
    data = built(ROTATION_WORDS, "gaddawg")
    header, payload = split(data)
    edges = list(struct.unpack(f"<{len(payload) // 4}I", payload))
    lexicon = formats.loads(data)
    a = lexicon.gaddag_walk(lexicon.encode("A"))
    letter, _, last, child = U32.unpack(edges[a])
    edges[a] = U32.pack(letter, True, last, child)
    meta = dict(header["meta"], strings=header["meta"]["strings"] + 1)
    forged = formats.loads(seal(dict(header, meta=meta), struct.pack(f"<{len(edges)}I", *edges)))
    assert verify(forged)["problems"] == ["the GADDAG spells A, which is no rotation of a word (A is not a word)"]


def test_a_copied_node_is_compared_letter_by_letter():
    """A GADDAG whose separator edge leads to a copy of the DAWG node rather than the node
    itself (not minimal): an exact copy is no finding of the rotation proof, a copy with one
    letter changed names the rotation it loses."""
    from lexc.formats import rotations

    data = built(ROTATION_WORDS, "gaddawg")  # formats/gaddag.md's worked example
    header, payload = split(data)
    edges = list(struct.unpack(f"<{len(payload) // 4}I", payload))
    lexicon = formats.loads(data)
    turn = lexicon.gaddag_walk(lexicon.encode("B") + b"\x00")  # B@ (and C@): the DAWG node of B
    node = [e for _, e in lexicon.children(turn)]
    for letter, expected in ((None, None), ("E", "the GADDAG does not spell BAT's rotation B@AT")):
        copy = [edges[e] for e in node]
        if letter:
            _, terminal, last, child = U32.unpack(copy[0])
            copy[0] = U32.pack(ENGLISH.code(letter), terminal, last, child)
        changed = list(edges) + copy
        _, terminal, last, _ = U32.unpack(changed[turn])
        changed[turn] = U32.pack(0, terminal, last, len(edges))
        forged = formats.loads(seal(dict(header, meta=dict(header["meta"], edges=len(changed))),
                                    struct.pack(f"<{len(changed)}I", *changed)))
        assert rotations.prove(forged, list(forged.iter_codes())) == expected


@pytest.mark.slow
def test_the_rotation_proof_is_fast_on_enable(enable_list):
    """ENABLE's gaddawg (1,570,508 strings, built once per run), on the path lexc chooses:
    proved in seconds (about 2 s on the compiled core, 3 s on the pure path, on the project's
    machine; the small tests hold both paths to the same findings)."""
    from lexc.formats import rotations

    lexicon = enable_built(enable_list, "gaddawg")
    words = list(lexicon.iter_codes())
    started = time.perf_counter()
    assert rotations.prove(lexicon, words) is None
    assert time.perf_counter() - started < 30


# -- (b) an alphabet whose labels read a stored word back as other tiles ----------------------

def test_the_hazards_of_the_bundled_alphabets():
    from lexc.formats import rereading

    joins = {name: sorted(rereading.dotted(j, load_ruleset(name).alphabet)
                          for j in rereading.hazards(load_ruleset(name).alphabet).joins)
             for name in ("english", "spanish", "catalan", "polish", "wwf")}
    assert joins == {"english": [], "spanish": ["C·H", "L·L", "L·LL", "R·R", "R·RR"], "catalan": [],
                     "polish": [], "wwf": []}
    assert ENGLISH.plain_ascii and rereading.hazards(ENGLISH).none
    assert not rereading.hazards(SPANISH_ALPHABET).normalizing


@pytest.mark.parametrize("labels, letters", [
    (SPANISH_ALPHABET.labels, ["A", "C", "H", "L", "LL", "R", "RR", "CH"]),
    (("A", "B", "AB", "BAB", "C", "CA", "ABC"), None),
    (("A", "AA", "AAA", "B", "AAB"), None),
])
def test_the_joins_are_exactly_the_tile_sequences_that_read_back_differently(labels, letters):
    """Every sequence of up to 4 tiles (over ``letters``): it reads back as itself exactly
    when it holds no join, and ``misread`` says so."""
    from lexc.formats import rereading

    alphabet = Alphabet(labels)
    codes = [alphabet.code(label) for label in (letters or labels)]
    joins = rereading.hazards(alphabet).joins
    for n in range(1, 5):
        for tiles in itertools.product(codes, repeat=n):
            word = bytes(tiles)
            try:
                same = alphabet.encode(alphabet.decode(word)) == word
            except ValueError:
                same = False
            assert same == (not any(j in word for j in joins)), rereading.dotted(word, alphabet)
            assert same == (rereading.misread(word, alphabet) is None)


def test_every_character_normalization_joins_to_its_left_is_caught():
    """Over all of Unicode: every second half of a canonical composition and every character
    of non-zero combining class makes an alphabet ``normalizing`` (word by word)."""
    from lexc.formats import rereading

    for cp in range(0x110000):
        ch = chr(cp)
        parts = unicodedata.decomposition(ch).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            assert rereading._binds_left(chr(int(parts[1], 16))), hex(cp)
        if unicodedata.combining(ch):
            assert rereading._binds_left(ch), hex(cp)
    for jamo in (0x1161, 0x11A8):  # a Hangul vowel and final consonant (compositions made by rule)
        assert rereading._binds_left(chr(jamo))


def test_a_label_normalization_joins_is_checked_word_by_word():
    from lexc.formats import rereading

    alphabet = Alphabet(("A", "\u0301", "Á", "B"))  # A + combining acute folds (NFC) to Á
    assert rereading.hazards(alphabet).normalizing
    assert rereading.misread(bytes([1, 2]), alphabet) == (
        "the alphabet reads the stored word A·\u0301 back as Á: its text 'A\\u0301' folds (NFC, upper case) to '\\xc1'")
    assert rereading.first_misread([b"\x01", b"\x02\x04", b"\x01\x02"], alphabet).startswith("the alphabet reads")
    assert rereading.first_misread([b"\x01", b"\x03\x02"], alphabet) is None  # Á + ◌́ stays as it is


JOIN_KINDS = engine_kinds(["dawg", "gaddag", "gaddawg", "prefixset", "prefixset-aho", "anatrie"])


@pytest.mark.parametrize("kind", JOIN_KINDS)
def test_a_joining_label_is_refused_at_load(kind):
    fmt = kind.split(":")[0]
    data = built(JOIN_WORDS, fmt)
    assert loads(data, kind).words() == JOIN_WORDS
    with pytest.raises(FormatError) as info:
        loads(forge_join(data), kind)
    assert str(info.value) == f"<bytes>: {JOINS_LL}"


@pytest.mark.parametrize("name", ["forged-ll.dawg", "forged-ll.gaddawg", "forged-ll.prefixset", "forged-ll.anatrie"])
def test_the_join_regression_files_are_refused(capsys, name):
    path = DATA / name
    code, _, err = run_main(capsys, "check", path, "ALL")
    assert code == 2
    assert_one_error_line(err, f"{path}: {JOINS_LL}")
    code, out, err = run_main(capsys, "verify", path)
    assert (code, out, err) == (1, f"FAILED: {path}: {JOINS_LL}\n", "")


@pytest.mark.parametrize("kind", engine_kinds(["dawg", "gaddawg", "prefixset"]))
def test_a_graph_spelling_many_words_is_searched_as_a_graph(kind, monkeypatch):
    """Past ``LIST_AT_MOST`` words the joins are sought in the graph: the same verdicts."""
    from lexc.formats import rereading

    monkeypatch.setattr(rereading, "LIST_AT_MOST", 0)
    fmt = kind.split(":")[0]
    with pytest.raises(FormatError, match=re.escape(JOINS_LL)):
        loads(forge_join(built(JOIN_WORDS, fmt)), kind)
    spanish = formats.build(from_words(SPANISH.read_text("utf-8").split("\n"), SPANISH_ALPHABET), fmt, "spanish")
    assert len(loads(formats.dumps(spanish), kind)) == len(spanish)


def test_a_tiny_graph_of_millions_of_spanish_words_is_refused_at_once():
    """Every five-letter string over codes 1..26 (11,881,376 words in a 528-byte payload)
    under the Spanish alphabet holds C·H: refused by the graph search, not by listing."""
    h, p = split(dawg_file(exponential(5), 26 ** 5))
    with pytest.raises(FormatError, match=r"back as .*: label CH joins C \+ H"):
        formats.loads(seal(dict(h, alphabet=list(SPANISH_ALPHABET.labels), ruleset="spanish"), p))


def test_every_load_proves_the_words_read_back():
    """No proof is remembered between loads: the same payload under an alphabet with one more
    joining label (LLA: LL·A of LLAMA) is searched afresh, and refused."""
    listed = from_words(SPANISH.read_text("utf-8").split("\n"), SPANISH_ALPHABET)
    data = formats.dumps(formats.build(listed, "dawg", "spanish"))
    formats.loads(data)
    with pytest.raises(FormatError, match=re.escape("LL·A·M·A back as LLA·M·A: label LLA joins LL + A")):
        formats.loads(forge_join(data, "LLA"))


def test_the_spanish_sample_loads_in_every_format():
    words = SPANISH.read_text("utf-8").split("\n")
    listed = from_words(words, SPANISH_ALPHABET)
    assert any(SPANISH_ALPHABET.code("LL") in w for w in listed.words)
    for fmt in formats.FORMATS:
        lexicon = formats.loads(formats.dumps(formats.build(listed, fmt, "spanish")))
        assert "LLUVIA" in lexicon and "CHURRO" in lexicon and "CARRO" in lexicon


def test_a_build_refuses_a_word_that_would_not_read_back(tmp_path, capsys):
    """A word list can hold a word whose folded text does not fold to itself again: Greek
    ΐ folds to iota (U+0399) + ◌̈ + ◌́, which folds to Ϊ + ◌́. Its tiles cannot be read back, so neither
    ``lexc build`` nor a list opened in memory makes the lexicon."""
    rules = (ROOT / "src" / "lexc" / "rulesets" / "tiny.toml").read_text("utf-8")
    rules = rules.replace("tile_total = 40", "tile_total = 43").replace(
        '"?" = [1, 0]', '"?" = [1, 0]\n"\u0399" = [1, 1]\n"\u0308" = [1, 1]\n"\u0301" = [1, 1]')
    ruleset = tmp_path / "greek.toml"
    ruleset.write_text(rules, encoding="utf-8")
    listing = tmp_path / "greek.txt"
    listing.write_text("ab\n\u0390\n", encoding="utf-8")
    reason = "the alphabet cannot read the stored word \u0399·\u0308·\u0301 back"
    with pytest.raises(FormatError, match=reason):
        formats.build(from_words(["AB", "\u0390"], load_ruleset(str(ruleset)).alphabet), "dawg")
    out = tmp_path / "greek.dawg"
    for args in (("build", listing, "-r", ruleset, "-o", out), ("check", listing, "-r", ruleset, "AB")):
        code, _, err = run_main(capsys, *args)
        assert code == 2
        assert_one_error_line(err, reason)
    assert not out.exists()


def test_a_build_refuses_stored_tiles_that_join():
    alphabet = Alphabet((*ENGLISH.labels, "LL"))
    ll = bytes([1, 12, 12])  # A·L·L, as a KWG or a library caller might hand them over
    with pytest.raises(FormatError, match=re.escape(JOINS_LL)):
        formats.build(WordList([ll], alphabet), "dawg")
    assert formats.build(from_words(["ALL"], alphabet), "dawg").words() == ["ALL"]  # read from text: A·LL


def test_a_kwg_read_in_place_is_checked_too(tmp_path):
    from lexc.formats.kwg import open_kwg

    ll = bytes([SPANISH_ALPHABET.code(c) for c in ("A", "L", "L")])
    graph = Gaddawg.build([ll], SPANISH_ALPHABET, layout="u32")  # the class's own build: no registry check
    path = tmp_path / "all.kwg"
    path.write_bytes(graph.payload())
    with pytest.raises(FormatError, match=r"all\.kwg: the alphabet reads the stored word A·L·L back as A·LL"):
        open_kwg(path, "spanish")
    assert open_kwg(path, "english").words() == ["ALL"]  # the same codes under English: no label joins them
