"""Fuzzing the loaders (``tools/fuzz.py``): mutated files raise FormatError or load into a
lexicon whose queries do not raise; plus a deterministic run of the fuzzer itself, and one
regression test per loader bug it found (each now ends in FormatError).

Mutants are made by ``tools/fuzz.py``: most are *re-sealed* (header re-packed, header CRC,
payload size and SHA-256 recomputed) so they reach the formats' own checks.
"""

from __future__ import annotations

import array
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzz  # tools/fuzz.py: conftest puts tools/ on the path
import lexc
from fuzz import seal, split
from lexc import formats
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from test_hostile import refused_by_the_proof

ROOT = Path(lexc.__file__).resolve().parent.parent
TOOLS = Path(fuzz.__file__).resolve().parent
ENGLISH = load_ruleset("english").alphabet
WORDS = ["CAT", "CATS", "DOG"]



@pytest.fixture(scope="module")
def bases():
    return fuzz.make_bases()


def parts(fmt: str, words=WORDS, **options):
    """(header, payload) of a small valid file."""
    return split(formats.dumps(formats.build(from_words(list(words), ENGLISH), fmt, "english", **options)))


def outcome_in_child(blob: bytes, timeout: float = 20) -> tuple[str, str]:
    """``fuzz.run_case`` in a separate process, so a crash or a hang inside C code (where
    SIGALRM cannot interrupt) is a result, not the end of the test run."""
    code = ("import sys, json; from fuzz import run_case, _limit_memory; _limit_memory(200); "
            "print(json.dumps(run_case(sys.stdin.buffer.read(), 5.0)))")
    try:
        proc = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True, timeout=timeout,
                              env={"PYTHONPATH": f"{ROOT}:{TOOLS}", "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired:
        return "BUG", f"hang: no answer in {timeout} s"
    if proc.returncode < 0:
        return "BUG", f"crash: signal {-proc.returncode}"
    if proc.returncode:
        return "BUG", proc.stderr.decode()[-300:]
    return tuple(json.loads(proc.stdout))


# --- the fuzzer's own bookkeeping -----------------------------------------------------------

def test_valid_files_are_ok_and_foreign_files_are_errors(bases):
    for base in bases:
        assert fuzz.run_case(base["data"], 5.0) == ("ok", ""), base["format"]
    for blob in fuzz.FOREIGN:
        assert fuzz.run_case(blob, 5.0)[0] == "error"


def test_cases_are_deterministic(bases):
    assert [fuzz.make_case(3, i, bases) for i in range(50)] == [fuzz.make_case(3, i, bases) for i in range(50)]
    assert len({fuzz.make_case(3, i, bases)[2] for i in range(50)}) > 40


def test_resealed_mutants_pass_the_container_checks(bases):
    """The point of re-sealing: the container accepts the mutant, the format must judge it."""
    from lexc.formats import container

    rng = random.Random(1)
    for base in bases:
        container.unpack(fuzz.m_flip_payload(rng, base, bases))
        container.unpack(fuzz.m_counts(rng, base, bases))


# --- hypothesis: arbitrary mutations --------------------------------------------------------

@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(which=st.integers(0, 10**6), kind=st.sampled_from(sorted(fuzz.MUTATIONS)), seed=st.integers(0, 2**32))
def test_every_mutation_raises_format_error_or_loads_safely(bases, which, kind, seed):
    base = bases[which % len(bases)]
    blob = fuzz.MUTATIONS[kind](random.Random(seed), base, bases)
    outcome, detail = fuzz.run_case(blob, 5.0)
    assert outcome != "BUG", f"{base['format']} {kind}: {detail}"


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(which=st.integers(0, 10**6), edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)),
                                                   min_size=1, max_size=4), reseal=st.booleans())
def test_arbitrary_byte_edits(bases, which, edits, reseal):
    """Any bytes of any format's file set to any values; re-sealed, so the checksum passes."""
    base = bases[which % len(bases)]
    b = bytearray(base["payload"] if reseal else base["data"])
    for pos, value in edits:
        b[pos % len(b)] = value
    blob = seal(base["header"], bytes(b)) if reseal else bytes(b)
    outcome, detail = fuzz.run_case(blob, 5.0)
    assert outcome != "BUG", f"{base['format']}: {detail}"
    if not reseal and bytes(b) != base["data"]:
        assert outcome == "error", "a damaged file that was not re-sealed must fail its checksum"


@pytest.fixture(scope="module")
def cli_lexicons(tmp_path_factory):
    """The small lexicons the fuzzer's command-line cases run on."""
    fuzz.prepare_cli(str(tmp_path_factory.mktemp("fuzz-cli")))
    return fuzz.CLI_LEXICONS


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(kind=st.sampled_from(sorted(fuzz.TEXT_KINDS)), seed=st.integers(0, 2**32))
def test_mutated_text_through_the_command_line_is_one_line_or_an_answer(cli_lexicons, kind, seed):
    """Notation, CGP, GCG, patterns, racks and words, mutated (huge digit runs, strange
    characters, repeats), through ``lexc.cli.main``: an answer or one error line, never a
    traceback, a memory error or a hang."""
    case = fuzz.TEXT_KINDS[kind](random.Random(seed))
    outcome, detail = fuzz.run_case(case, 10.0)
    assert outcome in ("ok", "error"), f"{kind}: {detail}"


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(which=st.integers(0, 10**6), kind=st.sampled_from(["header-types", "header-ruleset", "graph", "anatrie-words"]),
       seed=st.integers(0, 2**32))
def test_hostile_files_through_the_loader_and_the_command_line(bases, cli_lexicons, which, kind, seed):
    """The attacks on re-sealed headers and payloads, loaded and then read by the commands."""
    base = bases[which % len(bases)]
    blob = fuzz.MUTATIONS[kind](random.Random(seed), base, bases)
    outcome, detail = fuzz.run_case(blob, 10.0, cli=True)
    assert outcome != "BUG", f"{base['format']} {kind}: {detail}"


# --- the fuzzer itself ----------------------------------------------------------------------

def test_fuzzer_run_on_every_format_finds_no_bug(bases):
    result = fuzz.fuzz(cases=300, seed=0, jobs=1, bases=bases)
    assert sum(sum(c.values()) for c in result["table"].values()) == 300
    assert any(label == "cli" for label, _ in result["table"])  # text cases ran too
    assert result["bugs"] == [], fuzz.summary(result)


# --- the bugs the fuzzer found (fixed), one minimal reproduction each ------------------------

def _dawg_child_out_of_range():
    h, p = parts("dawg")
    b = bytearray(p)
    b[4:7] = b"\xff\xff\x00"  # edge 1 (the root's first edge): child index 0xffff, past the array
    return seal(h, bytes(b))


def _dawg_cycle():
    h, p = parts("dawg", ["AB"])
    edges = array.array("I", p)
    edges[1] = 0x2400001  # the B edge: not terminal, last, child = its own node
    return seal(h, edges.tobytes())


def _gaddag_child_out_of_range():
    h, p = parts("gaddag")
    edges = array.array("I", p)
    edges[2] = edges[2] & ~0x3FFFFF | 0x3FFFF0  # the first stored edge (S, a leaf): child 0x3ffff0, past the array
    return seal(h, edges.tobytes())


def _meta(fmt, **changes):
    h, p = parts(fmt)
    return seal(dict(h, meta={**h["meta"], **changes}), p)


def _edited(fmt, pos, value):
    h, p = parts(fmt)
    b = bytearray(p)
    b[pos] = value
    return seal(h, bytes(b))


def _header(fmt, **changes):
    h, p = parts(fmt)
    return seal(dict(h, **changes), p)


def _truncated(fmt):
    h, p = parts(fmt)
    return seal(h, p[: len(p) // 2])


def _marisa_image(pos, value):
    """A version-1 style payload (the marisa image of the key set), one byte edited."""
    import marisa_trie

    keys = sorted({ENGLISH.encode(w[:i]) for w in WORDS for i in range(1, len(w) + 1)})
    image = bytearray(marisa_trie.BinaryTrie(keys, order=marisa_trie.LABEL_ORDER).tobytes())
    image[pos] = value
    h, _ = parts("prefixset")
    return seal(dict(h, meta={"keys": len(image) // 2}), bytes(image) + b"\0" * (len(image) % 2))


BUGS = {  # what used to happen: now every one is refused with FormatError
    "dawg-layout-unhashable": lambda: _meta("dawg", layout={}),  # TypeError (unhashable) in the loader
    "anatrie-disk-unhashable": lambda: _meta("anatrie", disk={}),  # the same for meta.disk
    "dawg-child-out-of-range": _dawg_child_out_of_range,  # loaded; IndexError in queries
    "gaddag-child-out-of-range": _gaddag_child_out_of_range,  # the same
    "dawg-cycle": _dawg_cycle,  # loaded; iteration never ended, its stack growing
    "anatrie-bad-record": lambda: _edited("anatrie", 0, 0xFF),  # loaded (nothing parsed); ValueError in queries
    "anatrie-truncated": lambda: _truncated("anatrie"),  # loaded; IndexError in queries
    "anatrie-huge-word-count": lambda: _header("anatrie", words=2**64 - 1),  # OverflowError in len()
    # prefixset version 1 handed its payload (a marisa image) to libmarisa: these edits of the
    # image made loading segfault, allocate ~4 GB, or load a trie whose iteration never ended;
    # version 2 reads a key stream and never hands file bytes to libmarisa
    "prefixset-segfault": lambda: _marisa_image(44, 0xFF),
    "prefixset-load-memory": lambda: _marisa_image(43, 0xFF),
    "prefixset-iteration-hang": lambda: _marisa_image(24, 0xAC),
    "prefixset-version-1": lambda: _header("prefixset", format_version=1),
}


@pytest.mark.parametrize("name", sorted(BUGS))
def test_known_loader_bug_is_a_format_error(name):
    outcome, detail = outcome_in_child(BUGS[name](), timeout=8)
    assert outcome == "error", detail


def test_gaddag_with_a_wrong_word_count_is_refused_by_the_proof(tmp_path):
    """The proof counts the words from the graph (the DAWG root rebuilt from the GADDAG): a
    re-sealed header that says one more is refused before the count is given, not left for
    check() to notice."""
    h, p = parts("gaddag")
    forged = seal(dict(h, words=h["words"] + 1), p)
    refused_by_the_proof(forged, "rebuilt DAWG root spells 3 strings, the header says 4", tmp_path)


def test_gaddawg_and_dawg_with_a_wrong_word_count_are_refused_by_the_proof(tmp_path):
    for fmt in ("dawg", "gaddawg"):
        h, p = parts(fmt)
        refused_by_the_proof(seal(dict(h, words=h["words"] + 1), p), "spells 3 strings, the header says 4", tmp_path)
        fewer = r"spells 3 strings, the header says 2|more than 2 strings: the graph spells more"
        refused_by_the_proof(seal(dict(h, words=h["words"] - 1), p), fewer, tmp_path)
