"""The move-generation part of ``lexc bench``: positions per second
generating every play, per format x strategy, on a fixed set of self-play positions.

The built-in set (``src/lexc/bench/enable-selfplay.jsonl``) holds 100 positions met in
greedy self-play on ENABLE (``lexc selfplay``), picked so that about a quarter of the racks
hold one blank and a few hold two, and ordered so that any leading part of the file keeps
that mix (a slow strategy is timed on as many leading positions as fit its time budget).
Every (format, strategy) pair must find the same plays: the benchmark checks a digest of
each position's (notation, score) set against the first pair's and reports a disagreement.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from ..board.board import PositionError, parse_cgp
from ..movegen import compiled
from ..ruleset import Ruleset, load_ruleset
from ..textfile import text_lines

POSITIONS = "enable-selfplay.jsonl"


def bundled_positions() -> Path:
    """The path of the built-in position set."""
    return Path(str(resources.files("lexc.bench") / POSITIONS))


def read_positions(path: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """Positions from a JSONL file (``{"cgp": ..., "rack": ...}`` per line); the built-in
    set by default. A bad line is a PositionError naming it."""
    source = Path(path) if path else bundled_positions()
    out = [item for _, item in position_items(source)]
    if not out:
        raise PositionError(f"{source}: no positions")
    return out


def position_items(source: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each position of a JSONL file, read a line at a time
    (``lexc.textfile.text_lines``: UTF-8, bounded lines) and skipping blank lines: an
    object with a ``"cgp"`` string and, if any, a ``"rack"`` string (or null: the CGP's
    rack). Anything else is a PositionError naming the file and line."""
    for n, line in text_lines(source, "position file (JSONL)", PositionError):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:  # (JSONDecodeError, or a number past Python's 4,300 digits)
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc).partition(":")[0]
            raise PositionError(f"{source}:{n}: not JSON ({why})") from None
        except RecursionError:
            raise PositionError(f"{source}:{n}: JSON nested too deeply") from None
        if not isinstance(item, dict) or not isinstance(item.get("cgp"), str):
            raise PositionError(f'{source}:{n}: expected an object with a "cgp" string')
        if not isinstance(item.get("rack", ""), (str, type(None))):
            raise PositionError(f'{source}:{n}: "rack" must be a string (or null for the CGP\'s rack), '
                                f"not {type(item['rack']).__name__}")
        yield n, item


def blanks_on_rack(item: dict[str, Any], ruleset: Ruleset) -> int:
    """How many blanks the position's rack holds."""
    rack = item.get("rack") or parse_cgp(item["cgp"], ruleset).rack
    return rack.count("?")


def pick_positions(met: Iterable[dict[str, Any]], ruleset: Ruleset, n: int = 100, one_blank: float = 0.25,
                   two_blanks: int = 3, seed: int = 2026) -> list[dict[str, Any]]:
    """A fixed benchmark set from positions met in self-play: ``two_blanks`` racks with two
    blanks, about ``one_blank`` of them with one, the rest with none (as many as there are),
    drawn with a seeded generator and interleaved so every leading part keeps the mix."""
    rng = random.Random(seed)
    by_blanks: dict[int, list[dict[str, Any]]] = {0: [], 1: [], 2: []}
    for item in met:
        by_blanks.setdefault(blanks_on_rack(item, ruleset), []).append(item)
    want = {2: two_blanks, 1: round(n * one_blank)}
    want[0] = n - want[1] - want[2]
    chosen = {b: rng.sample(by_blanks[b], min(k, len(by_blanks[b]))) for b, k in want.items()}
    # interleave: each position gets a key (i + 0.5) / len(its class), then sort by key
    keyed = [((i + 0.5) / len(items), b, item) for b, items in chosen.items() for i, item in enumerate(items)]
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [item for _, _, item in keyed]


def play_digest(moves: list[Any]) -> str:
    """A short digest of a play set: its sorted (notation, score) pairs."""
    text = "\n".join(f"{m.notation} {m.score}" for m in sorted(moves, key=lambda m: (m.notation, m.score)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def time_strategy(lexicon: Any, strategy: str, positions: list[tuple[Any, str, int]], repeat: int,
                  budget_s: float, python_extras: bool = True) -> dict[str, Any]:
    """Time ``generate`` on each position, ``repeat`` times: positions per second (median,
    min, max over the runs), milliseconds per position by the number of blanks on the rack
    (per-position medians), plays found, and the digest of each position's play set. When
    the first run passes ``budget_s``, the leading positions done by then are used; when the
first position alone takes longer, the pair is reported as skipped, with the reason. Without
    ``python_extras`` a search in Python gets neither its JSON rate nor its search's share
    (a default ``lexc bench``: each is as many passes again over its slow positions)."""
    from ..movegen import generate

    per_position: list[list[float]] = []
    digests: list[str] = []
    plays = 0
    spent = 0.0
    for board, rack, _ in positions:
        t = time.perf_counter()
        try:
            with _deadline(budget_s):
                moves = generate(board, rack, lexicon, strategy)
        except _OverBudget:
            break
        dt = time.perf_counter() - t
        per_position.append([dt])
        digests.append(play_digest(moves))
        plays += len(moves)
        spent += dt
        if spent > budget_s:
            break
    used = positions[: len(per_position)]
    if not used:
        return {"skipped": f"one position took longer than the {budget_s:g} s budget", "positions": 0,
                "of": len(positions), "digests": []}
    for _ in range(repeat - 1):
        for k, (board, rack, _) in enumerate(used):
            t = time.perf_counter()
            generate(board, rack, lexicon, strategy)
            per_position[k].append(time.perf_counter() - t)
    runs = [sum(times[r] for times in per_position) for r in range(repeat)]
    medians = [statistics.median(times) for times in per_position]
    count = len(used)
    result = {"positions_per_s": _rate(count, runs), "ms_per_position": _by_blanks(medians, used),
              "positions": count, "of": len(positions), "plays": plays, "digests": digests,
              "engine": _engine(lexicon, strategy)}
    core = compiled.applicable(lexicon, strategy)
    result.update(compact_and_json(lexicon, strategy, used, repeat, as_json=core or python_extras))
    if core or not python_extras:  # (in C: one call, the search cannot be timed apart)
        result["search_ms_per_position"], result["search_share"] = None, None
    else:
        searches = [statistics.median(search_time(board, rack, lexicon, strategy) for _ in range(repeat))
                    for board, rack, _ in used]
        result["search_ms_per_position"] = _by_blanks(searches, used)
        result["search_share"] = sum(searches) / sum(medians)
    return result


def _engine(lexicon: Any, strategy: str) -> str:
    """What runs a strategy's search on this lexicon."""
    if compiled.applicable(lexicon, strategy):
        return "compiled core (C)"
    if strategy == "shapiro-smith" and lexicon.engine.startswith("compiled"):
        return "compiled findwords2, Python placement"
    return "pure Python"


def _rate(count: int, runs: list[float]) -> dict[str, float]:
    """Positions per second: median, min and max over the runs' total times."""
    return {"median": count / statistics.median(runs), "min": count / max(runs), "max": count / min(runs)}


def compact_and_json(lexicon: Any, strategy: str, used: list[tuple[Any, str, int]], repeat: int,
                     as_json: bool = True) -> dict[str, Any]:
    """Positions per second two more ways: every play as the compact result (``generate_plays``:
    the compiled core's records, no Python object per play), and every play's notation and
    score as the JSON line ``lexc moves --batch --json`` prints (``Plays.pairs``; not ``as_json``:
    the compact rate alone)."""
    from ..movegen import generate_plays

    compact, json_s, edges = [], [], []
    each: list[list[float]] = [[] for _ in used]  # each position's compact seconds, a run each
    if compiled.applicable(lexicon, strategy):  # the edges each position's search reads (Gordon's claim explained)
        for board, rack, _ in used:
            plays = generate_plays(board, rack, lexicon, strategy)
            assert isinstance(plays, compiled.CorePlays)  # (the core ran the search: its plays)
            edges.append(plays.search_edges)
    for _ in range(repeat):
        spent = 0.0
        for k, (board, rack, _) in enumerate(used):
            t = time.perf_counter()
            len(generate_plays(board, rack, lexicon, strategy))
            dt = time.perf_counter() - t
            each[k].append(dt)
            spent += dt
        compact.append(spent)
        if not as_json:
            continue
        t = time.perf_counter()
        for board, rack, _ in used:
            generate_plays(board, rack, lexicon, strategy).batch_json()
        json_s.append(time.perf_counter() - t)
    out: dict[str, Any] = {"compact_positions_per_s": _rate(len(used), compact),
                           "compact_ms_per_position": _by_blanks([statistics.median(t) for t in each], used)}
    if json_s:
        out["json_positions_per_s"] = _rate(len(used), json_s)
    if edges:
        out["search_edges_per_position"] = statistics.median(edges)
        out["search_edges_by_blanks"] = {str(b): statistics.median(e for e, (_, _, n) in zip(edges, used, strict=True)
                                                                   if n == b)
                                         for b in sorted({n for _, _, n in used})}
    return out


def search_time(board: Any, rack: str, lexicon: Any, strategy: str) -> float:
    """Seconds the strategy's own search takes on a position (its ``lane_plays`` over every
    lane), without the cross-checks and lanes it is given or the scoring and sorting after:
    the part Gordon's "more than twice as fast" is about."""
    from ..movegen import choose
    from ..movegen.lanes import lanes
    from ..movegen.rack import Rack

    module = choose(lexicon, strategy)
    alphabet = board.ruleset.alphabet
    letters, blanks = alphabet.parse_rack(rack)
    given = list(lanes(board, lexicon))
    t = time.perf_counter()
    tiles = Rack(alphabet, letters, blanks)
    for lane in given:
        for _ in module.lane_plays(lane, tiles, lexicon):
            pass
    return time.perf_counter() - t


def _by_blanks(seconds: list[float], used: list[tuple[Any, str, int]]) -> dict[str, float]:
    """Mean milliseconds per position for each number of blanks on the rack."""
    out = {}
    for b in sorted({blanks for _, _, blanks in used}):
        mine = [s for s, (_, _, blanks) in zip(seconds, used, strict=True) if blanks == b]
        out[str(b)] = 1e3 * sum(mine) / len(mine)
    return out


class _OverBudget(Exception):
    """A single position took longer than the whole budget."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise _OverBudget in the block after ``seconds`` (where SIGALRM exists, in the main
    thread; elsewhere the block just runs)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise _OverBudget()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def load_positions(path: str | os.PathLike[str] | None = None,
                   ruleset: str = "english") -> tuple[list[tuple[Any, str, int]], dict[str, Any]]:
    """The positions of a set as (board, rack, blanks on the rack), and a description of
    the set: its source, size and mix of blanks."""
    rules = load_ruleset(ruleset)
    positions = []
    for item in read_positions(path):
        position = parse_cgp(item["cgp"], rules)
        rack = item.get("rack") or position.rack
        positions.append((position.board, rack, rack.count("?")))
    mix = {str(b): sum(1 for *_, k in positions if k == b) for b in sorted({k for *_, k in positions})}
    return positions, {"source": str(path or bundled_positions()), "count": len(positions), "blanks": mix}


def time_strategies(lexicon: Any, positions: list[tuple[Any, str, int]], repeat: int, budget_s: float,
                    progress: Callable[[str], None] | None = None, only: list[str] | None = None,
                    python_extras: bool = True) -> dict[str, dict[str, Any]]:
    """``time_strategy`` for every strategy that applies to the lexicon (digests included),
    or for those of ``only`` that apply."""
    from ..movegen import STRATEGIES

    out = {}
    for name, module in STRATEGIES.items():
        if module.applicable(lexicon) and (only is None or name in only):
            if progress:
                progress(f"move generation, {name}")
            out[name] = time_strategy(lexicon, name, positions, repeat, budget_s, python_extras)
    core = [name for name, figures in out.items()
            if compiled.applicable(lexicon, name) and figures.get("positions") == len(positions)]
    if len(core) > 1:  # the core's strategies on one file, compared: their compact rounds interleaved
        if progress:
            progress(f"move generation, {' and '.join(core)} interleaved")
        for name, figures in interleaved_compact(lexicon, core, positions, repeat).items():
            out[name].update(figures)
    return out


def interleaved_compact(lexicon: Any, strategies: list[str], used: list[tuple[Any, str, int]],
                        repeat: int) -> dict[str, dict[str, Any]]:
    """``compact_and_json``'s compact figures for several strategies on one lexicon, timed in
    turns (a pass of each strategy over the positions, then the next round), so their ratio
    is measured under the same load: positions per second (median, min and max over at
    least 15 rounds) and milliseconds per position by blanks (per-position medians), in CPU
    time.
    Each timed pass follows an untimed pass of the same strategy: it is timed warm, the parts
    of the graph its search reads in the caches as in a run of that strategy alone, not
    after the other strategy's pass has pushed them out (which cost Gordon's search, whose
    GADDAG paths touch more of the array, more than A&J's: 1.23-1.29x with no blank
    instead of 1.30-1.36x, in one measurement of both ways)."""
    from ..movegen import generate_plays

    rounds = max(repeat, 15)  # (a round of both is a few tenths of a second: more rounds, a steadier median)
    passes: dict[str, list[float]] = {name: [] for name in strategies}
    each: dict[str, list[list[float]]] = {name: [[] for _ in used] for name in strategies}
    for _ in range(rounds):
        for name in strategies:
            for board, rack, _ in used:  # the warm-up pass
                generate_plays(board, rack, lexicon, name)
            spent = 0.0
            for k, (board, rack, _) in enumerate(used):
                t = time.process_time()
                len(generate_plays(board, rack, lexicon, name))
                dt = time.process_time() - t
                each[name][k].append(dt)
                spent += dt
            passes[name].append(spent)
    return {name: {"compact_positions_per_s": _rate(len(used), passes[name]),
                   "compact_ms_per_position": _by_blanks([statistics.median(t) for t in each[name]], used),
                   "compact_interleaved": True}
            for name in strategies}


COMMAND_COPIES = 20  # the position file's copies in a batch: 2,000 positions, about a second of work
COMMAND_ROUNDS = 5  # rounds of the command's two runs and the library's pass, at least: a median of three moved by 0.1


def command_rate(lexfile: str, strategy: str, positions: str | Path | None, ruleset: str, count: int,
                 repeat: int, copies: int = COMMAND_COPIES, library: Callable[[], Any] | None = None) -> dict[str, Any]:
    """``lexc moves LEXFILE --batch POSITIONS --json`` end to end, as a user runs it: a fresh
    process each time reading a batch of the positions ``copies`` times over (every CGP
    parsed, every position's plays ranked and written as JSON lines), and the same command on
    an empty batch (start-up and the file's load alone). A process's start-up varies by tens
    of milliseconds from one run to the next on a loaded machine (150-230 ms of CPU measured
    on this one), so the batch is long enough for that to be a few percent of it. Positions
    per second past start-up:
    the batch's positions over the run's CPU time (user and system, of the child process:
    ``getrusage``; wall time where there is none) less the empty batch's (median, min, max);
    and the empty batch's wall and CPU seconds. With ``library`` (one pass of the library's
    JSON over the same positions, parsed already: ``generate_plays(...).batch_json()``), that
    pass is timed in this process's CPU time in each round beside the command's two runs, and
    ``command_over_library`` is the median of the rounds' ratios: the two rates measured under
    the same load. ``repeat`` rounds, at least ``COMMAND_ROUNDS``."""
    import os
    import subprocess
    import sys
    import tempfile

    try:
        import resource
    except ImportError:  # (no getrusage: wall time stands in)
        resource = None  # type: ignore[assignment]

    source = Path(positions or bundled_positions()).read_text(encoding="utf-8")
    source = source if source.endswith("\n") or not source else source + "\n"
    command = [sys.executable, "-P", "-m", "lexc", "moves", lexfile, "--strategy", strategy, "--ruleset", ruleset,
               "--json", "--batch"]

    def run(batch: str) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
        t = time.perf_counter()
        subprocess.run([*command, batch], check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        if before is None or resource is None:
            return wall, wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def in_library() -> float:
        assert library is not None
        t = time.process_time()
        for _ in range(copies):
            library()
        return time.process_time() - t

    with tempfile.TemporaryDirectory() as folder:
        empty, batch = os.path.join(folder, "empty.jsonl"), os.path.join(folder, "batch.jsonl")
        Path(empty).write_text("", encoding="utf-8")
        Path(batch).write_text(source * copies, encoding="utf-8")
        runs, starts, own = [], [], []
        for _ in range(max(repeat, COMMAND_ROUNDS)):  # (interleaved: a load change hits all three alike)
            runs.append(run(batch))
            starts.append(run(empty))
            if library is not None:
                own.append(in_library())
    start_wall = statistics.median(w for w, _ in starts)
    start_cpu = statistics.median(c for _, c in starts)
    spent = [max(c - start_cpu, 1e-9) for _, c in runs]
    out: dict[str, Any] = {"command_positions_per_s": _rate(count * copies, spent), "command_start_s": start_wall,
                           "command_start_cpu_s": start_cpu, "command_positions": count * copies}
    if own:  # each round's command over its library pass (the command's empty run: the round's own)
        rounds = [max(lib, 1e-9) / max(c - e, 1e-9) for (_, c), (_, e), lib in zip(runs, starts, own, strict=True)]
        out["library_cpu_positions_per_s"] = _rate(count * copies, own)
        out["command_over_library"] = statistics.median(rounds)
    return out


def compare_digests(movegen: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """Pop every pair's per-position digests and compare them with the first pair's: one
    line per pair that found different plays somewhere."""
    reference: list[str] | None = None
    problems = []
    for fmt, strategies in movegen.items():
        for name, figures in strategies.items():
            digests = figures.pop("digests", [])
            if reference is None:
                reference = digests
                continue
            differ = [i + 1 for i, (a, b) in enumerate(zip(reference, digests, strict=False)) if a != b]
            if differ:
                problems.append(f"{fmt} x {name}: positions {differ[:5]}")
    return problems


def main(argv: list[str] | None = None) -> None:
    """``python -m lexc.bench.moves MET.jsonl OUT.jsonl``: pick the benchmark set from the
    positions a self-play run met (``make positions`` does both steps)."""
    import sys

    from ..formats.container import write_atomic

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        sys.exit("usage: python -m lexc.bench.moves MET.jsonl OUT.jsonl")
    rules = load_ruleset("english")
    chosen = pick_positions(read_positions(args[0]), rules)
    keep = ("game", "turn", "cgp", "rack")
    write_atomic(args[1], "".join(json.dumps({k: p[k] for k in keep if k in p}, ensure_ascii=False) + "\n"
                                  for p in chosen).encode("utf-8"))


if __name__ == "__main__":
    main()
