"""``lexc bench``: every format's size, build, load, memory, query and move-generation
speed side by side, beside the baselines (a plain Python set with Norvig's prefix set,
marisa-trie, and two in-memory alphagram structures), with the papers' claims measured again.

Each structure is measured in fresh interpreters (``lexc.bench.worker``): one builds it from
the word list and saves it, another loads the file, answers the query set and generates
moves, so each memory figure is that of a process doing only that. Every timing is repeated
and reported as median, min and max. Every structure's answers and every move generator's
plays are compared, and a disagreement is reported. Figures come from here, never from
timed tests.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import native
from .._version import __version__
from ..formats import FORMATS
from ..lexicons.source import bundled_wordlist, read_list
from ..movegen.compiled import CORE_SEARCHED
from . import BenchError
from .moves import compare_digests, load_positions
from .plan import BUDGET, FULL_BUDGET, FULL_REPEAT, PAPER_JOBS, REPEAT, full_only, plan_jobs, query_budget
from .queries import compare_answers, make_queries
from .worker import BASELINES

Progress = Callable[[int, int, str], None]


def machine_info() -> dict[str, Any]:
    """Where the figures were measured."""
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "machine": platform.machine(), "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None}


def run_job(job: dict[str, Any], tmp: Path, on_progress: Callable[[str], None], pure: bool = False) -> dict[str, Any]:
    """Run one job in a fresh interpreter (this lexc on its path; with ``pure``, on the
    pure-Python path: ``LEXC_PURE=1``); its figures."""
    tag = f"{job['job']}-{job.get('name', '')}{'-pure' if pure else ''}"
    job_path, result_path = tmp / f"{tag}.job.json", tmp / f"{tag}.result.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    env = dict(os.environ)
    if pure:
        env["LEXC_PURE"] = "1"
    else:
        env.pop("LEXC_PURE", None)
    root = str(Path(__file__).resolve().parents[2])  # the folder holding this lexc package
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # -P: the worker imports this lexc (PYTHONPATH above), never a source tree in the cwd
    proc = subprocess.Popen([sys.executable, "-P", "-m", "lexc.bench.worker", str(job_path), str(result_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    last = ""  # the last line the job wrote besides progress: its error, if it fails
    assert proc.stderr is not None
    for line in proc.stderr:
        line = line.rstrip("\n")
        if line.startswith("progress: "):
            on_progress(line[len("progress: "):])
        elif line.strip():
            last = line
    if proc.wait() != 0:  # (the job's own scratch files are not the user's: named as the bench's)
        last = last.replace(str(tmp) + os.sep, "bench scratch: ")
        raise BenchError(f"bench: the {job['job']} job of {job.get('name', job['job'])} failed: "
                         f"{last or f'exit status {proc.returncode}'}")
    result: dict[str, Any] = json.loads(result_path.read_text(encoding="utf-8"))
    return result


def run_bench(wordlist: str | os.PathLike[str] | None = None, formats_: list[str] | None = None,
              positions: str | os.PathLike[str] | None = None, repeat: int | None = None, movegen: bool = True,
              movegen_repeat: int | None = None, budget_s: float | None = None, ruleset: str = "english",
              papers: bool = True, progress: Progress | None = None, full: bool = False) -> dict[str, Any]:
    """Measure every format (default: all registered) and the baselines on a word list
    (default: the bundled ENABLE), with move generation on a position set (default: the
    built-in one); the JSON-ready result, with the papers' claims when ``papers``, and with
    move generation what playing costs (``play``: equity ranking beside generation, and
    self-play games with equity and with greedy players). A default run measures what
    ``lexc.bench.plan`` keeps (a few minutes on ENABLE); ``full``, everything (``repeat``
    default: 3, or 5 with ``full``; ``budget_s``: 3, or 10; a slow query kind is timed on the
    leading queries that fit 1 s a run, or 2). Each job's wall time is kept (``jobs``), and
    the run's."""
    from .papers import papers_section

    began = time.perf_counter()
    repeat = repeat or (FULL_REPEAT if full else REPEAT)
    budget_s = budget_s or (FULL_BUDGET if full else BUDGET)
    source = Path(wordlist) if wordlist else bundled_wordlist()
    words = read_list(source, ruleset)
    texts = words.texts()
    names = list(formats_ or FORMATS)
    twins = [name for name in names if FORMATS[name].compiled and native.available()]  # a pure-path row each
    position_info = load_positions(positions, ruleset)[1] if movegen else None
    plan = plan_jobs(names, full=full, movegen=movegen, papers=papers, twins=twins,
                     core_strategies=tuple(CORE_SEARCHED), player=play_structure(names, ruleset) if movegen else None)
    result: dict[str, Any] = {
        "lexc_version": __version__, "machine": machine_info(), "wordlist": str(source), "words": len(texts),
        "ruleset": ruleset, "full": full, "repeat": repeat, "movegen_repeat": movegen_repeat or repeat,
        "budget_s": budget_s, "budget_query_s": query_budget(full),
        "positions": position_info, "formats": {}, "jobs": []}
    if not full:
        result["full_only"] = full_only(names, movegen, papers)
    answers: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="lexc-bench-") as tmpdir:
        tmp = Path(tmpdir)
        query_path = tmp / "queries.json"
        query_path.write_text(json.dumps(make_queries(texts)), encoding="utf-8")
        common = {"ruleset": ruleset, "repeat": repeat, "wordlist": str(source), "queries": str(query_path),
                  "positions": (str(positions) if positions else "") if movegen else None,
                  "movegen_repeat": movegen_repeat or repeat, "budget_s": budget_s,
                  "budget_query_s": result["budget_query_s"], "dir": str(tmp), "max_len": 8}
        for step, planned in enumerate(plan, 1):
            name, kind, pure = planned["name"], planned["job"], planned.get("pure", False)
            shown = f"{name} (pure Python)" if pure else "papers" if kind in PAPER_JOBS else (
                f"playing on {name}" if kind == "play" else name)
            job = {**common, **planned, "file": str(tmp / f"bench.{name}"), "out": str(tmp / f"bench.{name}")}
            if kind == "play":  # what playing costs: equity beside move generation, rounds of self-play games
                job["repeat"] = movegen_repeat or repeat
            t = time.perf_counter()
            figures = run_job(job, tmp, _telling(progress, step, len(plan), shown), pure=pure)
            result["jobs"].append({"job": kind, "name": name, "pure": pure, "wall_s": time.perf_counter() - t})
            keep(result, answers, extra, planned, figures)
    problems = compare_answers(answers)
    moves = {name: f["movegen"] for name, f in result["formats"].items() if "movegen" in f}
    move_problems = compare_digests(moves)
    result["agree"] = {"queries": not problems, "moves": not move_problems if movegen else None}
    result["disagreements"] = problems + move_problems
    result["ratios"] = size_ratios(result["formats"])
    if papers:
        result["papers"] = papers_section(result, texts, extra)
    result["machine"]["load_average_end"] = machine_info()["load_average"]
    result["wall_s"] = time.perf_counter() - began
    return result


def keep(result: dict[str, Any], answers: dict[str, Any], extra: dict[str, Any], planned: dict[str, Any],
         figures: dict[str, Any]) -> None:
    """File a job's figures: a build's as the structure's row, its use's added to the row (the
    answers apart, to compare), a pure-path use as the row's ``(pure)`` twin, the play figures,
    a paper's extra build."""
    name, kind = planned["name"], planned["job"]
    if kind == "build":
        result["formats"][name] = figures
    elif kind == "use" and not planned.get("pure"):
        answers[name] = figures.pop("answers")
        result["formats"][name].update(figures, baseline=name in BASELINES, engine=engine_of(name))
    elif kind == "use":  # the same file on the pure-Python path (the reference), measured in the same run
        twin = {k: v for k, v in result["formats"][name].items()
                if k not in ("load_s", "query_s", "memory", "movegen", "search_memory", "movegen_memory", "engine")}
        twin.update(figures, engine="pure Python", pure_of=name)
        if planned.get("positions_limit"):
            twin["positions_limit"] = planned["positions_limit"]
        answers[pure_row(name)] = twin.pop("answers")
        result["formats"][pure_row(name)] = twin
    elif kind == "play":
        result["play"] = figures
    else:
        extra[kind] = figures


def _telling(progress: Progress | None, step: int, total: int, shown: str) -> Callable[[str], None]:
    """A job's progress, told as the step of the run it is and the structure it measures."""
    def tell(message: str) -> None:
        if progress:
            progress(step, total, f"{shown}: {message}")
    return tell


def play_structure(names: list[str], ruleset: str) -> str | None:
    """The structure the play figures are measured on: the first compiled word graph the
    bench measures (the GADDAG-DAWG pair first, as ``lexc play`` opens the bundled lexicon),
    when lexc ships leave values for the ruleset's tiles; None otherwise."""
    from ..equity.bundled import bundled_leaves_path
    from ..ruleset import load_ruleset

    if not native.available() or bundled_leaves_path(load_ruleset(ruleset)) is None:
        return None
    return next((name for name in ("gaddawg", "gaddag", "dawg") if name in names), None)


def pure_row(name: str) -> str:
    """The name of a format's pure-path row in the bench (``dawg (pure)``)."""
    return f"{name} (pure)"


def engine_of(name: str) -> str:
    """What answers a structure's queries in the bench's main row."""
    if name in FORMATS:
        return "compiled core (C)" if FORMATS[name].compiled and native.available() else "pure Python"
    return {"python-set": "Python set", "marisa-trie": "marisa-trie (C++)"}.get(name, "pure Python")


def size_ratios(measured: dict[str, Any]) -> dict[str, float]:
    """File-size ratios of every structure to the DAWG (Gordon: a GADDAG is "nearly five times")."""
    if "dawg" not in measured:
        return {}
    base = measured["dawg"]["file_bytes"]
    return {f"{name}/dawg": f["file_bytes"] / base for name, f in measured.items()
            if name != "dawg" and not f.get("pure_of") and (not f.get("baseline") or name == "marisa-trie")}
