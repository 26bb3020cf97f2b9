"""Matches between two program players, in paired games: each deal (a seed: the bag's order,
who draws first) is played twice with the players' seats swapped, so luck of the draw cancels
in each pair. The match reports player A's mean spread a game with a 95% confidence interval
(the pair is the unit: the mean of a pair's two spreads), and each player's win rate (a tie
counts half).

Players are named by a spec (``player_spec``): ``greedy`` (the highest score), ``beginner``
(the middle of the ranking), ``equity:FILE`` (the best static equity with the leave values of
FILE, any file ``lexc leaves`` reads: ``lexc.equity``), ``equity`` (the same with the learned
leaves bundled for the ruleset's bag: ``equity.bundled``). Games are tasks for
``lexc.parallel``, so a match runs on every core or on a cluster with the same games, seed
for seed.
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import LexcError
from .manager import DOUBLING, GameManager
from .players import ProgramPlayer
from .tasks import task_leaves, task_lexicon

# Student's t, two-sided 95%, for 1..30 degrees of freedom (past 30: the normal's 1.96 is within 2%)
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


class MatchError(LexcError, ValueError):
    """A player spec lexc does not know, or a match that cannot be played as asked."""


def _equity(lexicon: Any, ruleset: str, arg: str, nick: str) -> Any:
    if not arg:
        arg = bundled_file(ruleset)
    return ProgramPlayer(lexicon, "auto", nick, f"lexc {nick}", level="equity", leaves=task_leaves(arg, ruleset))


PLAYERS: dict[str, Callable[[Any, str, str, str], Any]] = {
    "greedy": lambda lexicon, ruleset, arg, nick: ProgramPlayer(lexicon, "auto", nick, f"lexc {nick}", level="greedy"),
    "beginner": lambda lexicon, ruleset, arg, nick: ProgramPlayer(lexicon, "auto", nick, f"lexc {nick}",
                                                                  level="beginner"),
    "equity": _equity,
}


SEARCHING = ("sim",)  # the kinds the engine wing plays (lexc.engine.player.make_player): known here, made there
WITH_LEAVES = ("equity", "sim")


def player_spec(spec: str) -> tuple[str, str]:
    """A player spec split into its kind and its argument (``equity:FILE`` -> ``equity``,
    ``FILE``; ``equity`` -> ``equity``, ``""``: the bundled leaves; ``sim`` and ``sim:FILE``
    alike); MatchError for a kind lexc does not know."""
    kind, _, arg = spec.partition(":")
    if kind not in PLAYERS and kind not in SEARCHING:
        raise MatchError(f"unknown player {spec!r} (known: greedy, beginner, equity, equity:FILE, sim, sim:FILE)")
    if kind in WITH_LEAVES and not arg and spec.endswith(":"):
        raise MatchError(f"{kind}:FILE names no file ({kind} alone plays with the bundled leaves)")
    if kind not in WITH_LEAVES and arg:
        raise MatchError(f"player {kind} takes no argument, not {spec!r}")
    return kind, arg


def resolved(spec: str, ruleset: str) -> str:
    """A spec made ready for the workers: an equity player's file as an absolute path, read
    (and so proven, and kept for this process and the workers it forks) here and now, so that
    a bad file is refused before any game starts."""
    kind, arg = player_spec(spec)
    if kind not in WITH_LEAVES:
        return spec
    path = os.path.abspath(arg) if arg else bundled_file(ruleset)
    if not os.path.isfile(path):
        raise MatchError(f"{arg}: no such file")
    task_leaves(path, ruleset)
    return f"{kind}:{path}"


def bundled_file(ruleset: str) -> str:
    """The path of the learned leave file bundled for a ruleset's bag; MatchError if lexc
    ships none for it."""
    from ..equity.bundled import bundled_leaves_path, none_bundled
    from ..ruleset import load_ruleset

    rules = load_ruleset(ruleset)
    path = bundled_leaves_path(rules)
    if path is None:
        raise MatchError(f"{none_bundled(rules)}: equity:FILE names a leave file")
    return str(path)


def make_player(spec: str, lexicon: Any, ruleset: str, nick: str) -> Any:
    """The program player a spec names, seated under ``nick`` (MatchError for a searching
    player: ``lexc.engine.player.make_player`` makes those)."""
    kind, arg = player_spec(spec)
    if kind not in PLAYERS:
        raise MatchError(f"player {kind} is the engine's: lexc.engine.player.make_player makes it")
    return PLAYERS[kind](lexicon, ruleset, arg, nick)


Maker = Callable[[str, Any, str, str], Any]


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: the deal's seed, and whether the seats are swapped (B on A's seat)."""

    lexfile: str | None
    ruleset: str
    seed: int
    a: str
    b: str
    swapped: bool
    end_rule: str = DOUBLING
    lexicon_name: str | None = None


def nicknames(a: str, b: str) -> tuple[str, str]:
    """GCG nicknames for the two specs: their kinds, told apart when they are the same."""
    na, nb = (player_spec(s)[0] for s in (a, b))
    return (f"{na}-A", f"{nb}-B") if na == nb else (na, nb)


def play_match_game(game: MatchGame, maker: Maker | None = None) -> dict[str, Any]:
    """Play one game of a match; A's and B's scores, the turns and how it ended. ``maker``
    makes the players (default ``make_player``)."""
    lexicon = task_lexicon(game.lexfile, game.ruleset)
    from ..ruleset import load_ruleset

    maker = maker or make_player
    nick_a, nick_b = nicknames(game.a, game.b)
    a = maker(game.a, lexicon, game.ruleset, nick_a)
    b = maker(game.b, lexicon, game.ruleset, nick_b)
    players = [b, a] if game.swapped else [a, b]
    result = GameManager(load_ruleset(game.ruleset), players, lexicon, game.seed, game.end_rule, game.lexicon_name,
                         f"lexc match: seed {game.seed}{', swapped' if game.swapped else ''}").run()
    by_nick = dict(zip(result.players, result.scores, strict=True))
    return {"seed": game.seed, "swapped": game.swapped, "a": by_nick[nick_a], "b": by_nick[nick_b],
            "turns": result.turns, "end": result.end}


def match_games(lexfile: str | None, ruleset: str, a: str, b: str, games: int, seed: int = 0,
                end_rule: str = DOUBLING, lexicon_name: str | None = None) -> list[MatchGame]:
    """The games of a match of ``games`` games (an even number): deals ``seed`` .. ``seed +
    games/2 - 1``, each played with A seated as dealt and then with the seats swapped."""
    if games < 2 or games % 2:
        raise MatchError(f"a match is played in pairs of games: give an even number of games, not {games}")
    player_spec(a), player_spec(b)
    return [MatchGame(lexfile, ruleset, seed + i, a, b, swapped, end_rule, lexicon_name)
            for i in range(games // 2) for swapped in (False, True)]


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A match's figures from its games' results (in ``match_games`` order): A's mean spread a
    game, its 95% confidence interval over the pairs, and each side's wins, losses, ties and
    win rate (a tie counts half)."""
    pairs = [((g1["a"] - g1["b"]) + (g2["a"] - g2["b"])) / 2 for g1, g2 in zip(results[::2], results[1::2],
                                                                                  strict=True)]
    n = len(pairs)
    mean = statistics.fmean(pairs)
    if n > 1:
        sd = statistics.stdev(pairs)
        t = T975[n - 2] if n - 1 <= len(T975) else 1.96
        half = t * sd / math.sqrt(n)
    else:
        sd, half = 0.0, math.inf
    wins = sum(g["a"] > g["b"] for g in results)
    ties = sum(g["a"] == g["b"] for g in results)
    losses = len(results) - wins - ties
    return {"games": len(results), "pairs": n, "mean_spread": mean, "ci95": [mean - half, mean + half],
            "sd_pair_spread": sd, "a_wins": wins, "b_wins": losses, "ties": ties,
            "a_win_rate": (wins + ties / 2) / len(results), "b_win_rate": (losses + ties / 2) / len(results),
            "a_mean_score": statistics.fmean(g["a"] for g in results),
            "b_mean_score": statistics.fmean(g["b"] for g in results)}


__all__ = ["PLAYERS", "MatchError", "MatchGame", "make_player", "match_games", "nicknames", "play_match_game",
           "player_spec", "resolved", "summarise"]
