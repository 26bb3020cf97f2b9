"""Self-play games as independent tasks (``lexc.parallel``): a task names everything its game
depends on (the lexicon file, the ruleset, the seed, the strategy, the end rule), so a game
played in this process, on another core or on a cluster worker is the same game, and its
result comes back as plain data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..parallel import per_process
from .manager import DOUBLING, check_replay, selfplay


@dataclass(frozen=True)
class SelfplayTask:
    """One self-play game: the lexicon (``lexfile`` a path, None for the bundled ENABLE), the
    ruleset (a name or a ruleset's text, as ``load_ruleset`` reads), the game's seed, the
    move-generation strategy, the end-of-game rule, the lexicon's name for the record, the two
    programs' levels (``greedy``, ``equity``, the engine's ``sim``), the leave-value file of
    an equity or sim player and a sim player's time per move."""

    lexfile: str | None
    ruleset: str
    seed: int
    strategy: str = "auto"
    end_rule: str = DOUBLING
    lexicon_name: str | None = None
    levels: tuple[str, str] = ("greedy", "greedy")
    leaves_file: str | None = None
    move_seconds: float | None = None  # a searching player's time per move (the engine's sim)


def task_lexicon(lexfile: str | None, ruleset: str) -> Any:
    """The lexicon of a task, opened once per process (``parallel.per_process``)."""
    from ..lexicons.source import open_lexicon

    return per_process(("lexicon", lexfile, ruleset),
                       lambda: open_lexicon(lexfile, "gaddawg" if lexfile is None else "dawg", ruleset))


def task_leaves(leaves_file: str | None, ruleset: str) -> Any:
    """The leave table of a task (None without a file), read once per process."""
    if leaves_file is None:
        return None
    from ..formats.leaves import read_leaves
    from ..ruleset import load_ruleset

    return per_process(("leaves", leaves_file, ruleset), lambda: read_leaves(leaves_file, load_ruleset(ruleset)))


def play_selfplay(task: SelfplayTask, maker: Callable[[str, str], Any] | None = None) -> dict[str, Any]:
    """Play the task's game, replay its record through the referee, and return what a caller
    keeps of it: the seed, the nicknames and scores (first mover first), the turns, how it
    ended, whether the replay agrees, the GCG text and the positions the programs met.
    ``maker(level, nick)``: ``manager.selfplay``'s, for a level of the engine's."""
    lexicon = task_lexicon(task.lexfile, task.ruleset)
    result = selfplay(lexicon, task.ruleset, task.seed, task.strategy, task.end_rule, lexicon_name=task.lexicon_name,
                      levels=task.levels, leaves=task_leaves(task.leaves_file, task.ruleset), maker=maker)
    report = check_replay(result, lexicon)
    return {"seed": task.seed, "players": list(result.players), "scores": list(result.scores),
            "turns": result.turns, "end": result.end, "replay_ok": result.agrees_with(report), "gcg": result.gcg,
            "positions": [{"game": task.seed, **p} for p in result.positions]}


__all__ = ["SelfplayTask", "play_selfplay", "task_leaves", "task_lexicon"]
