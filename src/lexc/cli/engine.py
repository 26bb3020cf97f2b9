"""Search commands: endgame (``lexc.engine.endgame``), analyze (``lexc.engine.sim``)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from ..limits import MAX_PLIES, MAX_SEARCH_S, MAX_SEED, MAX_WORKERS
from ..plural import plural
from . import common
from .common import Bounded, BoundedFloat, emit, lexicon_file, lexicon_option, note

PROGRESS_AFTER_S = 1.0  # a search shows its progress once it has run this long
CANDIDATES = 20  # analyze's candidates by default ...
PEG_CANDIDATES = 10  # ... and the pre-endgame's placements (the pass beside them)


@click.command()
@click.argument("cgp")
@click.argument("lexfile", required=False)
@common.ruleset_option("Ruleset: board, tiles, bingo.")
@click.option("--time", "seconds", type=BoundedFloat(0.001, MAX_SEARCH_S), metavar="SECONDS",
              help="Stop after about SECONDS with the best line found so far, said not to be proven "
                   "[default: no limit].")
@click.option("--depth", type=Bounded(1, MAX_PLIES), metavar="PLIES",
              help="Search at most PLIES plies ahead (the value is then proven only if every line ends "
                   "sooner) [default: no limit].")
@click.option("--path", type=click.Choice(["auto", "core", "pure"]), default="auto", show_default=True,
              help="The compiled core's search, or the pure-Python reference (slower; no time or depth "
                   "limit); auto: the core's where it runs.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@lexicon_option
def endgame(cgp: str, lexfile: str | None, ruleset: str | None, seconds: float | None, depth: int | None,
            path: str, as_json: bool, lexicon_opt: str | None) -> None:
    """Solve the endgame of the CGP position (the bag empty, both racks given: MINE/THEIRS):
    the value for the side to move under perfect play by both, a line of play that reaches
    it, and the search's figures.

    The value is what MAGPIE and Macondo report: the points the side to move gains on the
    opponent from here to the end of the game, end-of-game rack points included (going out:
    twice the other rack; a game ended by passes or by the sixth scoreless turn in a row:
    each side loses its own rack). The final spread adds it to the CGP's scores. Ctrl-C
    stops the search with the best line so far.

    Example (the board's rows shortened to ...): lexc endgame '7U6O/7P4Q1W/.../KEG12 DINORRR/DEGLST 372/377 0'
    (the whole position is in docs/searching.md)
    """
    from ..board.board import read_position
    from ..engine.endgame import EndgameInterrupted, solve
    from ..lexicons.source import open_lexicon
    from ..ruleset import load_ruleset

    lexfile = lexicon_file(lexfile, lexicon_opt)
    lexicon = open_lexicon(lexfile, "gaddawg", ruleset, progress=note)
    rules = common.command_ruleset(lexicon, ruleset, lexfile)
    position = read_position(load_ruleset(rules), cgp)
    with common.status_line() as show:  # (a terminal only: the output of a log or a pipe is the answer alone)
        def progress(plies: int, value: int, nodes: int, spent: float, proven: bool) -> None:
            if spent >= PROGRESS_AFTER_S:  # (a quick search says nothing)
                show(plies, plies, f"{plural(plies, 'ply', 'plies')}: value {value:+d}, {nodes:,} nodes, "
                                   f"{spent:.1f} s" + (" (proven)" if proven else ""))

        try:
            result = solve(position, lexicon, seconds, depth, path, progress=progress)
        except EndgameInterrupted as stop:
            _show(stop.result, as_json)
            click.echo("lexc: interrupted: the best line found so far is shown", err=True)
            sys.exit(130)
    _show(result, as_json)


def _show(result: Any, as_json: bool) -> None:
    """The result, as text or JSON."""
    lines = [f"value {result.value:+d}, final spread {result.final_spread:+d}"
             + ("" if result.proven else "  (not proven: the best line found)")]
    for k, move in enumerate(result.pv, 1):
        lines.append(f"{k:>3}. {'me ' if move.side == 0 else 'opp'}  {move.text()}")
    path = "the compiled core" if result.path == "core" else "the pure-Python reference"
    stopped = {"time": ", stopped by the time limit", "interrupt": ", interrupted"}.get(result.stopped, "")
    lines.append(f"searched {plural(result.plies, 'ply', 'plies')}, {plural(result.nodes, 'node')}, "
                 f"seconds {result.seconds:.2f} ({path}{stopped})")
    emit(result.as_dict(), as_json, "\n".join(lines))


@click.command()
@click.argument("cgp")
@click.argument("lexfile", required=False)
@common.ruleset_option("Ruleset: board, tiles, bingo.")
@click.option("--sim", is_flag=True, help="Simulate the candidates (MAVEN's simulation) instead of ranking them "
                                          "by static equity alone.")
@click.option("--peg", is_flag=True,
              help="With 1 to 6 tiles in the bag: the pre-endgame search instead (the best -n placements and the "
                   "pass against every draw, each endgame solved; ranked by win rate, then mean final spread).")
@click.option("-n", "--candidates", "count", type=Bounded(1, 1000), default=None, metavar="N",
              help="The best N moves by static equity are the candidates (with --peg: N placements and the pass) "
                   "[default: 20; with --peg 10].")
@click.option("--move", "moves", multiple=True, metavar="MOVE",
              help="A candidate, as lexc moves --leaves writes it ('8H WORD', '-AEI' an exchange, '-' the pass); "
                   "repeat it: these instead of the best N.")
@click.option("--plies", type=Bounded(1, 20), default=2, show_default=True,
              help="Moves played after each candidate in an iteration.")
@click.option("--iterations", type=Bounded(1, 10_000_000), default=1000, show_default=True, metavar="N",
              help="Stop after N iterations.")
@click.option("--time", "seconds", type=BoundedFloat(0.001, MAX_SEARCH_S), metavar="SECONDS",
              help="Stop after about SECONDS (checked between batches of iterations).")
@click.option("--confidence", type=click.Choice(["0.9", "0.95", "0.99", "none"]), default="0.95",
              show_default=True,
              help="Stop once the leader is ahead of every other candidate at this confidence (none: never).")
@click.option("--seed", type=Bounded(0, MAX_SEED), default=0, show_default=True, help="The draws' seed.")
@click.option("--workers", type=Bounded(1, MAX_WORKERS), default=None, metavar="N",
              help="Local processes to simulate on [default: every core]; the results are the same whatever N.")
@click.option("--scheduler", metavar="ADDRESS", help="Simulate on a Dask distributed cluster, e.g. tcp://10.0.0.1:8786.")
@click.option("--leaves", "leaves_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Leave values (any file lexc leaves reads) [default: the learned leaves bundled for the "
                   "ruleset's bag].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@lexicon_option
def analyze(cgp: str, lexfile: str | None, ruleset: str | None, sim: bool, peg: bool, count: int | None,
            moves: tuple[str, ...], plies: int, iterations: int, seconds: float | None, confidence: str, seed: int,
            workers: int | None, scheduler: str | None, leaves_file: str | None, as_json: bool,
            lexicon_opt: str | None) -> None:
    """Analyze the position of the CGP for the side to move: its candidates ranked by static
    equity, or with --sim played forward (MAVEN's simulation): for each candidate, an
    iteration draws the opponent's rack from the tiles the mover cannot see and plays
    --plies moves after it, both sides by static equity, the same draws for every candidate;
    the table gives each one's mean outcome (spread gained, plus the last mover's leave) with
    its standard error, its win rate and its iterations. Reproducible from --seed whatever
    the workers, unless --time stops it. Ctrl-C stops it with what it has. With 1 to 6
    tiles in the bag, --peg searches the pre-endgame instead: each candidate against every
    draw, each endgame solved (1 s each; after --time, estimated), the plays that leave
    tiles in the bag followed while they do.

    Example: lexc analyze '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0' --sim --iterations 200
    """
    from ..board.board import read_position
    from ..engine.sim import SimSettings, simulate
    from ..equity import candidates
    from ..equity.rule import Situation
    from ..game.tasks import task_leaves, task_lexicon
    from ..ruleset import load_ruleset
    from .game import games_lexicon, program_levels

    rules_name, path_given, _ = games_lexicon(lexfile, lexicon_opt, ruleset)
    _, leaves_path = program_levels(("equity",), leaves_file, rules_name)
    lexicon = task_lexicon(path_given, rules_name)
    leaves = task_leaves(leaves_path, rules_name)
    position = read_position(load_ruleset(rules_name), cgp)
    if not position.rack:
        raise click.UsageError("the CGP gives no rack for the side to move")
    if peg:
        from ..engine.pre_endgame import pre_endgame

        if sim:
            raise click.UsageError("--sim and --peg are two searches: give one")
        with common.status_line() as show:  # (a terminal only)
            started = time.monotonic()

            def told(done: int, total: int, notation: str) -> None:
                if time.monotonic() - started >= PROGRESS_AFTER_S:
                    show(done, total, f"candidate {done + 1} of {total}: {notation}")

            found = pre_endgame(position, lexicon, leaves, count or PEG_CANDIDATES, seconds=seconds,
                                progress=told, moves=moves)
        lines = [f"{'':>3} {'move':<22} {'equity':>7} {'score':>5} {'win':>6} {'spread':>8} {'exact':>7}"]
        lines += [f"{k:>3} {r.notation:<22} {_num(r.equity):>7} {r.score:>5} {r.win_rate:>6.1%} "
                  f"{r.mean_spread:>+8.2f} {r.exact:>3}/{r.draws:<3}" for k, r in enumerate(found.rows, 1)]
        lines.append(f"{plural(len(found.rows), 'candidate')} against every draw of {plural(found.bag, 'tile')}, "
                     f"{plural(found.endgames, 'endgame')} ({found.proven:,} proven), seconds {found.seconds:.2f}")
        emit(found.as_dict(), as_json, "\n".join(lines))
        if found.stopped == "interrupt":
            click.echo("lexc: interrupted: the candidates finished are shown", err=True)
            sys.exit(130)
        return
    if not sim:
        ranked = candidates(position.board, position.rack, lexicon, leaves,
                            situation=Situation.of(position.board, position.rack)).ranked(count or CANDIDATES)
        rows = [c.as_dict() for c in ranked]
        text = "\n".join(f"{_num(c.equity):>8} {c.score:>5}  {c.leave:<8} {c.notation}" for c in ranked)
        emit(rows, as_json, f"{'equity':>8} {'score':>5}  {'leave':<8} move\n{text}")
        return
    settings = SimSettings(count or CANDIDATES, plies, iterations, seconds,
                           None if confidence == "none" else float(confidence), seed, workers, scheduler, moves)
    with common.status_line() as show:  # (a terminal only)
        started = time.monotonic()

        def progress(done: int, limit: int, rows: list[Any]) -> None:
            if time.monotonic() - started >= PROGRESS_AFTER_S:  # (a quick simulation says nothing)
                leader = max(rows, key=lambda r: r.mean)
                show(done, limit, f"{done:,} iterations: {leader.notation} {leader.mean:+.1f}")

        result = simulate(position, lexicon, leaves, settings, lexfile=path_given, leaves_file=leaves_path,
                          ruleset=rules_name, progress=progress)
    emit(result.as_dict(), as_json, _sim_table(result))
    if result.stopped == "interrupt":
        click.echo("lexc: interrupted: the figures so far are shown", err=True)
        sys.exit(130)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _sim_table(result: Any) -> str:
    """The simulation's table: a line a candidate, best first, then how it stopped."""
    lines = [f"{'':>3} {'move':<22} {'equity':>7} {'score':>5} {'leave':<8} {'mean':>7} {'± se':>6} {'win':>6} "
             f"{'iters':>6}"]
    for k, row in enumerate(result.rows, 1):
        se = "-" if row.stderr == float("inf") else f"{row.stderr:.2f}"
        lines.append(f"{k:>3} {row.notation:<22} {_num(row.equity):>7} {row.score:>5} {row.leave:<8} "
                     f"{row.mean:>+7.2f} {se:>6} {row.win_rate:>6.1%} {row.iterations:>6,}")
    why = {"limit": "the iteration limit", "confident": "a clear leader", "time": "the time budget",
           "interrupt": "Ctrl-C"}[result.stopped]
    lines.append(f"{plural(result.iterations, 'iteration')} of {plural(result.settings.plies, 'ply', 'plies')}, "
                 f"seconds {result.seconds:.2f}, stopped by {why} (seed {result.settings.seed})")
    return "\n".join(lines)
