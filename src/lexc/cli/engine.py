"""Search commands: endgame (``lexc.engine.endgame``)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..limits import MAX_PLIES, MAX_SEARCH_S
from ..plural import plural
from . import common
from .common import Bounded, BoundedFloat, emit, lexicon_file, lexicon_option, note


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

    Example: lexc endgame '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/CD 0/0 0' -r tiny
    """
    from ..board.board import read_position
    from ..engine.endgame import EndgameInterrupted, solve
    from ..lexicons.source import open_lexicon

    lexfile = lexicon_file(lexfile, lexicon_opt)
    lexicon = open_lexicon(lexfile, "gaddawg", ruleset, progress=note)
    rules = common.command_ruleset(lexicon, ruleset, lexfile)
    from ..ruleset import load_ruleset

    position = read_position(load_ruleset(rules), cgp)
    with common.status_line(logged="lexc endgame") as show:
        def progress(plies: int, value: int, nodes: int, spent: float, proven: bool) -> None:
            show(plies, plies, f"{plies} plies: value {value:+d}, {nodes:,} nodes, {spent:.1f} s"
                               + (" (proven)" if proven else ""))

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
    lines.append(f"searched {plural(result.plies, 'ply', 'plies')}, {plural(result.nodes, 'node')} in "
                 f"{result.seconds:.2f} s ({path}{stopped})")
    emit(result.as_dict(), as_json, "\n".join(lines))
