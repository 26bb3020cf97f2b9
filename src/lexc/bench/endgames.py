"""The endgame solver timed on a file of solved endgames (``lexc bench --endgames FILE``):
MAGPIE's ``endgames-enable.jsonl`` lines (``id``, ``cgp``, and where the file has them the
engine's exact ``value`` and its ``seconds``), each solved by ``engine.endgame.solve`` in
this process, one after another, with a time limit; the value compared, the times set beside
the engine's: the distribution of both (median, mean, the largest) and the ratio of the
medians on the same positions.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import BenchError

LIMIT_S = 120.0  # the time limit of one solve (MAGPIE's file keeps the positions it solved within 120 s)


def read_endgames(path: str | Path) -> list[dict[str, Any]]:
    """The file's positions: a JSON object a line, each with a ``cgp``."""
    rows = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise BenchError(f"{path}:{number}: not a JSON line ({exc})") from None
        if not isinstance(row, dict) or not isinstance(row.get("cgp"), str):
            raise BenchError(f"{path}:{number}: a line needs a \"cgp\" string")
        rows.append(row)
    if not rows:
        raise BenchError(f"{path}: no position")
    return rows


def time_endgames(path: str | Path, lexicon: Any, ruleset: str, limit_s: float = LIMIT_S,
                  progress: Callable[[int, int, str], None] | None = None) -> dict[str, Any]:
    """Solve each position of the file; per position its figures, and the summary."""
    from ..board.board import parse_cgp
    from ..engine.endgame import solve
    from ..ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    rows = read_endgames(path)
    out = []
    for k, row in enumerate(rows, 1):
        name = str(row.get("id", k))
        if progress:
            progress(k, len(rows), name)
        result = solve(parse_cgp(row["cgp"], rules), lexicon, seconds=limit_s)
        racks = row["cgp"].split()[1].split("/")
        out.append({"id": name, "tiles": [len(r) for r in racks], "value": result.value, "proven": result.proven,
                    "seconds": result.seconds, "nodes": result.nodes, "plies": result.plies,
                    "expected": row.get("value"), "engine_seconds": row.get("seconds")})
    return {"file": str(path), "limit_s": limit_s, "positions": out, "summary": summarize(out)}


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians, means and the largest of lexc's and the engine's times (on the positions the
    file times), how many values agree, how many were proven."""
    mine = [r["seconds"] for r in rows]
    theirs = [r["engine_seconds"] for r in rows if isinstance(r["engine_seconds"], (int, float))]
    paired = [r["seconds"] for r in rows if isinstance(r["engine_seconds"], (int, float))]
    out: dict[str, Any] = {"positions": len(rows), "proven": sum(r["proven"] for r in rows),
                           "agree": sum(r["value"] == r["expected"] for r in rows if r["expected"] is not None),
                           "with_value": sum(r["expected"] is not None for r in rows),
                           "lexc": _spread(mine)}
    if theirs:
        out["engine"] = _spread(theirs)
        out["median_ratio"] = statistics.median(paired) / statistics.median(theirs)
    return out


def _spread(times: list[float]) -> dict[str, float]:
    return {"median": statistics.median(times), "mean": statistics.fmean(times), "max": max(times),
            "min": min(times)}


def kept(result: dict[str, Any]) -> dict[str, Any]:
    """The result as ``--out`` keeps it in a tree: lexc's figures a position (whether its value
    agrees, not the engine's value or time) and the summary; the engine's own file stays
    where it is."""
    rows = [{k: v for k, v in r.items() if k not in ("expected", "engine_seconds")}
            | {"agrees": None if r["expected"] is None else r["value"] == r["expected"]} for r in result["positions"]]
    return {**result, "positions": rows}


def format_endgames(result: dict[str, Any]) -> str:
    """The table, one line a position (the engine's value and time beside lexc's where the
    result has them, else whether the values agree), then the summary."""
    engine_rows = all("expected" in r for r in result["positions"])
    lines = [f"{'position':<14} {'tiles':>5} {'value':>6} {'engine' if engine_rows else 'agrees':>6} {'lexc s':>8} "
             + (f"{'engine s':>8} " if engine_rows else "") + f"{'nodes':>11}"]
    for r in result["positions"]:
        if engine_rows:
            expected = "" if r["expected"] is None else f"{r['expected']:+d}"
            engine = "" if r["engine_seconds"] is None else f"{r['engine_seconds']:.2f}"
            middle = f"{expected:>6} {r['seconds']:>8.2f} {engine:>8}"
        else:
            middle = f"{'' if r['agrees'] is None else 'yes' if r['agrees'] else 'NO':>6} {r['seconds']:>8.2f}"
        mark = "" if r["proven"] else " (not proven)"
        lines.append(f"{r['id']:<14} {'v'.join(map(str, r['tiles'])):>5} {r['value']:>+6d} {middle} "
                     f"{r['nodes']:>11,}{mark}")
    s = result["summary"]
    lines.append(f"{s['positions']} positions, {s['proven']} proven; values agree on {s['agree']} of "
                 f"{s['with_value']}")
    lines.append(f"lexc:   median {s['lexc']['median']:.2f} s, mean {s['lexc']['mean']:.2f} s, "
                 f"largest {s['lexc']['max']:.2f} s")
    if "engine" in s:
        lines.append(f"engine: median {s['engine']['median']:.2f} s, mean {s['engine']['mean']:.2f} s, "
                     f"largest {s['engine']['max']:.2f} s; lexc's median is {s['median_ratio']:.2f} of the engine's")
    return "\n".join(lines)


def solver_gain(games: int, seed: int, lexicon: Any, ruleset: str, leaves_file: str, limit_s: float = LIMIT_S,
                progress: Callable[[int, int, str], None] | None = None) -> dict[str, Any]:
    """How often the endgame solver changes the equity player's move, and what it gains: in
    ``games`` self-play games of two equity players (seeds ``seed`` ...), at the first turn of
    each with the bag empty, the equity player's move is valued exactly (its score, then the
    solved endgame after it) beside the solver's value. A move is changed when the equity
    move's value falls short of the solver's; the gain is the difference, in points."""
    from ..board.board import Position
    from ..engine.endgame import solve
    from ..equity import candidates
    from ..game.manager import GameManager
    from ..game.players import ProgramPlayer, action_of
    from ..game.tasks import task_leaves
    from ..ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    leaves = task_leaves(leaves_file, ruleset)
    rows: list[dict[str, Any]] = []
    for k in range(games):
        if progress:
            progress(k + 1, games, f"game {seed + k}")
        players = [ProgramPlayer(lexicon, "auto", f"equity{i}", level="equity", leaves=leaves) for i in (1, 2)]
        game = GameManager(rules, players, lexicon, seed + k)
        while not game.over and len(game.bag):
            game.step()
        p = game.on_turn
        if game.over or not game.racks[p] or not game.racks[1 - p]:
            continue
        scores = (game.scores[p], game.scores[1 - p])
        tiles = [len(game.racks[p]), len(game.racks[1 - p])]  # (before the move)
        position = Position(game.board, (game.rack(p), game.rack(1 - p)), scores, game.scoreless, racks_given=True)
        best = solve(position, lexicon, seconds=limit_s)
        move = candidates(game.board, game.rack(p), lexicon, leaves, situation=game.view().situation()).best()
        before = game.scores[p] - game.scores[1 - p]
        game.submit(action_of(move))
        gained = game.scores[p] - game.scores[1 - p] - before
        ended: bool = game.over  # (after the move: mypy keeps the narrowing of before it)
        if best.proven and best.pv and best.pv[0].notation == move.notation:  # (the solver's own first move)
            value, proven = best.value, True
        elif not ended:
            rest = Position(game.board, (game.rack(1 - p), game.rack(p)), (0, 0), game.scoreless, racks_given=True)
            after = solve(rest, lexicon, seconds=limit_s)
            value = gained - after.value
            proven = best.proven and after.proven
        else:
            value, proven = gained, best.proven
        rows.append({"seed": seed + k, "tiles": tiles,
                     "equity_move": move.notation, "solver_move": best.pv[0].notation if best.pv else "",
                     "equity_value": value, "solver_value": best.value, "proven": proven})
    changed = [r for r in rows if r["equity_value"] < r["solver_value"]]
    gains = [r["solver_value"] - r["equity_value"] for r in rows]
    return {"games": games, "seed": seed, "endgames": len(rows), "changed": len(changed),
            "mean_gain": statistics.fmean(gains) if gains else 0.0,
            "mean_gain_when_changed": statistics.fmean(r["solver_value"] - r["equity_value"] for r in changed)
            if changed else 0.0, "largest_gain": max(gains, default=0), "proven": sum(r["proven"] for r in rows),
            "rows": rows}
