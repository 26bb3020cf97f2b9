"""The pre-endgame with one tile in the bag (Sheppard 2002, section 7: a "PEG-1").

The mover cannot see the opponent's rack, but knows the unseen tiles: the bag's one tile and
the opponent's rack are those tiles, in some split. Every placement empties the bag (the
mover draws its last tile), so after it the game is an endgame the opponent moves first in,
one for each tile the bag may hold. ``pre_endgame`` evaluates each candidate against every
such draw (each distinct tile weighted by how many of it are unseen), solving each endgame
(``engine.endgame``: exact when its search finishes within the time it is given, else the
deepest finished iteration's estimate), and ranks the candidates by their chance to win the
game, then by their mean spread. A pass leaves the tile in the bag for the opponent: it is
valued by its static equity's sign (a PEG-1 of the opponent's is not searched), and it is
ranked after every placement whose expected outcome is known.

Two or more tiles in the bag (a PEG-2 and beyond) are not searched here: the simulation
(``engine.sim``) plays those positions forward instead.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..board.board import Position
from ..equity import PLACEMENT, Candidate, Situation, candidates
from ..equity.rule import unseen_tiles
from .endgame import EndgameError, solve_racks
from .negamax import Rack

CANDIDATES = 10  # placements searched, the best by static equity
SOLVE_S = 1.0  # the time one endgame of a draw is given before its estimate is taken


@dataclass
class PegRow:
    """A candidate's figures over the draws: the move, its static equity and score, the share
    of draws after which the mover wins (ties half, weighted by the draws' odds), the mean
    final spread of the game, and how many of its endgames were solved exactly."""

    notation: str
    equity: float | None
    score: int
    win_rate: float
    mean_spread: float
    draws: int
    exact: int
    candidate: Candidate

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"move": self.notation, "equity": self.equity, "score": self.score, "win_rate": self.win_rate,
                "mean_spread": self.mean_spread, "draws": self.draws, "exact": self.exact}


@dataclass
class PegResult:
    """The candidates ranked (win rate, then mean spread), the seconds it took."""

    rows: list[PegRow]
    seconds: float

    def best(self) -> PegRow:
        """The move to make."""
        return self.rows[0]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"seconds": round(self.seconds, 3), "candidates": [row.as_dict() for row in self.rows]}


def pre_endgame(position: Position, lexicon: Any, leaves: Any, count: int = CANDIDATES,
                solve_s: float = SOLVE_S) -> PegResult:
    """The candidates of a one-tile-in-the-bag position, evaluated against every draw (see
    the module's docstring). EndgameError unless exactly one tile is in the bag and the
    opponent's rack is not given (it is what the mover cannot see)."""
    start = time.perf_counter()
    board, rack = position.board, position.rack
    rules = board.ruleset
    situation = Situation.of(board, rack)
    pool = Counter({code: n for code, n in enumerate(unseen_tiles(board, rack)) if n > 0})
    size = sum(pool.values())
    if size - rules.rack_size != 1:
        raise EndgameError(f"a pre-endgame of one tile: {size} unseen tiles are {size - rules.rack_size} in the "
                           f"bag beside the opponent's {rules.rack_size}")
    ranked = candidates(board, rack, lexicon, leaves, situation=situation).ranked()
    chosen = [c for c in ranked if c.kind == PLACEMENT][:count]
    spread = position.scores[0] - position.scores[1]
    letters, blanks = rules.alphabet.parse_rack(rack)
    mine: list[int] = letters + [0] * blanks
    rows = []
    for move in chosen:
        assert move.play is not None
        after = board.with_tiles(move.play.placed())
        left = list(mine)
        for code in move.play.rack_letters():
            left.remove(code)
        wins = total = 0.0
        exact = 0
        for tile, weight in sorted(pool.items()):
            theirs = pool.copy()
            theirs[tile] -= 1
            their_rack: Rack = tuple(sorted(c for c in theirs.elements() if c)) + (0,) * theirs[0]
            my_rack: Rack = tuple(sorted(c for c in [*left, tile] if c)) + (0,) * [*left, tile].count(0)
            result = solve_racks(after, (their_rack, my_rack), lexicon, seconds=solve_s)
            final = spread + move.score - result.value
            wins += weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
            total += weight * final
            exact += result.proven
        rows.append(PegRow(move.notation, move.equity, move.score, wins / size, total / size, len(pool), exact,
                           move))
    rows.sort(key=lambda r: (-r.win_rate, -r.mean_spread, r.notation))
    if not rows:  # no placement: the pass (or the best non-placement the ranking has)
        other = ranked[0]
        rows.append(PegRow(other.notation, other.equity, other.score, 0.5, float(spread), 0, 0, other))
    return PegResult(rows, time.perf_counter() - start)


__all__ = ["CANDIDATES", "SOLVE_S", "PegResult", "PegRow", "pre_endgame"]
