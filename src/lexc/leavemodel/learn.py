"""Learning leave values as MAVEN did (Sheppard 2002, section 3.3.1): play self-play games with
the current evaluator (at first every weight 0), record for every turn the mover's leave and
its future spread, fit the weights by least squares, and iterate (MAVEN's converged after
three iterations).

A turn's observation: the feature vector of the leave the mover kept (``features.py``: the
static combinations, U-with-Q-unseen and turnover as the mover saw the unseen tiles, and the
bias), and its **future spread**: the mover's points minus the opponent's from the end of
this turn to the end of the game, end-of-game points included; the turn's own score is left
out, since equity adds it already (equity = score + leave value). Observed are the turns
played with tiles in the bag (``min_bag``: the leave evaluator is the middle game's; the
endgame is searched) that keep 0 to rack-size - 1 tiles (a pass keeps the whole rack).

Reproducible whatever the number of workers: game i of iteration t has the seed
``game_seed(seed, t, i)``, games are played by a picklable function of a picklable
``GameTask`` (today on local cores with multiprocessing; the task and the seed scheme are what
a distributed runner needs later), and the results are added to the normal equations in game
order. The model file is written after every iteration, so learning resumes from it.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..board.board import unseen as unseen_tiles
from ..board.notation import Play, parse_play
from ..game.gcg import EXCHANGE, PLAY
from ..game.manager import DOUBLING, GameManager
from ..game.players import Action, TurnView
from ..movegen import generate
from ..ruleset import Ruleset, load_ruleset, reference_of
from .fit import NormalEquations
from .linear import LinearModel
from .modelfile import ModelFile
from .table import DEFAULT_PRIOR, TableStats


@dataclass
class LeavePlayer:
    """A one-ply program player that makes the play of highest score + leave value under a
    linear model (with every weight 0, the greedy player: the highest score, ties the first in
    notation order); with no play, it exchanges the rack when the bag allows, else passes.
    (The equity player of ``lexc.game.players`` will take this one's place.)"""

    lexicon: Any
    model: LinearModel
    strategy: str = "auto"
    nick: str = "maven"
    name: str = "lexc leave-model player"
    program: bool = True

    def __post_init__(self) -> None:
        self._singles = self.model.single_values()
        self._zero = not any(self.model.weights)

    def choose(self, view: TurnView) -> Action:
        """The play of best score + leave value."""
        moves = generate(view.board, view.rack, self.lexicon, self.strategy)
        if not moves:
            return Action.exchange(view.rack) if view.can_exchange else Action.pass_turn()
        if self._zero:
            return Action.place(moves[0].play)
        rack = rack_codes(view)
        unseen = unseen_counts(view)
        mean = self.model.unseen_mean(unseen, self._singles)
        values: dict[bytes, float] = {}
        best, best_equity = moves[0], -math.inf
        for move in moves:
            leave = leave_after(rack, move.play.rack_letters())
            value = values.get(leave)
            if value is None:
                value = values[leave] = self.model.value(leave, unseen, view.bag, mean)
            if move.score + value > best_equity:
                best, best_equity = move, move.score + value
        return Action.place(best.play)


PLAYERS: dict[str, Callable[[Any, LinearModel, str, str], Any]] = {
    "leave": lambda lexicon, model, strategy, nick: LeavePlayer(lexicon, model, strategy, nick),
}


def rack_codes(view: TurnView) -> list[int]:
    """The rack on view as codes (0 a blank), sorted."""
    letters, blanks = view.ruleset.alphabet.parse_rack(view.rack)
    return sorted([0] * blanks + letters)


def unseen_counts(view: TurnView) -> list[int]:
    """What the player on turn cannot see (the bag and the opponent's rack), counts by code."""
    counts = unseen_tiles(view.board, view.rack)
    return [max(0, counts.get(code, 0)) for code in range(len(view.ruleset.alphabet) + 1)]


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
    the lexicon (a path, None for the bundled ENABLE list), the seed, the weights both players
    use (``LinearModel.weights``), the player kind (``PLAYERS``), and the rules of the record."""

    ruleset: str
    lexicon: str | None
    seed: int
    weights: tuple[float, ...]
    player: str = "leave"
    strategy: str = "auto"
    end_rule: str = DOUBLING
    min_bag: int = 1


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


_LEXICONS: dict[tuple[str | None, str], Any] = {}  # each worker process opens a lexicon once


def _lexicon(path: str | None, ruleset: str) -> Any:
    key = (path, ruleset)
    if key not in _LEXICONS:
        from ..lexicons.source import open_lexicon

        _LEXICONS.clear()
        _LEXICONS[key] = open_lexicon(path, "gaddawg" if path is None else "dawg", ruleset)
    return _LEXICONS[key]


def preload(path: str | None, ruleset: str, lexicon: Any) -> None:
    """Hand ``play_game`` a lexicon already open (the caller's: workers forked after this
    inherit it instead of opening it again)."""
    _LEXICONS.clear()
    _LEXICONS[path, ruleset] = lexicon


def play_game(task: GameTask) -> GameRecord:
    """Play one self-play game of ``task`` and record its observations (module-level, so that
    a process pool can run it)."""
    rules = load_ruleset(task.ruleset)
    lexicon = _lexicon(task.lexicon, task.ruleset)
    model = LinearModel(LinearModel.zero(rules).features, list(task.weights))
    make = PLAYERS[task.player]
    manager = GameManager(rules, [make(lexicon, model, task.strategy, f"p{i}") for i in (1, 2)], lexicon,
                          task.seed, task.end_rule)
    singles = model.single_values()
    features = model.features
    pending: list[tuple[int, int, int, bytes, dict[int, float]]] = []
    while not manager.over:
        seat, bag = manager.on_turn, len(manager.bag)
        view = manager.view()
        action = manager.players[seat].choose(view)
        before = (manager.scores[seat], manager.scores[1 - seat])
        unseen = [0] * (len(rules.alphabet) + 1)
        for code in manager.bag.tiles + manager.racks[1 - seat]:
            unseen[code] += 1
        event = manager.submit(action)
        if bag < task.min_bag:
            continue
        leave = action_leave(action, view)
        if leave is None or len(leave) >= rules.rack_size:
            continue
        x = features.vector(leave, unseen, bag, model.unseen_mean(unseen, singles))
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


# -- the loop ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Progress:
    """What ``learn`` reports after each game (``change`` and ``rmse`` after each fit, else
    None): the iteration, games done of this iteration's, games a second, observations."""

    iteration: int
    games: int
    total: int
    games_per_second: float
    observations: int
    change: float | None = None
    rmse: float | None = None


def _games(tasks: list[GameTask], workers: int, play: Callable[[GameTask], GameRecord],
           pool: Any) -> Iterator[GameRecord]:
    if workers <= 1 or pool is None:
        return map(play, tasks)
    return pool.imap(play, tasks, chunksize=1)  # type: ignore[no-any-return]


def learn(ruleset: Ruleset, lexicon: str | None, games: int, iterations: int, seed: int = 0, workers: int = 1,
          play_game: Callable[[GameTask], GameRecord] = play_game, progress: Callable[[Progress], None] | None = None,
          resume: ModelFile | None = None, out: str | None = None, table: bool = False, ridge: float = 1.0,
          prior: float = DEFAULT_PRIOR, player: str = "leave", strategy: str = "auto",
          lexicon_name: str = "") -> ModelFile:
    """Run ``iterations`` iterations of ``games`` games each (from ``resume``'s state, else from
    a model of zeros), fitting after each and writing the model file ``out`` (atomically)
    after each; with ``table``, the per-leave statistics of each iteration's games are kept
    for the full table (``table.full_table``). The state reached."""
    state = resume or ModelFile(LinearModel.zero(ruleset), seed=seed, games_per_iteration=games,
                                lexicon=lexicon_name, ridge=ridge, player=player, prior=prior)
    if resume is not None:
        seed, ridge, player = state.seed, state.ridge, state.player
        state.games_per_iteration, state.prior = games, prior
    ref = reference_of(state.model.ruleset)
    features = state.model.features
    pool = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
                                       ).Pool(workers) if workers > 1 else None
    try:
        for _ in range(iterations):
            iteration = state.iteration + 1
            weights = tuple(state.model.weights)
            tasks = [GameTask(ref, lexicon, game_seed(seed, iteration, i), weights, player, strategy)
                     for i in range(games)]
            equations = NormalEquations(len(features))
            stats = TableStats(state.model) if table else None
            start = time.perf_counter()
            for done, record in enumerate(_games(tasks, workers, play_game, pool), 1):
                for obs in record.observations:
                    x = dict(obs.features)
                    equations.add(x, obs.spread)
                    if stats is not None:
                        stats.add(obs.leave, x, obs.spread)
                if progress is not None:
                    elapsed = max(time.perf_counter() - start, 1e-9)
                    progress(Progress(iteration, done, games, done / elapsed, equations.count))
            new = equations.solve(ridge, free=[features.bias])
            change = max((abs(a - b) for a, b in zip(new, state.model.weights, strict=True)), default=0.0)
            state.model = LinearModel(features, new)
            rmse = equations.residual(new)
            elapsed = max(time.perf_counter() - start, 1e-9)
            state.iteration, state.games = iteration, state.games + games
            state.observations += equations.count
            state.history.append({"iteration": iteration, "games": games, "observations": equations.count,
                                  "change": change, "rmse": rmse})
            if stats is not None:
                state.table = stats.as_text(state.model)
            if progress is not None:
                progress(Progress(iteration, games, games, games / elapsed, equations.count, change, rmse))
            if out is not None:
                state.save(out)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return state
