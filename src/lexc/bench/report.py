"""The report of ``lexc bench``: tables for the terminal and Markdown, the papers section,
the charts, ``--out DIR`` (bench.md, bench.json, two SVG charts) and the README's copy.

``python -m lexc.bench.report DIR README.md`` replaces the README's part (between
``<!-- bench-report -->`` and ``<!-- /bench-report -->``) with one summary table of
``DIR/bench.json`` and links to the whole report, ``DIR/bench.md``; ``make bench`` runs it
after ``lexc bench --out DIR``.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from ..formats.container import write_atomic
from ..plural import plural
from .charts import format_bytes, format_seconds, panels_svg, scatter_svg
from .queries import KINDS, LABELS, SEARCH_KINDS, SEARCH_OF

SIZE_CHART, QUERY_CHART = "size-vs-movegen.svg", "query-times.svg"
BEGIN, END = "<!-- bench-report -->", "<!-- /bench-report -->"


def _table(head: list[str], rows: list[list[str]], markdown: bool, left: int = 1) -> list[str]:
    """Rows as a Markdown table or an aligned text table (the first ``left`` columns left-aligned)."""
    if markdown:
        rule = "|" + "|".join("---" if i < left else "---:" for i in range(len(head))) + "|"
        return ["| " + " | ".join(head) + " |", rule] + ["| " + " | ".join(r) + " |" for r in rows]
    widths = [max(len(r[i]) for r in [*rows, head]) for i in range(len(head))]
    return ["  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
            for row in [head, *rows]]


def _get(figures: dict[str, Any], *path: str) -> Any:
    """A nested figure, or None where the structure has none."""
    for key in path:
        if not isinstance(figures, dict) or key not in figures:
            return None
        figures = figures[key]
    return figures


def _fmt(value: Any, form: str) -> str:
    """One cell: "-" for a missing figure."""
    if value is None:
        return "-"
    if form == "s":
        return format_seconds(value)
    if form == "int":
        return f"{value:,}"
    return format(value, form)


def size_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Build, file and memory figures per structure."""
    head = ["structure", "build", "file bytes", "B/word", "nodes", "edges", "load", "load + count", "load +MB",
            "build MB", "peak MB"]
    rows = []
    for name, f in result["formats"].items():
        rows.append([name + (" *" if f.get("baseline") else ""), _fmt(_get(f, "build_s", "median"), "s"),
                     _fmt(f.get("file_bytes"), "int"), _fmt(f.get("bytes_per_word"), ".2f"),
                     _fmt(f.get("nodes"), "int"), _fmt(f.get("edges"), "int"),
                     _fmt(_get(f, "load_s", "median"), "s"), _fmt(_get(f, "load_count_s", "median"), "s"),
                     _fmt(_get(f, "memory", "load_added_mb"), ".1f"),
                     _fmt(_get(f, "build_memory", "peak_mb"), ".0f"), _fmt(_get(f, "memory", "peak_mb"), ".1f")])
    return head, rows


def query_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Median time per query of every kind, per structure; beside membership, ``x set``: the
    structure's membership over a Python set's of the same words, timed in the same loop
    (``queries.member_against_set``)."""
    head = ["structure", LABELS["member"], "x set"] + [LABELS[k] for k in KINDS[1:]]
    rows = [[name, _fmt(_get(f, "query_s", "member", "median"), "s"), _fmt(_get(f, "member_vs_set", "ratio"), ".2f")]
            + [_fmt(_get(f, "query_s", k, "median"), "s") for k in KINDS[1:]]
            for name, f in result["formats"].items()]
    return head, rows


def search_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Each search kind beside the query it answers again (median time per query, and the
    search's time as a multiple of the query's), then the study table of 7s and the study
    index, per lexc structure."""
    head = ["structure"]
    for kind, of in SEARCH_OF.items():
        head += [LABELS[of], LABELS[kind], "x"]
    head += [LABELS["study-7s"], LABELS["study-index"]]
    rows = []
    for name, f in result["formats"].items():
        if not any(k in (f.get("query_s") or {}) for k in SEARCH_KINDS):
            continue
        row = [name]
        for kind, of in SEARCH_OF.items():
            query, search = _get(f, "query_s", of, "median"), _get(f, "query_s", kind, "median")
            row += [_fmt(query, "s"), _fmt(search, "s"), f"{search / query:.2f}" if query and search else "-"]
        row += [_fmt(_get(f, "query_s", k, "median"), "s") for k in ("study-7s", "study-index")]
        rows.append(row)
    return head, rows


def movegen_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Positions per second (median, min-max) and ms per position by blanks, per pair."""
    head = ["format", "strategy", "engine", "compact/s", "json/s", "command/s", "x json", "Move/s", "min-max", "ms 0?",
            "ms 1?", "ms 2?", "search %", "positions"]
    rows = []
    for fmt, f in result["formats"].items():
        for name, m in (f.get("movegen") or {}).items():
            if "skipped" in m:
                rows.append([fmt, name, m.get("engine", "-")] + ["-"] * 10 + [f"0/{m['of']}"])
                continue
            pos, ms = m["positions_per_s"], m["ms_per_position"]
            share = m.get("search_share")
            rows.append([fmt, name, _ENGINE.get(m.get("engine", ""), "-"),
                         _fmt(_get(m, "compact_positions_per_s", "median"), ".1f"),
                         _fmt(_get(m, "json_positions_per_s", "median"), ".1f"),
                         _fmt(_get(m, "command_positions_per_s", "median"), ".1f"),
                         _over(m),
                         f"{pos['median']:.1f}", f"{pos['min']:.1f}-{pos['max']:.1f}"]
                        + [f"{ms[b]:.1f}" if b in ms else "-" for b in ("0", "1", "2")]
                        + ["-" if share is None else f"{100 * share:.0f}", f"{m['positions']}/{m['of']}"])
    return head, rows


def _over(m: dict[str, Any]) -> str:
    """The command over the library: the median of the rounds' ratios measured together (CPU
    time, interleaved: ``moves.command_rate``), else command/s over json/s."""
    ratio = m.get("command_over_library")
    if isinstance(ratio, (int, float)):
        return f"{ratio:.2f}"
    return _ratio(_get(m, "command_positions_per_s", "median"), _get(m, "json_positions_per_s", "median"))


def _ratio(a: Any, b: Any) -> str:
    """a / b to two places, "-" unless both are measured."""
    return f"{a / b:.2f}" if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else "-"


_ENGINE = {"compiled core (C)": "C", "pure Python": "Python", "compiled findwords2, Python placement": "C+Python"}


def papers_lines(result: dict[str, Any], markdown: bool) -> list[str]:
    """The papers' claims: published, ours, why they differ; then the orders table."""
    entries = result.get("papers") or []
    if not entries:
        return []
    lines = []
    if markdown:
        lines += _table(["paper", "claim", "published", "ours", "why they differ"],
                        [[e["paper"], e["claim"], e["published"], e["ours"], e["why"]] for e in entries], True, left=5)
    else:
        for e in entries:
            lines += [f"{e['paper']}: {e['claim']}", f"  published: {e['published']}", f"  ours:      {e['ours']}"]
            if e["why"]:
                lines.append(f"  why:       {e['why']}")
    orders = next((e["orders"] for e in entries if e.get("orders")), None)
    if orders:
        head = ["order", "letters", "nodes", "file bytes"] + [f"{b}? nodes read, bytes, ms" for b in (0, 1, 2)]
        rows = [[name, o["order"], f"{o['nodes']:,}", f"{o['file_bytes']:,}"]
                + [f"{o[f'subanagram{b}']['nodes_read']:,.0f}, {o[f'subanagram{b}']['bytes_read']:,.0f}, "
                   f"{o[f'subanagram{b}']['ms']:.2f}" for b in (0, 1, 2)] for name, o in orders.items()]
        lines += ["", "Shapiro & Smith's anagram trie in each canonical order (sub-anagram searches, medians "
                  "over the query racks):", "", *_table(head, rows, markdown, left=2)]
    return lines


def footnotes(result: dict[str, Any]) -> list[str]:
    """Samples, reads, agreement, spread and where it was measured."""
    lines = []
    budget = result.get("budget_query_s", 2.0)  # (a run before it was kept: 2 s)
    for name, f in result["formats"].items():
        read = _get(f, "query_s", "read")
        if read:
            lines.append(f"{name} reads per sub-anagram query (median bytes of its {f['file_bytes']:,}-byte file): "
                         + ", ".join(f"{k[-1]}? {v['bytes_read']:,.0f}" for k, v in read.items()))
        sampled = [f"{LABELS[k]} on {v['queries']} of {v['of']}" for k, v in (f.get("query_s") or {}).items()
                   if k != "read" and v["queries"] < v["of"]]
        if sampled:
            lines.append(f"{name}: slow queries timed on the leading queries that fit {budget:g} s: "
                         + ", ".join(sampled))
        skipped = [f"{s}: {m['skipped']}" for s, m in (f.get("movegen") or {}).items() if "skipped" in m]
        if skipped:
            lines.append(f"{name}: not measured: " + "; ".join(skipped))
        if f.get("positions_limit"):
            lines.append(f"{name}: move generation timed on the first {plural(f['positions_limit'], 'position')} "
                         "(every one with --full)")
    agree = result["agree"]
    lines.append("every structure gave the same answers to every query: "
                 + ("yes" if agree["queries"] else "NO") + (
                     "; every move generator found the same plays with the same scores: "
                     + ("yes" if agree["moves"] else "NO") if agree["moves"] is not None else ""))
    lines += [f"disagreement: {d}" for d in result["disagreements"]]
    spread = _spread(result)
    m = result["machine"]
    positions = result.get("positions")
    lines.append(f"{plural(result['words'], 'word')} from {Path(result['wordlist']).name}; medians of "
                 f"{plural(result['repeat'], 'run')}"
                 + (f" ({result['movegen_repeat']} for move generation, on {plural(positions['count'], 'position')}: "
                    + ", ".join(f"{v} with {plural(int(k), 'blank')}" for k, v in positions['blanks'].items())
                    + f"; a pair over its {result['budget_s']:g} s budget is timed on the leading positions)"
                    if positions else "")
                 + f"; * = baseline (its file is the plain list it is built from); lexc {result['lexc_version']}, "
                 f"Python {m['python']}, {m['cpus']} CPUs, load average {m['load_average']}"
                 + (f"; max/min spread of the repeated timings: median {spread[0]:.2f}, widest {spread[1]:.2f} "
                    f"({spread[2]})" if spread else ""))
    lines += run_lines(result)
    return lines


def run_lines(result: dict[str, Any]) -> list[str]:
    """What the run left out (a default run: what ``--full`` adds) and how long it took."""
    lines = []
    if result.get("full_only"):
        lines.append("a default run; lexc bench --full also measures " + "; ".join(result["full_only"]))
    if result.get("wall_s"):
        jobs = sorted(result.get("jobs") or [], key=lambda j: -j["wall_s"])[:3]
        end = result["machine"].get("load_average_end")
        lines.append(f"the run took {_minutes(result['wall_s'])}" + (f" (load average at its end {end})" if end else "")
                     + (", longest jobs: " + ", ".join(f"{j['job']} {j['name']}{' (pure)' if j.get('pure') else ''} "
                                                        f"{_minutes(j['wall_s'])}" for j in jobs) if jobs else ""))
    return lines


def _minutes(seconds: float) -> str:
    """A wall time as "48 s" or "3 min 12 s"."""
    return f"{seconds:.0f} s" if seconds < 59.5 else f"{int(seconds + 0.5) // 60} min {int(seconds + 0.5) % 60} s"


def _spread(result: dict[str, Any]) -> tuple[float, float, str] | None:
    """How noisy the run was: the median and the largest max/min ratio of the repeated timings."""
    ratios = []
    for name, f in result["formats"].items():
        timings = {"build": f.get("build_s"), "load": f.get("load_s"),
                   **{LABELS.get(k, k): v for k, v in (f.get("query_s") or {}).items() if k != "read"},
                   **{f"move generation {s}": m.get("positions_per_s") for s, m in (f.get("movegen") or {}).items()}}
        ratios += [(t["max"] / t["min"], f"{name} {label}") for label, t in timings.items() if t and t.get("min")]
    if not ratios:
        return None
    widest = max(ratios)
    return statistics.median(r for r, _ in ratios), widest[0], widest[1]


def format_report(result: dict[str, Any], markdown: bool = False, charts: str | None = None) -> str:
    """The whole report: size, queries, move generation, papers, footnotes. ``charts``: a
    directory (relative to the Markdown file) whose SVG charts the Markdown shows."""
    def section(title: str) -> list[str]:
        return ["", f"### {title}", ""] if markdown else ["", title, ""]

    lines = [] if markdown else [f"lexc bench: {Path(result['wordlist']).name}"]
    lines += section("Size, build and load") + _table(*size_rows(result), markdown)
    lines += section("Time per query (medians)") + _table(*query_rows(result), markdown)
    head, rows = search_rows(result)
    if rows:
        lines += section("lexc search: the same questions as searches, and the study table (medians)")
        lines += _table(head, rows, markdown)
    if any(f.get("movegen") for f in result["formats"].values()):
        lines += section("Move generation") + _table(*movegen_rows(result), markdown, left=2)
    if result.get("play"):
        lines += section("Playing") + play_lines(result["play"], markdown)
    if charts is not None:
        lines += ["", f"![file size against move-generation speed]({charts}{SIZE_CHART})", "",
                  f"![time per query by structure]({charts}{QUERY_CHART})"]
    papers = papers_lines(result, markdown)
    if papers:
        lines += section("The papers, measured again") + papers
    lines += [""] + [("- " if markdown else "") + note for note in footnotes(result)]
    return "\n".join(lines).lstrip("\n") + "\n"


def play_lines(play: dict[str, Any], markdown: bool = False) -> list[str]:
    """What playing costs: equity ranking beside move generation, and self-play games a
    second (one core, CPU time, medians of interleaved rounds)."""
    equity, games = play["equity"], play["selfplay"]
    overhead = equity.get("overhead") or {}
    bullet = "- " if markdown else ""
    lines = [
        f"{bullet}equity ranking on {play['file']} (every candidate: placements, every distinct exchange, the pass; "
        f"leaves {Path(play['leaves']).name}): {1e3 * equity['equity_s']['median']:,.1f} ms for the "
        f"{plural(equity['positions'], 'position')}, beside {1e3 * equity['generate_s']['median']:,.1f} ms for their "
        f"plays alone: {_pct(overhead.get('median'))} (rounds {_pct(overhead.get('min'))} to "
        f"{_pct(overhead.get('max'))})",
        f"{bullet}self-play on one core, {plural(games['games'], 'game')} a round, {plural(games['rounds'], 'round')}: "
        f"two equity players {games['equity_games_per_s']['median']:,.1f} games/s "
        f"({games['equity_games_per_s']['min']:,.1f} to {games['equity_games_per_s']['max']:,.1f}), two greedy "
        f"players {games['greedy_games_per_s']['median']:,.1f} games/s",
    ]
    return lines


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}%"


def size_chart(result: dict[str, Any]) -> str:
    """SVG: each format's file size against its fastest move generator's positions per second."""
    points = []
    for name, f in result["formats"].items():
        pairs = [(m["positions_per_s"]["median"], s) for s, m in (f.get("movegen") or {}).items() if "skipped" not in m]
        if pairs:
            speed, strategy = max(pairs)
            points.append({"label": f"{name} ({strategy})", "x": f["file_bytes"], "y": speed, "group": strategy})
    if not points:
        raise ValueError("no move-generation figures to chart")
    return scatter_svg(points, title="File size against move-generation speed", x_label="file size",
                       y_label="positions per second", x_format=format_bytes,
                       note=f"{result['words']:,} words; each format with its fastest strategy; medians")


def query_chart(result: dict[str, Any]) -> str:
    """SVG: time per query of every kind, one panel per kind, one bar per structure."""
    series = list(result["formats"])
    panels = [{"title": LABELS[k], "values": {n: _get(f, "query_s", k, "median") for n, f in result["formats"].items()}}
              for k in KINDS]
    return panels_svg(panels, series, title="Time per query (median, log scale)",
                      note=f"{result['words']:,} words; missing bar = the structure has no such query")


def write_out(result: dict[str, Any], out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write bench.md, bench.json and the charts into ``out_dir``; the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    has_moves = any(f.get("movegen") for f in result["formats"].values())
    charts = {QUERY_CHART: query_chart(result)}
    if has_moves:
        charts[SIZE_CHART] = size_chart(result)
    for name, svg in charts.items():
        write_atomic(out / name, svg.encode("utf-8"))
        written.append(out / name)
    markdown = format_report(result, markdown=True, charts="" if has_moves else None)
    write_atomic(out / "bench.md", markdown.encode("utf-8"))
    write_atomic(out / "bench.json", (json.dumps(result, indent=1) + "\n").encode("utf-8"))
    return [out / "bench.md", out / "bench.json", *written]


def summary_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """One row per structure, the figures a reader compares first: file size, load, four
    queries and the fastest move generation (compact results) with its strategy."""
    head = ["structure", "file bytes", "load", "member", "x set", "sub-anagram 2?", "pattern", "hooks",
            "moves/s (strategy)"]
    rows = []
    for name, f in result["formats"].items():
        moves = [(m["compact_positions_per_s"]["median"], strategy) for strategy, m in (f.get("movegen") or {}).items()
                 if "skipped" not in m and m.get("compact_positions_per_s")]
        best = max(moves) if moves else None
        rows.append([name + (" *" if f.get("baseline") else ""), _fmt(f.get("file_bytes"), "int"),
                     _fmt(_get(f, "load_s", "median"), "s"), _fmt(_get(f, "query_s", "member", "median"), "s"),
                     _fmt(_get(f, "member_vs_set", "ratio"), ".2f")]
                    + [_fmt(_get(f, "query_s", kind, "median"), "s") for kind in ("subanagram2", "pattern", "hooks")]
                    + [f"{best[0]:,.1f} ({best[1]})" if best else "-"])
    return head, rows


def summary(result: dict[str, Any], link: str) -> str:
    """The README's part of a run: the summary table, the run in one line, and where the whole
    report is (``link``: the folder of bench.md, relative to the README)."""
    agree = result.get("agree", {})
    same = "yes" if agree.get("queries") and agree.get("moves", True) else "NO (see the report)"
    lines = [
        *_table(*summary_rows(result), markdown=True),
        "",
        f"{plural(result['words'], 'word')} of {Path(result['wordlist']).name}; "
        f"medians of {plural(result['repeat'], 'run')} "
        f"({result.get('movegen_repeat', result['repeat'])} for move generation, on "
        f"{plural(_get(result, 'positions', 'count') or 0, 'position')}); * a baseline; lexc {result['lexc_version']}, "
        f"Python {result['machine']['python']}, {result['machine']['cpus']} CPUs, load average "
        f"{result['machine']['load_average']}; every structure gave the same answers and plays: {same}.",
        "",
        f"The whole report, every table of this run (each query kind, move generation by strategy and "
        f"blanks, the papers measured again, the footnotes) and its charts: [{link}bench.md]({link}bench.md); "
        f"what the figures show: [{link}README.md]({link}README.md).",
    ]
    return "\n".join(lines) + "\n"


def update_readme(readme: str | os.PathLike[str], out_dir: str | os.PathLike[str]) -> None:
    """Replace the README's report with the summary of ``out_dir/bench.json`` (``summary``),
    linking to the whole report in ``out_dir``."""
    readme, out = Path(readme), Path(out_dir)
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise ValueError(f"{readme}: no {BEGIN} ... {END} block")
    prefix = Path(os.path.relpath(out, readme.parent)).as_posix() + "/"
    result = json.loads((out / "bench.json").read_text(encoding="utf-8"))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    write_atomic(readme, (head + BEGIN + "\n" + summary(result, prefix) + END + tail).encode("utf-8"))


def main(argv: list[str] | None = None) -> None:
    """``python -m lexc.bench.report DIR README.md``: DIR's summary into the README."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        sys.exit("usage: python -m lexc.bench.report DIR README.md")
    update_readme(args[1], args[0])


if __name__ == "__main__":
    main()
