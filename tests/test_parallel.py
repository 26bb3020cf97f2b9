"""Independent games on every core and on a cluster (``lexc.parallel``): the results come back
in the tasks' order, the same seed for seed whatever the number of workers, on a local Dask
cluster of two worker processes too; ``lexc selfplay --workers`` writes the same records."""

from __future__ import annotations

import os

import pytest

from lexc.game.tasks import SelfplayTask, play_selfplay
from lexc.parallel import ParallelError, local_cores, per_process, run_tasks
from test_cli import run_main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TINY_LIST = os.path.join(ROOT, "wordlists", "tiny.txt")


def square(x: int) -> int:
    return x * x


def fails_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def worker_pid(_: int) -> int:
    return os.getpid()


@pytest.fixture(scope="module")
def tiny_dawg(tmp_path_factory):
    """The tiny list compiled with the tiny ruleset (7x7 board, rack of 5): quick games."""
    from lexc.cli import main

    out = tmp_path_factory.mktemp("parallel") / "tiny.dawg"
    with pytest.raises(SystemExit) as info:
        main(["build", TINY_LIST, "-r", "tiny", "-f", "dawg", "-o", str(out)])
    assert not info.value.code
    return str(out)


def games(path: str, seeds: range) -> list[SelfplayTask]:
    return [SelfplayTask(path, "tiny", seed) for seed in seeds]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_results_come_back_in_the_tasks_order(workers):
    done: list[tuple[int, int]] = []
    assert run_tasks(square, list(range(20)), workers=workers, progress=lambda d, t: done.append((d, t))) == [
        x * x for x in range(20)]
    assert done == [(d, 20) for d in range(1, 21)]


def test_two_workers_are_two_processes():
    pids = set(run_tasks(worker_pid, list(range(40)), workers=2))
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_a_tasks_exception_is_raised():
    with pytest.raises(ValueError, match="three"):
        run_tasks(fails_on_three, list(range(6)), workers=2)
    with pytest.raises(ParallelError):
        run_tasks(square, [1, 2], workers=0)


def test_per_process_makes_once():
    made: list[int] = []
    key = ("test", os.getpid(), id(made))
    assert per_process(key, lambda: made.append(1) or "x") == "x"
    assert per_process(key, lambda: made.append(2) or "y") == "x"
    assert made == [1] and local_cores() >= 1


def test_games_are_the_same_seed_for_seed_on_one_core_and_on_two(tiny_dawg):
    serial = run_tasks(play_selfplay, games(tiny_dawg, range(6)), workers=1)
    assert run_tasks(play_selfplay, games(tiny_dawg, range(6)), workers=2) == serial
    assert all(g["replay_ok"] for g in serial) and len({g["gcg"] for g in serial}) == 6  # (six distinct games)


def test_games_on_a_local_dask_cluster_of_two_workers_are_the_single_process_ones(tiny_dawg):
    distributed = pytest.importorskip("distributed")  # (in the test extra: CI runs this)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster:
        on_cluster = run_tasks(play_selfplay, games(tiny_dawg, range(8)), scheduler=cluster.scheduler_address)
        with distributed.Client(cluster.scheduler_address) as client:
            assert len(client.scheduler_info()["workers"]) == 2
    assert on_cluster == run_tasks(play_selfplay, games(tiny_dawg, range(8)), workers=1)


def test_an_unreachable_scheduler_is_one_line(capsys, tiny_dawg):
    code, out, err = run_main(capsys, "selfplay", tiny_dawg, "-r", "tiny", "--games", "2",
                              "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and "scheduler" in err


def test_selfplay_writes_the_same_records_whatever_the_workers(capsys, tiny_dawg, tmp_path):
    outputs = []
    for workers in ("1", "2"):
        out_dir = tmp_path / f"w{workers}"
        code, out, _ = run_main(capsys, "selfplay", tiny_dawg, "-r", "tiny", "--games", "5", "--seed", "7",
                                "--workers", workers, "-o", out_dir, "--positions", tmp_path / f"p{workers}.jsonl")
        assert code == 0
        outputs.append((out.replace(str(out_dir), "DIR"), sorted((p.name, p.read_bytes()) for p in out_dir.iterdir()),
                        (tmp_path / f"p{workers}.jsonl").read_bytes()))
    assert outputs[0] == outputs[1] and len(outputs[0][1]) == 5
