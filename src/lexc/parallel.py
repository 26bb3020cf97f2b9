"""Independent work, such as self-play games, run on every local core or on a cluster.

Games are independent: each is a task whose result depends on nothing but the task (its
seed, its lexicon file, its players). ``run_tasks`` maps one picklable function over the
tasks and hands the results back **in the tasks' order**, so what the caller makes of them
(a record file, a fitted model, a match's figures) is byte-identical whether the tasks ran
in this process, on the local cores, or on a cluster.

- ``workers=1``: in this process, one task after another.
- ``workers=N`` (default: the cores this process may use): a pool of N local processes
  (``concurrent.futures``, the fork start method where the platform has it, so a lexicon the
  parent loaded is shared copy-on-write).
- ``scheduler="tcp://HOST:8786"``: the tasks go to a running Dask ``distributed`` scheduler
  and its workers (``pip install 'lexc[cluster]'``; start one with ``dask scheduler`` and
  ``dask worker tcp://HOST:8786`` on each machine, every one with lexc installed).

Why Dask's distributed scheduler rather than Ray: lexc's tasks are coarse (a game takes
tens of milliseconds to seconds) and need nothing but a function mapped over a list with
results gathered in order, which both do. ``distributed`` is pure Python (a wheel of about
a megabyte, no daemon to build), installs wherever lexc does, starts an in-process
``LocalCluster`` for the tests, and speaks a plain ``tcp://`` address; Ray brings large
platform wheels, its own object store and raylet processes, whose features (actors, a
shared-memory store for large arrays) lexc has no use for.

A heavy object a task needs (a lexicon, a leave table) is opened once per worker process
through ``per_process``, keyed by what identifies it (a path and a ruleset).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from .errors import LexcError

T = TypeVar("T")
R = TypeVar("R")

_CACHE: dict[Hashable, Any] = {}


class ParallelError(LexcError, RuntimeError):
    """Tasks cannot be run as asked (no Dask installed, a scheduler that cannot be reached)."""


def local_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on every platform)
        return max(1, os.cpu_count() or 1)


def per_process(key: Hashable, make: Callable[[], T]) -> T:
    """The object ``make()`` returns, made once per process for ``key`` and kept: a worker
    opens a lexicon or a leave table for its first task and reuses it for the rest."""
    if key not in _CACHE:
        _CACHE[key] = make()
    found: T = _CACHE[key]
    return found


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], *, workers: int | None = None, scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> list[R]:
    """``[fn(task) for task in tasks]``, in the tasks' order, run in this process
    (``workers=1``), on ``workers`` local processes (default: every core this process may
    use), or on the Dask scheduler at ``scheduler`` (an address such as
    ``tcp://10.0.0.1:8786``). ``fn`` and the tasks must be picklable (a module-level function,
    plain data). ``progress(done, total)`` is told after each task finishes, in the order
    they finish. A task's exception is raised here, once the tasks started before it end."""
    total = len(tasks)
    if scheduler is not None:
        return _on_cluster(fn, tasks, scheduler, progress)
    count = local_cores() if workers is None else workers
    if count < 1:
        raise ParallelError(f"workers must be at least 1, not {count}")
    if count == 1 or total <= 1:
        results: list[R] = []
        for task in tasks:
            results.append(fn(task))
            if progress is not None:
                progress(len(results), total)
        return results
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    slots: list[Any] = [None] * total
    with ProcessPoolExecutor(max_workers=min(count, total), mp_context=context) as pool:
        pending: dict[Future[R], int] = {pool.submit(fn, task): i for i, task in enumerate(tasks)}
        done = 0
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                slots[pending.pop(future)] = future.result()
                done += 1
                if progress is not None:
                    progress(done, total)
    return slots


def _on_cluster(fn: Callable[[T], R], tasks: Sequence[T], scheduler: str,
                progress: Callable[[int, int], None] | None) -> list[R]:
    """The tasks mapped on a Dask distributed scheduler, gathered in order."""
    try:
        import distributed
    except ImportError:
        raise ParallelError("running on a scheduler needs Dask's distributed: pip install 'lexc[cluster]'") from None
    _reachable(scheduler)
    dask: Any = distributed  # (untyped)
    try:
        client = dask.Client(scheduler, timeout=30, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ParallelError(f"cannot reach the scheduler at {scheduler}: {exc}") from None
    try:
        futures = client.map(fn, list(tasks), pure=False)
        if progress is not None:
            for done, _ in enumerate(dask.as_completed(futures, loop=client.loop), 1):  # (not the default client)
                progress(done, len(futures))
        results: list[R] = client.gather(futures)
        return results
    finally:
        client.close()


def _reachable(scheduler: str) -> None:
    """ParallelError at once for a ``tcp://HOST:PORT`` scheduler that refuses or does not answer
    a connection within 10 s (Dask's client would retry until its own timeout)."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(scheduler if "://" in scheduler else f"tcp://{scheduler}")
    if parts.scheme not in ("tcp", "tls") or parts.hostname is None:
        return  # (another transport: Dask tells)
    try:
        port = parts.port or 8786
        with socket.create_connection((parts.hostname, port), timeout=10):
            pass
    except (OSError, ValueError) as exc:
        raise ParallelError(f"cannot reach the scheduler at {scheduler}: {exc}") from None


__all__ = ["ParallelError", "local_cores", "per_process", "run_tasks"]
