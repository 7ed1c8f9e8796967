"""Means, ratios and their standard errors over shoes, in fixed memory (numpy imported here).

A study keeps no per-shoe results: each block of shoes is summarised by :class:`Moments` (the
count of shoes, the mean of each per-shoe quantity and the centred sums of products), and the
summaries of the blocks are merged in shoe order by the pairwise update of Chan, Golub and
LeVeque ("Algorithms for computing the sample variance: analysis and recommendations", *The
American Statistician* 37, 1983), which is as accurate as two passes over all the shoes.  The
merge order is fixed (block order), so the result does not depend on where the blocks ran.

Estimates follow the central limit theorem over shoes (shoes are independent):

* a mean of per-shoe values ``x``: ``se = sqrt(S_xx / (n - 1) / n)``;
* a ratio ``sum x / sum y`` (delta method): ``r = mean x / mean y``,
  ``se = sqrt(sum (x - r y)^2 / (n (n - 1))) / mean y``, where
  ``sum (x - r y)^2 = S_xx - 2 r S_xy + r^2 S_yy`` (``x - r y`` sums to zero).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.errors import StudyError

FloatArray = npt.NDArray[np.float64]
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """An estimate with its standard error (CLT over shoes); ``ci95`` = value +- 1.96 SE."""

    value: float
    se: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval."""
        return (self.value - Z95 * self.se, self.value + Z95 * self.se)


@dataclass(frozen=True)
class Moments:
    """``n`` shoes of the per-shoe quantities ``names``: their means (``mean``, shape (k,)) and
    centred sums of products (``co``, shape (k, k): ``co[i, j] = sum (x_i - mean_i)(x_j -
    mean_j)``)."""

    names: tuple[str, ...]
    n: int
    mean: FloatArray
    co: FloatArray

    @classmethod
    def of(cls, columns: Mapping[str, Any]) -> Moments:
        """The moments of per-shoe ``columns`` (name -> one value per shoe), in two passes.
        Sums are numpy's pairwise sums (no BLAS: the same bits on every machine and thread
        count)."""
        names = tuple(columns)
        x = [np.asarray(columns[k], dtype=np.float64) for k in names]
        n = len(x[0]) if x else 0
        k = len(names)
        mean = np.zeros(k)
        co = np.zeros((k, k))
        if n:
            mean = np.asarray([float(np.sum(v)) / n for v in x])
            d = [v - m for v, m in zip(x, mean, strict=True)]
            for i in range(k):
                for j in range(i, k):
                    co[i, j] = co[j, i] = float(np.sum(d[i] * d[j]))
        return cls(names, n, mean, co)

    def merge(self, other: Moments) -> Moments:
        """The moments of both sets of shoes (Chan, Golub and LeVeque's pairwise update)."""
        if other.names != self.names:
            raise StudyError(f"internal: cannot merge moments of {self.names} with {other.names}")
        if other.n == 0:
            return self
        if self.n == 0:
            return other
        n = self.n + other.n
        delta = other.mean - self.mean
        mean = self.mean + delta * (other.n / n)
        co = self.co + other.co + np.multiply.outer(delta, delta) * (self.n * other.n / n)
        return Moments(self.names, n, mean, co)

    def _index(self, name: str) -> int:
        return self.names.index(name)

    def mean_of(self, name: str) -> Estimate:
        """The mean of ``name`` per shoe and its standard error (NaN below two shoes)."""
        if self.n == 0:
            return Estimate(math.nan, math.nan)
        i = self._index(name)
        se = math.sqrt(max(float(self.co[i, i]), 0.0) / (self.n - 1) / self.n) if self.n > 1 else math.nan
        return Estimate(float(self.mean[i]), se)

    def ratio_of(self, top: str, bottom: str) -> Estimate | None:
        """``sum top / sum bottom`` over the shoes with its delta-method standard error;
        ``None`` when ``sum bottom`` is 0."""
        i, j = self._index(top), self._index(bottom)
        my = float(self.mean[j])
        if self.n == 0 or my == 0:
            return None
        r = float(self.mean[i]) / my
        if self.n < 2:
            return Estimate(r, math.nan)
        resid = float(self.co[i, i]) - 2 * r * float(self.co[i, j]) + r * r * float(self.co[j, j])
        return Estimate(r, math.sqrt(max(resid, 0.0) / (self.n * (self.n - 1))) / my)


def merged(parts: Sequence[Moments]) -> Moments:
    """The parts merged in order (at least one part)."""
    out = parts[0]
    for part in parts[1:]:
        out = out.merge(part)
    return out
