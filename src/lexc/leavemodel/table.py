"""The full table (wolges's and MAGPIE's "superleaves": every leave its own value), learned
from the same observations as the linear model and smoothed toward it.

For each leave seen, ``TableStats`` keeps the count n, the sum of the future spreads, and the
sums of its context features (U-with-Q-unseen, turnover). After the fit, the leave's mean
residual r (the spread the linear model did not predict: spread - static - context - controls,
averaged over its n observations) is shrunk toward 0 with a prior of k observations, the
posterior mean of a normal model whose prior is the linear model's value:

    value(leave) = static(leave) + n / (n + k) * r

so a leave seen often gets its own mean, a leave seen rarely keeps close to the linear model,
and a leave never seen keeps the linear model's value exactly.
"""

from __future__ import annotations

from ..formats.leaves import EXACT, LeaveTable, drawable_leaves
from .features import Vector
from .linear import LinearModel

DEFAULT_PRIOR = 50.0  # observations' worth of trust in the linear model


class TableStats:
    """Per leave: [count, sum of spread, sum of u_with_q_unseen, sum of turnover, sum of pool]."""

    def __init__(self, model: LinearModel):
        self.features = model.features
        self.rows: dict[bytes, list[float]] = {}

    def add(self, leave: bytes, x: Vector, spread: float) -> None:
        """One observation of a leave (sorted codes) with features ``x``."""
        row = self.rows.get(leave)
        if row is None:
            row = self.rows[leave] = [0.0, 0.0, 0.0, 0.0, 0.0]
        f = self.features
        row[0] += 1
        row[1] += spread
        row[2] += x.get(f.u_with_q, 0.0) if f.u_with_q >= 0 else 0.0
        row[3] += x.get(f.turnover, 0.0)
        row[4] += x.get(f.pool, 0.0)

    def as_text(self, model: LinearModel) -> dict[str, list[float]]:
        """The rows by leave text (the model file's ``table.leaves``), leaves in code order."""
        table = LeaveTable({}, model.ruleset)
        return {table.text(leave): row for leave, row in sorted(self.rows.items())}

    @classmethod
    def from_text(cls, model: LinearModel, rows: dict[str, list[float]]) -> TableStats:
        """The rows of a model file (ValueError for a leave that is not the ruleset's)."""
        stats = cls(model)
        table = LeaveTable({}, model.ruleset)
        for text, row in rows.items():
            stats.rows[table.leave_of(text)] = list(row)
        return stats


def residual(model: LinearModel, leave: bytes, row: list[float]) -> float:
    """The mean spread of a leave's observations that the fitted model did not predict."""
    f, w = model.features, model.weights
    n, spread, u, turnover, pool = row
    predicted = n * (model.static_value(leave) + w[f.bias]) + w[f.turnover] * turnover + w[f.pool] * pool
    if f.u_with_q >= 0:
        predicted += w[f.u_with_q] * u
    return (spread - predicted) / n


def full_table(model: LinearModel, stats: TableStats, prior: float = DEFAULT_PRIOR) -> LeaveTable:
    """Every leave of 1 to rack-size - 1 tiles the bag can hold, each its linear value plus its
    shrunk residual (``n / (n + prior)``)."""
    values: dict[bytes, float] = {}
    rows = stats.rows
    for leave in drawable_leaves(model.ruleset):
        value = model.table_value(leave)
        row = rows.get(leave)
        if row is not None and row[0] > 0:
            value += row[0] / (row[0] + prior) * residual(model, leave, row)
        values[leave] = value
    return LeaveTable(values, model.ruleset, EXACT, "lexc leave table", "")
