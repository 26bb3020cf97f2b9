"""Simulation (``lexc.engine.sim``, ``lexc analyze --sim``): the outcome of one playout as the
static players make it, common random numbers (the same move twice has the same outcomes),
results the same from a seed whatever the workers, the three stops, and the command line."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from lexc.board.board import parse_cgp
from lexc.engine.sim import BATCH, SimError, SimSettings, playout, simulate
from lexc.equity import Situation, candidates
from lexc.equity.bundled import bundled_leaves_path
from lexc.equity.rule import RESOLUTION, unseen_tiles
from lexc.game.tasks import task_leaves, task_lexicon
from lexc.ruleset import load_ruleset
from test_cli import assert_one_error_line, run_main

MIDGAME = ("JIN1BAWD7/1DAILY9/4O10/FANTOM9/A3PI9/U4Z9/VOTE1E9/E2YINCE7/1WHETS9/1I5NAM5/1G5OGIVE3/REDOUBTS3HIC1/"
           "1OR12/1NE12/ASK12 GILNSU?/ 304/254 0")
QUIET = "15/15/15/3B11/3E11/3A11/3U11/3XERIC7/15/15/15/15/15/15/15 ABGOOVZ/ 44/28 0"


@pytest.fixture(scope="module")
def kit():
    rules = load_ruleset("english")
    return rules, task_lexicon(None, "english"), task_leaves(str(bundled_leaves_path(rules)), "english")


def test_a_playout_is_the_static_players_moves_and_the_last_leave(kit):
    """Two plies after a candidate, by hand: the opponent's best static-equity reply with the
    drawn rack, then the mover's, each refilling from the bag's front; the outcome is the
    spread of the three scores plus the mover's last leave."""
    rules, lexicon, leaves = kit
    position = parse_cgp(QUIET, rules)
    board, rack = position.board, position.rack
    move = candidates(board, rack, lexicon, leaves, situation=Situation.of(board, rack)).ranked(1)[0]
    pool = [code for code, n in enumerate(unseen_tiles(board, rack)) for _ in range(n)]
    random.Random(7).shuffle(pool)
    theirs, bag = pool[:7], pool[7:]
    got = playout(board, rack, move, theirs, bag, 2, lexicon, leaves, 0.5)

    alphabet = rules.alphabet
    mine = list(alphabet.parse_rack(rack)[0])
    for code in move.play.rack_letters():
        mine.remove(code)
    bag = list(pool[7:])
    need = 7 - len(mine)
    mine, bag = mine + bag[:need], bag[need:]
    board1 = board.with_tiles(move.play.placed())
    reply = candidates(board1, alphabet.rack_text([c for c in theirs if c], theirs.count(0)), lexicon, leaves,
                       situation=Situation(len(bag), len(mine))).best()
    assert reply.kind == "play"  # (this deal: the opponent plays)
    board2 = board1.with_tiles(reply.play.placed())
    answer = candidates(board2, alphabet.rack_text([c for c in mine if c], mine.count(0)), lexicon, leaves,
                        situation=Situation(len(bag) - len(reply.play.rack_letters()), 7)).best()
    expected = move.score - reply.score + answer.score + answer.leave_milli / RESOLUTION
    assert got == pytest.approx(expected)


def test_the_same_move_twice_meets_the_same_draws(kit):
    """Common random numbers: a candidate given twice has the very same outcomes."""
    rules, lexicon, leaves = kit
    position = parse_cgp(MIDGAME, rules)
    best = candidates(position.board, position.rack, lexicon, leaves,
                      situation=Situation.of(position.board, position.rack)).ranked(2)
    settings = SimSettings(moves=(best[0].notation, best[1].notation, best[0].notation), iterations=2 * BATCH,
                           confidence=None, seed=3)
    result = simulate(position, lexicon, leaves, settings)
    by_move = [row for row in result.rows if row.notation == best[0].notation]
    assert len(by_move) == 2 and by_move[0].outcomes == by_move[1].outcomes
    assert result.iterations == 2 * BATCH and all(row.iterations == 2 * BATCH for row in result.rows)


def test_the_results_are_the_seeds_whatever_the_workers(kit):
    rules, lexicon, leaves = kit
    position = parse_cgp(QUIET, rules)
    leaves_file = str(bundled_leaves_path(rules))
    runs = [simulate(position, lexicon, leaves,
                     SimSettings(candidates=4, iterations=3 * BATCH, confidence=None, seed=11, workers=workers),
                     lexfile=None, leaves_file=leaves_file, ruleset="english")
            for workers in (1, 2, 1)]
    tables = [[(r.notation, r.outcomes, r.wins) for r in run.rows] for run in runs]
    assert tables[0] == tables[1] == tables[2]
    other = simulate(position, lexicon, leaves, SimSettings(candidates=4, iterations=3 * BATCH, confidence=None,
                                                            seed=12))
    assert [(r.notation, r.outcomes) for r in other.rows] != tables[0]


def test_a_clear_leader_stops_it_and_so_do_the_limits(kit):
    rules, lexicon, leaves = kit
    position = parse_cgp(MIDGAME, rules)
    ranked = candidates(position.board, position.rack, lexicon, leaves,
                        situation=Situation.of(position.board, position.rack)).ranked()
    clear = SimSettings(moves=(ranked[0].notation, ranked[-2].notation), iterations=100 * BATCH, seed=1)
    result = simulate(position, lexicon, leaves, clear)
    assert result.stopped == "confident" and result.iterations < 100 * BATCH
    assert result.iterations % BATCH == 0 and result.best().notation == ranked[0].notation
    limited = simulate(position, lexicon, leaves, SimSettings(candidates=3, iterations=30, confidence=None))
    assert limited.stopped == "limit" and limited.iterations == 30
    timed = simulate(position, lexicon, leaves, SimSettings(candidates=3, iterations=10_000_000, seconds=0.2,
                                                            confidence=None))
    assert timed.stopped == "time" and BATCH <= timed.iterations < 10_000_000


def test_an_exchange_is_a_candidate_and_keeps_the_tiles_in_the_game(kit):
    """A rack that wants an exchange: the exchange is simulated like any move, and a playout
    after it holds every tile once (board, racks and bag)."""
    rules, lexicon, leaves = kit
    cgp = "15/15/15/3B11/3E11/3A11/3U11/3XERIC7/15/15/15/15/15/15/15 IIIUUVV/ 44/28 0"
    position = parse_cgp(cgp, rules)
    ranked = candidates(position.board, position.rack, lexicon, leaves,
                        situation=Situation.of(position.board, position.rack)).ranked(5)
    exchange = next(c for c in ranked if c.kind == "exchange")
    result = simulate(position, lexicon, leaves, SimSettings(moves=(exchange.notation, ranked[-1].notation),
                                                             iterations=BATCH, confidence=None))
    assert {r.kind for r in result.rows} >= {"exchange"} and all(r.iterations == BATCH for r in result.rows)
    pool = [code for code, n in enumerate(unseen_tiles(position.board, position.rack)) for _ in range(n)]
    assert Counter(pool) + Counter(rules.alphabet.parse_rack(position.rack)[0]) + Counter(
        c for row in position.board.rows for c in row if c) == Counter(rules.bag_tiles())


def test_bad_settings_are_sim_errors(kit):
    rules, lexicon, leaves = kit
    position = parse_cgp(QUIET, rules)
    for settings, words in [(SimSettings(plies=0), "plies"), (SimSettings(iterations=0), "iteration"),
                            (SimSettings(seconds=-1), "time budget"), (SimSettings(confidence=0.5), "confidence"),
                            (SimSettings(moves=("8H ZZZZ",)), "not a move")]:
        with pytest.raises(SimError, match=words):
            simulate(position, lexicon, leaves, settings)


def test_the_cli_prints_the_table_and_json(capsys):
    code, out, err = run_main(capsys, "analyze", QUIET, "--sim", "--candidates", "3", "--iterations", "50",
                              "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert "mean" in lines[0] and "win" in lines[0] and len(lines) == 5
    assert "50 iterations of 2 plies, seconds" in lines[-1] and "seed 0" in lines[-1]
    code, out, _ = run_main(capsys, "analyze", QUIET, "--sim", "--candidates", "3", "--iterations", "50",
                            "--workers", "1", "--json", "--confidence", "none")
    answer = json.loads(out)
    assert code == 0 and answer["iterations"] == 50 and len(answer["candidates"]) == 3
    assert set(answer["candidates"][0]) >= {"move", "equity", "mean", "stderr", "win_rate", "iterations"}
    code, out, _ = run_main(capsys, "analyze", QUIET, "--candidates", "4", "--json")
    assert code == 0 and len(json.loads(out)) == 4


@pytest.mark.parametrize("args, words", [
    (["--plies", "0"], "--plies"), (["--iterations", "0"], "--iterations"), (["--time", "-2"], "--time"),
    (["--move", "8H QQQQ"], "not a move"), (["--confidence", "0.5"], "--confidence"),
])
def test_the_cli_refuses_bad_input_in_one_line(args, words, capsys):
    code, _, err = run_main(capsys, "analyze", QUIET, "--sim", *args)
    assert code == 2
    assert words in assert_one_error_line(err)


def test_the_cli_wants_a_rack(capsys):
    code, _, err = run_main(capsys, "analyze", QUIET.replace("ABGOOVZ/", "/"), "--sim")
    assert code == 2 and "rack" in err
