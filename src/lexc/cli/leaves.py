"""The leave-value commands: ``lexc leaves`` reads leave files (a thin wrapper over
``lexc.formats.leaves``; ``lexc convert`` converts them), ``lexc learn`` learns leave values
by self-play (over ``lexc.leavemodel``). ``learn`` is a command of its own, not ``lexc leaves
learn``: ``lexc leaves FILE`` takes a file name where a subcommand's name would go."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from ..limits import MAX_SEED, MAX_WORKERS
from ..plural import plural
from . import common
from .common import Bounded, BoundedFloat, count_option, emit, lexicon_file, lexicon_option, note

DEFAULT_PRIOR_SD = 10.0  # (lexc.leavemodel.learn.DEFAULT_PRIOR_SD, not imported at start-up; a test holds them equal)
MAX_LEARN_GAMES = 10_000_000  # games an iteration (each game's observations are added, then dropped)

LIKE = click.Choice(["wolges", "magpie"])


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("--rack", "racks", multiple=True, metavar="RACK",
              help="Tiles whose value as a leave to give (? a blank), as wolges and MAGPIE look it up; repeatable.")
@click.option("--list", "listing", is_flag=True, help="List every leave and its value as LEAVE,VALUE lines.")
@click.option("--like", type=LIKE, default="wolges", show_default=True,
              help="With --list: wolges's listing (the leaves stored, in rank order) or MAGPIE's klv2csv (every "
                   "leave the bag can hold, %f of its milli-points).")
@count_option("--limit", low=0, help="With --list: at most N lines.")
@click.option("--from", "format_", metavar="FORMAT",
              type=click.Choice(["klv2", "klv", "klv16", "leaves-csv", "superleaves"]),
              help="The file's format [default: the one its content looks like; a KLV16 only so].")
@click.option("-r", "--ruleset", default="english", show_default=True, metavar="RULESET",
              help="Ruleset giving the tiles (a leave file records none).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
def leaves(file: str, racks: tuple[str, ...], listing: bool, like: str, limit: int | None, format_: str | None,
           ruleset: str, as_json: bool) -> None:
    """Read the leave-value file FILE (wolges's and MAGPIE's KLV2, KLV and KLV16, the
    LEAVE,VALUE CSV, Quackle's superleaves), every check done first, and say what it holds:
    with --rack the value of a rack's tiles kept as a leave (0 for a leave not stored, as the
    engines answer), with --list every leave and value, else a summary. lexc convert converts
    them (lexc formats lists them); lexc leaves learn (the same as lexc learn) learns them by
    self-play.

    Example: lexc leaves TWL06.klv2 --rack EQU --rack '?S'
    """
    from ..alphabet import AlphabetError
    from ..formats.leaves import fmt_value, read_leaves, round_half_away, write_leaves
    from ..ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    table = read_leaves(file, rules, format_)
    if racks:
        rows: list[dict[str, Any]] = []
        for rack in racks:
            try:
                leave = table.leave_of(rack)
            except AlphabetError as exc:
                raise click.BadParameter(f"{rack!r}: {exc}", param_hint="'--rack'") from None
            rank = table.rank(leave)
            stored = rank is not None if table.graph is not None else leave in table.values
            value = table.value(leave)
            rows.append({"rack": rack, "leave": table.text(leave), "value": value, "stored": stored, "rank": rank,
                         "magpie_millipoints": round_half_away(value * 1000)})
        f32 = table.precision.f32 or table.precision.step is not None
        return emit(rows, as_json, "\n".join(
            f"{r['leave'] or '(empty)'}: {fmt_value(r['value'], f32)}"
            + (f"  (rank {r['rank']:,})" if r["rank"] is not None else "" if r["stored"] else "  (not stored: 0)")
            for r in rows))
    if listing:
        data, rounding = write_leaves(table, "leaves-csv", rules, like="magpie" if like == "magpie" else "")
        lines = data.decode("utf-8").splitlines()
        if limit is not None:
            lines = lines[:limit]
        if rounding.changed:
            click.echo(f"lexc leaves: warning: {rounding.note('MAGPIE listing')}", err=True)
        if as_json:
            return emit([{"leave": line.rsplit(",", 1)[0], "value": float(line.rsplit(",", 1)[1])} for line in lines],
                        True)
        sys.stdout.write("".join(line + "\n" for line in lines))
        return None
    stats = table.stats()
    stats.update(file=file, engine_lookup="rank in the stored graph" if table.graph is not None else "by leave")
    lengths = ", ".join(f"{k}: {v:,}" for k, v in stats["by_length"].items())
    f32 = table.precision.f32 or table.precision.step is not None
    low, high = (fmt_value(stats[k], f32) if stats[k] is not None else "-" for k in ("min", "max"))
    emit(stats, as_json,
         f"{file}: {stats['format']}, {plural(stats['leaves'], 'leave')} ({lengths or 'none'}), "
         f"values {low} .. {high} points, precision {stats['precision']}, ruleset {stats['ruleset']}")


LEAVE_SUFFIXES = {".klv2": "klv2", ".klv": "klv", ".klv16": "klv16", ".csv": "leaves-csv"}


@click.command()
@click.argument("lexfile", required=False)
@common.ruleset_option("Ruleset: board, tiles, bingo, vowels.")
@click.option("--games", default=100, show_default=True, type=Bounded(1, MAX_LEARN_GAMES),
              help="Self-play games an iteration.")
@click.option("--iterations", default=3, show_default=True, type=Bounded(0, 1000),
              help="Iterations (play, then fit) to run; MAVEN's converged after three. 0 with --resume: only write "
                   "--leaves.")
@click.option("--seed", default=None, type=Bounded(0, MAX_SEED),
              help="Base seed: game i of iteration t has a seed hashed from (SEED, t, i)  [default: 0, or --resume's].")
@click.option("--workers", type=Bounded(1, MAX_WORKERS), default=None, metavar="N",
              help="Local processes to play the games on [default: every core]; the model is the same byte for byte "
                   "whatever N.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play the games on a Dask distributed cluster, e.g. tcp://10.0.0.1:8786 (pip install "
                   "'lexc[cluster]'; every worker needs lexc and the lexicon at the same path); the same model.")
@click.option("--out", type=click.Path(dir_okay=False), metavar="MODEL.json",
              help="The model file, written after every iteration  [default: --resume's file].")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True), metavar="MODEL.json",
              help="Go on from a model file (its weights, iteration, games and seed).")
@click.option("--table", is_flag=True,
              help="Learn the full table as well (every leave its own value, smoothed toward the linear model); "
                   "--leaves then writes it.")
@click.option("--leaves", "leaves_out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the leave values: every leave of 1 to rack-size - 1 tiles (.klv2, .klv, .klv16, .csv).")
@click.option("--to", "to_format", type=click.Choice(["klv2", "klv", "klv16", "leaves-csv"]),
              help="--leaves's format  [default: by its extension].")
@click.option("--prior-sd", default=DEFAULT_PRIOR_SD, show_default=True, type=BoundedFloat(0.0, 1e6),
              help="The fit's prior: each value's standard deviation in points around its last iteration's value "
                   "(the ridge is the spread's variance over its square); 0: a fixed --ridge toward 0.")
@click.option("--ridge", default=1.0, show_default=True, type=BoundedFloat(1e-6, 1e9),
              help="With --prior-sd 0: the fixed ridge term of the least squares.")
@click.option("--prior", default=50.0, show_default=True, type=BoundedFloat(0.0, 1e9),
              help="With --table: observations' worth of trust in the linear model (the smoothing).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@lexicon_option
def learn(lexfile: str | None, ruleset: str | None, games: int, iterations: int, seed: int | None,
          workers: int | None, scheduler: str | None, out: str | None, resume: str | None, table: bool,
          leaves_out: str | None, to_format: str | None, prior_sd: float, ridge: float, prior: float, as_json: bool,
          lexicon_opt: str | None) -> None:
    """Learn leave values as MAVEN did: self-play games with the current evaluator (at first
    every value 0), each turn's leave and the spread that followed it, a least-squares fit
    of MAVEN's linear model (a value per tile, duplicate, triplicate, QU, vowel/consonant
    count, U-with-Q-unseen, turnover), iterated. Progress on stderr (games, games a second,
    the largest parameter change); the model file is written after every iteration, and
    --resume goes on from it. --leaves compiles the model (or with --table the full table) to a
    leave file any engine reads.

    Example: lexc learn tiny.txt -r tiny --games 50 --iterations 3 --out tiny-model.json --leaves tiny.klv2
    """
    from ..formats.leaves import write_leaves
    from ..leavemodel import TableStats, full_table, read_model
    from ..leavemodel import learn as run
    from ..leavemodel.learn import preload
    from ..lexicons.source import check_listable, open_lexicon
    from ..ruleset import load_ruleset, reference_of

    if out is None and resume is None:
        raise click.UsageError("give --out MODEL.json (or --resume MODEL.json)")
    to_format = to_format or (LEAVE_SUFFIXES.get(os.path.splitext(leaves_out)[1].lower()) if leaves_out else None)
    if leaves_out and to_format is None:
        raise click.UsageError(f"{leaves_out}: say the leave file's format with --to (or name it .klv2, .klv, "
                               ".klv16, .csv)")
    lexfile = lexicon_file(lexfile, lexicon_opt)
    state = read_model(resume, load_ruleset(ruleset) if ruleset else None) if resume else None
    if state is not None and ruleset is None:
        ruleset = reference_of(state.model.ruleset)
    if state is not None and seed is not None and seed != state.seed:
        raise click.UsageError(f"--seed {seed}: {resume} was learned with seed {state.seed}")
    if table and state is not None and not state.table and iterations == 0:
        raise click.UsageError(f"{resume} holds no full table: learn one with --table and at least one iteration")
    lexicon = open_lexicon(lexfile, "gaddawg" if lexfile is None else "dawg", ruleset, progress=note)
    rules_ref = common.command_ruleset(lexicon, ruleset, lexfile)
    rules = load_ruleset(rules_ref)
    check_listable(lexicon, lexfile or "the bundled lexicon")
    if lexicon.alphabet.labels != rules.alphabet.labels:
        raise click.UsageError(f"the lexicon's alphabet is not the {rules.name} ruleset's")
    preload(lexfile, reference_of(rules), lexicon)
    name = os.path.basename(lexfile) if lexfile else "ENABLE"

    def progress(p: Any) -> None:
        if p.change is None:
            if common.on_terminal():
                click.echo(f"\riteration {p.iteration}: {p.games:,}/{p.total:,} games, {p.games_per_second:.1f} "
                           f"games/s", err=True, nl=False)
            return
        click.echo(("\r" if common.on_terminal() else "") +
                   f"iteration {p.iteration}: {plural(p.games, 'game')} ({p.games_per_second:.1f} games/s), "
                   f"{plural(p.observations, 'observation')}, parameter change {p.change:.4g} "
                   f"({p.change_sd:.2g} sd), "
                   f"rms error {p.rmse:.4g}", err=True)

    try:
        state = run(rules, lexfile, games, iterations, seed or 0, workers, scheduler, progress=progress,
                    resume=state, out=out or resume, table=table, ridge=ridge, prior_sd=prior_sd, prior=prior,
                    lexicon_name=name)
    except ValueError as exc:  # (a model of a player lexc no longer learns with)
        raise click.UsageError(str(exc)) from None
    report: dict[str, Any] = {"model": out or resume, "ruleset": rules.name, "lexicon": name,
                              "iteration": state.iteration, "games": state.games,
                              "observations": state.observations, "history": state.history,
                              "parameters": state.model.parameters()}
    if out and iterations == 0:
        state.save(out)
    if leaves_out:
        assert to_format is not None
        leave_table = (full_table(state.model, TableStats.from_text(state.model, state.table), state.prior)
                       if table else state.model.table())
        data, rounding = write_leaves(leave_table, to_format, rules)  # (learned values: rounding is no loss
        from ..formats.container import write_atomic  # of the user's; the report has it)

        write_atomic(leaves_out, data)
        report["leaves"] = {"file": leaves_out, "format": to_format, "leaves": len(leave_table),
                            "table": "full" if table else "linear", "rounding": rounding.as_dict()}
    emit(report, as_json, f"{report['model']}: iteration {state.iteration}, {plural(state.games, 'game')}, "
                          f"{plural(state.observations, 'observation')}"
         + (f"; {leaves_out}: {plural(len(leave_table), 'leave')} ({to_format})" if leaves_out else ""))
