"""The bench command: ``lexc.bench.runner.run_bench`` and its report."""

from __future__ import annotations

import click

from ..formats import FORMATS
from ..limits import MAX_BUDGET_S, MAX_GAMES, MAX_REPEAT, MAX_SEED
from ..plural import plural
from .common import Bounded, BoundedFloat, emit, note, status_line


@click.command()
@click.argument("wordlist", required=False, type=click.Path(dir_okay=False, exists=True))
@click.option("--formats", "formats_", metavar="F1,F2", help="Only these formats (default: every registered one).")
@click.option("--positions", type=click.Path(dir_okay=False, exists=True), metavar="FILE.jsonl",
              help='Move-generation positions, {"cgp": ..., "rack": ...} per line (default: the built-in 100).')
@click.option("--full", is_flag=True,
              help="Measure everything (about 25 minutes on ENABLE; make bench): the alphagram baselines, naive "
                   "move generation, every compiled format's pure-path row on every position, lexc moves for every "
                   "strategy, 20 self-play games a round, the papers' extra builds. Default: the same tables in a "
                   "few minutes.")
@click.option("--repeat", type=Bounded(1, MAX_REPEAT), metavar="N",
              help="Runs per figure (median, min, max; default: 3, 5 with --full).")
@click.option("--movegen-repeat", type=Bounded(1, MAX_REPEAT), metavar="N",
              help="Runs per move-generation figure (default: --repeat).")
@click.option("--budget", type=BoundedFloat(0.1, MAX_BUDGET_S), metavar="SECONDS",
              help="Seconds a move generator may spend on its first run over the positions (a slower one is "
                   "timed on the positions done by then; default: 3, 10 with --full).")
@click.option("--movegen/--no-movegen", default=True, show_default=True, help="Measure move generation.")
@click.option("--papers/--no-papers", default=True, show_default=True,
              help="Measure the papers' claims again (with --full, extra builds: the anagram trie in six orders, "
                   "short words).")
@click.option("-r", "--ruleset", default="english", show_default=True, help="Ruleset of the list and positions.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Also write DIR/bench.md, DIR/bench.json and two SVG charts.")
@click.option("--endgames", type=click.Path(dir_okay=False, exists=True), metavar="FILE.jsonl",
              help="Instead: time the endgame solver on these solved endgames (a JSON line each: cgp, and the "
                   "engine's value and seconds, as ../shared/interop/magpie/endgames-enable.jsonl has them), "
                   "values compared, times beside the engine's; --out DIR writes endgames.json and endgames.md.")
@click.option("--endgame-gain", "gain_games", type=Bounded(1, MAX_GAMES), metavar="GAMES",
              help="Instead: how often the endgame solver changes the equity player's move, and what it gains, at "
                   "the first empty-bag turn of GAMES self-play games of equity players (seeds from --seed).")
@click.option("--seed", default=0, show_default=True, type=Bounded(0, MAX_SEED), help="--endgame-gain's first seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def bench(wordlist: str | None, formats_: str | None, positions: str | None, full: bool, repeat: int | None,
          movegen_repeat: int | None, budget: float | None, movegen: bool, papers: bool, ruleset: str,
          out_dir: str | None, endgames: str | None, gain_games: int | None, seed: int, as_json: bool) -> None:
    """Measure every format side by side: build time, file bytes, nodes and edges, load time,
    peak memory, the time of every query kind, move generation per strategy, beside a plain
    Python set and marisa-trie; then the papers' claims measured again. Each structure is
    measured in its own fresh processes (default list: the bundled ENABLE). The defaults
    finish in a few minutes on ENABLE; --full measures everything (about 25 minutes).

    Examples: lexc bench --out bench-results; lexc bench --full --out bench-results;
    lexc bench words.txt --formats dawg,gaddag --no-movegen
    """
    from ..bench import BenchError
    from ..bench.report import format_report, write_out
    from ..bench.runner import run_bench
    from ..ruleset import load_ruleset

    if endgames is not None:
        return _endgames(wordlist, endgames, ruleset, out_dir, as_json)
    if gain_games is not None:
        return _gain(wordlist, gain_games, seed, ruleset, as_json)

    names = [f.strip() for f in formats_.split(",") if f.strip()] if formats_ is not None else list(FORMATS)
    if not names:
        raise click.BadParameter("name at least one format (or leave the option out for all)", param_hint="--formats")
    unknown = [f for f in names if f not in FORMATS]
    if unknown:
        raise click.BadParameter(f"unknown format {unknown[0]!r} (known: {', '.join(FORMATS)})", param_hint="--formats")
    load_ruleset(ruleset)
    with status_line("lexc bench") as show:  # (off a terminal: a progress line each step, for logs and CI)
        result = run_bench(wordlist, names, positions, repeat=repeat, movegen=movegen, movegen_repeat=movegen_repeat,
                           budget_s=budget, ruleset=ruleset, papers=papers, progress=show, full=full)
    if out_dir:
        for path in write_out(result, out_dir):
            note(f"wrote {path}")
    emit(result, as_json, format_report(result).rstrip("\n"))
    if result["disagreements"]:  # a bug in some structure: make it fail loudly (make bench, make biglist)
        raise BenchError(f"{plural(len(result['disagreements']), 'disagreement')} between the structures "
                         "(listed above)")


def _endgames(wordlist: str | None, path: str, ruleset: str, out_dir: str | None, as_json: bool) -> None:
    """``--endgames``: the solver timed on a file of solved endgames (``lexc.bench.endgames``)."""
    import json
    from pathlib import Path

    from ..bench.endgames import format_endgames, kept, time_endgames
    from ..formats.container import write_atomic
    from ..lexicons.source import open_lexicon

    lexicon = open_lexicon(wordlist, "gaddawg", ruleset, progress=note)
    with status_line("lexc bench") as show:
        result = time_endgames(path, lexicon, ruleset, progress=lambda k, n, name: show(k, n, f"endgame {name}"))
    text = format_endgames(result)
    if out_dir:
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        tree = kept(result)  # (lexc's own figures: the engine's file is not copied)
        write_atomic(folder / "endgames.json", (json.dumps(tree, indent=1) + "\n").encode())
        write_atomic(folder / "endgames.md", ("# The endgame solver on solved endgames\n\n```\n" +
                                              format_endgames(tree) + "\n```\n").encode())
        note(f"wrote {folder / 'endgames.json'} and {folder / 'endgames.md'}")
    emit(result, as_json, text)


def _gain(wordlist: str | None, games: int, seed: int, ruleset: str, as_json: bool) -> None:
    """``--endgame-gain``: the solver against the equity player's move (``lexc.bench.endgames.solver_gain``)."""
    from ..bench.endgames import solver_gain
    from ..game.match import bundled_file
    from ..lexicons.source import open_lexicon

    lexicon = open_lexicon(wordlist, "gaddawg", ruleset, progress=note)
    with status_line("lexc bench") as show:
        result = solver_gain(games, seed, lexicon, ruleset, bundled_file(ruleset), progress=show)
    emit(result, as_json, (
        f"{plural(result['endgames'], 'endgame')} (the first empty-bag turn of {plural(games, 'game')}, seeds "
        f"{seed}..{seed + games - 1}; {result['proven']} proven): the solver changes the equity player's move in "
        f"{result['changed']}, gaining {result['mean_gain_when_changed']:.2f} points where it does, "
        f"{result['mean_gain']:.2f} an endgame on average, {result['largest_gain']} at most"))
