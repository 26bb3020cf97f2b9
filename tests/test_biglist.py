"""Lists far bigger than ENABLE.

The synthetic list generator (``lexc synth``) is deterministic and gives what it promises;
and a list whose GADDAG needs more than the u32 layout's 2**22 edges is built for real in
every format: the word graphs switch to the documented u64 layout by themselves, the files
round-trip, and every format answers a sample of queries like a plain Python set. The full
3-million-word run is ``make biglist`` (figures in the README).
"""

from __future__ import annotations

import json
import random

import pytest

import reference as ref
from lexc import formats
from lexc.formats import FormatError, build
from lexc.formats.edges import U32, choose_layout
from lexc.formats.kwg import export_kwg
from lexc.lexicons.source import bundled_wordlist
from lexc.lexicons.synth import Chain, generate
from lexc.wordlist import from_words, word_lines
from lexicons import FORMAT_NAMES, LEXICON_KINDS, format_of, random_racks, shared_build
from test_cli import assert_one_error_line, run_main

TRAIN = ["CARE", "CARES", "CART", "CARTS", "SCAR", "SCARE", "RACE", "RACES", "TRACE", "CRATE", "REACT",
         "CATER", "CATERS", "RECAST", "TRACES", "CARTES", "ACE", "ACES", "ARC", "ARCS"]


# -- the generator -------------------------------------------------------------------------

def test_generate_is_deterministic_sorted_distinct_and_within_bounds():
    first = generate(500, seed=5, order=1, min_len=3, max_len=9, training=TRAIN)
    assert first == generate(500, seed=5, order=1, min_len=3, max_len=9, training=TRAIN)
    assert first != generate(500, seed=6, order=1, min_len=3, max_len=9, training=TRAIN)
    assert len(first) == 500 and first == sorted(set(first))
    assert all(3 <= len(w) <= 9 for w in first)
    assert set("".join(first)) <= set("ACERST")  # only letters the training list has


def test_chain_follows_its_training_list():
    """Order 3 on a list whose contexts each allow one continuation reproduces the list."""
    words = ["ABCDE", "FGHIJ", "KLMNO"]
    chain = Chain(words, order=3)
    rng = random.Random(0)
    drawn = {chain.word(rng, 15) for _ in range(200)}
    assert drawn == set(words)


@pytest.mark.slow
def test_generate_default_training_gives_english_like_words():
    words = generate(2000, seed=1)
    lengths = [len(w) for w in words]
    assert all(2 <= n <= 15 for n in lengths)
    assert 7 <= sum(lengths) / len(lengths) <= 12  # ENABLE's words average 9.1 letters
    enable = {w.lower() for w in word_lines(bundled_wordlist())}
    assert 0 < sum(w in enable for w in words) < len(words)  # some real words, mostly new ones


def test_generate_refuses_more_words_than_the_chain_can_give():
    with pytest.raises(FormatError, match="no more new words after 3"):
        generate(4, order=5, training=["ABCDEF", "GHIJKL", "MNOPQR"], patience=2000)
    with pytest.raises(FormatError, match="min-len"):
        generate(10, min_len=5, max_len=4, training=TRAIN)
    with pytest.raises(FormatError, match="no words"):
        generate(10, training=[])


def test_synth_command(tmp_path, capsys):
    out = tmp_path / "s.txt"
    train = tmp_path / "train.txt"
    train.write_text("\n".join(TRAIN) + "\n")
    code, stdout, _ = run_main(capsys, "synth", "-n", "500", "--order", "1", "--train", train, "-o", out, "--json")
    assert code == 0
    report = json.loads(stdout)
    assert report["words"] == 500 and report["output"] == str(out)
    data = out.read_bytes()
    assert report["bytes"] == len(data) and sum(report["lengths"].values()) == 500
    again = tmp_path / "again.txt"
    assert run_main(capsys, "synth", "-n", "500", "--order", "1", "--train", train, "-o", again)[0] == 0
    assert again.read_bytes() == data  # the same options, the same file
    code, _, err = run_main(capsys, "synth", "-n", "500", "--min-len", "9", "--max-len", "3", "-o", out)
    assert code == 2
    assert_one_error_line(err, "min-len")
    code, _, err = run_main(capsys, "synth", "-n", "50", "--order", "9", "--train", train, "-o", out)
    assert code == 2
    assert_one_error_line(err, "no more new words")
    assert out.read_bytes() == data  # a failed run leaves the old file alone


@pytest.mark.slow
def test_synthetic_list_builds_in_every_format(tmp_path, english):
    words = generate(4000, seed=2)
    wordlist = from_words(words, english.alphabet)
    for name in FORMAT_NAMES:
        lex = formats.loads(formats.dumps(build(wordlist, name)))
        assert list(lex) == [w.upper() for w in words], name


# -- past 2**22 edges ------------------------------------------------------------------------

BIG_WORDS = 52_000  # random 15-letter words: with some prefixes, 4,423,199 GADDAG edges


def big_words() -> set[str]:
    """Random 15-letter words, and some of their prefixes."""
    rng = random.Random(22)
    words = {"".join(rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k=15)) for _ in range(BIG_WORDS)}
    words |= {w[:n] for w in sorted(words)[:3000] for n in (2, 5, 9)}  # prefixes that are words too
    return words


@pytest.fixture(scope="module")
def words():
    return big_words()


def big_lexicon(english, kind: str):
    """The big list in a format (``kind``: its name, or ``NAME:pure`` for the pure path),
    built once per test run and loaded back from its file (``shared_build``: the xdist
    workers share it); a GADDAG switches to u64 as it is built."""
    name = format_of(kind)

    def make():
        built = build(from_words(big_words(), english.alphabet), name)
        if name in ("gaddag", "gaddawg"):
            assert built.layout.name == "u64" and len(built.edges) > U32.max_edges, name
        return built
    return shared_build(f"big.{name}", make, kind)


@pytest.mark.parametrize("name", ["gaddag", "gaddawg"])
@pytest.mark.slow
def test_word_graphs_switch_to_u64_past_two_to_the_22_edges(english, name):
    lex = big_lexicon(english, name)
    assert lex.layout.name == "u64" and lex.header["meta"]["layout"] == "u64"
    assert len(lex.edges) > U32.max_edges
    with pytest.raises(FormatError, match=r"do not fit the u32 layout \(max 4,194,304\)"):
        choose_layout(len(lex.edges), "u32")


@pytest.mark.slow
def test_the_same_words_dawg_still_fits_u32(english):
    assert big_lexicon(english, "dawg").layout.name == "u32"


@pytest.mark.parametrize("name", FORMAT_NAMES)
@pytest.mark.slow
def test_every_format_holds_the_big_list(english, words, name):
    lex = big_lexicon(english, name)
    assert len(lex) == len(words) and list(lex) == sorted(words), name
    if name != "gaddag":  # its check walks the graph gaddawg's does (20 s apiece at this size)
        assert lex.check() == [], name


@pytest.fixture(scope="module")
def expected(words):
    """The sample of queries and brute force's answers over the Python set."""
    rng = random.Random(5)
    sample = rng.sample(sorted(words), 200)
    probes = sample + [w[:-1] + "Q" for w in sample[:100]] + [w[:7] for w in sample[:100]]
    prefixes = [w[:n] for w in sample[:60] for n in (1, 3, 6, 14)]
    racks = [w[:7] for w in sample[:8]] + random_racks(seed=3, n=4, tiles=7, blanks=1)
    patterns = [sample[0][:3] + "*", "?" * 5, sample[1][:2] + "?" * 12 + sample[1][-1]]
    completions = [w[:n] for w in sample[:10] for n in (3, 5)]
    every_prefix = {w[:i] for w in words for i in range(len(w) + 1)}
    queries = {"member": probes, "prefix": prefixes, "words": completions, "hooks": sample[:40], "anagrams": racks,
               "patterns": patterns}
    answers = {
        "member": [p in words for p in probes],
        "prefix": [p in every_prefix for p in prefixes],
        "words": [ref.with_prefix(words, p) for p in completions],
        "hooks": [ref.hooks(words, w) for w in sample[:40]],
        "anagrams": [ref.anagrams(words, rack, True) for rack in racks],
        "patterns": [ref.pattern(words, p) for p in patterns],
    }
    return queries, answers


@pytest.mark.parametrize("name", LEXICON_KINDS)
@pytest.mark.slow
def test_every_format_answers_the_big_list_like_a_set(english, expected, name):
    queries, answers = expected
    lex = big_lexicon(english, name)
    if name == "anatrie:pure":  # only its anagram search has a compiled twin; the passes over the file are one code
        assert [lex.anagrams(rack, sub=True) for rack in queries["anagrams"]] == answers["anagrams"]
        return
    got = {
        "member": [p in lex for p in queries["member"]],
        "prefix": [lex.is_prefix(p) for p in queries["prefix"]],
        "words": [lex.words(p) for p in queries["words"]],
        "hooks": [lex.hooks(w).as_dict() for w in queries["hooks"]],
        "anagrams": [lex.anagrams(rack, sub=True) for rack in queries["anagrams"]],
        "patterns": [lex.pattern(p) for p in queries["patterns"]],
    }
    for kind in answers:
        assert got[kind] == answers[kind], (name, kind)


@pytest.mark.slow
def test_kwg_export_refuses_a_graph_past_two_to_the_22_edges(english):
    with pytest.raises(FormatError, match="too big for KWG"):
        export_kwg(big_lexicon(english, "gaddawg"))
