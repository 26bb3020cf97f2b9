"""Simulation (Sheppard 2002, section 5): candidate moves compared by playing the game forward.

For each of the best ``candidates`` moves by static equity (placements, exchanges, the pass;
or the moves asked for), an iteration draws the opponent's rack from the tiles the mover
cannot see (the bag and the opponent's rack, shuffled) and plays ``plies`` moves after the
candidate, both sides choosing by static equity (``lexc.equity``), each refilling its rack
from the bag in its order. The candidate scores the spread it gained over those moves (its
own score included) plus the value of the last mover's leave (counted for the mover, against
the opponent), while the bag holds tiles; a side that goes out with the bag empty ends the
game and takes twice the other rack. Every candidate of an iteration meets the same draws
(common random numbers: the same rack for the opponent, the same bag order), so their
differences carry less noise than their values. Win rate: the share of iterations that end
ahead on the whole game's spread (a tie counts half).

Iterations run in batches (``BATCH``), each a task for ``lexc.parallel``: iteration ``i``
draws from its own generator, seeded by the seed and ``i``, so the results are the same in
this process, on every local core or on a cluster. The search stops at the iteration
limit, at the time budget (checked between batches: the one stop that depends on the
machine), or once the leader's mean is ahead of every other candidate's by more than
``z`` standard errors of their paired differences (checked after each batch, in order).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..board.board import Board, Position
from ..board.notation import parse_play
from ..equity import EXCHANGE, PASS, PLACEMENT, Candidate, Situation, candidates
from ..equity.rule import RESOLUTION, unseen_tiles
from ..errors import LexcError
from ..parallel import local_cores, run_tasks

BATCH = 25  # iterations a task
Z = {0.9: 1.2816, 0.95: 1.6449, 0.99: 2.3263}  # one-sided normal quantiles of the confidences offered


class SimError(LexcError, ValueError):
    """A simulation that cannot run as asked (no candidate, a limit out of range)."""


@dataclass(frozen=True)
class SimSettings:
    """How a simulation runs: the candidates (the best ``candidates`` by static equity, or the
    notations in ``moves``), the plies after each, the iteration limit, the time budget
    (seconds, None: none), the confidence at which a clear leader stops it (None: never),
    the seed, and where it runs (``workers``, ``scheduler``: ``lexc.parallel``)."""

    candidates: int = 20
    plies: int = 2
    iterations: int = 1000
    seconds: float | None = None
    confidence: float | None = 0.95
    seed: int = 0
    workers: int | None = 1
    scheduler: str | None = None
    moves: tuple[str, ...] = ()

    def check(self) -> None:
        """SimError for a setting out of range."""
        if not 1 <= self.candidates <= 1000:
            raise SimError(f"simulate 1 to 1,000 candidates, not {self.candidates}")
        if not 1 <= self.plies <= 20:
            raise SimError(f"simulate 1 to 20 plies after each candidate, not {self.plies}")
        if not 1 <= self.iterations <= 10_000_000:
            raise SimError(f"an iteration limit of 1 to 10,000,000, not {self.iterations}")
        if self.seconds is not None and not 0 < self.seconds <= 86_400:
            raise SimError(f"a time budget of {self.seconds} s: give a number of seconds above 0 (at most a day)")
        if self.confidence is not None and self.confidence not in Z:
            raise SimError(f"a confidence of {self.confidence}: one of {', '.join(map(str, Z))}")


@dataclass
class SimRow:
    """A candidate's figures: the move, its static equity and score, what it keeps, and over
    the iterations run the mean of its outcome (points), its standard error and win rate."""

    notation: str
    kind: str
    equity: float | None
    score: int
    leave: str
    outcomes: list[float] = field(default_factory=list, repr=False)
    wins: float = 0.0
    candidate: Candidate | None = field(default=None, repr=False, compare=False)

    @property
    def iterations(self) -> int:
        """The iterations it was simulated in."""
        return len(self.outcomes)

    @property
    def mean(self) -> float:
        """Its mean outcome."""
        return statistics.fmean(self.outcomes) if self.outcomes else 0.0

    @property
    def stderr(self) -> float:
        """The standard error of that mean."""
        n = len(self.outcomes)
        return statistics.stdev(self.outcomes) / math.sqrt(n) if n > 1 else math.inf

    @property
    def win_rate(self) -> float:
        """The share of its iterations that end ahead (ties half)."""
        return self.wins / len(self.outcomes) if self.outcomes else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"move": self.notation, "kind": self.kind, "equity": self.equity, "score": self.score,
                "leave": self.leave, "mean": self.mean, "stderr": None if math.isinf(self.stderr) else self.stderr,
                "win_rate": self.win_rate, "iterations": self.iterations}


@dataclass
class SimResult:
    """A simulation's outcome: its rows best first (by mean outcome), the iterations run, the
    seconds taken, why it stopped (``limit``, ``confident``, ``time``, ``interrupt``) and its
    settings."""

    rows: list[SimRow]
    iterations: int
    seconds: float
    stopped: str
    settings: SimSettings

    def best(self) -> SimRow:
        """The leader."""
        return self.rows[0]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"iterations": self.iterations, "seconds": round(self.seconds, 3), "stopped": self.stopped,
                "seed": self.settings.seed, "plies": self.settings.plies,
                "candidates": [row.as_dict() for row in self.rows]}


@dataclass(frozen=True)
class Batch:
    """A task: iterations ``first`` .. ``first + count - 1`` of a simulation of the candidates
    ``moves`` from the position ``cgp`` (the mover's rack, the board), on the lexicon and leave files named
    (``lexfile`` None: the bundled ENABLE)."""

    cgp: str
    ruleset: str
    lexfile: str | None
    leaves_file: str
    moves: tuple[Candidate, ...]
    plies: int
    seed: int
    first: int
    count: int


def choose_candidates(position: Position, lexicon: Any, leaves: Any, settings: SimSettings) -> list[Candidate]:
    """The candidates: the moves named in ``settings.moves`` (as the static ranking lists
    them), else the best ``settings.candidates`` of that ranking."""
    ranked = candidates(position.board, position.rack, lexicon, leaves,
                        situation=Situation.of(position.board, position.rack)).ranked()
    if not settings.moves:
        return ranked[: settings.candidates]
    return named(position.board, ranked, settings.moves)


def named(board: Board, ranked: list[Candidate], names: tuple[str, ...]) -> list[Candidate]:
    """The candidates of ``ranked`` that ``names`` name (as the ranking writes them, or a
    placement without its board tiles in brackets), in that order; SimError for a name that
    is no move of the position."""
    by_name = {c.notation: c for c in ranked}
    chosen = []
    for name in names:
        found = by_name.get(name) or by_name.get(_canonical(board, name))
        if found is None:
            raise SimError(f"{name}: not a move of this position (write it as lexc moves lists it)")
        chosen.append(found)
    return chosen


def _canonical(board: Board, name: str) -> str:
    """A placement's notation as the ranking writes it (``8H WORD`` -> ``8H WORD`` with its
    board tiles in brackets), or the name itself."""
    try:
        return parse_play(name, board).notation(board)
    except (LexcError, ValueError):
        return name


def simulate(position: Position, lexicon: Any, leaves: Any, settings: SimSettings, *, lexfile: str | None = None,
             leaves_file: str | None = None, ruleset: str | None = None,
             progress: Callable[[int, int, list[SimRow]], None] | None = None) -> SimResult:
    """Simulate the position's candidates (see the module's docstring). With ``workers``
    other than 1 or a ``scheduler`` the batches run as tasks that open ``lexfile`` and
    ``leaves_file`` in each worker (the lexicon and leave table given are this process's);
    ``progress(done, limit, rows)`` after each batch. Ctrl-C stops it with what it has."""
    settings.check()
    local = settings.workers == 1 and settings.scheduler is None
    if not local and leaves_file is None:
        raise SimError("simulating on other processes needs the leave file's path (leaves_file)")
    board = position.board
    chosen = choose_candidates(position, lexicon, leaves, settings)
    if not chosen:
        raise SimError("no candidate to simulate")
    rows = [SimRow(c.notation, c.kind, c.equity, c.score, c.leave, candidate=c) for c in chosen]
    spread = position.scores[0] - position.scores[1]
    name = ruleset or board.ruleset.name
    cgp = Position(board, (position.rack, ""), position.scores, position.scoreless_turns).cgp()
    start = time.perf_counter()
    done, stopped = 0, "limit"
    wave = 1 if local else 2 * max(1, settings.workers or local_cores())
    try:
        while done < settings.iterations:
            batches: list[Batch] = []
            for _ in range(wave):
                count = min(BATCH, settings.iterations - done - sum(b.count for b in batches))
                if count <= 0:
                    break
                batches.append(Batch(cgp, name, lexfile, leaves_file or "", tuple(chosen),
                                     settings.plies, settings.seed, done + sum(b.count for b in batches), count))
            if local:
                results = [run_batch(b, lexicon, leaves, board) for b in batches]
            else:
                results = run_tasks(run_batch_task, batches, workers=settings.workers, scheduler=settings.scheduler)
            for outcomes in results:  # batch by batch, in order: where the stop falls is the same for any workers
                for row, values in zip(rows, outcomes, strict=True):
                    row.outcomes.extend(values)
                    row.wins += sum(win_share(spread + v) for v in values)
                done += len(outcomes[0])
                if progress is not None:
                    progress(done, settings.iterations, rows)
                if settings.confidence is not None and confident(rows, Z[settings.confidence]):
                    stopped = "confident"
                    break
            if stopped == "confident":
                break
            if settings.seconds is not None and time.perf_counter() - start >= settings.seconds:
                stopped = "time"
                break
    except KeyboardInterrupt:
        stopped = "interrupt"
    done = min(len(r.outcomes) for r in rows)
    for row in rows:  # (an interrupted batch leaves every row its whole iterations only)
        del row.outcomes[done:]
    rows.sort(key=lambda r: (-r.mean, r.notation))
    return SimResult(rows, done, time.perf_counter() - start, stopped, settings)


def win_share(final: float) -> float:
    """What a game ending ``final`` points ahead counts as a win: 1, a tie 1/2, a loss 0."""
    return 1.0 if final > 0 else 0.5 if final == 0 else 0.0


def confident(rows: list[SimRow], z: float) -> bool:
    """Whether the leader (the best mean) is ahead of every other candidate by more than
    ``z`` standard errors of the paired difference (the iterations share their draws), once
    2 batches have run."""
    if len(rows[0].outcomes) < 2 * BATCH:
        return False
    if len(rows) == 1:  # (nothing to compare: one candidate is its own leader)
        return True
    leader = max(rows, key=lambda r: r.mean)
    for row in rows:
        if row is leader:
            continue
        diffs = [a - b for a, b in zip(leader.outcomes, row.outcomes, strict=True)]
        sd = statistics.stdev(diffs)
        if sd == 0:
            if statistics.fmean(diffs) <= 0:
                return False
            continue
        if statistics.fmean(diffs) / (sd / math.sqrt(len(diffs))) <= z:
            return False
    return True


def run_batch_task(batch: Batch) -> list[list[float]]:
    """A batch in a worker: its lexicon and leave table opened once per process."""
    from ..board.board import parse_cgp
    from ..game.tasks import task_leaves, task_lexicon
    from ..ruleset import load_ruleset

    lexicon = task_lexicon(batch.lexfile, batch.ruleset)
    leaves = task_leaves(batch.leaves_file, batch.ruleset)
    board = parse_cgp(batch.cgp, load_ruleset(batch.ruleset)).board
    return run_batch(batch, lexicon, leaves, board)


def run_batch(batch: Batch, lexicon: Any, leaves: Any, board: Board) -> list[list[float]]:
    """Each candidate's outcomes over the batch's iterations (a list a candidate)."""
    from ..board.board import parse_cgp

    rack = parse_cgp(batch.cgp, board.ruleset).rack
    moves = batch.moves
    out: list[list[float]] = [[] for _ in moves]
    pool = [code for code, n in enumerate(unseen_tiles(board, rack)) for _ in range(max(n, 0))]
    for i in range(batch.first, batch.first + batch.count):
        rng = random.Random(f"lexc-sim:{batch.seed}:{i}")
        tiles = pool[:]
        rng.shuffle(tiles)
        size = min(board.ruleset.rack_size, len(tiles))
        theirs, bag = tiles[:size], tiles[size:]
        for k, move in enumerate(moves):
            out[k].append(playout(board, rack, move, theirs, bag, batch.plies, lexicon, leaves, rng.random()))
    return out


def playout(board: Board, rack: str, move: Candidate, theirs: list[int], bag: list[int], plies: int, lexicon: Any,
            leaves: Any, where: float) -> float:
    """The outcome of ``move`` in one iteration: the spread it and the ``plies`` moves after it
    gain for the mover, plus the last mover's leave (for the mover, against the opponent)
    while the bag holds tiles. ``where`` places an exchange's tiles back in the bag."""
    rules = board.ruleset
    alphabet = rules.alphabet
    letters, blanks = alphabet.parse_rack(rack)
    racks = [letters + [0] * blanks, list(theirs)]
    bag = list(bag)
    gained = [0, 0]
    side = 0
    last_leave = 0.0
    current: Candidate | None = move
    for ply in range(plies + 1):
        if current is None:  # a side's move by static equity
            text = alphabet.rack_text([c for c in racks[side] if c], racks[side].count(0))
            other = racks[1 - side]
            situation = Situation(len(bag), len(other), sum(rules.value(c) for c in other) if not bag else 0,
                                  board.is_empty())
            current = candidates(board, text, lexicon, leaves, situation=situation).best()
        board, ended = _apply(board, racks, side, current, bag, gained, where)
        last_leave = (current.leave_milli or 0) / RESOLUTION if bag else 0.0
        if ended:
            return float(gained[0] - gained[1])
        current = None
        if ply < plies:
            side = 1 - side
    return float(gained[0] - gained[1]) + (last_leave if side == 0 else -last_leave)


def _apply(board: Board, racks: list[list[int]], side: int, move: Candidate, bag: list[int], gained: list[int],
           where: float) -> tuple[Board, bool]:
    """Make ``move`` for ``side``: the board, the rack refilled from the front of the bag,
    the score; True when it ends the game (the rack emptied with the bag empty: twice the
    other rack to the mover)."""
    rules = board.ruleset
    rack = racks[side]
    if move.kind == PLACEMENT:
        assert move.play is not None
        for code in move.play.rack_letters():
            rack.remove(code)
        board = board.with_tiles(move.play.placed())
        gained[side] += move.score
        need = rules.rack_size - len(rack)
        rack.extend(bag[:need])
        del bag[:need]
        if not rack and not bag:
            gained[side] += 2 * sum(rules.value(c) for c in racks[1 - side])
            return board, True
    elif move.kind == EXCHANGE:
        letters, blanks = rules.alphabet.parse_rack(move.notation[1:])
        thrown = letters + [0] * blanks
        for code in thrown:
            rack.remove(code)
        rack.extend(bag[: len(thrown)])
        del bag[: len(thrown)]
        at = int(where * (len(bag) + 1))
        bag[at:at] = thrown
    else:
        assert move.kind == PASS
    return board, False


__all__ = ["BATCH", "Batch", "SimError", "SimResult", "SimRow", "SimSettings", "choose_candidates", "confident",
           "playout", "run_batch", "run_batch_task", "simulate"]

