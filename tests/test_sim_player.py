"""MAVEN's player (``lexc.engine.player``) and the pre-endgame (``lexc.engine.pre_endgame``), on
the tiny 7x7 board with ENABLE's short words and a small leave table: games where every
search is quick. The pre-endgame's figures are recomputed draw by draw with exact endgame
solves; the player's endgame move keeps the solved value; its games replay, and the same
seed gives the same game; match specs name it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from lexc import formats
from lexc.board.board import Position
from lexc.engine.endgame import EndgameError, solve, solve_racks
from lexc.engine.player import SimPlayer, play_match_game
from lexc.engine.pre_endgame import pre_endgame
from lexc.equity.rule import unseen_tiles
from lexc.formats.leaves import read_leaves
from lexc.game import match
from lexc.game.manager import GameManager, check_replay
from lexc.game.players import ProgramPlayer
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


def test_the_pre_endgame_is_every_draws_endgame_solved(tiny):
    rules, lexicon, leaves = tiny
    game = next(g for g in (game_until(rules, lexicon, leaves, seed, 1) for seed in range(40)) if g is not None)
    p = game.on_turn
    position = Position(game.board, (game.rack(p), ""), (game.scores[p], game.scores[1 - p]), game.scoreless)
    result = pre_endgame(position, lexicon, leaves, count=4, solve_s=60)
    assert result.rows and all(0 <= r.win_rate <= 1 for r in result.rows)
    pool = Counter({c: n for c, n in enumerate(unseen_tiles(position.board, position.rack)) if n > 0})
    spread = position.scores[0] - position.scores[1]
    for row in result.rows:
        assert row.draws == len(pool) and row.exact == row.draws  # (every endgame here solves within its time)
        play = row.candidate.play
        after = position.board.with_tiles(play.placed())
        letters, blanks = rules.alphabet.parse_rack(position.rack)
        left = letters + [0] * blanks
        for code in play.rack_letters():
            left.remove(code)
        wins = total = 0.0
        for tile, weight in pool.items():
            theirs = pool.copy()
            theirs[tile] -= 1
            racks = (tuple(sorted(c for c in theirs.elements() if c)) + (0,) * theirs[0],
                     tuple(sorted(c for c in [*left, tile] if c)) + (0,) * [*left, tile].count(0))
            final = spread + row.score - solve_racks(after, racks, lexicon).value
            wins += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            total += weight * final
        size = sum(pool.values())
        assert row.win_rate == pytest.approx(wins / size) and row.mean_spread == pytest.approx(total / size)
    keys = [(-r.win_rate, -r.mean_spread) for r in result.rows]
    assert keys == sorted(keys)


def test_the_pre_endgame_wants_one_tile_in_the_bag(tiny):
    rules, lexicon, leaves = tiny
    game = next(g for g in (game_until(rules, lexicon, leaves, seed, 4) for seed in range(40)) if g is not None)
    p = game.on_turn
    with pytest.raises(EndgameError, match="one tile"):
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
    assert 1 <= len(rows) <= 3 and all(r["exact"] == r["draws"] for r in rows)
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
