"""The exact endgame (Sheppard 2002, section 6): with the bag empty each side knows the
other's rack, and the game is one of perfect information; ``solve`` finds its value and a
line of play that reaches it.

The value is what MAGPIE and Macondo report: the points the side to move gains on the
opponent from the position to the end of the game, under perfect play by both, end-of-game
rack points included (going out: twice the other rack; a game ended by passes, or by the
sixth scoreless turn in a row: each side loses its own rack's value). ``final_spread`` adds
it to the spread on the board.

Two paths give the same values. The compiled core's (``src/lexc/native/endgame.c``):
iterative deepening, alpha-beta with a transposition table, moves ordered by what they are
known or seen to be worth, one board kept up to date as plays are made and taken back; with
a time limit it returns the deepest finished iteration's line and says it is not proven.
The pure-Python one (``negamax``, the reference): the same rules and order, searched to the
end at once. ``path="auto"`` takes the core's where the lexicon's backend runs it (a word
graph of the core's own), else the pure one.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..board.board import Board, Position, overdrawn, unseen
from ..board.notation import Play
from ..errors import LexcError
from ..movegen import choose
from ..movegen.compiled import RECORD
from ..movegen.compiled import position as core_position
from ..plural import plural
from . import negamax
from .negamax import Node, Rack, rack_of, rack_text

PATHS = ("auto", "core", "pure")
Progress = Callable[[int, int, int, float, bool], None]
TABLE_BITS = 21  # transposition entries (2^21, 24 bytes each: 48 MiB)


class EndgameError(LexcError, ValueError):
    """A position the endgame search does not take (the bag not empty, a rack empty or
    unknown), or a limit out of range."""


@dataclass(frozen=True)
class LineMove:
    """One move of the principal variation: the side that makes it (0 the side to move at
    the start), its notation (``pass``), its score and, for the move that ends the game, the
    end-of-game rack points it brings the mover (``end_rack`` is the rack they come from)."""

    side: int
    notation: str
    score: int
    end_points: int = 0
    end_rack: str = ""

    def text(self) -> str:
        """``8H WORD 26``, with ``(EIR +6)`` after the move that ends the game."""
        end = f" ({self.end_rack or '-'} {self.end_points:+d})" if self.end_rack or self.end_points else ""
        return f"{self.notation} {self.score}{end}"


@dataclass(frozen=True)
class EndgameResult:
    """What ``solve`` found: the value, the spread at the end (``final_spread``), the
    principal variation, the depth in plies of the deepest finished iteration, the nodes
    searched, the seconds it took, whether the value is proven exact, why it stopped early
    (``""``, ``"time"``, ``"interrupt"``), the path that searched it, and the spread on
    the board before it (the mover's score less the other's)."""

    value: int
    final_spread: int
    pv: tuple[LineMove, ...]
    plies: int
    nodes: int
    seconds: float
    proven: bool
    stopped: str = ""
    path: str = "core"
    spread: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: value, final_spread, the line as text and as moves, the figures."""
        return {"value": self.value, "final_spread": self.final_spread, "proven": self.proven,
                "pv": [m.text() for m in self.pv],
                "moves": [{"side": m.side, "move": m.notation, "score": m.score, "end_points": m.end_points}
                          for m in self.pv],
                "plies": self.plies, "nodes": self.nodes, "seconds": round(self.seconds, 3),
                "stopped": self.stopped or None, "path": self.path}


def endgame_racks(position: Position) -> tuple[Rack, Rack]:
    """The two racks as tile codes; EndgameError unless both are given, neither is empty and
    the bag is empty (every tile of the set on the board or a rack)."""
    board = position.board
    rules = board.ruleset
    if not position.racks_given or not position.racks[0] or not position.racks[1]:
        raise EndgameError("an endgame needs both racks, neither empty (the CGP's MINE/THEIRS rack field)")
    bag = unseen(board, *position.racks)
    extra = overdrawn(bag, rules.alphabet)
    if extra:
        raise EndgameError(f"the board and racks hold more tiles than the {rules.name} set: {extra}")
    left = sum(bag.values())
    if left:
        raise EndgameError(f"the bag is not empty ({plural(left, 'tile')} unseen beyond the two racks): "
                           "the endgame starts when it is")
    racks = []
    for text in position.racks:
        letters, blanks = rules.alphabet.parse_rack(text)
        if len(letters) + blanks > rules.rack_size:
            raise EndgameError(f"rack {text} has {len(letters) + blanks} tiles; the {rules.name} rack holds "
                               f"{rules.rack_size}")
        racks.append(rack_of(letters + [0] * blanks))
    return racks[0], racks[1]


def solve(position: Position, lexicon: Any, seconds: float | None = None, max_depth: int | None = None,
          path: str = "auto", strategy: str = "auto", table_bits: int = TABLE_BITS,
          progress: Progress | None = None) -> EndgameResult:
    """The endgame's value and principal variation for the side to move (see the module's
    docstring), once the position is proved an endgame (``endgame_racks``). ``seconds``:
    stop after about this long with the deepest finished iteration's line, not proven (the
    core's path; the pure path has no limit); ``max_depth``: search at most this many plies
    (the core's path). Ctrl-C stops the core's search with its best line so far
    (``EndgameInterrupted``, whose ``result`` has ``stopped == "interrupt"``).
    ``progress(depth, value, nodes, seconds, proven)`` is told of each finished iteration
    of the core's search."""
    racks = endgame_racks(position)
    if position.scoreless_turns >= negamax.SCORELESS_END:
        raise EndgameError(f"{position.scoreless_turns} scoreless turns in a row: the game is over "
                           f"(it ends at the {negamax.SCORELESS_END}th)")
    return solve_racks(position.board, racks, lexicon, position.scoreless_turns,
                       position.scores[0] - position.scores[1], seconds, max_depth, path, strategy, table_bits,
                       progress)


def solve_racks(board: Board, racks: tuple[Rack, Rack], lexicon: Any, scoreless: int = 0, spread: int = 0,
                seconds: float | None = None, max_depth: int | None = None, path: str = "auto",
                strategy: str = "auto", table_bits: int = TABLE_BITS,
                progress: Progress | None = None) -> EndgameResult:
    """``solve``'s search itself, for a board and two racks (tile codes, 0 a blank; the side
    to move's first, neither empty) the caller vouches are an endgame, ``scoreless`` turns
    in a row before it and ``spread`` on the board (mover's score minus the other's)."""
    if path not in PATHS:
        raise EndgameError(f"unknown path {path!r} (known: {', '.join(PATHS)})")
    if seconds is not None and not 0 < seconds <= 1e6:
        raise EndgameError(f"a time limit of {seconds} s: give a number of seconds above 0 (at most 1,000,000)")
    if max_depth is not None and not 1 <= max_depth <= 1000:
        raise EndgameError(f"a depth limit of {max_depth} plies: give 1 to 1,000")
    if not 10 <= table_bits <= 30:
        raise EndgameError("the transposition table's size is 2^10 to 2^30 entries")
    if not racks[0] or not racks[1] or not 0 <= scoreless < negamax.SCORELESS_END:
        raise EndgameError("an endgame needs two racks, neither empty, and fewer than 6 scoreless turns")
    module = choose(lexicon, strategy)
    graph, roots = lexicon.search_graph(module.NAME)
    core = lexicon.backend.runs_whole(module.NAME, graph)
    if path == "core" and not core:
        raise EndgameError(f"the compiled core does not search the {lexicon.name} format here (path 'pure' does)")
    node = Node(board, (tuple(racks[0]), tuple(racks[1])), False, scoreless)
    if path == "core" or (path == "auto" and core):
        return _solve_core(node, spread, lexicon, graph, roots, module.NAME, seconds, max_depth, table_bits,
                           progress)
    return _solve_pure(node, spread, lexicon, module.NAME)


def _solve_pure(node: Node, spread: int, lexicon: Any, strategy: str) -> EndgameResult:
    """The reference search, to the end of the game."""
    start = time.perf_counter()
    search = negamax.Search(lexicon, strategy)
    value = search.value(node)
    line = search.line(node, value)
    pv = tuple(_line_move(n, m, side % 2) for side, (n, m) in enumerate(line))
    return EndgameResult(value, spread + value, pv, search.deepest, search.nodes, time.perf_counter() - start,
                         True, "", "pure", spread)


def _solve_core(node: Node, spread: int, lexicon: Any, graph: Any, roots: Sequence[int], strategy: str,
                seconds: float | None, max_depth: int | None, table_bits: int,
                progress: Progress | None) -> EndgameResult:
    """The compiled core's search; its line read back into moves on the board."""
    rules = node.board.ruleset

    def counts(rack: Rack) -> list[int]:
        out = [0] * (len(rules.alphabet) + 1)
        for code in rack:
            out[code] += 1
        return out

    value, proven, depth, nodes, spent, blob, stopped = lexicon.backend.endgame(
        core_position(node.board, counts(node.racks[0])), bytes(counts(node.racks[1])), graph, strategy, roots,
        node.scoreless, float(seconds or 0), table_bits, max_depth or 0, progress)
    pv = []
    for k in range(len(blob) // RECORD):
        rec = blob[k * RECORD : (k + 1) * RECORD]
        score, row, col, down, length = struct.unpack_from("<qBBBB", rec)
        move: negamax.Move = (0, None) if not length else (score, Play(row, col, bool(down), rec[12 : 12 + length]))
        pv.append(_line_move(node, move, k % 2))
        after = negamax.child(node, move)
        if after is None:
            break
        node = after
    result = EndgameResult(value, spread + value, tuple(pv), depth, nodes, spent, bool(proven), stopped, "core",
                           spread)
    if stopped == "interrupt":
        raise EndgameInterrupted(result)
    return result


def _line_move(node: Node, move: negamax.Move, side: int) -> LineMove:
    """A move of the line, with the end-of-game rack points when it ends the game."""
    score, play = move
    rules = node.board.ruleset
    mine, other = node.racks
    after = negamax.child(node, move)
    notation = "pass" if play is None else play.notation(node.board)
    if after is not None:
        return LineMove(side, notation, score)
    if play is None:  # the game ends on passes: each side loses its own rack
        return LineMove(side, notation, 0, negamax.pass_value(rules, mine, other), rack_text(rules, mine))
    return LineMove(side, notation, score, negamax.out_value(rules, 0, other), rack_text(rules, other))


class EndgameInterrupted(KeyboardInterrupt):
    """Ctrl-C during the search: ``result`` holds the best line found so far."""

    def __init__(self, result: EndgameResult):
        super().__init__("interrupted")
        self.result = result


__all__ = ["EndgameError", "EndgameInterrupted", "EndgameResult", "LineMove", "solve", "solve_racks"]
