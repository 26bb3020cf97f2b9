"""Players: what a player on turn sees (``TurnView``), what it does (``Action``), and the
program player (``ProgramPlayer``: at level ``greedy``, Appel & Jacobson's and Norvig's greedy
program, the highest-scoring play; at level ``equity``, the move of the best static equity,
placement, exchange or pass, by a leave table: ``lexc.equity``). The game manager
(``game.py``) asks a ``Player`` for an action and referees it; an interactive front end is one
more ``Player``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..board.board import Board, Position, unseen
from ..board.notation import Play
from ..equity import EXCHANGE as EXCHANGE_MOVE
from ..equity import MAGPIE, PLACEMENT, Candidate, EquityRule, Situation, candidates
from ..movegen import generate_plays
from ..ruleset import Ruleset
from .gcg import EXCHANGE, PASS, PLAY


@dataclass(frozen=True)
class Action:
    """What a player does on a turn: ``kind`` is ``gcg.PLAY`` (``play`` a Play, or notation such
    as ``8H WORD`` across or ``H8 WORD`` down), ``gcg.EXCHANGE`` (``tiles`` written as a rack,
    ``AEI?``) or ``gcg.PASS``."""

    kind: str
    play: Play | str | None = None
    tiles: str = ""

    @classmethod
    def place(cls, play: Play | str) -> Action:
        """A play, as a Play or in notation."""
        return cls(PLAY, play)

    @classmethod
    def exchange(cls, tiles: str) -> Action:
        """An exchange of the tiles named (a rack text)."""
        return cls(EXCHANGE, tiles=tiles)

    @classmethod
    def pass_turn(cls) -> Action:
        """A pass."""
        return cls(PASS)


@dataclass(frozen=True)
class TurnView:
    """What the player on turn may see: the board, their own rack, the scores (their own first),
    the tiles in the bag and on the opponent's rack, the consecutive scoreless turns so far and
    the turn's number (1 for the first)."""

    board: Board
    rack: str
    scores: tuple[int, int]
    bag: int
    opponent_tiles: int
    scoreless_turns: int
    turn: int
    lexicon_name: str | None = None

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset."""
        return self.board.ruleset

    @property
    def can_exchange(self) -> bool:
        """An exchange needs at least a rack's worth of tiles in the bag."""
        return self.bag >= self.ruleset.rack_size

    def position(self) -> Position:
        """The position (the opponent's rack unseen), e.g. for its CGP string."""
        ops = (("lex", self.lexicon_name),) if self.lexicon_name else ()
        return Position(self.board, (self.rack, ""), self.scores, self.scoreless_turns, ops)

    def situation(self) -> Situation:
        """The game as the equity rule reads it: the bag and the opponent's tile count as
        they are; with the bag empty the opponent holds every unseen tile, so their rack's
        face value is known."""
        points = 0
        if not self.bag:
            rules = self.ruleset
            points = sum(rules.value(code) * n for code, n in unseen(self.board, self.rack).items() if code and n > 0)
        return Situation(self.bag, self.opponent_tiles, points, self.board.is_empty())


class Player(Protocol):
    """A player: a GCG nickname (no spaces) and full name; ``program`` players have the
    positions they meet recorded; ``choose`` picks the action for a turn."""

    nick: str
    name: str
    program: bool

    def choose(self, view: TurnView) -> Action:
        """The action for the turn ``view`` shows."""
        ...


LEVELS = ("greedy", "beginner", "equity")


@dataclass
class ProgramPlayer:
    """A program player. ``greedy`` (Appel & Jacobson's and Norvig's program) makes the
    highest-scoring play (ties: the first in notation order); ``beginner`` makes the play in
    the middle of that ranking; with no play either exchanges the whole rack when the bag
    allows, else passes. ``equity`` makes the candidate of the best static equity under
    ``rule`` with the leave table ``leaves`` (``lexc.equity``: a placement, an exchange while
    the rule allows one, or the pass; ties: the first in notation order)."""

    lexicon: Any
    strategy: str = "auto"
    nick: str = "greedy"
    name: str = "lexc greedy player"
    program: bool = True
    level: str = "greedy"
    leaves: Any = None  # a formats.leaves.LeaveTable, for the equity level
    rule: EquityRule = MAGPIE

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown level {self.level!r} (known: {', '.join(LEVELS)})")
        if self.level == "equity" and self.leaves is None:
            raise ValueError("the equity level needs a leave table (leaves=)")

    def choose(self, view: TurnView) -> Action:
        """The level's move."""
        if self.level == "equity":
            return action_of(candidates(view.board, view.rack, self.lexicon, self.leaves, rule=self.rule,
                                        strategy=self.strategy, situation=view.situation()).best())
        plays = generate_plays(view.board, view.rack, self.lexicon, self.strategy)
        if len(plays):  # greedy: only the best play is made into a Move (ranked by the core)
            moves = plays.moves(1) if self.level == "greedy" else plays.moves()
            return Action.place(moves[0 if self.level == "greedy" else len(moves) // 2].play)
        return Action.exchange(view.rack) if view.can_exchange else Action.pass_turn()


def action_of(candidate: Candidate) -> Action:
    """The action of a candidate move: its play, the exchange of its tiles, or a pass."""
    if candidate.kind == PLACEMENT:
        assert candidate.play is not None  # (a placement has its play)
        return Action.place(candidate.play)
    if candidate.kind == EXCHANGE_MOVE:
        return Action.exchange(candidate.notation[1:])
    return Action.pass_turn()
