"""The static equity rule: what a move is worth now, its score and the value of what it keeps,
in integer milli-points (``RESOLUTION``), and the game facts it reads (``Situation``).

``EquityRule`` is a small set of parameters; ``MAGPIE`` (the default) is MAGPIE's rule, read in
MAGPIE@183bebc4 and written out in ``../shared/interop/MANIFEST.md`` ("MAGPIE's static equity
rule"; the file:line references below are that commit's):

- equity = score + leave term + opening term (``static_eval.h:114-139``), all in milli-points
  (``EQUITY_RESOLUTION`` = 1000, ``equity_defs.h:15``).
- While the bag holds a tile, the leave term is the leave table's value of the tiles kept,
  rounded once to milli-points as MAGPIE loads its f32 values (round(x * 1000), halves away
  from zero: ``klv.h:212-214``, ``equity.h:14-26``); 0 for the empty leave and for a leave the
  table lacks (``klv.h:71-77, 326-336``); plus ``peg_adjust[bag - tiles played + rack size]``
  where that index is inside the table (all zeros in MAGPIE: ``static_eval.h:15``).
- With the bag empty (``static_eval.h:134-137``, ``:49-66``): keeping tiles costs twice their
  face value plus 10 (``NON_OUTPLAY_CONSTANT_PENALTY``, ``static_eval_defs.h:7``); going out
  earns twice the face value of the opponent's rack.
- On the opening (no tile on the board, a placement: ``static_eval.h:22-47, 122-125``) each
  vowel placed (a blank as its letter; MAGPIE's ``is_vowel``: A E I O U) costs the penalty of
  its square: for a play across, the squares above and below it (the rows beside the start
  square's), for a play down those left and right of it; each such square with premiums adds
  ``half * (word multiplier - 1) + half * (letter multiplier - 1)``, ``half`` being
  ``OPENING_HOTSPOT_PENALTY / 2`` as C divides (-0.7 / 2: ``static_eval_defs.h:6``,
  ``board.h:724-796``). Computed from the ruleset's own board, so any layout gets its own.
- Exchanges take the leave term only, and are listed while the tiles the mover cannot see
  (the bag and the opponent's rack) number at least two racks (``move_gen.c:2920-2923``).
- The pass is never valued (``EQUITY_PASS_VALUE``, ``move_gen.c:3176-3181``): it ranks after
  every other move (MAGPIE prints -1000.00 for it, a display sentinel).

How the bag is counted is MAGPIE's too (``Situation.of``): the ruleset's tiles less the board
and the racks a position gives, so a position that gives no opponent's rack counts every
unseen tile as in the bag. Other engines differ in details (wolges and Quackle value the pass
as the exchange of nothing; Quackle's pre-endgame table is not zero): such a rule is another
``EquityRule``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ..alphabet import BLANK_FLAG
from ..board.board import Board, overdrawn
from ..errors import LexcError

if TYPE_CHECKING:
    from ..formats.leaves import LeaveTable
    from ..ruleset import Ruleset

RESOLUTION = 1000  # milli-points: lexc keeps every equity as an integer of these (MAGPIE's EQUITY_RESOLUTION)
MEMO_LIMIT = 1 << 18  # leave values a table's memo keeps before it starts again
_AS_BLANK = bytes(range(128)) + bytes((255,)) * 128  # a board code -> itself, a blank-flagged one -> 255


class EquityError(LexcError, ValueError):
    """A leave table that does not fit the position (another alphabet, leaves longer than the
    rack), or a position the rule cannot count (more tiles than the tile set has)."""


@dataclass(frozen=True)
class EquityRule:
    """The parameters of a static equity rule, in milli-points; ``MAGPIE`` is MAGPIE's."""

    name: str = "magpie"
    opening_hotspot_penalty: int = -700  # OPENING_HOTSPOT_PENALTY, -0.7 (static_eval_defs.h:6): half of it a
    # premium step of each square beside a vowel (board.h:724-741)
    nonoutplay_leave_multiplier: int = 2  # NON_OUTPLAY_LEAVE_SCORE_MULTIPLIER_PENALTY (static_eval.h:49-51)
    nonoutplay_constant: int = 10_000  # NON_OUTPLAY_CONSTANT_PENALTY, 10 points (static_eval_defs.h:7)
    outplay_multiplier: int = 2  # going out earns twice the opponent's rack (static_eval.h:53-55)
    exchange_unseen_racks: int = 2  # exchanges while bag + opponent's rack >= 2 racks (move_gen.c:2920-2923)
    peg_adjust: tuple[int, ...] = (0,) * 13  # by bag - tiles played + rack size (static_eval.h:15; MAGPIE's
    # RACK_SIZE, 7, is the ruleset's rack size here)
    pass_valued: bool = False  # MAGPIE never values the pass (move_gen.c:3176-3181): it ranks last

    def exchanges_allowed(self, situation: Situation, rack_size: int) -> bool:
        """Whether exchanges are candidates: the tiles unseen by the mover (bag and opponent's
        rack) number at least ``exchange_unseen_racks`` racks."""
        return situation.bag + situation.opponent_tiles >= self.exchange_unseen_racks * rack_size

    def keep_terms(self, values: Sequence[int | None], points: Sequence[int], sizes: Sequence[int], rack_tiles: int,
                   situation: Situation, rack_size: int) -> list[int]:
        """The term of each of several ways to keep tiles, for a move from a rack of
        ``rack_tiles`` tiles: keeping ``sizes[i]`` tiles worth ``points[i]`` face value,
        valued ``values[i]`` milli-points by the leave table. While the bag holds a tile: the
        leave's value and the pre-endgame adjustment by bag - tiles used + rack size; with
        the bag empty: the cost of keeping tiles, or going out's reward."""
        if situation.bag > 0:
            peg = self.peg_adjust
            by_size = [peg[k] if 0 <= (k := situation.bag - (rack_tiles - size) + rack_size) < len(peg) else 0
                       for size in range(rack_tiles + 1)]
            return [(value or 0) + by_size[size] for value, size in zip(values, sizes, strict=True)]
        out = self.outplay_multiplier * situation.opponent_points * RESOLUTION
        cost, constant = self.nonoutplay_leave_multiplier * RESOLUTION, self.nonoutplay_constant
        return [-cost * point - constant if size else out for point, size in zip(points, sizes, strict=True)]

    def opening_penalties(self, ruleset: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The penalty of a vowel on each square of the opening play's line, from the
        ruleset's board: (across, by column; down, by row)."""
        n, (row, col) = ruleset.board_size, ruleset.start
        p = self.opening_hotspot_penalty
        half = -(-p // 2) if p < 0 else p // 2  # (C's division: toward zero)

        def cost(r: int, c: int) -> int:
            letter, word = ruleset.premiums[r][c]
            return half * (word - 1) + half * (letter - 1)

        across = tuple(sum(cost(r, j) for r in (row - 1, row + 1) if 0 <= r < n) for j in range(n))
        down = tuple(sum(cost(i, c) for c in (col - 1, col + 1) if 0 <= c < n) for i in range(n))
        return across, down

    def opening_term(self, tiles: bytes, start: int, down: bool, penalties: tuple[tuple[int, ...], tuple[int, ...]],
                     vowels: frozenset[int]) -> int:
        """The opening term of a placement: its ``tiles`` from square ``start`` of its line
        (a row across, a column down), each vowel placed costing its square's penalty."""
        line = penalties[1] if down else penalties[0]
        return sum(line[start + i] for i, tile in enumerate(tiles) if tile and (tile & ~BLANK_FLAG) in vowels)


MAGPIE = EquityRule()
RULES = {"magpie": MAGPIE}


@dataclass(frozen=True)
class Situation:
    """What the rule reads of the game beside the move: the tiles in the bag, the opponent's
    rack (its tiles and their face value, when known) and whether the board is empty."""

    bag: int
    opponent_tiles: int = 0
    opponent_points: int = 0
    opening: bool = False

    @classmethod
    def of(cls, board: Board, rack: str, opponent: str | None = None) -> Situation:
        """MAGPIE's count: the bag is the ruleset's tiles less the board, the rack and the
        opponent's rack as given (none: every unseen tile is in the bag). An EquityError for
        a position holding more of a tile than the tile set has."""
        rules = board.ruleset
        theirs = rules.alphabet.parse_rack(opponent) if opponent else ([], 0)
        left = Counter(dict(enumerate(unseen_tiles(board, rack, opponent))))
        short = overdrawn(left, rules.alphabet)
        if short:
            raise EquityError(f"the board and racks hold more tiles than the {rules.name} set has: {short}")
        return cls(sum(left.values()), len(theirs[0]) + theirs[1], sum(rules.value(c) for c in theirs[0]),
                   board.is_empty())

    @property
    def unseen(self) -> int:
        """The tiles the mover cannot see: the bag and the opponent's rack."""
        return self.bag + self.opponent_tiles


def unseen_tiles(board: Board, rack: str, opponent: str | None = None) -> list[int]:
    """How many of each tile (by code, the blanks at 0) are neither on the board nor on the
    rack nor on the opponent's rack as given: the bag, with the opponent's rack when it is not
    given (below 0 where the position holds more than the set has)."""
    rules = board.ruleset
    alphabet = rules.alphabet
    mine = alphabet.parse_rack(rack)
    theirs = alphabet.parse_rack(opponent) if opponent else ([], 0)
    tiles = b"".join(board.rows).translate(_AS_BLANK)  # (a blank on the board counts as a blank)
    held = [tiles.count(code) for code in range(len(alphabet) + 1)]
    held[0] = tiles.count(_AS_BLANK[BLANK_FLAG]) + mine[1] + theirs[1]
    for code in chain(mine[0], theirs[0]):
        held[code] += 1
    return [rules.count(code) - n for code, n in enumerate(held)]


def vowel_codes(ruleset: Ruleset) -> frozenset[int]:
    """The letter codes MAGPIE counts as vowels (its ``is_vowel`` column: A E I O U, with any
    accent)."""
    from ..formats.magpie import is_vowel

    alphabet = ruleset.alphabet
    return frozenset(code for code in alphabet.codes if is_vowel(alphabet.label(code)))


_MEMO: WeakKeyDictionary[LeaveTable, dict[bytes, int]] = WeakKeyDictionary()
_FITS: WeakKeyDictionary[LeaveTable, tuple[tuple[str, ...], int]] = WeakKeyDictionary()


def milli(value: float) -> int:
    """A value in milli-points as MAGPIE loads a leave's (``double_to_equity``: round(x * 1000)
    of the value as a double, halves away from zero)."""
    scaled = value * RESOLUTION
    size = abs(scaled)
    whole = math.floor(size)
    rounded = whole + (1 if size - whole >= 0.5 else 0)  # (exact: no sum is rounded before the floor)
    return -rounded if scaled < 0 else rounded


def table_millis(table: LeaveTable, leaves: Sequence[bytes]) -> list[int]:
    """The value of each leave (its codes sorted) in milli-points: ``milli(table.value(leave))``
    (the engines' lookup: a KLV's rank walk), remembered for the table, since a position asks
    for every sub-rack of its rack and a game for many racks alike."""
    memo = _MEMO.get(table)
    if memo is None:
        memo = _MEMO[table] = {}
    out = [memo.get(leave) for leave in leaves]
    if None in out:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        for k, leave in enumerate(leaves):
            if out[k] is None:
                out[k] = memo[leave] = milli(table.value(leave))
    return out  # type: ignore[return-value]  # (no None is left)


def check_table(table: LeaveTable, ruleset: Ruleset) -> None:
    """An EquityError, in one line, for a leave table that does not fit the ruleset: read
    for another alphabet, or holding a leave longer than the rack."""
    fit = _FITS.get(table)
    if fit is None:
        longest = max((len(leave) for leave in table.values), default=0)
        fit = _FITS[table] = (tuple(table.ruleset.alphabet.labels), longest)
    labels, longest = fit
    name = table.source or "the leave table"
    if labels != tuple(ruleset.alphabet.labels):
        raise EquityError(f"{name}: leaves of the {table.ruleset.name} alphabet, not the {ruleset.name} ruleset's")
    if longest > ruleset.rack_size:
        raise EquityError(f"{name}: holds a leave of {longest} tiles, longer than the {ruleset.name} rack's "
                          f"{ruleset.rack_size}")
