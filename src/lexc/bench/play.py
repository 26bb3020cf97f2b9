"""What playing costs, for ``lexc bench``: equity ranking beside bare move generation on the
position set, and self-play games a second with two equity players and with two greedy ones.

Both are measured on one core, in CPU time, in interleaved rounds (a round of each kind,
then the next round), and reported as medians with min and max, so that a ratio compares
figures taken under the same load. The equity player ranks every candidate of a position
(its placements, every distinct exchange while the rule allows one, and the pass) with the
leave values given (default: the learned leaves bundled for the ruleset's bag).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..equity import candidates
from ..game.manager import selfplay
from ..movegen import generate_plays
from .worker import summarize


def _cpu(run: Callable[[], object]) -> float:
    """The CPU seconds ``run`` takes."""
    t = time.process_time()
    run()
    return time.process_time() - t


def equity_overhead(lexicon: Any, positions: list[tuple[Any, str, int]], leaves: Any, repeat: int,
                    strategy: str = "auto") -> dict[str, Any]:
    """Each position's plays generated (counted), against every candidate of it ranked by
    equity and the best taken (``lexc.equity.candidates``): the seconds a round of the whole
    set takes either way, and the overhead of equity (equity over generation, less one), the
    median of the rounds' ratios."""

    def generate() -> None:
        for board, rack, _ in positions:
            len(generate_plays(board, rack, lexicon, strategy))

    def rank() -> None:
        for board, rack, _ in positions:
            candidates(board, rack, lexicon, leaves, strategy=strategy).best()

    generate()
    rank()  # (warm: the lexicon's pages, the leave table's arrays)
    plain, ranked = [], []
    for _ in range(repeat):
        plain.append(_cpu(generate))
        ranked.append(_cpu(rank))
    ratios = [r / p - 1 for p, r in zip(plain, ranked, strict=True) if p > 0]
    return {"positions": len(positions), "generate_s": summarize(plain), "equity_s": summarize(ranked),
            "overhead": summarize(ratios) if ratios else None}


def selfplay_rates(lexicon: Any, ruleset: Any, leaves: Any, games: int, repeat: int,
                   progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Self-play games a second (CPU time, one core) with two equity players and with two
    greedy ones: ``games`` games a round (seeds 0.. of each round's own range, the same for
    both), ``repeat`` rounds, interleaved."""
    rates: dict[str, list[float]] = {"equity": [], "greedy": []}
    for run in range(repeat):
        seeds = range(run * games, (run + 1) * games)
        for level in rates:
            if progress:
                progress(f"self-play, {level} players, round {run + 1}/{repeat}")
            t = time.process_time()
            for seed in seeds:
                selfplay(lexicon, ruleset, seed, levels=(level, level), leaves=leaves if level == "equity" else None)
            seconds = time.process_time() - t
            rates[level].append(games / seconds if seconds > 0 else float("inf"))
    return {"games": games, "rounds": repeat, **{f"{level}_games_per_s": summarize(r) for level, r in rates.items()}}
