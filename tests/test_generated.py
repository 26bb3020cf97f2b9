"""Agreement on generated rulesets (issue 34): the compiled core and the pure-Python reference,
and every format and strategy, give the same plays, scores, queries and verdicts on rulesets
nobody wrote by hand.

Hypothesis draws rulesets (``rulegen``: board sides 1..26, any mix of premiums, the start
square anywhere, tile values from 0 to ten thousand, racks of 1..64 tiles, bingo bonuses,
alphabets of 1..127 letters with digraphs such as CH, LL and L·L beside single letters),
writes each as TOML and loads it with ``lexc.load_ruleset``; then a word list over its
alphabet (one-letter words allowed), built in every format on both backends (the compiled
core must build the very file the pure path builds). On positions made by putting a few of
the pure generator's plays on the board, with racks with and without blanks, every (format,
backend, strategy) must give exactly the plays a brute force finds, with its scores (THE
scoring definition, ``lexc.board.scoring``); the referee must pass every one of them at that
score, and rule alike on any placement, legal or not, whichever lexicon it asks. The queries
(membership, is-prefix, prefix listings, anagrams with blanks, patterns, hooks) must equal
the brute force over the word set on every format and backend.

Every run is the same run (``derandomize``); a failure is reported as found, with the
ruleset's TOML, the words, the board, the rack and what each (format, backend, strategy)
said (``LEXC_SHRINK=1`` has Hypothesis shrink it first: minutes). Each test counts what it
compared, prints it (``pytest -s -n0 tests/test_generated.py``), records it as a property
(``--junitxml``) and asserts a least number: a run that compares nothing fails.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rulegen
from lexc.alphabet import BLANK_FLAG, AlphabetError
from lexc.board.board import Board
from lexc.board.notation import parse_play
from lexc.board.referee import judge, judge_tiles
from lexc.formats import Hooks
from lexc.movegen import generate_plays
from lexc.movegen.compiled import batch_line
from lexc.pattern import STAR
from lexc.wordlist import from_words
from rulegen import WordSet

# Shrinking a failure rebuilds every lexicon for each smaller example tried (minutes): the
# suite reports the failing example as found (the message holds all of it); LEXC_SHRINK=1
# asks Hypothesis for the smallest one.
PHASES = (Phase.explicit, Phase.generate) + ((Phase.shrink,) if os.environ.get("LEXC_SHRINK") else ())
# LEXC_SOAK=N (a soak run, not the suite's): N times as many examples, drawn afresh each run
# (not derandomized), e.g. LEXC_SOAK=20 pytest -n0 -s tests/test_generated.py
SOAK = int(os.environ.get("LEXC_SOAK", "1") or 1)
SETTINGS = settings(deadline=None, derandomize=SOAK == 1, database=None, print_blob=False, phases=PHASES,
                    suppress_health_check=list(HealthCheck))
LOADS = 150 * SOAK  # rulesets drawn to check the loader reads what the TOML says
# rulesets (each with its word list) whose positions are compared, and whose lexicons are
# queried, by regime (``rulegen.rulesets``)
PLAY_RULESETS = {regime: n * SOAK for regime, n in {"small": 24, "tiny": 8, "wide": 8, "huge": 8}.items()}
QUERY_RULESETS = {regime: n * SOAK for regime, n in {"small": 20, "tiny": 6, "wide": 10, "huge": 6}.items()}
POSITIONS = 4  # positions per ruleset: the empty board and boards after 1..4 plays
ATTEMPTS = 4  # placements (legal or not) per position judged over every lexicon


@dataclass
class Tally:
    """What a test compared."""

    rulesets: int = 0
    positions: int = 0
    plays: int = 0  # plays found (brute force) x (format, backend, strategy) combinations that had to find them
    verdicts: int = 0  # plays the referee judged
    attempts: int = 0  # placements judged over every lexicon (legal or not)
    legal_attempts: int = 0  # ... of which legal
    combos: int = 0  # generate_plays calls compared
    queries: int = 0  # queries asked
    answers: int = 0  # queries x lexicons (format, backend) whose answers were compared
    large: int = 0  # positions whose best play scores past 2**31 - 1

    def line(self, name: str) -> str:
        """The counts on one line, after ``name``."""
        return f"{name}: " + ", ".join(f"{f.name} {getattr(self, f.name)}" for f in fields(self))


def report(tally: Tally, name: str, record_property) -> None:
    """Print the tally (seen with ``-s``) and record it (``--junitxml``)."""
    print("\n" + tally.line(name))
    for f in fields(tally):
        record_property(f.name, getattr(tally, f.name))


def describe(spec: rulegen.RulesetSpec, wordlist, board=None, rack: str | None = None) -> str:
    """A reproduction: the ruleset's TOML, the words as loaded, the board and the rack."""
    out = [f"--- ruleset TOML ---\n{spec.toml()}", f"--- words (as loaded, {len(wordlist)}) ---",
           " ".join(wordlist.texts())]
    if board is not None:
        out += ["--- board (CGP rows) ---", board.cgp_rows(), "--- board (picture) ---", board.picture()]
    if rack is not None:
        out.append(f"--- rack --- {rack!r}")
    return "\n".join(out)


# -- the ruleset loader ----------------------------------------------------------------------

def test_generated_rulesets_load_as_written(tmp_path_factory, record_property):
    """Every generated ruleset loads, and holds exactly what its TOML says: labels in order,
    counts, values, blanks, rack size, bingo bonus, board side, every square's premium and
    the start square."""
    directory = tmp_path_factory.mktemp("rulesets")
    tally = Tally()

    @settings(SETTINGS, max_examples=LOADS)
    @given(spec=rulegen.rulesets())
    def check(spec):
        tally.rulesets += 1
        _, ruleset = rulegen.load(spec, directory)
        problems = rulegen.check_loaded(spec, ruleset)
        assert not problems, "\n".join(problems) + "\n" + spec.toml()

    check()
    report(tally, "loader", record_property)
    assert tally.rulesets >= LOADS


# -- plays -----------------------------------------------------------------------------------

def draw_rack(data, ruleset, words: set[bytes]) -> tuple[list[int], int]:
    """Letters and blanks of a rack of at most ``rack_size`` tiles: a word's letters, the
    start of them, or none, then a few others, then up to three blanks (mostly none or one)."""
    size = ruleset.rack_size
    letters: list[int] = []
    mode = data.draw(st.sampled_from(["word", "part", "random"]), label="rack from")
    if mode != "random":
        word = data.draw(st.sampled_from(sorted(words)), label="word")
        letters = list(word[: size if mode == "word" else data.draw(st.integers(1, size), label="letters of it")])
    room = size - len(letters)
    letters += data.draw(st.lists(st.sampled_from(list(ruleset.alphabet.codes)), max_size=min(room, 4)), label="others")
    blanks = data.draw(st.sampled_from([0, 0, 1, 1, 2, 3]), label="blanks")
    blanks = min(blanks, size - len(letters))
    if not letters and not blanks:
        blanks = 1
    return sorted(letters), blanks


def draw_board(data, ruleset, reference, words: set[bytes]) -> Board:
    """The empty board after 0..4 turns, each a play drawn from the pure generator's plays
    (``reference``: the pure path's Appel & Jacobson over the DAWG) for a drawn rack."""
    board = Board.empty(ruleset)
    for _ in range(data.draw(st.integers(0, 4), label="turns")):
        letters, blanks = draw_rack(data, ruleset, words)
        moves = generate_plays(board, ruleset.alphabet.rack_text(letters, blanks), reference, "appel-jacobson").moves()
        if moves:
            move = moves[data.draw(st.integers(0, len(moves) - 1), label="play")]
            board = board.with_tiles(move.play.placed())
    return board


def draw_attempt(data, board, words: set[bytes]) -> list[tuple[int, int, int]]:
    """Tiles someone might try to put down, legal or not: a word's letters (or drawn ones),
    some as blanks, on the empty squares from a drawn square onwards, across or down."""
    n = board.size
    down = data.draw(st.booleans(), label="down")
    row, col = data.draw(st.integers(0, n - 1), label="row"), data.draw(st.integers(0, n - 1), label="col")
    codes = list(board.ruleset.alphabet.codes)
    letters = list(data.draw(st.sampled_from(sorted(words)), label="word")) if data.draw(st.booleans()) else \
        data.draw(st.lists(st.sampled_from(codes), min_size=1, max_size=4), label="letters")
    placed = []
    for letter in letters:
        while row < n and col < n and board.at(row, col):
            row, col = (row + 1, col) if down else (row, col + 1)
        if row >= n or col >= n:
            break
        blank = data.draw(st.integers(0, 4), label="blank") == 0
        placed.append((row, col, letter | BLANK_FLAG if blank else letter))
        row, col = (row + 1, col) if down else (row, col + 1)
    return placed


def play_set(plays) -> set[tuple[str, int]]:
    """The (notation, score) set of a ``Plays``, after checking that no play came twice and
    that its other views agree with its pairs: ``moves()`` (``Move`` objects, whose
    notation the compiled core writes on its path), ``scores()``, ``batch_json()`` (the
    core's JSON line, with its escapes for labels beyond ASCII) and the best few of each."""
    listed = plays.pairs()
    found = set(listed)
    assert len(found) == len(listed) == len(plays), "a play was generated twice"
    moves = plays.moves()
    assert [(m.notation, m.score) for m in moves] == listed, "moves() and pairs() differ"
    assert all(m.play.notation(plays.board) == m.notation for m in moves), "a Move's play is not its notation"
    assert sorted(plays.scores()) == sorted(points for _, points in listed), "scores() and pairs() differ"
    assert plays.batch_json() == json.dumps(batch_line(listed)), "batch_json() and pairs() differ"
    for top in (1, 3):
        assert plays.pairs(top) == listed[:top] and plays.moves(top) == moves[:top], f"the best {top} differ"
    return found


def disagreements(results: dict, expected: set) -> str:
    """Each (format, strategy) whose plays are not the brute force's: what it missed and
    what it added (a few of each)."""
    out = []
    for (kind, strategy), got in sorted(results.items()):
        if got != expected:
            missing, extra = sorted(expected - got), sorted(got - expected)
            out.append(f"{kind} / {strategy}: {len(got)} plays; missing {len(missing)} {missing[:6]}; "
                       f"extra {len(extra)} {extra[:6]}")
    return "\n".join(out)


@pytest.mark.parametrize("regime", rulegen.REGIMES)
def test_plays_agree_on_generated_rulesets(regime, tmp_path_factory, record_property):
    """On every generated position, every format on every backend with every strategy that
    applies (Appel & Jacobson and Gordon on the compiled core and the pure path, Shapiro &
    Smith on the anagram trie on both, Appel & Jacobson on the prefix sets, the naive method
    on the DAWG and the prefix sets) gives the brute force's plays with its scores, each
    once, every view of its ``Plays`` agreeing (``play_set``); the referee passes each play
    at that score, under the same notation; and on placements drawn at random (legal plays
    among them) the referee's ruling is the same whichever lexicon it asks."""
    directory = tmp_path_factory.mktemp("rulesets")
    tally = Tally()

    @settings(SETTINGS, max_examples=PLAY_RULESETS[regime])
    @given(spec=rulegen.rulesets(regime), data=st.data())
    def check(spec, data):
        tally.rulesets += 1
        path, ruleset = rulegen.load(spec, directory)
        wordlist = from_words(data.draw(rulegen.word_texts(spec), label="words"), ruleset.alphabet, min_len=1)
        words = set(wordlist.words)
        kinds = rulegen.kinds_built(wordlist, path)
        reference = kinds.get("dawg:pure", kinds["dawg"])
        judged_by = WordSet(words)
        for _ in range(POSITIONS):
            board = draw_board(data, ruleset, reference, words)
            letters, blanks = draw_rack(data, ruleset, words)
            rack = ruleset.alphabet.rack_text(letters, blanks)
            expected = rulegen.brute_plays(board, letters, blanks, words)
            results = {combo: play_set(generate_plays(board, rack, kinds[combo[0]], combo[1]))
                       for combo in rulegen.combos(kinds)}
            tally.positions += 1
            tally.combos += len(results)
            tally.plays += len(expected) * len(results)
            tally.large += any(points >= 2**31 for _, points in expected)
            wrong = disagreements(results, expected)
            assert not wrong, f"plays disagree:\n{wrong}\n{describe(spec, wordlist, board, rack)}"
            for notation, points in sorted(expected):
                ruling = judge(board, rack, notation, judged_by)
                tally.verdicts += 1
                assert ruling.legal and ruling.score == points and ruling.play == notation, (
                    f"the referee rules {notation} ({points}): {ruling}\n{describe(spec, wordlist, board, rack)}")
            for _ in range(ATTEMPTS):  # the same ruling whichever lexicon the referee asks, legal or not
                if expected and data.draw(st.booleans(), label="a legal play"):
                    placed = parse_play(data.draw(st.sampled_from(sorted(expected)), label="play")[0], board).placed()
                else:
                    placed = draw_attempt(data, board, words)
                ruling = judge_tiles(board, rack, placed, judged_by)
                tally.verdicts += 1
                tally.attempts += 1
                tally.legal_attempts += ruling.legal
                for kind, lexicon in kinds.items():
                    got = judge_tiles(board, rack, placed, lexicon)
                    assert got == ruling, (f"{kind}: the referee rules {placed} {got}, over the word set {ruling}\n"
                                           f"{describe(spec, wordlist, board, rack)}")

    check()
    report(tally, f"plays ({regime})", record_property)
    assert tally.rulesets >= PLAY_RULESETS[regime] and tally.positions >= PLAY_RULESETS[regime] * POSITIONS
    assert tally.verdicts >= {"small": 300, "tiny": 10, "wide": 100, "huge": 50}[regime]
    if regime == "huge":
        assert tally.large >= 4  # scores past 32 bits were met


# -- queries ---------------------------------------------------------------------------------

def draw_pattern(data, alphabet) -> tuple[str, tuple[int, ...]]:
    """A pattern's text and the tokens it means (letter masks and STAR): ``?`` or ``.``,
    ``*``, a letter, a set, a negated set, a range; written so that the alphabet's longest
    match reads each set's labels back as written."""
    codes = list(alphabet.codes)
    every = alphabet.mask(codes)
    text, tokens = "", []
    for _ in range(data.draw(st.integers(1, 5), label="tokens")):
        kind = data.draw(st.sampled_from(["any", "star", "letter", "set", "not", "range"]), label="token")
        if kind == "any":
            text += data.draw(st.sampled_from("?."), label="any")
            tokens.append(every)
        elif kind == "star":
            text += "*"
            if not tokens or tokens[-1] != STAR:
                tokens.append(STAR)
        elif kind == "letter":
            code = data.draw(st.sampled_from(codes), label="letter")
            label = alphabet.label(code)
            text += label if alphabet.single_char else f"[{label}]"
            tokens.append(1 << code)
        elif kind == "range":
            low, high = sorted(data.draw(st.lists(st.sampled_from(codes), min_size=2, max_size=2), label="range"))
            text += f"[{alphabet.label(low)}-{alphabet.label(high)}]"
            tokens.append(alphabet.mask(range(low, high + 1)))
        else:
            chosen: list[str] = []
            for code in data.draw(st.lists(st.sampled_from(codes), min_size=1, max_size=4, unique=True), label="set"):
                tried = [*chosen, alphabet.label(code)]
                try:  # a label kept only when longest match still reads the set as written
                    if alphabet.split("".join(tried)) == tried:
                        chosen = tried
                except ValueError:
                    pass
            mask = alphabet.mask(alphabet.code(label) for label in chosen)
            if kind == "not" and every & ~mask:
                text += "[^" + ",".join(chosen) + "]"
                tokens.append(every & ~mask)
            else:
                text += "[" + ",".join(chosen) + "]"
                tokens.append(mask)
    return text, tuple(tokens)


@pytest.mark.parametrize("regime", rulegen.REGIMES)
def test_queries_agree_on_generated_rulesets(regime, tmp_path_factory, record_property):
    """On every generated lexicon, every format on every backend answers membership (as
    codes and as text), is-prefix, prefix listings, anagrams and sub-anagrams with blanks,
    patterns and hooks exactly as the brute force over the word set does."""
    directory = tmp_path_factory.mktemp("rulesets")
    tally = Tally()

    @settings(SETTINGS, max_examples=QUERY_RULESETS[regime])
    @given(spec=rulegen.rulesets(regime), data=st.data())
    def check(spec, data):
        tally.rulesets += 1
        path, ruleset = rulegen.load(spec, directory)
        alphabet = ruleset.alphabet
        wordlist = from_words(data.draw(rulegen.word_texts(spec), label="words"), alphabet, min_len=1)
        words = set(wordlist.words)
        kinds = rulegen.kinds_built(wordlist, path)
        if data.draw(st.booleans(), label="prefix tables"):  # the core's member walks start at the table
            for lexicon in kinds.values():                   # (made whatever the size; else the walk alone)
                make = getattr(getattr(lexicon, "_graph", None), "prefixes", None)
                if make is not None:
                    make(1 << 20)
        where = describe(spec, wordlist)
        codes = list(alphabet.codes)
        drawn = data.draw(st.lists(st.lists(st.sampled_from(codes), min_size=1, max_size=6), max_size=6),
                          label="probes")
        probes = sorted(words | {w[:i] for w in words for i in range(len(w))} | {bytes(p) for p in drawn})
        prefixed = {p: [w for w in sorted(words) if w.startswith(p)] for p in probes}

        def same(expected, method: str, *args) -> None:
            """Every lexicon's ``method(*args)`` (a ``Hooks`` as a tuple) is ``expected``."""
            tally.queries += 1
            for kind, lexicon in kinds.items():
                tally.answers += 1
                got = getattr(lexicon, method)(*args)
                if isinstance(got, Hooks):
                    got = (got.word, got.valid, got.front, got.back)
                assert got == expected, f"{kind}: {method}{args!r} gives {got!r}, the brute force {expected!r}\n{where}"

        for probe in probes:
            text = alphabet.decode(probe)
            same(probe in words, "__contains__", probe)
            try:  # (the labels' text may split otherwise by longest match, or not at all: LL + ·L)
                spelled = alphabet.encode(text) in words
            except AlphabetError:
                spelled = False
            same(spelled, "__contains__", text)
            same(bool(prefixed[probe]), "is_prefix", probe)
            same(alphabet.decode_many(prefixed[probe]), "words", probe)
            valid, front, back = rulegen.brute_hooks(words, probe, alphabet.codes)
            same((text, valid, tuple(map(alphabet.label, front)), tuple(map(alphabet.label, back))), "hooks", probe)
        for _ in range(3):
            letters, blanks = draw_rack(data, ruleset, words)
            rack = alphabet.rack_text(letters, blanks)
            for sub in (False, True):
                found = rulegen.brute_anagrams(words, letters, blanks, sub)
                same(alphabet.decode_many(found) if found else [], "anagrams", rack, sub)
        for _ in range(3):
            pattern, tokens = draw_pattern(data, alphabet)
            same(alphabet.decode_many([w for w in sorted(words) if rulegen.matches(tokens, w)]), "pattern", pattern)

    check()
    report(tally, f"queries ({regime})", record_property)
    assert tally.rulesets >= QUERY_RULESETS[regime] and tally.queries >= 20 * QUERY_RULESETS[regime]


def test_the_brute_force_finds_what_a_hand_count_says():
    """The brute force the tests rely on, on positions counted by hand (A is worth 1, B 3; a
    3x3 board, no premium but a DW start square in the corner; words AA, AB, BA). On the
    empty board, rack A B ?: AB and BA across and down from the corner, each with the blank
    as either letter or neither (a blank for A: (0 + 3) x 2 = 6), and AA with the blank as
    either A (the rack has one). With A on A1 and B on B2,
    rack A: four one-tile plays, the two that make words both ways listed once, across."""
    import lexc

    text = rulegen.RulesetSpec(3, (("none",) * 3,) * 3, (0, 0), "DW", (("A", 1, 1), ("B", 1, 3)), 1, 3, 7,
                               True).toml()
    ruleset = lexc.load_ruleset(text)
    a, b = ruleset.alphabet.codes
    words = {bytes((a, a)), bytes((a, b)), bytes((b, a)), bytes((a,))}
    plays = rulegen.brute_plays(Board.empty(ruleset), [a, b], 1, words)
    assert plays == {(f"{where} {word}", points) for where in ("1A", "A1")
                     for word, points in (("AB", 8), ("aB", 6), ("Ab", 2), ("BA", 8), ("bA", 2), ("Ba", 6),
                                                 ("Aa", 2), ("aA", 2))}
    board = Board.empty(ruleset).with_tiles([(0, 0, a), (1, 1, b)])
    # A on A2 makes AB across and AA down: 4 + 2; A on B1 makes AA across and AB down: 2 + 4
    assert rulegen.brute_plays(board, [a], 0, words) == {("2A A(B)", 6), ("1A (A)A", 6), ("B2 (B)A", 4),
                                                          ("2B (B)A", 4)}
