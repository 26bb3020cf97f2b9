"""Learning leave values as MAVEN did (Sheppard 2002, section 3.3.1): play self-play games with
the current evaluator (at first every weight 0), record for every turn the mover's leave and
its future spread, fit the weights by least squares, and iterate (MAVEN's converged after
three iterations).

The games are played by the player the values are for: the equity player of ``lexc.game``
(``ProgramPlayer`` level ``equity``: MAGPIE's static equity rule over the model's leave table,
placements, exchanges and the pass among the candidates).

A turn's observation: the features of the leave the mover kept -- the static ones, and the
context ones (MAVEN's U-with-Q-unseen and tile turnover) as the mover saw the game: the
unseen tiles (the bag and the opponent's rack) and the bag -- and the bias, and its
**future spread**: the mover's points minus the opponent's from the end of this turn to the
end of the game, end-of-game points included; the turn's own score is left out, since equity
adds it already (equity = score + leave value). Observed are the turns played with tiles in
the bag (``min_bag``: the leave evaluator is the middle game's; the endgame is searched),
placements and exchanges alike (an exchange's leave is what it kept: as real an observation
of that leave as a placement's), that keep 0 to rack-size - 1 tiles (a pass keeps the rack).

The fit (``fit_weights``): least squares with a Gaussian prior on each weight, centred on the
previous iteration's weight (0 at the start) with a standard deviation of ``prior_sd``
points, so the ridge is the noise's variance over the prior's (``docs/learning.md`` says why):
a combination seen thousands of times takes its data's value, one seen a handful of times
moves only part of the way, and at a fixed point the weights are the plain least squares.
``prior_sd`` 0 keeps the old fixed ``ridge`` toward 0. The context features' means over the
iteration's observations (``LinearModel.context_means``) go with the weights, so that the
leave table the next games are played with, and the leave file, hold each leave's static
value plus the context terms' mean for it (``LinearModel.table_value``): a leave file has
one value a leave, and the player reads one.

Reproducible whatever the workers: game i of iteration t has the seed ``game_seed(seed, t,
i)``, games are ``GameTask`` objects played by ``play_game`` through ``lexc.parallel.run_tasks``
(in this process, on local processes or on a Dask scheduler), and the results are added to
the normal equations in game order. The model file is written after every iteration, so
learning resumes from it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..board.notation import Play, parse_play
from ..equity.rule import unseen_tiles
from ..formats.leaves import LeaveTable
from ..game.gcg import EXCHANGE, PLAY
from ..game.manager import DOUBLING, GameManager
from ..game.players import Action, ProgramPlayer, TurnView
from ..game.tasks import task_lexicon
from ..parallel import per_process, run_tasks
from ..ruleset import Ruleset, load_ruleset, reference_of
from .features import Features
from .fit import NormalEquations
from .linear import LinearModel, ModelLeaves
from .modelfile import ModelFile
from .table import DEFAULT_PRIOR, TableStats

CHUNK = 2000  # games handed to the workers at once (their records are added to the fit, then dropped)
DEFAULT_PRIOR_SD = 10.0  # points: the prior standard deviation of a weight around its last value


def equity_player(lexicon: Any, leaves: LeaveTable, strategy: str, nick: str) -> Any:
    """The equity player (``ProgramPlayer`` level ``equity``: MAGPIE's static equity over the
    leave table, exchanges and the pass among the candidates) that the learned values are for."""
    return ProgramPlayer(lexicon, strategy, nick, f"lexc equity player {nick}", level="equity", leaves=leaves)


PLAYERS: dict[str, Callable[[Any, LeaveTable, str, str], Any]] = {"equity": equity_player}


def rack_codes(view: TurnView) -> list[int]:
    """The rack on view as codes (0 a blank), sorted."""
    letters, blanks = view.ruleset.alphabet.parse_rack(view.rack)
    return sorted([0] * blanks + letters)


def leave_after(rack: Sequence[int], used: Sequence[int]) -> bytes:
    """The tiles of ``rack`` left after ``used`` (codes, 0 a blank), sorted."""
    left = list(rack)
    for code in used:
        left.remove(code)
    return bytes(sorted(left))


def action_leave(action: Action, view: TurnView) -> bytes | None:
    """The leave an action keeps (None for a pass: the whole rack)."""
    rack = rack_codes(view)
    if action.kind == PLAY and action.play is not None:
        play = action.play if isinstance(action.play, Play) else parse_play(action.play, view.board)
        return leave_after(rack, play.rack_letters())
    if action.kind == EXCHANGE:
        letters, blanks = view.ruleset.alphabet.parse_rack(action.tiles)
        return leave_after(rack, letters + [0] * blanks)
    return None


# -- one game ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameTask:
    """One game to play, picklable: the ruleset (its reference: a bundled name or its text),
    the lexicon (a path, None for the bundled ENABLE list), the seed, the weights whose leave
    table both players use (``LinearModel.weights``), the player kind (``PLAYERS``), and the
    rules of the record."""

    ruleset: str
    lexicon: str | None
    seed: int
    weights: tuple[float, ...]
    player: str = "equity"
    strategy: str = "auto"
    end_rule: str = DOUBLING
    min_bag: int = 1
    context_means: str = ""  # the model's ``context_means`` as JSON ("" none), hashable


@dataclass(frozen=True)
class Observation:
    """One turn: the leave kept (sorted codes), its features (sparse), its future spread."""

    leave: bytes
    features: tuple[tuple[int, float], ...]
    spread: float


@dataclass(frozen=True)
class GameRecord:
    """A game's observations, its final scores (first mover first) and number of turns."""

    seed: int
    scores: tuple[int, int]
    turns: int
    observations: tuple[Observation, ...]


def preload(path: str | None, ruleset: str, lexicon: Any) -> None:
    """Hand ``play_game`` a lexicon already open (the caller's: local workers forked after
    this inherit it instead of opening it again)."""
    per_process(("lexicon", path, ruleset), lambda: lexicon)


_TABLE: list[tuple[tuple[str, tuple[float, ...], str], ModelLeaves]] = []  # the last model's table, per process


def model_leaves(ruleset: str, weights: tuple[float, ...], context_means: str = "") -> ModelLeaves:
    """The leave table of a model (its weights, and its context means as JSON), kept for the
    games of an iteration (its values are remembered by the equity rule across them),
    replaced when the model changes."""
    key = (ruleset, weights, context_means)
    if not _TABLE or _TABLE[0][0] != key:
        rules = load_ruleset(ruleset)
        means = json.loads(context_means) if context_means else {}
        _TABLE[:] = [(key, LinearModel(LinearModel.zero(rules).features, list(weights), means).leaves())]
    return _TABLE[0][1]


def play_game(task: GameTask) -> GameRecord:
    """Play one self-play game of ``task`` and record its observations (module-level, so that
    any worker can run it)."""
    rules = load_ruleset(task.ruleset)
    lexicon = task_lexicon(task.lexicon, task.ruleset)
    leaves = model_leaves(task.ruleset, task.weights, task.context_means)
    features = leaves.model.features
    singles = leaves.model.single_values()  # (the turnover's one-tile values: static)
    make = PLAYERS[task.player]
    manager = GameManager(rules, [make(lexicon, leaves, task.strategy, f"p{i}") for i in (1, 2)], lexicon,
                          task.seed, task.end_rule)
    pending: list[tuple[int, int, int, bytes, dict[int, float]]] = []
    while not manager.over:
        seat, bag = manager.on_turn, len(manager.bag)
        view = manager.view()  # (what the mover sees: the unseen tiles are the bag and the opponent's rack)
        action = manager.players[seat].choose(view)
        before = (manager.scores[seat], manager.scores[1 - seat])
        event = manager.submit(action)
        if bag < task.min_bag:
            continue
        leave = action_leave(action, view)
        if leave is None or len(leave) >= rules.rack_size:
            continue
        unseen = unseen_tiles(view.board, view.rack)
        x = features.vector(leave, unseen, bag, leaves.model.draw_value(unseen, singles))
        pending.append((seat, before[0] + event.score, before[1], leave, x))
    final = manager.scores
    out = tuple(Observation(leave, tuple(sorted(x.items())), float((final[s] - mine) - (final[1 - s] - theirs)))
                for s, mine, theirs, leave, x in pending)
    return GameRecord(task.seed, (final[0], final[1]), manager.turns, out)


def game_seed(base: int, iteration: int, index: int) -> int:
    """The seed of game ``index`` of ``iteration``: a hash of the three, so that any worker
    (or machine) plays the same game."""
    digest = hashlib.sha256(f"lexc learn {base} {iteration} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


# -- the fit ----------------------------------------------------------------------------------

def fit_weights(equations: NormalEquations, previous: Sequence[float], bias: int | Sequence[int], prior_sd: float,
                ridge: float) -> tuple[list[float], float]:
    """The weights and the ridge used. With ``prior_sd`` > 0: the posterior mean under a
    Gaussian prior N(previous, prior_sd^2) on each weight but the bias, the noise's variance
    estimated by the variance of the targets, so the ridge is var(y) / prior_sd^2; solved as
    least squares on w - previous. With ``prior_sd`` 0: ``ridge`` toward 0. ``bias``: the
    index of the intercept, or of every control left free of the prior and the ridge."""
    free = [bias] if isinstance(bias, int) else list(bias)
    if prior_sd <= 0:
        return equations.solve(ridge, free=free), ridge
    n = equations.count
    mean = equations.xty[free[0]] / n if n else 0.0
    variance = max(equations.yy / n - mean * mean, 0.0) if n else 0.0
    lam = max(variance / (prior_sd * prior_sd), 1e-6)
    size = equations.size
    shifted = NormalEquations(size)  # (X^T (y - X p) = X^T y - X^T X p: the same X^T X)
    shifted.xtx, shifted.count = equations.xtx, n
    anchor = [0.0 if i in free else p for i, p in enumerate(previous)]
    shifted.xty = [b - sum(equations.xtx[i * size + j] * anchor[j] for j in range(size) if anchor[j])
                   for i, b in enumerate(equations.xty)]
    delta = shifted.solve(lam, free=free)
    return [d + a for d, a in zip(delta, anchor, strict=True)], lam


def change_in_sd(equations: NormalEquations, new: Sequence[float], old: Sequence[float], ridge: float, rmse: float,
                 bias: int | Sequence[int]) -> float:
    """The largest change of a weight (the bias, or every control listed, aside) in units of its standard error,
    rmse / sqrt(X^T X_ii + ridge): about 3 at most over a hundred weights when the changes are
    the games' noise (the values have converged), more when they are not."""
    n = equations.size
    if rmse <= 0:
        return 0.0
    free = {bias} if isinstance(bias, int) else set(bias)
    return max((abs(a - b) * (equations.xtx[i * n + i] + ridge) ** 0.5 / rmse
                for i, (a, b) in enumerate(zip(new, old, strict=True)) if i not in free), default=0.0)


class ContextMeans:
    """The context features' means over an iteration's observations: U-with-Q-unseen over the
    leaves holding a U and no Q, the turnover feature by the leave's size
    (``LinearModel.context_means``)."""

    def __init__(self, features: Features):
        self.features = features
        size = features.ruleset.rack_size
        self.turnover, self.kept = [0.0] * size, [0] * size
        self.u, self.u_seen = 0.0, 0

    def add(self, leave: bytes, x: dict[int, float]) -> None:
        """Count one observation (its leave, its features)."""
        f = self.features
        if len(leave) < len(self.kept):
            self.turnover[len(leave)] += x.get(f.turnover, 0.0)
            self.kept[len(leave)] += 1
        if f.u_without_q(leave):
            self.u += x.get(f.u_with_q, 0.0)
            self.u_seen += 1

    def means(self) -> dict[str, Any]:
        """The means, as ``LinearModel.context_means`` holds them (0 where nothing was seen)."""
        out: dict[str, Any] = {"turnover": [t / n if n else 0.0 for t, n in zip(self.turnover, self.kept, strict=True)]}
        if self.features.u_with_q >= 0:
            out["u_with_q_unseen"] = self.u / self.u_seen if self.u_seen else 0.0
        return out


# -- the loop ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Progress:
    """What ``learn`` reports after each game (``change``, ``rmse`` and ``change_sd`` after
    each fit, else None): the iteration, games done of this iteration's, games a second, observations."""

    iteration: int
    games: int
    total: int
    games_per_second: float
    observations: int
    change: float | None = None
    rmse: float | None = None
    change_sd: float | None = None  # the largest change in standard errors (``change_in_sd``)


def _teller(progress: Callable[[Progress], None], iteration: int, first: int, games: int, start: float,
            equations: NormalEquations) -> Callable[[int, int], None]:
    """``run_tasks``'s progress callback for the chunk of games from ``first``."""
    def told(done: int, _total: int) -> None:
        elapsed = max(time.perf_counter() - start, 1e-9)
        progress(Progress(iteration, first + done, games, (first + done) / elapsed, equations.count))
    return told


def learn(ruleset: Ruleset, lexicon: str | None, games: int, iterations: int, seed: int = 0, workers: int | None = None,
          scheduler: str | None = None, play_game: Callable[[GameTask], GameRecord] = play_game,
          progress: Callable[[Progress], None] | None = None, resume: ModelFile | None = None, out: str | None = None,
          table: bool = False, ridge: float = 1.0, prior_sd: float = DEFAULT_PRIOR_SD, prior: float = DEFAULT_PRIOR,
          player: str = "equity", strategy: str = "auto", lexicon_name: str = "") -> ModelFile:
    """Run ``iterations`` iterations of ``games`` games each (from ``resume``'s state, else from
    a model of zeros), fitting after each (``fit_weights``) and writing the model file ``out``
    (atomically) after each; the games on ``workers`` local processes (default: every core)
    or the Dask ``scheduler`` (``parallel.run_tasks``); with ``table``, the per-leave
    statistics of each iteration's games are kept for the full table (``table.full_table``).
    The state reached."""
    state = resume or ModelFile(LinearModel.zero(ruleset), seed=seed, games_per_iteration=games,
                                lexicon=lexicon_name, ridge=ridge, player=player, prior=prior, prior_sd=prior_sd)
    if resume is not None:
        seed, ridge, player, prior_sd = state.seed, state.ridge, state.player, state.prior_sd
        state.games_per_iteration, state.prior = games, prior
    if iterations and player not in PLAYERS:
        raise ValueError(f"a model learned with the {player!r} player: lexc learns with {', '.join(PLAYERS)} "
                         f"(start a new model)")
    ref = reference_of(state.model.ruleset)
    features = state.model.features
    for _ in range(iterations):
        iteration = state.iteration + 1
        weights = tuple(state.model.weights)
        means = json.dumps(state.model.context_means, sort_keys=True) if state.model.context_means else ""
        context = ContextMeans(features)
        equations = NormalEquations(len(features))
        stats = TableStats(state.model) if table else None
        start = time.perf_counter()
        for first in range(0, games, CHUNK):
            tasks = [GameTask(ref, lexicon, game_seed(seed, iteration, i), weights, player, strategy,
                              context_means=means) for i in range(first, min(games, first + CHUNK))]
            told = None if progress is None else _teller(progress, iteration, first, games, start, equations)
            for record in run_tasks(play_game, tasks, workers=workers, scheduler=scheduler, progress=told):
                for obs in record.observations:
                    x = dict(obs.features)
                    equations.add(x, obs.spread)
                    context.add(obs.leave, x)
                    if stats is not None:
                        stats.add(obs.leave, x, obs.spread)
        controls = (features.bias, features.pool)
        new, used = fit_weights(equations, state.model.weights, controls, prior_sd, ridge)
        change = max((abs(a - b) for i, (a, b) in enumerate(zip(new, state.model.weights, strict=True))
                      if i not in controls), default=0.0)
        rmse = equations.residual(new)
        moved = change_in_sd(equations, new, state.model.weights, used, rmse, controls)
        state.model = LinearModel(features, new, context.means())
        elapsed = max(time.perf_counter() - start, 1e-9)
        state.iteration, state.games = iteration, state.games + games
        state.observations += equations.count
        state.history.append({"iteration": iteration, "games": games, "observations": equations.count,
                              "change": change, "change_sd": moved, "rmse": rmse,
                              "ridge": used})
        if stats is not None:
            state.table = stats.as_text(state.model)
        if progress is not None:
            progress(Progress(iteration, games, games, games / elapsed, equations.count, change, rmse, moved))
        if out is not None:
            state.save(out)
    return state
