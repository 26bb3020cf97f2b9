"""The exact endgame search (``lexc.engine.endgame``).

- On small generated endgames (generated rulesets and word lists, boards after a few plays,
  racks of one to three tiles, blanks among them) the value equals an exhaustive minimax's
  (every play of the brute force, no pruning) on both paths: the compiled core's search
  with Appel & Jacobson's generator over the DAWG and Gordon's over the GADDAG, and the
  pure-Python reference.
- On the ENABLE endgames MAGPIE solved (``../shared/interop/magpie/endgames-enable.jsonl``)
  the value is MAGPIE's, and the line given is legal move by move and adds up to it.
- The command line: the answer as text and JSON, the limits, the refusals (one line, exit 2)
  and Ctrl-C (the best line so far, exit 130).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexc
import rulegen
from interop import interop_dir
from lexc import formats, native
from lexc.board.board import Board, parse_cgp
from lexc.board.notation import parse_play
from lexc.board.referee import judge
from lexc.engine.endgame import EndgameError, solve, solve_racks
from lexc.engine.negamax import SCORELESS_END
from lexc.lexicons.source import open_lexicon
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words
from test_cli import assert_one_error_line, run_main
from test_generated import SETTINGS, describe, draw_board

MAGPIE_ENDGAMES = interop_dir() / "magpie" / "endgames-enable.jsonl"
ROOT = Path(lexc.__file__).resolve().parent.parent
RULESETS = 30  # generated rulesets, each with ENDGAMES endgames
ENDGAMES = 8


# -- the exhaustive minimax --------------------------------------------------------------------

def rack_points(ruleset, rack: tuple[int, ...]) -> int:
    return sum(ruleset.value(code) for code in rack)


def minimax(board: Board, mine: tuple[int, ...], other: tuple[int, ...], passed: bool, scoreless: int,
            words: set[bytes], memo: dict) -> int:
    """The value for the side to move by trying every line to the end of the game: each play
    of the brute force (``rulegen.brute_plays``, sharing nothing with lexc's generators), then
    the pass. The rules: going out scores twice the other rack; the second pass in a row, or
    the sixth scoreless turn, ends the game with each side losing its own rack. (``memo``
    only remembers positions met before; it cuts no line.)"""
    key = (board.rows, mine, other, passed, scoreless)
    if key in memo:
        return memo[key]
    rules = board.ruleset
    best = None
    found = memo.get((board.rows, mine))  # (the same board and rack in another position: the same plays)
    if found is None:
        found = memo[board.rows, mine] = sorted(rulegen.brute_plays(board, [c for c in mine if c], mine.count(0),
                                                                     words))
    for notation, score in found:
        play = parse_play(notation, board)
        left = list(mine)
        for code in play.rack_letters():
            left.remove(code)
        if not left:
            value = score + 2 * rack_points(rules, other)
        else:
            value = score - minimax(board.with_tiles(play.placed()), other, tuple(left), False, 0, words, memo)
        best = value if best is None else max(best, value)
    if passed or scoreless + 1 >= SCORELESS_END:
        value = rack_points(rules, other) - rack_points(rules, mine)
    else:
        value = -minimax(board, other, mine, True, scoreless + 1, words, memo)
    best = value if best is None else max(best, value)
    memo[key] = best
    return best


def draw_endgame_rack(data, ruleset, words: set[bytes], most: int) -> tuple[int, ...]:
    """One to ``most`` tiles: letters of a word or any letters, a blank now and then."""
    size = data.draw(st.integers(1, most), label="tiles")
    if data.draw(st.booleans(), label="from a word"):
        word = data.draw(st.sampled_from(sorted(words)), label="word")
        letters = list(word[:size])
    else:
        letters = data.draw(st.lists(st.sampled_from(list(ruleset.alphabet.codes)), min_size=size, max_size=size),
                            label="letters")
    if letters and data.draw(st.integers(0, 5), label="blank") == 0:
        letters[-1] = 0
    return tuple(sorted(c for c in letters if c)) + (0,) * letters.count(0)


def test_values_equal_an_exhaustive_minimax_on_generated_endgames(tmp_path_factory, record_property):
    """Hundreds of small endgames: the search's value on each path is the minimax's, and
    each path's line adds up to it."""
    directory = tmp_path_factory.mktemp("endgames")
    seen = Counter()

    @settings(SETTINGS, max_examples=RULESETS)
    @given(spec=rulegen.rulesets("small"), data=st.data())
    def check(spec, data):
        path, ruleset = rulegen.load(spec, directory)
        wordlist = from_words(data.draw(rulegen.word_texts(spec), label="words"), ruleset.alphabet, min_len=1)
        words = set(wordlist.words)
        kinds = rulegen.kinds_built(wordlist, path)
        searchers = [("dawg", "appel-jacobson", "auto"), ("gaddag", "gordon", "auto"),
                     ("dawg:pure" if "dawg:pure" in kinds else "dawg", "appel-jacobson", "pure")]
        for _ in range(ENDGAMES):
            board = draw_board(data, ruleset, kinds.get("dawg:pure", kinds["dawg"]), words)
            most = min(3, ruleset.rack_size)
            mine = draw_endgame_rack(data, ruleset, words, most)
            other = draw_endgame_rack(data, ruleset, words, min(most, 2 if len(mine) == 3 else 3))
            scoreless = data.draw(st.sampled_from([0, 0, 0, 3, 4, 5]), label="scoreless")
            expected = minimax(board, mine, other, False, scoreless, words, {})
            seen["endgames"] += 1
            for kind, strategy, way in searchers:
                result = solve_racks(board, (mine, other), kinds[kind], scoreless, 0, path=way, strategy=strategy)
                seen[result.path] += 1
                assert result.value == expected and result.proven, (
                    f"{kind} {strategy} ({result.path}): value {result.value}, the minimax's {expected}\n"
                    f"{describe(spec, wordlist, board)}\nracks {mine} / {other}, {scoreless} scoreless")
                assert line_total(result) == expected, [m.text() for m in result.pv]
            plays = sum(1 for m in result.pv if m.notation != "pass")
            seen["with a play"] += plays > 0
            seen["two plays or more"] += plays > 1

    check()
    record_property("endgames", dict(seen))
    print(f"\n[endgame] {dict(seen)}")
    assert seen["endgames"] >= RULESETS * ENDGAMES and seen["pure"] >= seen["endgames"]
    assert seen["with a play"] >= seen["endgames"] // 4  # (sparse word lists: the dense test makes lines)
    if native.available():
        assert seen["core"] >= 2 * seen["endgames"]


ENGLISH_ENDGAMES = 100


def test_values_equal_an_exhaustive_minimax_on_dense_english_endgames(enable_set, record_property):
    """The tiny English board (7x7) with a dense list of short words (ENABLE's two-letter
    words and a drawn share of its three-letter ones): racks of two to four tiles, so that
    lines run several plays deep, passes and blanks among them."""
    rules = load_ruleset("tiny")
    alphabet = rules.alphabet
    twos = sorted(w for w in enable_set if len(w) == 2)
    threes = sorted(w for w in enable_set if len(w) == 3)
    seen = Counter()
    built: dict[int, tuple] = {}

    @settings(SETTINGS, max_examples=ENGLISH_ENDGAMES)
    @given(data=st.data())
    def check(data):
        share = data.draw(st.sampled_from([0, 1, 2]), label="word list")
        if share not in built:
            chosen = twos + threes[share::6]
            wordlist = from_words(chosen, alphabet)
            dawg = formats.build(wordlist, "dawg", ruleset="tiny")
            built[share] = (set(wordlist.words), dawg, formats.build(wordlist, "gaddag", ruleset="tiny"),
                            formats.build(wordlist, "dawg", ruleset="tiny", backend=native.PURE))
        words, dawg, gaddag, pure = built[share]
        board = draw_board(data, rules, pure, words)
        mine = draw_endgame_rack(data, rules, words, 4)
        other = draw_endgame_rack(data, rules, words, 2 if len(mine) > 2 else 3)
        expected = minimax(board, mine, other, False, 0, words, {})
        seen["endgames"] += 1
        for lexicon, strategy, way in ((dawg, "appel-jacobson", "auto"), (gaddag, "gordon", "auto"),
                                       (pure, "appel-jacobson", "pure")):
            result = solve_racks(board, (mine, other), lexicon, path=way, strategy=strategy)
            assert result.value == expected and result.proven, (
                f"{strategy} ({result.path}): {result.value}, the minimax's {expected}: {board.cgp_rows()} "
                f"{alphabet.rack_text(list(mine))} / {alphabet.rack_text(list(other))}")
            assert line_total(result) == expected
        plays = sum(1 for m in result.pv if m.notation != "pass")
        seen["two plays or more"] += plays > 1
        seen["three plays or more"] += plays > 2
        seen["a pass in the line"] += any(m.notation == "pass" for m in result.pv)

    check()
    record_property("endgames", dict(seen))
    print(f"\n[endgame, English] {dict(seen)}")
    assert seen["endgames"] >= ENGLISH_ENDGAMES
    assert seen["two plays or more"] >= ENGLISH_ENDGAMES // 25 and seen["a pass in the line"] >= ENGLISH_ENDGAMES // 10


def line_total(result) -> int:
    """What the line adds up to for the side to move at its start."""
    return sum((m.score + m.end_points) * (1 if m.side == 0 else -1) for m in result.pv)


# -- MAGPIE's ENABLE endgames --------------------------------------------------------------------

def magpie_rows() -> list[dict]:
    return [json.loads(line) for line in MAGPIE_ENDGAMES.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def enable():
    return open_lexicon(None, "gaddawg", "english")


@pytest.mark.parametrize("row", [pytest.param(row, marks=[pytest.mark.slow] if row["seconds"] > 30 else [])
                                 for row in magpie_rows()], ids=lambda row: row["id"])
def test_magpies_exact_values_on_enable(row, enable):
    """lexc's value is MAGPIE's (which searched every line to the end); the line is legal,
    move by move, on the board as it stands, and adds up to the value."""
    rules = load_ruleset("english")
    position = parse_cgp(row["cgp"], rules)
    result = solve(position, enable, seconds=300)
    assert result.proven and result.value == row["value"], (row["id"], result.value, row["value"])
    assert result.final_spread == row["final_spread"]
    assert line_total(result) == result.value
    board, racks = position.board, list(position.racks)
    for move in result.pv:
        if move.notation == "pass":
            continue
        ruling = judge(board, racks[move.side], move.notation, enable)
        assert ruling.legal and ruling.score == move.score, (move, ruling)
        play = parse_play(ruling.play, board)
        letters, blanks = rules.alphabet.parse_rack(racks[move.side])
        left = letters + [0] * blanks
        for code in play.rack_letters():
            left.remove(code)
        racks[move.side] = rules.alphabet.rack_text([c for c in left if c], left.count(0))
        board = board.with_tiles(play.placed())


def test_a_depth_limit_gives_a_line_not_proven(enable):
    row = max(magpie_rows(), key=lambda r: r["seconds"])
    result = solve(parse_cgp(row["cgp"], load_ruleset("english")), enable, max_depth=2)
    assert not result.proven and result.plies == 2 and result.pv


def test_refusals_are_endgame_errors(enable):
    rules = load_ruleset("english")
    row = magpie_rows()[0]
    board_text, racks = row["cgp"].split()[:2]
    with pytest.raises(EndgameError, match="bag is not empty"):
        solve(parse_cgp(f"{board_text} {racks[:-1]} 0/0 0", rules), enable)
    with pytest.raises(EndgameError, match="both racks"):
        solve(parse_cgp(board_text, rules), enable)
    with pytest.raises(EndgameError, match="game is over"):
        solve(parse_cgp(f"{board_text} {racks} 0/0 6", rules), enable)
    with pytest.raises(EndgameError, match="time limit"):
        solve(parse_cgp(row["cgp"], rules), enable, seconds=-1)
    with pytest.raises(EndgameError, match="depth limit"):
        solve(parse_cgp(row["cgp"], rules), enable, max_depth=0)
    with pytest.raises(EndgameError, match="unknown path"):
        solve(parse_cgp(row["cgp"], rules), enable, path="fast")


# -- the command line ------------------------------------------------------------------------------

def test_the_cli_prints_the_value_line_and_figures(capsys):
    row = magpie_rows()[0]
    code, out, _ = run_main(capsys, "endgame", row["cgp"])
    assert code == 0
    assert out.splitlines()[0].startswith(f"value {row['value']:+d}, final spread {row['final_spread']:+d}")
    assert "nodes, seconds" in out
    code, out, _ = run_main(capsys, "endgame", row["cgp"], "--json")
    answer = json.loads(out)
    assert code == 0 and answer["value"] == row["value"] and answer["proven"] and answer["pv"]
    assert set(answer) >= {"value", "final_spread", "pv", "plies", "nodes", "seconds"}


@pytest.mark.parametrize("args, message", [
    (["--time", "-1"], "--time"),
    (["--time", "nan"], "--time"),
    (["--time", "1e9"], "--time"),
    (["--depth", "0"], "--depth"),
    (["--depth", "100000"], "--depth"),
])
def test_the_cli_refuses_bad_limits_in_one_line(args, message, capsys):
    code, _, err = run_main(capsys, "endgame", magpie_rows()[0]["cgp"], *args)
    assert code == 2 and message in err
    assert_one_error_line(err)


def test_the_cli_refuses_a_position_that_is_no_endgame(capsys):
    cgp = magpie_rows()[0]["cgp"]
    board_text, racks = cgp.split()[:2]
    for text, words in [(f"{board_text} {racks[:-1]} 0/0 0", "bag is not empty"),
                        (board_text, "both racks"), (f"{board_text} {racks} 0/0 7", "game is over"),
                        ("15/15 A/B 0/0 0", "CGP board")]:
        code, _, err = run_main(capsys, "endgame", text)
        assert code == 2 and words in err, err
        assert_one_error_line(err)


@pytest.mark.skipif(not native.available(), reason="the time limit and Ctrl-C stop the compiled core's search")
def test_ctrl_c_stops_with_the_best_line_so_far(tmp_path):
    """A real SIGINT during a long search (the hardest of MAGPIE's positions): exit 130, and
    the line of the deepest finished iteration on stdout."""
    row = max(magpie_rows(), key=lambda r: r["seconds"])
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "lexc", "endgame", row["cgp"], "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # (even if ignored here)
    time.sleep(3)  # (ENABLE opens in well under a second; the search runs ten times longer)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    answer = json.loads(out)
    assert answer["stopped"] == "interrupt" and not answer["proven"] and answer["pv"]
    assert "interrupted" in err


@pytest.mark.skipif(not native.available(), reason="the time limit stops the compiled core's search")
def test_a_time_limit_returns_the_deepest_finished_line(capsys):
    row = max(magpie_rows(), key=lambda r: r["seconds"])
    code, out, _ = run_main(capsys, "endgame", row["cgp"], "--time", "0.3", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["stopped"] == "time" and not answer["proven"] and answer["pv"]
    assert answer["seconds"] < 5


def test_the_bench_times_a_file_of_endgames_and_keeps_no_engine_figure(tmp_path, capsys):
    """``lexc bench --endgames``: values compared, times beside the engine's on the terminal;
    what ``--out`` writes holds lexc's figures and whether each value agrees, not the
    engine's own values and times."""
    rows = sorted(magpie_rows(), key=lambda r: r["seconds"])[:2]
    source = tmp_path / "two.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = run_main(capsys, "bench", "--endgames", str(source), "--out", str(tmp_path / "out"))
    assert code == 0, err
    assert "values agree on 2 of 2" in out and "engine: median" in out
    kept = json.loads((tmp_path / "out" / "endgames.json").read_text(encoding="utf-8"))
    assert [r["agrees"] for r in kept["positions"]] == [True, True]
    assert not any({"expected", "engine_seconds"} & set(r) for r in kept["positions"])
    assert "agrees" in (tmp_path / "out" / "endgames.md").read_text(encoding="utf-8")
