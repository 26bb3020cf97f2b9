"""The pre-endgame (Sheppard 2002, section 7): a few tiles in the bag, fewer than a rack.

The mover cannot see the opponent's rack, but knows the unseen tiles: the bag's ``n`` tiles
and the opponent's rack are those tiles, in some split. ``pre_endgame`` evaluates each
candidate (the best placements by static equity, and the pass) against every way the tiles
it draws may fall, each distinct way weighted by its odds (the tiles are drawn at random):

- A candidate that plays ``n`` tiles or more empties the bag: the mover draws all of it,
  the opponent holds the rest, and the game is an endgame the opponent moves first in, one
  for each set of ``n`` tiles the bag may hold. A "PEG-1" (one tile in the bag) is all of
  this kind, but for the pass.
- A candidate that plays fewer (and the pass) leaves tiles in the bag: after the mover's
  draw the opponent's rack is known, and the search goes on with the opponent to move over
  the bag that is left. There each side tries its ``width`` best-scoring plays and the
  pass; a play that empties the bag leads to an endgame, one that does not to the next
  draw (every way it may fall, at its odds: the drawer does not know the bag's order), and
  a second pass in a row ends the game (the endgame's rule: each side loses its own rack).
  A side picks the play with the best chance to win, then the best mean spread.

Each endgame is solved (``engine.endgame``: exact when its search finishes within
``solve_s``, else the deepest finished iteration's estimate); once ``seconds`` have passed,
the endgames left are estimated by a one-ply search. A candidate's draws are **exact** when
every endgame under them was proven and no side's plays were cut to ``width``. The
candidates are ranked by their chance to win the game, then by their mean final spread.

With a rack's worth of tiles in the bag or more the simulation (``engine.sim``) plays the
position forward instead.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import comb
from typing import Any

from ..board.board import Board, Position
from ..board.notation import Play
from ..equity import PASS, PLACEMENT, Candidate, Situation, candidates
from ..equity.rule import unseen_tiles
from ..movegen import generate_plays
from .endgame import EndgameError, solve_racks
from .negamax import SCORELESS_END, Rack, pass_value, rack_of, rack_text, take
from .sim import named, win_share

CANDIDATES = 10  # placements searched, the best by static equity (the pass beside them)
SOLVE_S = 1.0  # the time one endgame is given before its estimate is taken
WIDTH = 5  # plays each side tries where the bag is not yet empty (the best-scoring)
TABLE_BITS = 18  # each endgame's transposition table (2^18 entries: 6 MiB; many small searches)

Progress = Callable[[int, int, str], None]
Outcome = tuple[float, float, bool]  # (mean points the side to move gains, its chance to win, exact)


@dataclass
class PegRow:
    """A candidate's figures over the draws: the move, its static equity and score, the share
    of draws after which the mover wins (ties half, weighted by the draws' odds), the mean
    final spread of the game, how many distinct draws it was evaluated against and how many
    of those were exact (see the module's docstring)."""

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
    """The candidates ranked (win rate, then mean spread), the tiles in the bag, the
    endgames solved (and of them proven), the seconds it took, and ``stopped``:
    ``"interrupt"`` when Ctrl-C stopped it (the candidates finished before are ranked)."""

    rows: list[PegRow]
    seconds: float
    bag: int = 1
    endgames: int = 0
    proven: int = 0
    stopped: str = ""

    def best(self) -> PegRow:
        """The move to make."""
        return self.rows[0]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"bag": self.bag, "seconds": round(self.seconds, 3), "endgames": self.endgames,
                "proven": self.proven, "stopped": self.stopped or None,
                "candidates": [row.as_dict() for row in self.rows]}


def draws(pool: Counter[int], size: int) -> Iterator[tuple[Counter[int], float]]:
    """Each distinct set of ``size`` tiles that may be drawn at random from ``pool`` (tile
    code to count), with its probability (the hypergeometric odds)."""
    codes = sorted(c for c, n in pool.items() if n > 0)
    total = comb(sum(pool[c] for c in codes), size)

    def pick(start: int, left: int, ways: int, chosen: Counter[int]) -> Iterator[tuple[Counter[int], float]]:
        if left == 0:
            yield Counter(chosen), ways / total
            return
        for k in range(start, len(codes)):
            code = codes[k]
            for n in range(min(left, pool[code]), 0, -1):
                chosen[code] = n
                yield from pick(k + 1, left - n, ways * comb(pool[code], n), chosen)
            chosen.pop(code, None)

    yield from pick(0, size, 1, Counter())


class _Search:
    """One pre-endgame's search: its limits, the endgames it has solved (by position), and
    its counts."""

    def __init__(self, lexicon: Any, solve_s: float, seconds: float | None, width: int):
        self.lexicon, self.solve_s, self.width = lexicon, solve_s, width
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.solved: dict[tuple[Any, ...], tuple[int, bool]] = {}
        self.endgames = self.proven = 0

    def endgame(self, board: Board, mine: Rack, other: Rack, scoreless: int, spread: int) -> Outcome:
        """An endgame's outcome for the side to move (holding ``mine``), ``spread`` ahead."""
        if scoreless >= SCORELESS_END:  # (the game ended before it: each side loses its own rack)
            value = pass_value(board.ruleset, mine, other)
            return value, win_share(spread + value), True
        key = (board.rows, mine, other, scoreless)
        if key not in self.solved:
            late = self.deadline is not None and time.perf_counter() >= self.deadline
            found = solve_racks(board, (mine, other), self.lexicon, scoreless, spread,
                                seconds=self.solve_s, max_depth=1 if late else None, table_bits=TABLE_BITS)
            self.solved[key] = found.value, found.proven
            self.endgames += 1
            self.proven += found.proven
        value, proven = self.solved[key]
        return value, win_share(spread + value), proven

    def after(self, board: Board, score: int, play: Play | None, mine: Rack, other: Rack, bag: Counter[int],
              scoreless: int, passed: bool, spread: int) -> Outcome:
        """The outcome, for the side that moved, of its play (None: the pass) with ``mine``
        on its rack: its score, then the draw (every way it may fall) and what follows."""
        if play is None:
            if passed:  # (the second pass in a row ends the game)
                ended = pass_value(board.ruleset, mine, other)
                return ended, win_share(spread + ended), True
            theirs, win, exact = self.turn(board, other, mine, bag, scoreless + 1, True, -spread)
            return -theirs, 1.0 - win, exact
        left = take(mine, play)
        played = len(mine) - len(left)
        after = board.with_tiles(play.placed())
        size = sum(bag.values())
        mean = wins = 0.0
        exact = True
        for drawn, odds in draws(bag, min(played, size)):
            rest = bag - drawn
            rack = rack_of([*left, *drawn.elements()])  # (not empty: a rack emptied draws from the bag)
            if rest:
                v, w, x = self.turn(after, other, rack, rest, 0, False, -(spread + score))
            else:
                v, w, x = self.endgame(after, other, rack, 0, -(spread + score))
            mean += odds * (score - v)
            wins += odds * (1.0 - w)
            exact = exact and x
        return mean, wins, exact

    def turn(self, board: Board, mine: Rack, other: Rack, bag: Counter[int], scoreless: int, passed: bool,
             spread: int) -> Outcome:
        """The outcome for the side to move where the bag still holds tiles: its best of its
        ``width`` best-scoring plays and the pass."""
        if scoreless >= SCORELESS_END:
            value = pass_value(board.ruleset, mine, other)
            return value, win_share(spread + value), True
        plays = generate_plays(board, rack_text(board.ruleset, mine), self.lexicon).fields()
        ranked = sorted(enumerate(plays), key=lambda item: (-item[1][0], item[0]))
        tried: list[tuple[int, Play | None]] = [(s, Play(r, c, d, t)) for _, (s, r, c, d, t) in ranked[:self.width]]
        tried.append((0, None))
        outcomes = [self.after(board, score, play, mine, other, bag, scoreless, passed, spread)
                     for score, play in tried]
        best = max(outcomes, key=lambda o: (o[1], o[0]))  # (the first of equals: the order tried)
        return best[0], best[1], all(o[2] for o in outcomes) and len(ranked) <= self.width


def pre_endgame(position: Position, lexicon: Any, leaves: Any, count: int = CANDIDATES,
                solve_s: float = SOLVE_S, seconds: float | None = None, width: int = WIDTH,
                progress: Progress | None = None, moves: tuple[str, ...] = ()) -> PegResult:
    """The candidates of a position with 1 to ``rack_size - 1`` tiles in the bag, evaluated
    against every draw (see the module's docstring): the best ``count`` placements by static
    equity and the pass. ``solve_s``: each endgame's time; ``seconds``: the whole search's,
    after which endgames are estimated; ``width``: the plays a side tries while tiles are
    left in the bag; ``moves``: these candidates instead (notations, as ``sim.named`` reads
    them). ``progress(done, total, notation)`` is told as each candidate starts.
    Ctrl-C returns the candidates finished (``stopped == "interrupt"``). EndgameError for
    any other bag, or if the opponent's rack is given (it is what the mover cannot see)."""
    start = time.perf_counter()
    board, rack = position.board, position.rack
    rules = board.ruleset
    if position.racks_given and position.racks[1]:
        raise EndgameError("a pre-endgame is searched from the mover's view: give no rack for the opponent")
    pool = Counter({code: n for code, n in enumerate(unseen_tiles(board, rack)) if n > 0})
    size = sum(pool.values())
    bag = size - rules.rack_size
    if not 1 <= bag < rules.rack_size:
        raise EndgameError(f"a pre-endgame has 1 to {rules.rack_size - 1} tiles in the bag: {size} unseen tiles "
                           f"are {bag} in the bag beside the opponent's {rules.rack_size}")
    if not 0 <= position.scoreless_turns < SCORELESS_END:
        raise EndgameError(f"{position.scoreless_turns} scoreless turns in a row: the game is over")
    ranked = candidates(board, rack, lexicon, leaves, situation=Situation.of(board, rack)).ranked()
    if moves:
        chosen = named(board, ranked, moves)
        if any(c.kind not in (PLACEMENT, PASS) for c in chosen):  # (an exchange needs a fuller bag)
            raise EndgameError("a pre-endgame's candidates are placements and the pass")
    else:
        chosen = [c for c in ranked if c.kind == PLACEMENT][:count] + [c for c in ranked if c.kind == PASS][:1]
    spread = position.scores[0] - position.scores[1]
    letters, blanks = rules.alphabet.parse_rack(rack)
    mine = rack_of(letters + [0] * blanks)
    search = _Search(lexicon, solve_s, seconds, width)
    rows = []
    stopped = ""
    for done, move in enumerate(chosen):
        play = move.play if move.kind == PLACEMENT else None
        mean = wins = 0.0
        seen = exact = 0
        try:
            if progress is not None:
                progress(done, len(chosen), move.notation)
            for theirs, odds in draws(pool, rules.rack_size):  # (the opponent's rack; the bag is the rest)
                v, w, x = search.after(board, move.score, play, mine, rack_of(theirs.elements()), pool - theirs,
                                       position.scoreless_turns, False, spread)
                mean, wins, seen, exact = mean + odds * v, wins + odds * w, seen + 1, exact + x
        except KeyboardInterrupt:  # (EndgameInterrupted among them: this candidate is left out)
            stopped = "interrupt"
            break
        rows.append(PegRow(move.notation, move.equity, move.score, wins, spread + mean, seen, exact, move))
    rows.sort(key=lambda r: (-r.win_rate, -r.mean_spread, r.notation))
    return PegResult(rows, time.perf_counter() - start, bag, search.endgames, search.proven, stopped)


__all__ = ["CANDIDATES", "SOLVE_S", "WIDTH", "PegResult", "PegRow", "draws", "pre_endgame"]
