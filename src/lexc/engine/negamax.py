"""The endgame search in pure Python: the reference the compiled core's search
(``src/lexc/native/endgame.c``) must agree with, value for value.

Negamax with alpha-beta (fail-soft) and a transposition table, searched to the end of the
game (no horizon: every value is exact), over the plays ``movegen.generate_plays`` finds at
each node. The rules are ``endgame``'s (``out_value``, ``pass_value``, ``passing_ends``):
a node's value is what the side to move gains on the other from there to the end. A table
entry is (value, bound) under the node's key (board, both racks, the pass, the scoreless
count). The order the moves are tried in is the core's: plays going out first (their
value known), then by score, the pass last unless it ends the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..board.board import Board
from ..board.notation import THROUGH, Play
from ..movegen import generate_plays
from ..ruleset import Ruleset

EXACT, LOWER, UPPER = 0, 1, 2
SCORELESS_END = 6  # the sixth scoreless turn in a row ends the game
Rack = tuple[int, ...]  # tile codes in order, 0 for a blank


@dataclass(frozen=True)
class Node:
    """A position of the search: the board, the racks (the side to move's first), whether
    the last turn was a pass of the search, and the scoreless turns in a row."""

    board: Board
    racks: tuple[Rack, Rack]
    passed: bool
    scoreless: int

    def key(self) -> tuple[Any, ...]:
        """The table's key."""
        return self.board.rows, self.racks, self.passed, self.scoreless


def rack_value(ruleset: Ruleset, rack: Rack) -> int:
    """The face value of a rack."""
    return sum(ruleset.value(code) for code in rack)


def out_value(ruleset: Ruleset, score: int, other: Rack) -> int:
    """The value of a play that empties the mover's rack: its score plus twice the other
    rack (the spread is the same under the add-and-subtract rule)."""
    return score + 2 * rack_value(ruleset, other)


def pass_value(ruleset: Ruleset, mine: Rack, other: Rack) -> int:
    """The value of a pass that ends the game: each side loses its own rack's value."""
    return rack_value(ruleset, other) - rack_value(ruleset, mine)


def passing_ends(node: Node) -> bool:
    """Whether the mover's pass ends the game: the search's second pass in a row, or the
    sixth scoreless turn in a row. (Ending on the second pass keeps values exact: two passes
    give the same board back, and a side that would rather play had played the first time.)"""
    return node.passed or node.scoreless + 1 >= SCORELESS_END


def rack_of(codes: Iterable[int]) -> Rack:
    """Tile codes as a rack: the letters in order, then the blanks (0)."""
    tiles = list(codes)
    return tuple(sorted(c for c in tiles if c)) + (0,) * tiles.count(0)


def rack_text(ruleset: Ruleset, rack: Rack) -> str:
    """A rack as text."""
    return ruleset.alphabet.rack_text([c for c in rack if c], rack.count(0))


def take(rack: Rack, play: Play) -> Rack:
    """The rack without the play's tiles."""
    left = list(rack)
    for code in play.rack_letters():
        left.remove(code)
    return tuple(left)


Move = tuple[int, Play | None]  # (score, play); a pass is (0, None)


def moves(node: Node, lexicon: Any, strategy: str = "auto") -> list[Move]:
    """The node's plays in the order they are tried (going out first, then by score, ties
    as generated), then the pass (first when it ends the game)."""
    board, (mine, other) = node.board, node.racks
    ruleset = board.ruleset
    found = []
    for index, (score, row, col, down, tiles) in enumerate(
            generate_plays(board, rack_text(ruleset, mine), lexicon, strategy).fields()):
        play = Play(row, col, down, tiles)
        placed = sum(1 for code in tiles if code != THROUGH)
        key = out_value(ruleset, score, other) + (1 << 56) if placed == len(mine) else score
        found.append((-key, index, score, play))
    found.sort(key=lambda item: (item[0], item[1]))
    ordered: list[Move] = [(score, play) for _, _, score, play in found]
    return [(0, None), *ordered] if passing_ends(node) else [*ordered, (0, None)]


def child(node: Node, move: Move) -> Node | None:
    """The node after a move, None when the move ends the game."""
    play = move[1]
    mine, other = node.racks
    if play is None:
        return None if passing_ends(node) else Node(node.board, (other, mine), True, node.scoreless + 1)
    left = take(mine, play)
    if not left:
        return None
    return Node(node.board.with_tiles(play.placed()), (other, left), False, 0)


def move_value(node: Node, move: Move, later: int | None) -> int:
    """A move's value given the value of the node after it (``later``; None when it ends
    the game)."""
    score, play = move
    mine, other = node.racks
    ruleset = node.board.ruleset
    if later is None:
        return pass_value(ruleset, mine, other) if play is None else out_value(ruleset, score, other)
    return score - later


class Search:
    """The search over one lexicon: ``value(node)`` the exact value, ``nodes`` those
    searched, ``deepest`` the most plies below the first node it reached, ``table`` the
    transposition table."""

    def __init__(self, lexicon: Any, strategy: str = "auto"):
        self.lexicon, self.strategy = lexicon, strategy
        self.table: dict[tuple[Any, ...], tuple[int, int]] = {}
        self.nodes = self.deepest = 0

    def value(self, node: Node, alpha: float = float("-inf"), beta: float = float("inf"), ply: int = 0) -> int:
        """The node's value within (alpha, beta), fail-soft: exact when inside, a bound
        outside."""
        self.nodes += 1
        self.deepest = max(self.deepest, ply + 1)
        key = node.key()
        hit = self.table.get(key)
        if hit is not None:
            v, bound = hit
            if bound == EXACT or (bound == LOWER and v >= beta) or (bound == UPPER and v <= alpha):
                return v
        best, a = None, alpha
        for move in moves(node, self.lexicon, self.strategy):
            after = child(node, move)
            score = move[0]
            later = None if after is None else self.value(after, score - beta, score - a, ply + 1)
            v = move_value(node, move, later)
            if best is None or v > best:
                best = v
                a = max(a, v)
                if a >= beta:
                    break
        assert best is not None  # (the pass is always a move)
        self.table[key] = (best, UPPER if best <= alpha else LOWER if best >= beta else EXACT)
        return best

    def line(self, node: Node, value: int) -> list[tuple[Node, Move]]:
        """A principal variation of ``value`` from ``node``: at each node the first move (in
        the order tried) whose value is the node's, until the game ends."""
        out: list[tuple[Node, Move]] = []
        here: Node | None = node
        while here is not None:
            for move in moves(here, self.lexicon, self.strategy):
                after = child(here, move)
                score = move[0]
                later = None if after is None else self.value(after, score - value - 1, score - value + 1)
                if move_value(here, move, later) == value:
                    out.append((here, move))
                    here = after
                    if after is not None:
                        value = score - value
                    break
            else:
                raise AssertionError("no move has the node's value")  # (a value the search gave)
        return out
