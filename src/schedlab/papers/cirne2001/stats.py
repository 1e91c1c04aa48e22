"""Cirne 2001: the statistics of the tables (§4.2: geometric means; bootstrap CIs resampling whole
workloads; Table 14's better / same / worse shares)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

FLOOR_S = 1.0  # geometric means of wait times use max(wait, 1 s): waits are often exactly 0


def geomean(x: Any) -> float:
    """Geometric mean (§4.2) of positive values."""
    x = np.asarray(x, dtype=float)
    return float(np.exp(np.log(x).mean())) if x.size else math.nan


def geomean_ci(x: Any, groups: Any, rng: np.random.Generator, resamples: int = 1000,
               confidence: float = 0.95) -> tuple[float, float, float]:
    """Geometric mean of ``x`` with a percentile bootstrap CI resampling whole ``groups``
    (workloads: experiments on one workload share its history). Returns (gm, lo, hi)."""
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        return math.nan, math.nan, math.nan
    logs = np.log(x)
    codes, uniq = pd.factorize(pd.Series(np.asarray(groups)))
    g = len(uniq)
    sums = np.bincount(codes, weights=logs, minlength=g)
    counts = np.bincount(codes, minlength=g).astype(float)
    pick = rng.integers(0, g, size=(resamples, g))
    boot = np.exp(sums[pick].sum(axis=1) / counts[pick].sum(axis=1))
    a = (1 - confidence) / 2
    lo, hi = np.quantile(boot, [a, 1 - a])
    return float(np.exp(logs.mean())), float(lo), float(hi)


def shares(adaptive_tt: Any, user_tt: Any, tol: float = 1e-6) -> dict[str, float]:
    """Table 14: percentage of experiments where the adaptive request did better / same / worse."""
    a, u = np.asarray(adaptive_tt, float), np.asarray(user_tt, float)
    n = max(len(a), 1)
    return {"better": 100 * float(np.sum(a < u - tol)) / n,
            "same": 100 * float(np.sum(np.abs(a - u) <= tol)) / n,
            "worse": 100 * float(np.sum(a > u + tol)) / n}
