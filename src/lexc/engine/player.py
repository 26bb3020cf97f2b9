"""MAVEN's player (``sim``): simulation in the middle game, the pre-endgame search with one
tile in the bag, the exact endgame search once the bag is empty; and the matches and
self-play games it plays in (the game wing's, with this wing's players).

A ``SimPlayer`` is a ``game.players.Player``. Its moves are the same from the same game
whatever the machine, unless ``move_seconds`` caps its searches by time: the simulation's
seed is the game's seed and the turn, its iterations bounded; the endgame search is exact
(with ``move_seconds``, the deepest line found in that time).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board.board import Position, unseen
from ..equity import Candidate, candidates
from ..game import match
from ..game.players import Action, TurnView, action_of
from .endgame import solve
from .pre_endgame import pre_endgame
from .sim import SimSettings, simulate

ITERATIONS = 200  # a middle-game move's simulation: at most so many iterations ...
CANDIDATES = 10  # ... of so many candidates
ENDGAME_S = 30.0  # an endgame search's time limit when no move time is given
PEG_CANDIDATES = 5  # the pre-endgame's candidates (the pass beside them) ...
PEG_SOLVE_S = 0.25  # ... and each endgame's time (a --move-time bounds the whole search)


@dataclass
class SimPlayer:
    """MAVEN's player: ``choose`` simulates (``iterations`` of ``candidates``, ``plies``
    after each, stopping early on a clear leader), searches the pre-endgame with one tile
    in the bag, and solves the endgame with the bag empty. ``seed`` is the game's."""

    lexicon: Any
    leaves: Any
    nick: str = "sim"
    name: str = "lexc sim player"
    program: bool = True
    seed: int = 0
    iterations: int = ITERATIONS
    candidates: int = CANDIDATES
    plies: int = 2
    move_seconds: float | None = None

    def choose(self, view: TurnView) -> Action:
        """The move for the turn."""
        board, rack = view.board, view.rack
        if view.bag == 0:
            return self._endgame(view)
        if view.bag == 1 and view.opponent_tiles == board.ruleset.rack_size:
            peg = pre_endgame(Position(board, (rack, ""), view.scores, view.scoreless_turns), self.lexicon,
                              self.leaves, PEG_CANDIDATES, PEG_SOLVE_S, self.move_seconds)
            return action_of(peg.best().candidate)
        settings = SimSettings(self.candidates, self.plies, self.iterations, self.move_seconds, 0.95,
                               self.seed * 1000 + view.turn, 1)
        result = simulate(Position(board, (rack, ""), view.scores, view.scoreless_turns), self.lexicon, self.leaves,
                          settings)
        chosen: Candidate | None = result.best().candidate
        assert chosen is not None  # (simulate keeps each row's candidate)
        return action_of(chosen)

    def _endgame(self, view: TurnView) -> Action:
        """The first move of the endgame's principal variation (the static best if it has none)."""
        board = view.board
        left = unseen(board, view.rack)
        other = board.ruleset.alphabet.rack_text(sorted(c for c, n in left.items() if c for _ in range(n)),
                                                 max(left[0], 0))
        if not other:  # (the opponent went out: the game is over, no move is asked)
            return Action.pass_turn()
        position = Position(board, (view.rack, other), view.scores, view.scoreless_turns, racks_given=True)
        result = solve(position, self.lexicon, seconds=self.move_seconds or ENDGAME_S)
        if result.pv:
            first = result.pv[0]
            return Action.pass_turn() if first.notation == "pass" else Action.place(first.notation)
        best = candidates(board, view.rack, self.lexicon, self.leaves, situation=view.situation()).best()
        return action_of(best)


def make_player(spec: str, lexicon: Any, ruleset: str, nick: str, seed: int = 0,
                move_seconds: float | None = None) -> Any:
    """The program player a match spec names: ``sim`` (or ``sim:FILE``, its leave values)
    here, any other kind the game wing's (``game.match.make_player``)."""
    kind, arg = match.player_spec(spec)
    if kind != "sim":
        return match.make_player(spec, lexicon, ruleset, nick)
    from ..game.tasks import task_leaves

    return SimPlayer(lexicon, task_leaves(arg or match.bundled_file(ruleset), ruleset), nick, f"lexc {nick}",
                     seed=seed, move_seconds=move_seconds)


@dataclass(frozen=True)
class SimMatchGame:
    """A match game with the searching players' move time (``lexc.parallel`` task)."""

    game: match.MatchGame
    move_seconds: float | None = None


def play_match_game(task: match.MatchGame | SimMatchGame) -> dict[str, Any]:
    """``game.match.play_match_game`` with this wing's players (a ``sim`` seat among them)."""
    game, seconds = (task.game, task.move_seconds) if isinstance(task, SimMatchGame) else (task, None)
    return match.play_match_game(game, lambda spec, lexicon, ruleset, nick: make_player(
        spec, lexicon, ruleset, nick, game.seed, seconds))


def play_selfplay(task: Any) -> dict[str, Any]:
    """``game.tasks.play_selfplay`` with this wing's players for a ``sim`` level (its leave
    values the task's, its seed the game's)."""
    from ..game.tasks import play_selfplay as play
    from ..game.tasks import task_leaves, task_lexicon

    def maker(level: str, nick: str) -> Any:
        lexicon = task_lexicon(task.lexfile, task.ruleset)
        leaves = task_leaves(task.leaves_file or match.bundled_file(task.ruleset), task.ruleset)
        return SimPlayer(lexicon, leaves, nick, f"lexc {level} player", seed=task.seed,
                         move_seconds=task.move_seconds)

    return play(task, maker)


__all__ = ["SimMatchGame", "SimPlayer", "make_player", "play_match_game", "play_selfplay"]

