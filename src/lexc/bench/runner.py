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
              positions: str | os.PathLike[str] | None = None, repeat: int = 5, movegen: bool = True,
              movegen_repeat: int | None = None, budget_s: float = 10.0, ruleset: str = "english",
              papers: bool = True, progress: Progress | None = None, play_games: int = 20) -> dict[str, Any]:
    """Measure every format (default: all registered) and the baselines on a word list
    (default: the bundled ENABLE), with move generation on a position set (default: the
    built-in one); the JSON-ready result, with the papers' claims when ``papers``, and with
    move generation what playing costs (``play``: equity ranking beside generation, and
    ``play_games`` self-play games a round with equity and with greedy players)."""
    from .papers import papers_section

    source = Path(wordlist) if wordlist else bundled_wordlist()
    words = read_list(source, ruleset)
    texts = words.texts()
    names = list(formats_ or FORMATS)
    structures = names + list(BASELINES)
    twins = [name for name in names if FORMATS[name].compiled and native.available()]  # a pure-path row each
    position_info = load_positions(positions, ruleset)[1] if movegen else None
    result: dict[str, Any] = {
        "lexc_version": __version__, "machine": machine_info(), "wordlist": str(source), "words": len(texts),
        "ruleset": ruleset, "repeat": repeat, "movegen_repeat": movegen_repeat or repeat, "budget_s": budget_s,
        "positions": position_info, "formats": {}}
    extra = (["orders"] if papers and "anatrie" in names else []) + (
        ["short"] if papers and {"dawg", "gaddag"} <= set(names) else [])
    player = play_structure(names, ruleset) if movegen else None
    total, step = 2 * len(structures) + len(twins) + len(extra) + (player is not None), 0

    def note(message: str) -> None:
        if progress:
            progress(step, total, message)

    def noting(prefix: str) -> Callable[[str], None]:  # a job's progress, told as the structure's
        return lambda message: note(f"{prefix}: {message}")

    with tempfile.TemporaryDirectory(prefix="lexc-bench-") as tmpdir:
        tmp = Path(tmpdir)
        query_path = tmp / "queries.json"
        query_path.write_text(json.dumps(make_queries(texts)), encoding="utf-8")
        answers: dict[str, Any] = {}
        for name in structures:
            common = {"name": name, "ruleset": ruleset, "repeat": repeat}
            file = tmp / f"bench.{name}"
            step += 1
            figures = run_job({"job": "build", "wordlist": str(source), "out": str(file), **common}, tmp,
                              noting(name))
            step += 1
            use = {"job": "use", "file": str(file), "queries": str(query_path), "budget_query_s": 2.0,
                   "positions": (str(positions) if positions else "") if movegen else None,
                   "movegen_repeat": movegen_repeat or repeat, "budget_s": budget_s, **common}
            figures.update(run_job(use, tmp, noting(name)))
            answers[name] = figures.pop("answers")
            figures["baseline"] = name in BASELINES
            figures["engine"] = engine_of(name)
            result["formats"][name] = figures
            if name in twins:  # the same file on the pure-Python path (the reference), measured in the same run
                step += 1
                twin = {k: v for k, v in figures.items() if k not in ("load_s", "query_s", "memory", "movegen",
                                                                     "search_memory", "movegen_memory")}
                # the strategies the compiled core runs (the others are the same Python code on either path)
                pure_use = {**use, "strategies": list(CORE_SEARCHED)}
                twin.update(run_job(pure_use, tmp, noting(f"{name} (pure Python)"), pure=True))
                answers[pure_row(name)] = twin.pop("answers")
                twin["engine"], twin["pure_of"] = "pure Python", name
                result["formats"][pure_row(name)] = twin
        jobs = {}
        for kind in extra:
            step += 1
            job = {"job": kind, "name": kind, "wordlist": str(source), "ruleset": ruleset, "repeat": repeat,
                   "queries": str(query_path), "dir": str(tmp), "max_len": 8}
            jobs[kind] = run_job(job, tmp, noting("papers"))
        if player is not None:  # what playing costs: equity beside move generation, self-play games a second
            step += 1
            job = {"job": "play", "name": player, "file": str(tmp / f"bench.{player}"), "ruleset": ruleset,
                   "positions": str(positions) if positions else "", "repeat": movegen_repeat or repeat,
                   "games": play_games}
            result["play"] = run_job(job, tmp, noting(f"playing on {player}"))
    problems = compare_answers(answers)
    moves = {name: f["movegen"] for name, f in result["formats"].items() if "movegen" in f}
    move_problems = compare_digests(moves)
    result["agree"] = {"queries": not problems, "moves": not move_problems if movegen else None}
    result["disagreements"] = problems + move_problems
    result["ratios"] = size_ratios(result["formats"])
    if papers:
        result["papers"] = papers_section(result, texts, jobs)
    return result


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
