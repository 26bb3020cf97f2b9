"""Every move of a position with its static equity (``rule``), ranked: the placements the move
generator finds (on the lexicon's backend), every distinct exchange while the rule allows
them, and the pass.

The placements stay compact (``movegen.Plays``): a play's leave is the rack less the tiles it
uses, so the rack's sub-racks are numbered once (``SubRacks``: at most 128 for seven tiles),
the rule's term for what each keeps computed once, and a play's equity is its score plus the
term of the number of the tiles it uses (plus, on the opening, the penalty of its vowels):
the compiled core sums that for every record in one pass, the pure path in Python
(``weigh``, the reference). ``Candidate`` objects are made only for the moves asked for.

The order (``Candidates.ranked``): equity descending, then notation (code point order: an
exchange ``-ABC`` before a placement of the same equity); a move the rule does not value
(MAGPIE's pass) after every other.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from typing import TYPE_CHECKING, Any

from ..alphabet import BLANK_FLAG
from ..board.board import Board
from ..board.notation import Play
from ..movegen import generate_plays, symmetric
from ..native import Weighed, Weights
from .rule import MAGPIE, RESOLUTION, EquityError, EquityRule, Situation, check_table, table_millis, vowel_codes

if TYPE_CHECKING:
    from ..formats.leaves import LeaveTable
    from ..movegen.compiled import Plays
    from ..ruleset import Ruleset

PLACEMENT, EXCHANGE, PASS = "play", "exchange", "pass"
MAX_SUBRACKS = 1 << 16  # distinct sub-racks of a rack the rule values (a rack of 7 tiles has at most 128)


@dataclass(frozen=True)
class Candidate:
    """A move and its worth: ``kind`` (``play``, ``exchange``, ``pass``), its notation (``8H
    WORD``, ``-ABC``, ``-``), score, the tiles it keeps (``leave``, a rack text), the leave
    table's value of them in milli-points (None with the bag empty: the table is not used)
    and its equity in milli-points (None: the rule does not value it); ``play`` for a
    placement."""

    kind: str
    notation: str
    score: int
    leave: str
    leave_milli: int | None
    equity_milli: int | None
    play: Play | None = None

    @property
    def leave_value(self) -> float | None:
        """The leave's value in points (None with the bag empty)."""
        return None if self.leave_milli is None else self.leave_milli / RESOLUTION

    @property
    def equity(self) -> float | None:
        """The equity in points (None for a move the rule does not value)."""
        return None if self.equity_milli is None else self.equity_milli / RESOLUTION

    @property
    def adjustment(self) -> float | None:
        """The rest of the equity beyond the score and the leave's value: the opening
        penalty, the endgame term."""
        if self.equity_milli is None:
            return None
        return (self.equity_milli - self.score * RESOLUTION - (self.leave_milli or 0)) / RESOLUTION

    def as_dict(self) -> dict[str, Any]:
        """As ``lexc moves --leaves --json`` lists it."""
        return {"move": self.notation, "score": self.score, "leave": self.leave, "leave_value": self.leave_value,
                "equity": self.equity, "adjustment": self.adjustment}


def rank_key(candidate: Candidate) -> tuple[bool, int, str]:
    """The listing order: equity descending, then notation; an unvalued move last."""
    equity = candidate.equity_milli
    return equity is None, -(equity or 0), candidate.notation


class SubRacks:
    """The distinct sub-racks of a rack (the blank, code 0, included), numbered in mixed
    radix: each distinct tile has a place value, a sub-rack's number is the sum of its tiles'
    place values; so the tiles a move uses number what it uses, and the rack's number
    (``full``) less that numbers what it keeps. ``racks`` gives each sub-rack by number, its
    codes sorted (the blank first)."""

    def __init__(self, letters: list[int], blanks: int):
        counts = Counter(letters)
        if blanks:
            counts[0] = blanks
        size = 1
        for n in counts.values():
            size *= n + 1
        if size > MAX_SUBRACKS:
            raise EquityError(f"a rack of {len(letters) + blanks} tiles has {size:,} sub-racks; the equity rule "
                              f"values at most {MAX_SUBRACKS:,}")
        self.codes = sorted(counts)
        self.places: list[int] = []
        racks = [b""]
        for code in self.codes:  # (the first code's digit varies fastest: the numbers in order)
            self.places.append(len(racks))
            racks = [rack + tiles for tiles in [bytes((code,)) * k for k in range(counts[code] + 1)] for rack in racks]
        self.racks = racks
        self.size, self.full = len(racks), len(racks) - 1

    def sizes(self) -> list[int]:
        """Each sub-rack's tile count, by number."""
        return list(map(len, self.racks))

    def points(self, values: Sequence[int]) -> list[int]:
        """Each sub-rack's face value, by number (``values`` by code)."""
        return [sum(map(values.__getitem__, rack)) for rack in self.racks]

    def weights(self, letters: Iterable[int]) -> tuple[int, ...]:
        """Each tile code's place value (256): a blank-flagged letter the blank's, 0 on a
        square played through, ``size`` (past every number) for a tile not on the rack."""
        place = dict(zip(self.codes, self.places, strict=True))
        out = [self.size] * 256
        out[0] = 0
        for code in letters:
            out[code] = place.get(code, self.size)
            out[code | BLANK_FLAG] = place.get(0, self.size)
        return tuple(out)


class Candidates:
    """The candidates of a position, compact: the placements (a ``Plays`` and their
    equities), and the exchanges and the pass by the number of the sub-rack they use (the
    exchanges only where the rule allows them); ``len()``, ``ranked(top)``, ``best()``.
    ``terms[n]`` is the term of a move using the sub-rack numbered ``n`` (an exchange's whole
    equity), ``values[n]`` the leave table's value of sub-rack ``n`` as a leave."""

    def __init__(self, plays: Plays, weighed: Weighed, sub: SubRacks, values: list[int | None],
                 terms: list[int], weights: tuple[int, ...], exchanges: bool, pass_equity: int | None,
                 ruleset: Ruleset):
        self.plays, self.weighed, self.equities = plays, weighed, weighed.values
        self.sub, self.values, self.terms = sub, values, terms
        self.weights, self.exchanges, self.pass_equity, self.ruleset = weights, exchanges, pass_equity, ruleset

    def __len__(self) -> int:
        return len(self.equities) + (self.sub.full if self.exchanges else 0) + 1

    def ranked(self, top: int | None = None) -> list[Candidate]:
        """The candidates best first (``rank_key``), only the best ``top`` if given: a
        ``Candidate`` is made only for those and the moves tied with the last of them."""
        equities, terms, full = self.equities, self.terms, self.sub.full
        if top is not None and top <= 0:
            return []
        thrown: Sequence[int] = range(1, full + 1) if self.exchanges else range(0)
        passing = [] if self.pass_equity is None else [self.pass_equity]
        cut = None
        if top is not None and top < len(self):
            others = [terms[n] for n in thrown] + passing
            if top == 1:  # (the common question, the best move: the backend found the best play)
                best = self.weighed.best
                cut = max(chain([] if best is None else [best], others), default=None)
            else:
                valued = heapq.nlargest(top, chain(equities, others))
                cut = valued[-1] if len(valued) == top else None
        if cut is None:
            chosen: Sequence[int] = range(len(equities))
            out = [self._pass()]
        else:
            chosen = self.weighed.places if cut == self.weighed.best else at_least(equities, cut)
            thrown = [n for n in thrown if terms[n] >= cut]
            out = [self._pass()] if passing and passing[0] >= cut else []
        out += [self._exchange(n) for n in thrown]
        out += [self._placement(move, equities[i]) for i, move in zip(chosen, self.plays.picked(chosen), strict=True)]
        out.sort(key=rank_key)
        return out if top is None else out[:top]

    def best(self) -> Candidate:
        """The best candidate (the pass when there is nothing else)."""
        return self.ranked(1)[0]

    def _text(self, number: int) -> str:
        """Sub-rack ``number`` as a rack text (letters, then ``?`` for each blank)."""
        tiles = self.sub.racks[number]
        blanks = tiles.count(0)
        return self.ruleset.alphabet.rack_text(list(tiles[blanks:]), blanks)

    def _placement(self, move: Any, equity: int) -> Candidate:
        """A placement's candidate, what it keeps found by the number of the tiles it uses."""
        weights = self.weights
        kept = self.sub.full - sum(weights[tile] for tile in move.play.tiles)
        return Candidate(PLACEMENT, move.notation, move.score, self._text(kept), self.values[kept], equity, move.play)

    def _exchange(self, number: int) -> Candidate:
        """The exchange of sub-rack ``number``."""
        kept = self.sub.full - number
        return Candidate(EXCHANGE, "-" + self._text(number), 0, self._text(kept), self.values[kept], self.terms[number])

    def _pass(self) -> Candidate:
        """The pass: it keeps the whole rack."""
        full = self.sub.full
        return Candidate(PASS, "-", 0, self._text(full), self.values[full], self.pass_equity)


def at_least(values: Sequence[int], cut: int) -> list[int]:
    """The places of the values at least ``cut``."""
    return list(compress(range(len(values)), map(cut.__le__, values)))


def candidates(board: Board, rack: str, lexicon: Any, leaves: LeaveTable, *, opponent: str | None = None,
               rule: EquityRule = MAGPIE, strategy: str = "auto", situation: Situation | None = None,
               mirror: bool = True) -> Candidates:
    """Every candidate of the position, each with its equity under ``rule``: the placements
    (both directions on an empty board, unless ``mirror`` is False and the board is symmetric
    about its diagonal: then across only, as MAGPIE and wolges list them), every distinct
    exchange (each sub-rack, the blank included, once) when the rule allows them, and the
    pass. ``situation`` is the game as the rule counts it (default: ``Situation.of`` the
    board, the rack and the ``opponent``'s rack, MAGPIE's count). An EquityError for a leave
    table that does not fit the ruleset; the move generator's errors for a bad rack."""
    rules = board.ruleset
    check_table(leaves, rules)
    plays = generate_plays(board, rack, lexicon, strategy)
    if not mirror and board.is_empty() and symmetric(board):
        plays = plays.across()
    situation = situation or Situation.of(board, rack, opponent)
    letters, blanks = rules.alphabet.parse_rack(rack)
    sub = SubRacks(letters, blanks)
    values: list[int | None] = list(table_millis(leaves, sub.racks)) if situation.bag > 0 else [None] * sub.size
    kept = rule.keep_terms(values, sub.points(rules.tile_values) if situation.bag == 0 else [0] * sub.size,
                           sub.sizes(), len(letters) + blanks, situation, rules.rack_size)
    terms = kept[::-1]  # (a move using sub-rack n keeps sub-rack full - n)
    weights = sub.weights(rules.alphabet.codes)
    vowels = vowel_codes(rules) if situation.opening else frozenset()
    penalties = rule.opening_penalties(rules) if vowels else ((), ())
    spec = Weights(weights, tuple(terms), RESOLUTION, board.size,
                   bytes(1 if (code & ~BLANK_FLAG) in vowels else 0 for code in range(256)) if vowels else b"",
                   penalties[0] + penalties[1])
    equities = plays.equities(spec, lambda: weigh(plays.fields(), weights, terms, rule, penalties, vowels))
    return Candidates(plays, equities, sub, values, terms, weights, rule.exchanges_allowed(situation, rules.rack_size),
                      terms[0] if rule.pass_valued else None, rules)


def weigh(fields: Iterable[tuple[int, int, int, bool, bytes]], weights: tuple[int, ...], terms: Sequence[int],
          rule: EquityRule, penalties: tuple[tuple[int, ...], tuple[int, ...]], vowels: frozenset[int]) -> list[int]:
    """Each play's equity in milli-points (the reference the compiled core is held to): its
    score, the term of the tiles it keeps (by the number of those it uses), and on the
    opening the rule's penalty of its vowels."""
    out = []
    for score, row, col, down, tiles in fields:
        used = sum(weights[tile] for tile in tiles)
        if used >= len(terms):
            raise ValueError("a play's tiles are not the rack's")
        equity = score * RESOLUTION + terms[used]
        if vowels:
            equity += rule.opening_term(tiles, row if down else col, down, penalties, vowels)
        out.append(equity)
    return out
