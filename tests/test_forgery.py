"""Forged files that passed ``lexc verify`` (issue 34), crafted at run time from freshly built
files (``tools/forge.py``, which also wrote the regression files in ``tests/data``):

(a) a GADDAG edge relabelled, keeping sibling order: ``verify`` must prove that the GADDAG
    spells exactly the rotations of the words (``formats/rotations.py``)."""

from __future__ import annotations

import itertools
import struct
import time

import pytest

from forge import ROTATION_WORDS, built, forge_rotation, relabel
from fuzz import seal, split
from lexc import formats
from lexc.formats import FormatError
from lexc.formats.edges import U32
from lexc.lexicons.compile import verify
from lexc.ruleset import load_ruleset

from lexicons import SMALL, enable_built, engine_kinds, made_on
from test_cli import ROOT, run_main

DATA = ROOT / "tests" / "data"
ENGLISH = load_ruleset("english").alphabet
GADDAG_KINDS = engine_kinds(["gaddag", "gaddawg"])
MISSING_TAC = "the GADDAG does not spell CAT's rotation TAC"


def loads(data: bytes, kind: str = ""):
    """``formats.loads`` on the kind's path (``NAME:pure``: the pure-Python one)."""
    with made_on(kind):
        return formats.loads(data)


# -- (a) a GADDAG that spells other strings than its words' rotations -----------------------

@pytest.mark.parametrize("kind", GADDAG_KINDS)
def test_a_relabelled_gaddag_edge_is_a_verify_finding_on_both_paths(kind):
    fmt = kind.split(":")[0]
    honest = loads(built(ROTATION_WORDS, fmt), kind)
    assert verify(honest)["ok"]
    forged = loads(forge_rotation(built(ROTATION_WORDS, fmt)), kind)
    # the forgery does what issue 34 says: the words list CAT, membership (the GADDAG) says no
    assert forged.words() == ROTATION_WORDS and "CAT" not in forged and forged.anagrams("TAC") == ["CAT"]
    result = verify(forged)
    assert not result["ok"] and result["problems"] == [MISSING_TAC]


@pytest.mark.parametrize("name", ["forged-tac.gaddag", "forged-tac.gaddawg"])
def test_the_rotation_regression_files_fail_verify(capsys, name):
    code, out, err = run_main(capsys, "verify", DATA / name)
    assert (code, out, err) == (1, f"FAILED: {MISSING_TAC}\n", "")
    code, out, _ = run_main(capsys, "check", DATA / name, "CAT")
    assert code == 1  # the file loads (its checksums and counts are right): only verify can tell


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
@pytest.mark.parametrize("kind", engine_kinds(["gaddawg"]))
def test_the_rotation_proof_is_fast_on_enable(enable_list, kind):
    """ENABLE's gaddawg (1,570,508 strings, built once per run): proved in seconds on either
    path (about 2 s on the compiled core, 3 s on the pure path, on the project's machine)."""
    from lexc.formats import rotations

    lexicon = enable_built(enable_list, kind)
    words = list(lexicon.iter_codes())
    started = time.perf_counter()
    assert rotations.prove(lexicon, words) is None
    assert time.perf_counter() - started < 30
