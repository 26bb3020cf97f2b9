"""MAVEN's player (``lexc.engine.player``) and the pre-endgame (``lexc.engine.pre_endgame``), on
the tiny 7x7 board with ENABLE's short words and a small leave table: games where every
search is quick. The pre-endgame's figures are recomputed draw by draw with exact endgame
solves; the player's endgame move keeps the solved value; its games replay, and the same
seed gives the same game; match specs name it."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from lexc import formats
from lexc.board.board import Position
from lexc.board.notation import Play
from lexc.engine.endgame import EndgameError, solve, solve_racks
from lexc.engine.negamax import SCORELESS_END, pass_value, rack_text, take
from lexc.engine.player import SimPlayer, play_match_game
from lexc.engine.pre_endgame import draws, pre_endgame
from lexc.equity.rule import unseen_tiles
from lexc.formats.leaves import read_leaves
from lexc.game import match
from lexc.game.manager import GameManager, check_replay
from lexc.game.players import ProgramPlayer
from lexc.movegen import generate_plays
from lexc.ruleset import load_ruleset
from lexc.wordlist import from_words

LEAVES = Path(__file__).resolve().parents[1] / "docs" / "examples" / "leaves.csv"  # (the checkout's)


@pytest.fixture(scope="module")
def tiny(enable_set):
    rules = load_ruleset("tiny")
    words = from_words(sorted(w for w in enable_set if len(w) <= 5), rules.alphabet)
    return rules, formats.build(words, "gaddawg", ruleset="tiny"), read_leaves(str(LEAVES), rules)


def game_until(rules, lexicon, leaves, seed: int, bag: int) -> GameManager | None:
    """An equity self-play game on the tiny board stopped when the bag holds ``bag`` tiles
    (None if it never does)."""
    players = [ProgramPlayer(lexicon, "auto", f"equity{i}", level="equity", leaves=leaves) for i in (1, 2)]
    game = GameManager(rules, players, lexicon, seed)
    while not game.over:
        if len(game.bag) == bag:
            return game
        if len(game.bag) < bag:
            return None
        game.step()
    return None


def won(final: float) -> float:
    return 1.0 if final > 0 else 0.5 if final == 0 else 0.0


def codes_rack(codes) -> tuple[int, ...]:
    return tuple(sorted(c for c in codes if c)) + (0,) * list(codes).count(0)


def reference_after(lexicon, board, score, play, mine, other, bag, scoreless, passed, spread):
    """The pre-endgame's model computed the slow way, tile by tile: the bag a tuple of tiles
    each drawn as likely as any other (itertools' subsets, not the odds of distinct draws),
    every play tried, no table of endgames. (mean points, chance to win) for the mover."""
    rules = board.ruleset
    if play is None:
        if passed:
            value = pass_value(rules, mine, other)
            return value, won(spread + value)
        value, win = reference_turn(lexicon, board, other, mine, bag, scoreless + 1, True, -spread)
        return -value, 1 - win
    left = list(take(mine, play))
    after = board.with_tiles(play.placed())
    outs = []
    for picked in combinations(range(len(bag)), min(len(mine) - len(left), len(bag))):
        rack = codes_rack(left + [bag[i] for i in picked])
        rest = tuple(t for i, t in enumerate(bag) if i not in picked)
        if rest:
            value, win = reference_turn(lexicon, after, other, rack, rest, 0, False, -(spread + score))
        else:
            value = solve_racks(after, (other, rack), lexicon).value
            win = won(-(spread + score) + value)
        outs.append((score - value, 1 - win))
    return sum(o[0] for o in outs) / len(outs), sum(o[1] for o in outs) / len(outs)


def reference_turn(lexicon, board, mine, other, bag, scoreless, passed, spread):
    rules = board.ruleset
    if scoreless >= SCORELESS_END:
        value = pass_value(rules, mine, other)
        return value, won(spread + value)
    tried = [(s, Play(r, c, d, t)) for s, r, c, d, t in generate_plays(board, rack_text(rules, mine), lexicon).fields()]
    outs = [reference_after(lexicon, board, s, p, mine, other, bag, scoreless, passed, spread)
            for s, p in [*tried, (0, None)]]
    return max(outs, key=lambda o: (o[1], o[0]))


def reference_row(lexicon, position, row):
    """A candidate's (win rate, mean final spread) over every split of the unseen tiles."""
    rules = position.board.ruleset
    unseen = [c for c, n in enumerate(unseen_tiles(position.board, position.rack)) for _ in range(n)]
    letters, blanks = rules.alphabet.parse_rack(position.rack)
    mine = codes_rack(letters + [0] * blanks)
    spread = position.scores[0] - position.scores[1]
    play = row.candidate.play if row.notation != "-" else None
    outs = []
    for theirs in combinations(range(len(unseen)), rules.rack_size):
        bag = tuple(t for i, t in enumerate(unseen) if i not in theirs)
        outs.append(reference_after(lexicon, position.board, row.score, play, mine,
                                    codes_rack([unseen[i] for i in theirs]), bag, position.scoreless_turns,
                                    False, spread))
    return sum(o[1] for o in outs) / len(outs), spread + sum(o[0] for o in outs) / len(outs)


def peg_position(rules, lexicon, leaves, bag: int, skip: int = 0) -> Position:
    """The ``skip``-th position of the equity self-play games with ``bag`` tiles in the bag
    and three plays or more for the side to move."""
    for seed in range(200):
        game = game_until(rules, lexicon, leaves, seed, bag)
        if game is None or sum(1 for _ in generate_plays(game.board, game.rack(game.on_turn), lexicon).fields()) < 3:
            continue
        if skip == 0:
            p = game.on_turn
            return Position(game.board, (game.rack(p), ""), (game.scores[p], game.scores[1 - p]), game.scoreless)
        skip -= 1
    raise AssertionError("no such position")


@pytest.mark.parametrize("bag, skip", [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)])
def test_the_pre_endgame_agrees_with_every_split_of_the_tiles_searched_the_slow_way(tiny, bag, skip):
    rules, lexicon, leaves = tiny
    position = peg_position(rules, lexicon, leaves, bag, skip)
    result = pre_endgame(position, lexicon, leaves, count=3, solve_s=60, width=1000)
    assert result.bag == bag and len(result.rows) == 4 and "-" in [r.notation for r in result.rows]
    pool = Counter({c: n for c, n in enumerate(unseen_tiles(position.board, position.rack)) if n > 0})
    for row in result.rows:
        assert row.draws == sum(1 for _ in draws(pool, bag)) and row.exact == row.draws
        win, mean = reference_row(lexicon, position, row)
        assert row.win_rate == pytest.approx(win) and row.mean_spread == pytest.approx(mean), row.notation
    keys = [(-r.win_rate, -r.mean_spread) for r in result.rows]
    assert keys == sorted(keys)
    assert result.proven == result.endgames > 0


def test_the_draws_odds_are_the_hypergeometric_ones():
    pool = Counter({1: 3, 2: 1, 5: 2, 0: 1})
    tiles = list(pool.elements())
    for size in range(8):
        found = {tuple(sorted(d.elements())): odds for d, odds in draws(pool, size)}
        brute = Counter(tuple(sorted(tiles[i] for i in pick)) for pick in combinations(range(len(tiles)), size))
        total = sum(brute.values())
        assert found == pytest.approx({k: n / total for k, n in brute.items()})


def test_a_pre_endgame_out_of_time_estimates_what_is_left(tiny):
    rules, lexicon, leaves = tiny
    position = peg_position(rules, lexicon, leaves, 2)
    result = pre_endgame(position, lexicon, leaves, count=3, seconds=0.001, width=1000)
    assert len(result.rows) == 4 and result.endgames > 0
    full = pre_endgame(position, lexicon, leaves, count=3, width=1000)
    assert [r.draws for r in result.rows] == [r.draws for r in full.rows] and full.proven == full.endgames


def test_the_pre_endgame_wants_one_tile_in_the_bag_to_fewer_than_a_rack(tiny):
    rules, lexicon, leaves = tiny
    for bag in (0, rules.rack_size):
        game = next(g for g in (game_until(rules, lexicon, leaves, seed, bag) for seed in range(40)) if g is not None)
        p = game.on_turn
        with pytest.raises(EndgameError, match=f"1 to {rules.rack_size - 1} tiles in the bag"):
            pre_endgame(Position(game.board, (game.rack(p), ""), (0, 0), 0), lexicon, leaves)


def test_the_players_endgame_move_keeps_the_solved_value(tiny):
    rules, lexicon, leaves = tiny
    checked = 0
    for seed in range(40):
        game = game_until(rules, lexicon, leaves, seed, 0)
        if game is None:
            continue
        p = game.on_turn
        mine, theirs = game.rack(p), game.rack(1 - p)
        if not mine or not theirs:
            continue
        position = Position(game.board, (mine, theirs), (0, 0), game.scoreless, racks_given=True)
        value = solve(position, lexicon).value
        action = SimPlayer(lexicon, leaves, seed=seed).choose(game.view())
        before = game.scores[p] - game.scores[1 - p]
        game.submit(action)
        if game.over:
            after = game.scores[p] - game.scores[1 - p]
            assert after - before == value
        else:
            rest = Position(game.board, (game.rack(1 - p), game.rack(p)), (0, 0), game.scoreless, racks_given=True)
            gained = game.scores[p] - game.scores[1 - p] - before
            assert gained - solve(rest, lexicon).value == value
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_a_sim_players_game_replays_and_repeats_from_its_seed(tiny):
    rules, lexicon, leaves = tiny
    records = []
    for _ in range(2):
        players = [SimPlayer(lexicon, leaves, "sim1", seed=7, iterations=50, candidates=4),
                   ProgramPlayer(lexicon, "auto", "equity2", level="equity", leaves=leaves)]
        result = GameManager(rules, players, lexicon, 7).run()
        assert result.agrees_with(check_replay(result, lexicon))
        records.append(result.gcg)
    assert records[0] == records[1]


def test_match_specs_name_the_sim_player():
    assert match.player_spec("sim") == ("sim", "") and match.player_spec("sim:x.klv2") == ("sim", "x.klv2")
    with pytest.raises(match.MatchError, match="names no file"):
        match.player_spec("sim:")
    with pytest.raises(match.MatchError, match="engine"):
        match.make_player("sim", None, "english", "sim")
    assert callable(play_match_game)


def test_the_cli_searches_a_pre_endgame(tiny, tmp_path, capsys):
    from test_cli import run_main

    rules, lexicon, leaves = tiny
    game = next(g for g in (game_until(rules, lexicon, leaves, seed, 1) for seed in range(40)) if g is not None)
    p = game.on_turn
    cgp = Position(game.board, (game.rack(p), ""), (game.scores[p], game.scores[1 - p]), game.scoreless).cgp()
    path = tmp_path / "tiny.gaddawg"
    formats.save(lexicon, path)
    code, out, err = run_main(capsys, "analyze", cgp, str(path), "-r", "tiny", "--leaves", str(LEAVES), "--peg",
                              "-n", "3", "--json")
    assert code == 0, err
    rows = json.loads(out)["candidates"]
    assert 2 <= len(rows) <= 4 and "-" in [r["move"] for r in rows]
    assert all(r["exact"] == r["draws"] for r in rows if r["move"] != "-")  # (the pass's replies are cut to 5)
    expected = pre_endgame(Position(game.board, (game.rack(p), ""), (game.scores[p], game.scores[1 - p]), 0),
                           lexicon, leaves, 3)
    assert [r["move"] for r in rows] == [r.notation for r in expected.rows]


def test_lexc_play_watches_two_sim_players_and_refuses_a_stray_move_time(tiny, tmp_path, capsys):
    from test_cli import assert_one_error_line, run_main

    _, lexicon, _ = tiny
    path = tmp_path / "tiny.gaddawg"
    formats.save(lexicon, path)
    code, out, err = run_main(capsys, "play", str(path), "-r", "tiny", "--leaves", str(LEAVES), "--player", "sim",
                              "--watch", "--seed", "4", "--json")
    assert code == 0, err
    game = json.loads(out)
    assert game["end"] in ("out", "six scoreless turns") and game["turns"] > 2
    code, _, err = run_main(capsys, "play", str(path), "-r", "tiny", "--player", "equity", "--move-time", "1")
    assert code == 2 and "sim player" in assert_one_error_line(err)


def test_ctrl_c_in_a_pre_endgame_keeps_the_candidates_finished(tiny):
    rules, lexicon, leaves = tiny
    position = peg_position(rules, lexicon, leaves, 2)
    told = []

    def progress(done, total, notation):
        told.append((done, total, notation))
        if done == 2:
            raise KeyboardInterrupt

    result = pre_endgame(position, lexicon, leaves, count=3, progress=progress)
    full = pre_endgame(position, lexicon, leaves, count=3)
    assert result.stopped == "interrupt" and len(result.rows) == 2 and [t[0] for t in told] == [0, 1, 2]
    assert {r.notation: (r.win_rate, r.mean_spread) for r in result.rows} == {
        r.notation: (r.win_rate, r.mean_spread) for r in full.rows if r.notation in {t[2] for t in told[:2]}}
    assert full.stopped == "" and full.as_dict()["stopped"] is None


def test_the_cli_searches_a_pre_endgame_of_two_tiles(tiny, tmp_path, capsys):
    from test_cli import run_main

    rules, lexicon, leaves = tiny
    position = peg_position(rules, lexicon, leaves, 2, 1)
    path = tmp_path / "tiny.gaddawg"
    formats.save(lexicon, path)
    code, out, err = run_main(capsys, "analyze", position.cgp(), str(path), "-r", "tiny", "--leaves", str(LEAVES),
                              "--peg", "-n", "3", "--time", "60")
    assert code == 0, err
    expected = pre_endgame(position, lexicon, leaves, 3)
    lines = out.splitlines()
    assert [line.split()[1] for line in lines[1:-1]] == [r.notation.split()[0] for r in expected.rows]
    assert lines[-1].startswith(f"{len(expected.rows)} candidates against every draw of 2 tiles, "
                                f"{expected.endgames} endgames ({expected.proven} proven), seconds ")


def test_the_endgame_gain_bench_values_the_equity_move_exactly(tiny):
    from lexc.bench.endgames import solver_gain
    from lexc.equity import candidates
    from lexc.game.players import action_of

    rules, lexicon, leaves = tiny
    result = solver_gain(12, 0, lexicon, "tiny", str(LEAVES))
    rows = result["rows"]
    assert rows and result["endgames"] == len(rows) and result["proven"] == len(rows)
    assert result["changed"] == sum(r["equity_value"] < r["solver_value"] for r in rows)
    for row in rows:  # (each recomputed: the equity player's move, then the endgame after it solved)
        game = game_until(rules, lexicon, leaves, row["seed"], 0)
        p = game.on_turn
        move = candidates(game.board, game.rack(p), lexicon, leaves, situation=game.view().situation()).best()
        assert move.notation == row["equity_move"]
        before = game.scores[p] - game.scores[1 - p]
        game.submit(action_of(move))
        value = game.scores[p] - game.scores[1 - p] - before
        if not game.over:
            rest = Position(game.board, (game.rack(1 - p), game.rack(p)), (0, 0), game.scoreless, racks_given=True)
            value -= solve(rest, lexicon).value
        assert row["equity_value"] == value <= row["solver_value"]


def test_the_cli_searches_the_pre_endgame_of_the_moves_named(tiny, tmp_path, capsys):
    from test_cli import assert_one_error_line, run_main

    rules, lexicon, leaves = tiny
    position = peg_position(rules, lexicon, leaves, 2, 1)
    path = tmp_path / "tiny.gaddawg"
    formats.save(lexicon, path)
    ranked = pre_endgame(position, lexicon, leaves, 3)
    named = [ranked.rows[-1].notation, "-"]
    code, out, err = run_main(capsys, "analyze", position.cgp(), str(path), "-r", "tiny", "--leaves", str(LEAVES),
                              "--peg", "--move", named[0], "--move", "-", "--json")
    assert code == 0, err
    rows = json.loads(out)["candidates"]
    assert sorted(r["move"] for r in rows) == sorted(named)
    for row in rows:
        same = next(r for r in ranked.rows if r.notation == row["move"])
        assert (row["win_rate"], row["mean_spread"]) == pytest.approx((same.win_rate, same.mean_spread))
    code, out, err = run_main(capsys, "analyze", position.cgp(), str(path), "-r", "tiny", "--leaves", str(LEAVES),
                              "--peg", "--move", "1A ZZZ")
    assert code == 2 and assert_one_error_line(err, "not a move of this position")
