"""MAVEN's linear leave model (Sheppard 2002, section 3.3): a value per combination, a leave's
value the sum over the combinations it holds (``features.py``).

Two parts, kept apart on purpose:

- ``static_value(leave)``: the tiles, duplicates, triplicates, QU and the vowel/consonant
  balance: a function of the leave alone, so it compiles to a leave file (``table()``: a
  ``LeaveTable`` of every leave of 1 to rack-size - 1 tiles the bag can hold, then KLV2, KLV,
  CSV by the existing writers) and any engine looks it up by rank;
- ``context_value(leave, unseen, bag)``: U-with-Q-unseen and the tile turnover, which depend
  on the tiles the mover cannot see; a player that sees them adds it at the table.

``value(leave, unseen, bag)`` is their sum: what a player ranks plays by (score + value).

A leave file holds one value a leave, so a player that reads one cannot add the context terms
position by position. What it holds (``table_value``) is the static value plus the context
terms' **mean** for such a leave over the games learned from (``context_means``: the mean of
U-with-Q-unseen over the leaves holding a U and no Q, and the mean turnover feature by leave
size), so that their weights, fitted apart from the static ones, still reach the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..formats.leaves import EXACT, LeaveTable, drawable_leaves
from ..ruleset import Ruleset
from .features import BLANK, Features


@dataclass
class LinearModel:
    """The weights of a ruleset's features (``features.names``), 0 for all of them at first."""

    features: Features
    weights: list[float]
    # the context features' means over the observations they were learned from: U-with-Q-unseen
    # over the leaves holding a U and no Q ("u_with_q_unseen": a float), the turnover feature by
    # leave size ("turnover": a list, index = tiles kept); empty: nothing learned, no mean added
    context_means: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def zero(cls, ruleset: Ruleset) -> LinearModel:
        """A model that knows nothing: every weight 0 (where MAVEN's learning started)."""
        features = Features.of(ruleset)
        return cls(features, [0.0] * len(features))

    @classmethod
    def from_parameters(cls, ruleset: Ruleset, parameters: dict[str, float]) -> LinearModel:
        """A model from weights by name (a name not given: 0); ValueError for a name that is
        not one of the ruleset's features."""
        features = Features.of(ruleset)
        index = {name: i for i, name in enumerate(features.names)}
        weights = [0.0] * len(features)
        for name, value in parameters.items():
            if name not in index:
                raise ValueError(f"{name!r} is not a leave feature of the {ruleset.name} ruleset")
            weights[index[name]] = float(value)
        return cls(features, weights)

    @property
    def ruleset(self) -> Ruleset:
        return self.features.ruleset

    def parameters(self) -> dict[str, float]:
        """The weights by name, in the features' order."""
        return dict(zip(self.features.names, self.weights, strict=True))

    def static_value(self, leave: bytes) -> float:
        """The value of the leave alone (its codes in any order): what a leave file holds (0
        for the empty leave); the weights of ``features.static_vector(leave)`` summed."""
        return self.static_sorted(bytes(sorted(leave)))

    def single_values(self) -> list[float]:
        """The static value of each one-tile leave, by code (0 for a tile the bag lacks)."""
        return [self.static_value(bytes([code])) if self.features.single[code] >= 0 else 0.0
                for code in range(len(self.features.single))]

    def unseen_mean(self, unseen: Sequence[int], singles: Sequence[float] | None = None) -> float:
        """The mean static value of a one-tile leave over the unseen tiles (counts by code):
        MAVEN's tile-turnover value of a tile drawn; 0 with nothing unseen."""
        singles = self.single_values() if singles is None else singles
        total = sum(n for n in unseen if n > 0)
        if not total:
            return 0.0
        return math.fsum(singles[code] * n for code, n in enumerate(unseen) if n > 0) / total

    def draw_value(self, unseen: Sequence[int], singles: Sequence[float] | None = None) -> float:
        """What a tile drawn is worth beyond an average tile: ``unseen_mean`` of the unseen
        tiles less that of the whole tile set (the turnover feature's rate). Centred so, the
        turnover measures how much better than usual the unseen tiles are, apart from how
        many tiles a move draws (which the leave's size, and so the vowel/consonant terms,
        already say)."""
        singles = self.single_values() if singles is None else singles
        rules = self.ruleset
        whole = [rules.count(code) for code in range(len(singles))]
        return self.unseen_mean(unseen, singles) - self.unseen_mean(whole, singles)

    def context_value(self, leave: bytes, unseen: Sequence[int], bag: int, draw_value: float | None = None) -> float:
        """U-with-Q-unseen and tile turnover for a leave, the mover seeing ``unseen`` (counts by
        code: the bag and the opponent's rack) with ``bag`` tiles in the bag."""
        mean = self.draw_value(unseen) if draw_value is None else draw_value
        w = self.weights
        return math.fsum(w[i] * x for i, x in self.features.context_vector(leave, unseen, bag, mean).items())

    def value(self, leave: bytes, unseen: Sequence[int] | None = None, bag: int = 0,
              draw_value: float | None = None) -> float:
        """The leave's value in points: the static value, plus the context terms when the
        unseen tiles are given."""
        static = self.static_value(leave)
        if unseen is None:
            return static
        return static + self.context_value(leave, unseen, bag, draw_value)

    def mean_context(self, leave: bytes) -> float:
        """The context terms' mean for a leave (``context_means`` times the context weights):
        what ``table_value`` adds to the static value; 0 before anything is learned."""
        means, f, w = self.context_means, self.features, self.weights
        if not means:
            return 0.0
        total = 0.0
        if f.u_without_q(leave):
            total += w[f.u_with_q] * float(means.get("u_with_q_unseen", 0.0))
        turnover = means.get("turnover") or []
        if len(leave) < len(turnover):
            total += w[f.turnover] * float(turnover[len(leave)])
        return total

    def table_value(self, leave: bytes) -> float:
        """A sorted leave's value in a leave file: ``static_sorted`` plus ``mean_context``."""
        return self.static_sorted(leave) + self.mean_context(leave)

    def leaves(self) -> ModelLeaves:
        """The leave-file values (``table_value``) as a LeaveTable computed on demand (``ModelLeaves``): what an
        equity player reads, without listing 914,624 English leaves first."""
        return ModelLeaves(self)

    def table(self, leaves: Iterable[bytes] | None = None) -> LeaveTable:
        """The values of every leave of 1 to rack-size - 1 tiles the bag can hold (or of
        ``leaves``; ``table_value``: static, with the context terms' means) as a LeaveTable, for
        any leave-file writer (``formats.leaves.write_leaves``)."""
        values = {leave: self.table_value(leave) for leave in (drawable_leaves(self.ruleset) if leaves is None
                                                                   else leaves)}
        return LeaveTable(values, self.ruleset, EXACT, "lexc leave model", "")

    def static_sorted(self, leave: bytes) -> float:
        """``static_value`` of a sorted leave, without building its vector (a table computes
        every leave's: 914,624 for English)."""
        f, w = self.features, self.weights
        total = 0.0
        v = c = 0
        i, n = 0, len(leave)
        while i < n:
            code = leave[i]
            j = i
            while j < n and leave[j] == code:
                j += 1
            run = j - i
            total += w[f.single[code]] * run
            if run >= 2 and f.double[code] >= 0:
                total += w[f.double[code]]
            if run >= 3 and f.triple[code] >= 0:
                total += w[f.triple[code]]
            if code != BLANK:
                if f.vowel[code]:
                    v += run
                else:
                    c += run
            i = j
        if f.qu >= 0 and f.q_code is not None and f.u_code is not None and f.q_code in leave and f.u_code in leave:
            total += w[f.qu]
        index = f.vc.get((v, c))
        if index is not None:
            total += w[index]
        return total


class ModelLeaves(LeaveTable):
    """A linear model's leave-file values (``table_value``) as a leave table whose ``value`` computes a leave's
    value when asked (the equity rule asks for a rack's sub-racks only, and remembers them):
    the same values ``LinearModel.table()`` lists, for every leave of 1 to rack-size - 1 tiles;
    0 for the empty leave and for a leave longer, as an engine answers for a leave it lacks."""

    def __init__(self, model: LinearModel):
        super().__init__({}, model.ruleset, EXACT, "lexc leave model", "the leave model")
        self.model = model
        self._longest = model.ruleset.rack_size - 1

    def value(self, leave: bytes) -> float:
        """The model's leave-file value of the leave (its codes in any order)."""
        if not leave or len(leave) > self._longest:
            return 0.0
        return self.model.table_value(bytes(sorted(leave)))
