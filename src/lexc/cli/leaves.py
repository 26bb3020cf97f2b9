"""The command that reads leave-value files: ``lexc leaves`` (a thin wrapper over
``lexc.formats.leaves``; ``lexc convert`` converts them)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..plural import plural
from .common import count_option, emit

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
    them (lexc formats lists them).

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
