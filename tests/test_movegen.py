"""Move generation: every strategy on every format it applies to gives the same plays with the
same scores, equal to a brute-force search judged by the referee; every generated play passes
the referee with the same score."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lexc
import reference as ref
from lexc.bench.moves import read_positions
from lexc.board.board import Board, parse_cgp
from lexc.board.referee import judge
from lexc.movegen import STRATEGIES, MoveGenError, generate, generate_plays
from lexc.movegen.compiled import CORE_SEARCHED, batch_line
from lexc.wordlist import from_words
from lexicons import LEXICON_KINDS, build_kind, enable_built, format_of

TINY_WORDS = {"AB", "BA", "AD", "DA", "ABA", "BAD", "DAB", "BEAD", "BADE", "ABED", "BED", "DEB", "ED", "DE",
              "BE", "EA", "AE", "CAB", "CAD", "ACE", "DACE", "BACE", "ABE", "EDA", "AA", "CEDE", "DECADE"}


def pairs(moves) -> set[tuple[str, int]]:
    """The (notation, score) set, after checking that no play came out twice."""
    found = {(m.notation, m.score) for m in moves}
    assert len(found) == len(moves), "a play was generated twice"
    return found


def play_pairs(plays) -> set[tuple[str, int]]:
    """``pairs`` of a compact ``Plays`` (no ``Move`` objects made: the notation comes from
    the compiled core's ranking on its path)."""
    listed = plays.pairs()
    found = set(listed)
    assert len(found) == len(listed) == len(plays), "a play was generated twice"
    return found


def combos(lexicon_by_format):
    """(format, strategy) pairs where the strategy applies; a format's pure-path twin
    (``dawg:pure``) only with the strategies the compiled core runs (the others are the
    same Python code on either)."""
    return [(f, s) for f, lex in lexicon_by_format.items() for s, mod in STRATEGIES.items()
            if mod.applicable(lex) and (not f.endswith(":pure") or s in COMPILED_STRATEGIES)]


COMPILED_STRATEGIES = CORE_SEARCHED  # Shapiro & Smith's over the core's findwords2


@pytest.fixture(scope="module")
def tiny():
    return lexc.load_ruleset("tiny")


@pytest.fixture(scope="module")
def tiny_lexicons(tiny):
    words = from_words(sorted(TINY_WORDS), tiny.alphabet, min_len=1)
    return {kind: build_kind(words, kind) for kind in LEXICON_KINDS}


def random_position(ruleset, words, lexicon, rng, turns):
    """A board after ``turns`` random legal plays from random racks (brute-force plays)."""
    board = Board.empty(ruleset)
    letters = "AABBCDDEE"
    for _ in range(turns):
        rack = "".join(rng.choice(letters) for _ in range(4))
        plays = sorted(ref.all_plays(board, rack, words))
        if not plays:
            continue
        notation, _ = rng.choice(plays)
        board = board.with_tiles(lexc_play(notation, board).placed())
    return board


def lexc_play(notation, board):
    from lexc.board.notation import parse_play

    return parse_play(notation, board)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 3), rack=st.text(alphabet="ABCDE?", min_size=1, max_size=4))
def test_tiny_positions_match_brute_force(tiny, tiny_lexicons, seed, turns, rack):
    if rack.count("?") > 1:
        rack = rack.replace("?", "", rack.count("?") - 1)
    board = random_position(tiny, TINY_WORDS, None, random.Random(seed), turns)
    expected = ref.all_plays(board, rack, TINY_WORDS)
    for fmt, strategy in combos(tiny_lexicons):
        got = pairs(generate(board, rack, tiny_lexicons[fmt], strategy))
        assert got == expected, (fmt, strategy, board.picture(), rack, sorted(got ^ expected)[:5])


def test_every_generated_play_passes_the_referee(tiny, tiny_lexicons):
    rng = random.Random(7)
    for _ in range(5):
        board = random_position(tiny, TINY_WORDS, None, rng, 3)
        for rack in ("ABDE?", "CAE", "B"):
            for move in generate(board, rack, tiny_lexicons["dawg"]):
                ruling = judge(board, rack, move.play, tiny_lexicons["dawg"])
                assert ruling.legal and ruling.score == move.score and ruling.play == move.notation, move


# -- edge cases on the English board with ENABLE ---------------------------------------------

EDGE_CASES = {
    "empty board": ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15", "RETAIN?"),
    "corner": ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/10QUOTE", "ARTSY?E"),
    "edges": ("ZAX12/14Q/15/15/15/15/15/15/15/15/15/15/15/14A/JO13", "EIRSTU"),
    "separated tiles": ("15/15/15/15/15/15/15/1A1E1I1O1U5/15/15/15/15/15/15/15", "BDGLNRT"),
    "two blanks": ("15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15", "ER??"),
    "no play": ("15/15/15/15/15/15/15/7Q7/15/15/15/15/15/15/15", "VVV"),
    "one tile": ("15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15", "S"),
}


@pytest.fixture(scope="module")
def enable_by_format(enable_list):
    return {kind: enable_built(enable_list, kind) for kind in LEXICON_KINDS}


def enable_combos(enable_by_format):
    """(format, strategy) pairs on ENABLE: every applicable pair but the naive method on the
    anagram trie, whose is-prefix is a pass over the file (the tiny lexicons cover that pair)."""
    return [(f, s) for f, s in combos(enable_by_format) if not (format_of(f) == "anatrie" and s == "naive")]


@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_enable_edge_cases_agree(english, enable_by_format, case):
    rows, rack = EDGE_CASES[case]
    board = parse_cgp(rows, english).board
    results = {}
    for fmt, strategy in enable_combos(enable_by_format):
        if strategy == "naive" and fmt != "dawg" and case == "two blanks":
            continue  # the naive method's two-blank search is slow; dawg covers it
        results[(fmt, strategy)] = play_pairs(generate_plays(board, rack, enable_by_format[fmt], strategy))
    first = next(iter(results.values()))
    for key, got in results.items():
        assert got == first, (key, sorted(got ^ first)[:5])
    dawg = enable_by_format["dawg"]
    for notation, score in first:
        ruling = judge(board, rack, notation, dawg)
        assert ruling.legal and ruling.score == score, (notation, ruling)
    if case == "no play":
        assert first == set()
    if case == "one tile":
        assert ("9G S", 0) not in first and any(n.startswith("8") and "CATS" in n.replace("(", "").replace(")", "")
                                                for n, _ in first)
    if case == "empty board":
        assert any(n.startswith("H") for n, _ in first) and any(n.startswith("8") for n, _ in first)


def test_unknown_or_inapplicable_strategy(english, enable_by_format, tiny_lexicons):
    board = Board.empty(english)
    with pytest.raises(MoveGenError, match="unknown strategy"):
        generate(board, "AB", enable_by_format["dawg"], "nope")
    with pytest.raises(MoveGenError, match="does not apply"):
        generate(Board.empty(lexc.load_ruleset("tiny")), "AB", tiny_lexicons["anatrie"], "appel-jacobson")
    with pytest.raises(MoveGenError, match="rack"):
        generate(board, "AB1", enable_by_format["dawg"])


def test_what_a_lexicon_and_ruleset_set_up_is_kept_apart_and_goes_with_the_lexicon(english):
    """generate_plays keeps each (lexicon, ruleset, strategy)'s checked set-up for the calls
    after: two rulesets of one alphabet (English's premiums, Words With Friends') each get
    their own scores, equal to the pure path's; each strategy's checks are its own; and a
    lexicon's entry goes when the lexicon does."""
    import gc

    from lexc import movegen, native

    wwf = lexc.load_ruleset("wwf")
    built = from_words(["CARE", "CARES", "ACRE", "RACE", "RACES", "SCARE", "ACE", "ARE", "ERA"], english.alphabet)
    pure = lexc.formats.build(built, "gaddawg", backend=native.PURE)
    lexicon = lexc.formats.build(built, "gaddawg")
    for _ in range(2):  # (the second round from what the first kept)
        for rules in (english, wwf, english):
            board = parse_cgp("15/15/15/15/15/15/15/7CARE4/15/15/15/15/15/15/15 ARES?XZ/ 0/0 0", rules).board
            for strategy in ("auto", "appel-jacobson", "gordon"):
                want = play_pairs(generate_plays(board, "ARES?XZ", pure, strategy))
                assert play_pairs(generate_plays(board, "ARES?XZ", lexicon, strategy)) == want
    scores = {rules.name: sorted(generate_plays(Board.empty(rules), "CARES", lexicon).scores())
              for rules in (english, wwf)}
    assert scores["english"] != scores["wwf"]
    with pytest.raises(MoveGenError, match="unknown strategy"):
        generate_plays(Board.empty(english), "CARES", lexicon, "nope")
    with pytest.raises(MoveGenError, match="rack"):
        generate_plays(Board.empty(english), "CARES1", lexicon)
    with pytest.raises(MoveGenError, match="holds 7"):
        generate_plays(Board.empty(english), "CARESAC?", lexicon)
    kept = {key for key in movegen._KEPT if key[0] == id(lexicon)}
    assert len(kept) == 6
    del lexicon
    gc.collect()
    assert not kept & set(movegen._KEPT)


# -- 100 positions met in self-play on ENABLE (the built-in benchmark set) -----------------

SELFPLAY = read_positions()


def test_the_selfplay_set_has_its_mix():
    """At least 100 positions, about a quarter with one blank on the rack, a few with two."""
    blanks = [item["rack"].count("?") for item in SELFPLAY]
    assert len(SELFPLAY) >= 100
    assert 20 <= blanks.count(1) <= 30 and 2 <= blanks.count(2) <= 5


COMPACT_CHECKED = (0, 7, 16, 45)  # positions (16 with two blanks, 45 with one) where Plays is held to its Moves


@pytest.mark.parametrize("index", range(len(SELFPLAY)))
def test_selfplay_positions_agree_across_formats(english, enable_by_format, index):
    """Every format x strategy finds the same plays with the same scores, and the referee
    accepts every one at that score. The naive method runs on every tenth position without
    blanks (it takes seconds on a blank; the tiny tests cover it everywhere). On the
    positions of ``COMPACT_CHECKED`` each strategy's compact plays are also held to their
    ``Move`` objects (``compact_agrees``), on the plays just generated."""
    item = SELFPLAY[index]
    position = parse_cgp(item["cgp"], english)
    rack = item["rack"]
    assert rack == position.rack
    results = {}
    for fmt, strategy in enable_combos(enable_by_format):
        if strategy == "naive" and (index % 10 or "?" in rack):
            continue
        plays = generate_plays(position.board, rack, enable_by_format[fmt], strategy)
        results[(fmt, strategy)] = play_pairs(plays)
        if index in COMPACT_CHECKED and strategy != "naive":
            compact_agrees(plays, (fmt, strategy))
    first = results[("dawg", "appel-jacobson")]
    for key, got in results.items():
        assert got == first, (key, sorted(got ^ first)[:5])
    dawg = enable_by_format["dawg"]
    for notation, points in first:
        ruling = judge(position.board, rack, notation, dawg)
        assert ruling.legal and ruling.score == points, (notation, ruling)


def compact_agrees(plays, combo) -> None:
    """``generate_plays`` keeps the plays compact (the compiled core's records); its
    ``pairs``, ``scores``, ``len`` and ``moves(top)`` agree with its ``Move`` objects (what
    ``generate`` returns) on every path."""
    full = plays.moves()  # generate(...) is exactly this
    assert len(plays) == len(full)
    assert sorted(plays.scores()) == sorted(m.score for m in full)
    assert plays.pairs() == [(m.notation, m.score) for m in full], combo
    assert plays.batch_json() == json.dumps(batch_line([(m.notation, m.score) for m in full])), combo
    for top in (0, 1, 5, len(full) + 3):
        assert plays.moves(top) == full[:top]
        assert plays.pairs(top) == [(m.notation, m.score) for m in full[:top]]
        assert plays.batch_json(top) == json.dumps(batch_line([(m.notation, m.score) for m in full[:top]]))


def test_auto_runs_the_fastest_strategy_for_the_file_and_backend(english):
    """``auto`` is Gordon's search where the compiled core runs it over the file's GADDAG, and
    Appel & Jacobson's over any other trie and over a GADDAG on the pure path (where the bench
    measures it the faster); Shapiro & Smith's over the anagram trie."""
    from lexc import native
    from lexc.movegen import choose, fastest

    built = from_words(["CARE", "CARES", "ACRE", "RACE"], english.alphabet)
    pure = {fmt: lexc.formats.build(built, fmt, backend=native.PURE) for fmt in ("dawg", "gaddawg", "anatrie")}
    assert {fmt: fastest(lex) for fmt, lex in pure.items()} == {
        "dawg": "appel-jacobson", "gaddawg": "appel-jacobson", "anatrie": "shapiro-smith"}
    if native.COMPILED is not None:
        for fmt, strategy in (("dawg", "appel-jacobson"), ("gaddag", "gordon"), ("gaddawg", "gordon")):
            lexicon = lexc.formats.build(built, fmt, backend=native.COMPILED)
            assert fastest(lexicon) == strategy, fmt
            assert choose(lexicon, "auto") is STRATEGIES[strategy]
