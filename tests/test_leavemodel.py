"""Tests for lexc.leavemodel: MAVEN's combinations, the linear model and its table, the least
squares, the model file, the full table, and the learning loop (determinism whatever the
workers, resuming, the future spread as the game record gives it)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from lexc.formats.errors import FormatError
from lexc.formats.leaves import drawable_leaves, loads_leaves, write_leaves
from lexc.game.gcg import EXCHANGE, PLAY
from lexc.game.manager import GameManager
from lexc.game.players import ProgramPlayer
from lexc.leavemodel import (
    Features,
    FitError,
    GameTask,
    LinearModel,
    NormalEquations,
    TableStats,
    cholesky_solve,
    fit_weights,
    full_table,
    game_seed,
    learn,
    loads_model,
    play_game,
)
from lexc.leavemodel.learn import preload
from lexc.leavemodel.modelfile import ModelFile, checksum
from lexc.lexicons.source import open_lexicon
from lexc.ruleset import available, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
TINY_LIST = str(ROOT / "wordlists" / "tiny.txt")
ENGLISH, TINY = load_ruleset("english"), load_ruleset("tiny")


def leave(ruleset, text: str) -> bytes:
    letters, blanks = ruleset.alphabet.parse_rack(text)
    return bytes(sorted([0] * blanks + letters))


def named(features: Features, vector: dict[int, float]) -> dict[str, float]:
    return {features.names[i]: v for i, v in vector.items()}


def random_model(ruleset, seed: int = 1) -> LinearModel:
    rng = random.Random(seed)
    model = LinearModel.zero(ruleset)
    model.weights = [round(rng.uniform(-10, 10), 3) for _ in model.weights]
    return model


# -- the combinations -------------------------------------------------------------------------

def test_equ_is_an_observation_of_e_q_u_qu_and_its_balance():
    """Sheppard's example: the leave EQU holds E, Q, QU and U (and two vowels, one consonant)."""
    f = Features.of(ENGLISH)
    assert named(f, f.static_vector(leave(ENGLISH, "EQU"))) == {"E": 1, "Q": 1, "U": 1, "QU": 1, "vc:2/1": 1}


def test_duplicates_triplicates_and_quadruples_take_the_triple():
    f = Features.of(ENGLISH)
    assert named(f, f.static_vector(leave(ENGLISH, "AAAAR"))) == {"A": 4, "AA": 1, "AAA": 1, "R": 1, "vc:4/1": 1}
    assert named(f, f.static_vector(leave(ENGLISH, "??S"))) == {"?": 2, "??": 1, "S": 1, "vc:0/1": 1}
    assert "JJ" not in f.names and "???" not in f.names  # (one J, two blanks in the bag)


@pytest.mark.parametrize("name", available())
def test_every_bundled_ruleset_has_distinct_feature_names(name):
    ruleset = load_ruleset(name)
    f = Features.of(ruleset)
    assert len(set(f.names)) == len(f.names) and f.names[-1] == "bias"
    assert f.names[f.static] in ("u_with_q_unseen", "turnover")


def test_context_features_see_the_unseen_tiles():
    f = Features.of(ENGLISH)
    unseen = [0] * 27
    unseen[ENGLISH.alphabet.code("Q")] = 1
    unseen[ENGLISH.alphabet.code("E")] = 3
    assert named(f, f.context_vector(leave(ENGLISH, "EU"), unseen, 40, 2.0)) == {"u_with_q_unseen": 1, "turnover": 10.0}
    assert named(f, f.context_vector(leave(ENGLISH, "QU"), unseen, 40, 2.0)) == {"turnover": 10.0}  # (holds the Q)
    assert named(f, f.context_vector(leave(ENGLISH, "EU"), unseen, 3, 2.0)) == {"u_with_q_unseen": 1, "turnover": 6.0}
    unseen[ENGLISH.alphabet.code("Q")] = 0
    assert named(f, f.context_vector(leave(ENGLISH, "EU"), unseen, 0, 2.0)) == {}


# -- the linear model ---------------------------------------------------------------------------

def test_static_value_is_the_sum_of_its_combinations_and_the_table_holds_it():
    model = random_model(TINY)
    table = model.table()
    assert list(table.values) == list(drawable_leaves(TINY))
    rng = random.Random(3)
    for lv in rng.sample(list(table.values), 300):
        expected = sum(model.weights[i] * x for i, x in model.features.static_vector(lv).items())
        assert table.values[lv] == pytest.approx(expected, abs=1e-9)
        assert model.static_value(bytes(reversed(lv))) == table.values[lv]


def test_value_adds_the_context_terms():
    model = LinearModel.from_parameters(ENGLISH, {"U": 1.5, "E": 2.0, "u_with_q_unseen": 4.0, "turnover": 0.5})
    unseen = [0] * 27
    unseen[ENGLISH.alphabet.code("Q")] = 1
    unseen[ENGLISH.alphabet.code("E")] = 1  # the mean one-tile value unseen: (0 + 2) / 2 = 1
    assert model.unseen_mean(unseen) == 1.0
    eu = leave(ENGLISH, "EU")
    assert model.static_value(eu) == 3.5
    # a tile drawn is worth its mean over the unseen tiles less its mean over the whole set:
    # (12 Es x 2.0 + 4 Us x 1.5) / 100 tiles = 0.3
    assert model.draw_value(unseen) == pytest.approx(1.0 - 0.3)
    assert model.value(eu, unseen, 50) == pytest.approx(3.5 + 4.0 + 0.5 * 5 * 0.7)
    with pytest.raises(ValueError, match="not a leave feature"):
        LinearModel.from_parameters(ENGLISH, {"QQ": 1.0})


def test_the_table_compiles_to_a_klv2_whose_rank_lookup_gives_the_values():
    model = random_model(TINY, 5)
    table = model.table()
    data, _ = write_leaves(table, "klv2", TINY)
    back = loads_leaves(data, "t.klv2", TINY)
    for lv in random.Random(2).sample(list(table.values), 200):
        assert back.value(lv) == pytest.approx(table.values[lv], rel=1e-6, abs=1e-5)
        assert back.rank(lv) is not None


# -- least squares ------------------------------------------------------------------------------

def test_cholesky_solves_a_positive_definite_system():
    rng = random.Random(7)
    n = 12
    m = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(n)]
    a = [sum(m[k][i] * m[k][j] for k in range(n)) + (n if i == j else 0) for i in range(n) for j in range(n)]
    x = [rng.uniform(-5, 5) for _ in range(n)]
    b = [sum(a[i * n + j] * x[j] for j in range(n)) for i in range(n)]
    assert cholesky_solve(a, b, n) == pytest.approx(x, abs=1e-9)
    with pytest.raises(FitError):
        cholesky_solve([1.0, 2.0, 2.0, 1.0], [0.0, 0.0], 2)


def test_normal_equations_recover_the_weights_of_noiseless_data():
    rng = random.Random(11)
    truth = [3.0, -2.0, 0.5, 7.0]
    eq = NormalEquations(4)
    for _ in range(400):
        x = {i: float(rng.randint(0, 3)) for i in range(3) if rng.random() < 0.7}
        x[3] = 1.0
        eq.add(x, sum(truth[i] * v for i, v in x.items()))
    w = eq.solve(ridge=1e-9, free=[3])
    assert w == pytest.approx(truth, abs=1e-6)
    assert eq.residual(w) == pytest.approx(0.0, abs=1e-4)
    with pytest.raises(FitError):
        NormalEquations(2).solve()


def test_the_ridge_keeps_a_parameter_never_observed_at_zero():
    eq = NormalEquations(3)
    for y in (1.0, 3.0):
        eq.add({0: 1.0, 2: 1.0}, y)
    w = eq.solve(ridge=1.0, free=[2])
    assert w[1] == 0.0 and w[0] + w[2] == pytest.approx(2.0, abs=0.5)


# -- the model file -----------------------------------------------------------------------------

def test_the_model_file_round_trips_and_refuses_damage():
    state = ModelFile(random_model(TINY), seed=3, games_per_iteration=10, lexicon="tiny.txt", iteration=2, games=20,
                      observations=99, history=[{"iteration": 1, "change": 1.5}])
    data = state.to_bytes()
    back = loads_model(data, "m.json")
    assert back.to_bytes() == data and back.model.weights == state.model.weights
    doc = json.loads(data)
    doc["parameters"]["A"] += 1
    with pytest.raises(FormatError, match="checksum"):
        loads_model(json.dumps(doc).encode(), "m.json")
    with pytest.raises(FormatError, match="not JSON"):
        loads_model(b"A,1.0\n", "m.json")
    with pytest.raises(FormatError, match="not english"):
        loads_model(data, "m.json", ENGLISH)
    doc = json.loads(data)
    doc["version"] = 9
    with pytest.raises(FormatError, match="version 9"):
        loads_model(json.dumps(doc).encode(), "m.json")


# -- learning -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_lexicon():
    lexicon = open_lexicon(TINY_LIST, "dawg", "tiny")
    preload(TINY_LIST, "tiny", lexicon)
    return lexicon


def test_a_turn_s_future_spread_is_what_the_game_record_says(tiny_lexicon):
    """Recorded independently: the GCG totals after each turn, and the final scores."""
    model = random_model(TINY, 9)
    for seed in range(5):
        record = play_game(GameTask("tiny", TINY_LIST, seed, tuple(model.weights)))
        players = [ProgramPlayer(tiny_lexicon, nick=f"p{i}", level="equity", leaves=model.leaves()) for i in (1, 2)]
        game = GameManager(TINY, players, tiny_lexicon, seed).run()
        assert game.scores == record.scores
        final, totals, expected = game.scores, [0, 0], []
        for event in game.record.events:
            if event.kind in (PLAY, EXCHANGE):
                mover, other = event.player, 1 - event.player
                expected.append((final[mover] - event.total) - (final[other] - totals[other]))
            totals[event.player] = event.total
        spreads = [o.spread for o in record.observations]
        assert spreads == expected[: len(spreads)]  # (turns with tiles in the bag come first)
        assert all(len(o.leave) < TINY.rack_size for o in record.observations)


def test_from_all_zeros_the_equity_player_is_the_score_only_player(tiny_lexicon):
    """Every value 0: while the bag holds tiles, past the opening, and with a play scoring
    points, the equity player makes the greedy player's play (the highest score, ties the
    first in notation order); with none it exchanges the first of its exchanges in notation
    order (one tile), where greedy exchanges the whole rack."""
    zero = LinearModel.zero(TINY).leaves()
    greedy = ProgramPlayer(tiny_lexicon, nick="g")
    compared = exchanged = 0
    for seed in range(8):
        players = [ProgramPlayer(tiny_lexicon, nick=f"p{i}", level="equity", leaves=zero) for i in (1, 2)]
        manager = GameManager(TINY, players, tiny_lexicon, seed)
        while not manager.over:
            view = manager.view()
            action = manager.players[manager.on_turn].choose(view)
            if view.bag and not view.board.is_empty():
                expected = greedy.choose(view)
                if expected.kind == PLAY:
                    assert action == expected
                    compared += 1
                elif action.kind == EXCHANGE:
                    assert len(action.tiles.replace("?", "x")) == 1
                    exchanged += 1
            manager.submit(action)
    assert compared > 20


def test_exchanges_are_observed_with_what_they_kept(tiny_lexicon):
    """A model that dislikes every tile makes the equity player exchange: those turns are
    observations of the tiles kept, placements' of theirs; a turn with the bag empty is not."""
    model = LinearModel.zero(TINY)
    model.weights = [-3.0 if i < model.features.static else 0.0 for i in range(len(model.weights))]
    kinds = set()
    for seed in range(6):
        record = play_game(GameTask("tiny", TINY_LIST, seed, tuple(model.weights)))
        players = [ProgramPlayer(tiny_lexicon, nick=f"p{i}", level="equity", leaves=model.leaves()) for i in (1, 2)]
        game = GameManager(TINY, players, tiny_lexicon, seed).run()
        observed = [e for e in game.record.events if e.kind in (PLAY, EXCHANGE)][: len(record.observations)]
        kinds |= {e.kind for e in observed}
        for event, obs in zip(observed, record.observations, strict=True):
            rack = leave(TINY, event.rack)
            used = leave(TINY, event.tiles) if event.kind == EXCHANGE else None
            if used is not None:
                assert obs.leave == bytes(sorted((Counter(rack) - Counter(used)).elements()))
    assert EXCHANGE in kinds and PLAY in kinds


def test_the_model_s_leave_table_is_its_listed_table():
    model = random_model(TINY, 3)
    listed, lazy = model.table(), model.leaves()
    assert all(lazy.value(leave[::-1]) == value for leave, value in listed.items())
    assert lazy.value(b"") == 0.0 and lazy.value(bytes([1] * TINY.rack_size)) == 0.0


def test_the_fit_is_the_posterior_mean_around_the_last_values():
    """Noiseless data with a loose prior: the data's weights; a weight never observed keeps its
    last value (not 0); a tight prior keeps every weight near its last value; sd 0: the fixed ridge."""
    rng = random.Random(5)
    truth, last = [3.0, -2.0, 0.5, 0.0, 7.0], [1.0, 1.0, 1.0, 4.0, 0.0]
    eq = NormalEquations(5)
    for _ in range(400):
        x = {i: float(rng.randint(0, 2)) for i in range(3) if rng.random() < 0.7}
        x[4] = 1.0
        eq.add(x, sum(truth[i] * v for i, v in x.items()))
    loose, ridge = fit_weights(eq, last, 4, 1e4, 1.0)
    assert loose[:3] == pytest.approx(truth[:3], abs=1e-3) and loose[4] == pytest.approx(7.0, abs=1e-2)
    assert loose[3] == pytest.approx(4.0) and 0 < ridge < 1e-3
    tight, big = fit_weights(eq, last, 4, 1e-3, 1.0)
    assert tight[:4] == pytest.approx(last[:4], abs=1e-3) and big > 1e6
    mean = eq.xty[4] / eq.count
    assert big == pytest.approx((eq.yy / eq.count - mean * mean) / 1e-6)
    fixed, used = fit_weights(eq, last, 4, 0.0, 2.5)
    assert used == 2.5 and fixed == eq.solve(2.5, free=[4])


def test_a_change_is_measured_in_standard_errors():
    from lexc.leavemodel.learn import change_in_sd

    eq = NormalEquations(3)
    for _ in range(96):
        eq.add({0: 1.0, 2: 1.0}, 0.0)
    for _ in range(21):
        eq.add({1: 1.0, 2: 1.0}, 0.0)
    # weight 0: seen 96 times, +4 ridge: se = 10 / 10; weight 1: 21 + 4: se = 10 / 5; the bias aside
    assert change_in_sd(eq, [2.0, 3.0, 50.0], [0.0, 0.0, 0.0], 4.0, 10.0, 2) == pytest.approx(max(2.0, 1.5))
    assert change_in_sd(eq, [0.5, 6.0, 0.0], [0.0, 0.0, 0.0], 4.0, 10.0, 2) == pytest.approx(3.0)


def test_game_seeds_depend_on_base_iteration_and_index():
    seeds = {game_seed(b, t, i) for b in (0, 1) for t in (1, 2) for i in range(5)}
    assert len(seeds) == 20 and game_seed(0, 1, 0) == game_seed(0, 1, 0)


def test_one_worker_or_two_give_the_same_model_file_byte_for_byte(tmp_path, tiny_lexicon):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    learn(TINY, TINY_LIST, 16, 2, seed=4, workers=1, out=str(one), table=True)
    learn(TINY, TINY_LIST, 16, 2, seed=4, workers=2, out=str(two), table=True)
    assert one.read_bytes() == two.read_bytes()
    state = loads_model(one.read_bytes(), "one.json")
    assert state.iteration == 2 and state.games == 32 and len(state.history) == 2 and state.table
    assert any(state.model.weights)


def test_a_local_dask_cluster_of_two_workers_gives_the_same_model_file(tmp_path, tiny_lexicon):
    distributed = pytest.importorskip("distributed")  # (in the test extra: CI runs this)
    here, there = tmp_path / "here.json", tmp_path / "there.json"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster:
        seen: list = []
        learn(TINY, TINY_LIST, 12, 2, seed=6, scheduler=cluster.scheduler_address, out=str(there),
              progress=seen.append)
    learn(TINY, TINY_LIST, 12, 2, seed=6, workers=1, out=str(here))
    assert here.read_bytes() == there.read_bytes()
    assert sorted(p.games for p in seen if p.change is None) == sorted(list(range(1, 13)) * 2)


def test_resuming_gives_what_an_uninterrupted_run_gives(tmp_path, tiny_lexicon):
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    learn(TINY, TINY_LIST, 10, 3, seed=2, out=str(whole))
    learn(TINY, TINY_LIST, 10, 1, seed=2, out=str(part))
    learn(TINY, TINY_LIST, 10, 2, resume=loads_model(part.read_bytes(), "part.json"), out=str(part))
    assert whole.read_bytes() == part.read_bytes()


def test_progress_reports_games_rate_and_change(tiny_lexicon):
    seen = []
    learn(TINY, TINY_LIST, 5, 2, seed=1, progress=seen.append)
    fits = [p for p in seen if p.change is not None]
    assert [p.iteration for p in fits] == [1, 2] and all(p.games_per_second > 0 for p in seen)
    assert [p.games for p in seen if p.change is None] == [1, 2, 3, 4, 5] * 2
    assert fits[0].change > 0 and fits[0].rmse is not None


# -- the full table -----------------------------------------------------------------------------

def test_the_full_table_shrinks_each_leave_s_residual_toward_the_linear_model():
    model = random_model(TINY, 4)
    f = model.features
    stats = TableStats(model)
    seen = leave(TINY, "EE")
    for spread in (10.0, 20.0, 30.0):
        stats.add(seen, {f.bias: 1.0, f.turnover: 2.0}, spread)
    w = model.weights
    r = (60.0 - 3 * (model.static_value(seen) + w[f.bias]) - w[f.turnover] * 6.0) / 3
    exact = full_table(model, stats, prior=0.0)
    shrunk = full_table(model, stats, prior=3.0)
    assert exact.values[seen] == pytest.approx(model.static_value(seen) + r)
    assert shrunk.values[seen] == pytest.approx(model.static_value(seen) + r / 2)
    other = leave(TINY, "AB")
    assert exact.values[other] == model.static_value(other)  # never seen: the linear model's value
    assert TableStats.from_text(model, stats.as_text(model)).rows == stats.rows


def test_the_pool_control_is_fitted_but_never_a_leave_value():
    model = LinearModel.from_parameters(ENGLISH, {"E": 1.0, "pool": 50.0, "bias": -20.0})
    f = model.features
    assert f.names[-2:] == ("pool", "bias") and f.pool == f.turnover + 1
    unseen = [ENGLISH.count(code) for code in range(27)]
    unseen[ENGLISH.alphabet.code("E")] -= 5  # fewer Es unseen than in a full bag: a poorer pool
    rate = model.draw_value(unseen)
    assert rate < 0
    x = f.vector(leave(ENGLISH, "E"), unseen, 60, rate)
    assert x[f.pool] == rate and x[f.bias] == 1.0 and x[f.turnover] == pytest.approx(6 * rate)
    assert model.value(leave(ENGLISH, "E"), unseen, 60) == 1.0  # (turnover's weight 0; pool and bias never)
    assert model.table_value(leave(ENGLISH, "E")) == 1.0


def test_the_context_means_are_proven():
    model = LinearModel.from_parameters(ENGLISH, {"U": 1.0, "u_with_q_unseen": 4.0, "turnover": 0.5})
    model.context_means = {"u_with_q_unseen": 0.75, "turnover": [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]}
    state = ModelFile(model)
    again = loads_model(state.to_bytes(), "m.json")
    assert again.model.context_means == model.context_means
    assert again.model.table_value(leave(ENGLISH, "EU")) == pytest.approx(1.0 + 4.0 * 0.75 + 0.5 * 5.0)
    assert again.model.table_value(leave(ENGLISH, "QU")) == pytest.approx(1.0 + 0.5 * 5.0)  # (holds the Q)
    for bad, message in (({"u_with_q_unseen": 1.5}, "proportion"), ({"turnover": [1.0] * 8}, "at most 7"),
                         ({"turnover": ["x"]}, "finite number"), ({"other": 1}, "context_means")):
        doc = json.loads(state.to_bytes())
        doc["context_means"] = bad
        doc["sha256"] = checksum(doc)
        with pytest.raises(FormatError, match=message):
            loads_model(json.dumps(doc).encode(), "m.json")


# -- the command line ---------------------------------------------------------------------------

def test_lexc_learn_writes_the_model_and_a_leave_file_any_engine_reads(capsys, tmp_path):
    from test_cli import run_main

    model, klv = tmp_path / "m.json", tmp_path / "t.klv2"
    code, out, err = run_main(capsys, "learn", TINY_LIST, "-r", "tiny", "--games", "6", "--iterations", "2",
                              "--out", model, "--leaves", klv)
    assert code == 0, err
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("iteration 1: 6 games (") and "games/s)" in lines[0]
    assert "parameter change" in lines[1] and "rms error" in lines[1]
    assert f"{model}: iteration 2, 12 games" in out and "24,473 leaves (klv2)" in out
    state = loads_model(model.read_bytes(), "m.json")
    code, out, err = run_main(capsys, "leaves", klv, "-r", "tiny", "--rack", "QU", "--json")
    assert code == 0 and json.loads(out)[0]["value"] == pytest.approx(state.model.table_value(leave(TINY, "QU")),
                                                                       rel=1e-6)
    # the context features are fitted, and their means reach the leave file
    names = state.model.parameters()
    assert names["u_with_q_unseen"] != 0 and names["turnover"] != 0
    means = state.model.context_means
    assert 0 <= means["u_with_q_unseen"] <= 1 and len(means["turnover"]) == 5 and means["turnover"][1] > 0
    eu = leave(TINY, "EU")
    assert state.model.table_value(eu) == pytest.approx(
        state.model.static_value(eu) + names["u_with_q_unseen"] * means["u_with_q_unseen"]
        + names["turnover"] * means["turnover"][2])
    code, out, err = run_main(capsys, "learn", TINY_LIST, "--resume", model, "--games", "6", "--iterations", "1",
                              "--table", "--leaves", tmp_path / "t.csv", "--json")
    report = json.loads(out)
    assert code == 0 and report["iteration"] == 3 and report["leaves"]["table"] == "full"
    assert loads_model(model.read_bytes(), "m.json").table


@pytest.mark.parametrize("args, fragment", [
    (["--games", "2"], "give --out"),
    (["--out", "{tmp}/m.json", "--leaves", "{tmp}/t.bin"], "--to"),
    (["--resume", "{tmp}/bad.json"], "not a lexc leave model"),
    (["--resume", "{tmp}/bad.json", "-r", "english"], "not a lexc leave model"),
    (["--out", "{tmp}/m.json", "--scheduler", "tcp://127.0.0.1:9"], "scheduler"),
    (["--out", "{tmp}/m.json", "--workers", "0"], "--workers"),
])
def test_lexc_learn_bad_input_is_one_line(capsys, tmp_path, args, fragment):
    from test_cli import assert_one_error_line, run_main

    (tmp_path / "bad.json").write_text("A,1.0\n")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, out, err = run_main(capsys, "learn", TINY_LIST, "-r", "tiny", *args)
    assert code == 2 and out == ""
    assert_one_error_line(err, fragment)


def test_lexc_learn_refuses_a_model_of_another_ruleset(capsys, tmp_path):
    from test_cli import assert_one_error_line, run_main

    model = tmp_path / "m.json"
    ModelFile(LinearModel.zero(TINY)).save(model)
    code, out, err = run_main(capsys, "learn", "--resume", model, "-r", "english", "--iterations", "0")
    assert code == 2 and out == ""
    assert_one_error_line(err, "a model for the tiny ruleset, not english")


def test_lexc_learn_refuses_to_go_on_with_another_player_s_model(capsys, tmp_path):
    from test_cli import assert_one_error_line, run_main

    model = tmp_path / "m.json"
    ModelFile(LinearModel.zero(TINY), player="leave").save(model)
    code, out, err = run_main(capsys, "learn", TINY_LIST, "--resume", model, "--games", "2", "--iterations", "1")
    assert code == 2 and out == ""
    assert_one_error_line(err, "learned with the 'leave' player")
    code, out, err = run_main(capsys, "learn", TINY_LIST, "--resume", model, "--iterations", "0", "--leaves",
                              tmp_path / "t.csv")
    assert code == 0, err


def test_lexc_learn_s_default_prior_is_the_library_s():
    from lexc.cli.leaves import DEFAULT_PRIOR_SD as CLI_DEFAULT
    from lexc.leavemodel import DEFAULT_PRIOR_SD

    assert CLI_DEFAULT == DEFAULT_PRIOR_SD
