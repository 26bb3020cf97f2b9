"""``lexc match``: paired games (each deal twice, the seats swapped), A's mean spread with a 95%
confidence interval over the pairs, win rates; the same games whatever the workers."""

from __future__ import annotations

import json
import math
import os
import statistics

import pytest

from lexc.game.match import MatchError, match_games, play_match_game, summarise
from lexc.parallel import run_tasks
from test_cli import run_main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def tiny_dawg(tmp_path_factory):
    from lexc.cli import main

    out = tmp_path_factory.mktemp("match") / "tiny.dawg"
    with pytest.raises(SystemExit) as info:
        main(["build", os.path.join(ROOT, "wordlists", "tiny.txt"), "-r", "tiny", "-f", "dawg", "-o", str(out)])
    assert not info.value.code
    return str(out)


def test_a_player_against_itself_has_every_pair_even(tiny_dawg):
    """The players are deterministic, so in each pair each seat's game is played by both: the
    two spreads cancel exactly, whatever the deal."""
    results = run_tasks(play_match_game, match_games(tiny_dawg, "tiny", "greedy", "greedy", 20), workers=1)
    assert [r["swapped"] for r in results] == [False, True] * 10
    for first, second in zip(results[::2], results[1::2], strict=True):
        assert first["seed"] == second["seed"] and first["a"] - first["b"] == second["b"] - second["a"]
    figures = summarise(results)
    assert figures["mean_spread"] == 0 and figures["ci95"] == [0, 0] and figures["a_win_rate"] == 0.5


def test_the_figures_are_the_pairs_mean_and_students_interval(tiny_dawg):
    results = run_tasks(play_match_game, match_games(tiny_dawg, "tiny", "greedy", "beginner", 40, seed=3), workers=2)
    assert results == run_tasks(play_match_game, match_games(tiny_dawg, "tiny", "greedy", "beginner", 40, seed=3),
                                workers=1)
    pairs = [(g1["a"] - g1["b"] + g2["a"] - g2["b"]) / 2 for g1, g2 in zip(results[::2], results[1::2], strict=True)]
    figures = summarise(results)
    half = 2.093 * statistics.stdev(pairs) / math.sqrt(20)  # t(0.975, 19 degrees of freedom)
    assert figures["mean_spread"] == pytest.approx(statistics.fmean(pairs))
    assert figures["ci95"] == pytest.approx([statistics.fmean(pairs) - half, statistics.fmean(pairs) + half])
    wins = sum(g["a"] > g["b"] for g in results)
    ties = sum(g["a"] == g["b"] for g in results)
    assert figures["a_win_rate"] == pytest.approx((wins + ties / 2) / 40)
    assert figures["a_win_rate"] + figures["b_win_rate"] == pytest.approx(1)


def test_summarise_by_hand():
    games = [{"a": 400, "b": 350}, {"a": 380, "b": 390}, {"a": 300, "b": 300}, {"a": 410, "b": 370}]
    figures = summarise(games)  # pairs: (50 - 10)/2 = 20, (0 + 40)/2 = 20: no spread between pairs
    assert figures["pairs"] == 2 and figures["mean_spread"] == 20 and figures["ci95"] == [20, 20]
    assert (figures["a_wins"], figures["b_wins"], figures["ties"]) == (2, 1, 1) and figures["a_win_rate"] == 0.625


def test_bad_matches_are_refused():
    with pytest.raises(MatchError, match="even number"):
        match_games(None, "english", "greedy", "greedy", 3)
    with pytest.raises(MatchError, match="unknown player 'nobody'"):
        match_games(None, "english", "greedy", "nobody", 2)


def test_the_command(capsys, tiny_dawg):
    code, out, _ = run_main(capsys, "match", "greedy", "beginner", tiny_dawg, "--games", "8", "--json",
                            "--workers", "2")
    report = json.loads(out)
    assert code == 0 and report["games"] == 8 and len(report["results"]) == 8
    code, text, _ = run_main(capsys, "match", "greedy", "beginner", tiny_dawg, "--games", "8", "--workers", "1")
    assert code == 0 and text.startswith("greedy vs beginner: 8 games (4 pairs), seeds 0..3")
    assert f"mean spread {report['mean_spread']:+.2f} a game for greedy" in text
    for args in (["--games", "7"], ["--games", "0"]):
        code, out, err = run_main(capsys, "match", "greedy", "beginner", tiny_dawg, *args)
        assert code == 2 and not out and len(err.strip().splitlines()) == 1
    code, out, err = run_main(capsys, "match", "greedy", "nobody", tiny_dawg, "--games", "2")
    assert code == 2
    assert err.strip() == ("lexc: error: unknown player 'nobody' (known: greedy, beginner, equity, equity:FILE, sim, "
                           "sim:FILE)")
    for spec in ("equity", "greedy:x", "equity:/no/such.klv2"):
        code, out, err = run_main(capsys, "match", spec, "greedy", tiny_dawg, "--games", "2")
        assert code == 2 and not out and len(err.strip().splitlines()) == 1, spec
