"""Least squares for the leave models, in pure Python (no numpy): the normal equations
X^T X w = X^T y accumulated one observation at a time (``NormalEquations.add``: bounded
memory whatever the number of observations, as millions of turns need), a small ridge term
on the diagonal (a parameter no observation touched comes out 0, collinear ones are split
evenly), and a Cholesky solve. Deterministic: the same observations added in the same order
give the same bits.

The feature vectors are sparse (``{index: value}``, a dozen entries for a leave of six
tiles), so an observation costs the square of its entries, not of the parameters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..errors import LexcError


class FitError(LexcError, ValueError):
    """The normal equations cannot be solved (no observation, or not positive definite)."""


class NormalEquations:
    """X^T X and X^T y over ``size`` parameters, the count of observations and the sum of y^2
    (for the residual)."""

    def __init__(self, size: int):
        self.size = size
        self.xtx = [0.0] * (size * size)  # row-major, both triangles kept
        self.xty = [0.0] * size
        self.count = 0
        self.yy = 0.0

    def add(self, x: dict[int, float], y: float, weight: float = 1.0) -> None:
        """One observation: the sparse feature vector ``x`` and its target ``y``."""
        items = sorted(x.items())
        n, xtx, xty = self.size, self.xtx, self.xty
        for i, xi in items:
            wxi = weight * xi
            xty[i] += wxi * y
            row = i * n
            for j, xj in items:
                xtx[row + j] += wxi * xj
        self.count += 1
        self.yy += weight * y * y

    def solve(self, ridge: float = 1.0, free: Iterable[int] = ()) -> list[float]:
        """The parameters minimising |Xw - y|^2 + ridge * |w|^2 (the parameters in ``free``,
        such as the bias, not penalised). FitError when there is nothing to fit."""
        if not self.count:
            raise FitError("no observations to fit")
        n = self.size
        a = list(self.xtx)
        unpenalised = set(free)
        for i in range(n):
            if i not in unpenalised:
                a[i * n + i] += ridge
            elif a[i * n + i] == 0.0:
                a[i * n + i] = 1.0  # (a free parameter never observed: 0)
        return cholesky_solve(a, list(self.xty), n)

    def residual(self, w: list[float]) -> float:
        """The root mean square error of ``w`` over the observations: from the accumulated
        sums, (y^2 - 2 w.X^T y + w.X^T X w) / count."""
        n = self.size
        quad = math.fsum(w[i] * math.fsum(self.xtx[i * n + j] * w[j] for j in range(n)) for i in range(n) if w[i])
        sse = self.yy - 2 * math.fsum(wi * b for wi, b in zip(w, self.xty, strict=True)) + quad
        return math.sqrt(max(sse, 0.0) / max(self.count, 1))


def cholesky_solve(a: list[float], b: list[float], n: int) -> list[float]:
    """Solve A x = b for a symmetric positive-definite A (n x n, row-major) by Cholesky
    (A = L L^T, then two triangular solves). FitError when A is not positive definite."""
    low = [0.0] * (n * n)
    for i in range(n):
        row_i = i * n
        for j in range(i + 1):
            row_j = j * n
            s = a[row_i + j] - math.fsum(low[row_i + k] * low[row_j + k] for k in range(j))
            if i == j:
                if s <= 0.0:
                    raise FitError(f"the normal equations are not positive definite (pivot {i}: {s:.6g})")
                low[row_i + i] = math.sqrt(s)
            else:
                low[row_i + j] = s / low[row_j + j]
    y = [0.0] * n
    for i in range(n):
        y[i] = (b[i] - math.fsum(low[i * n + k] * y[k] for k in range(i))) / low[i * n + i]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - math.fsum(low[k * n + i] * x[k] for k in range(i + 1, n))) / low[i * n + i]
    return x
