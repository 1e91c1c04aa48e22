"""Replication intervals (Schroeder & Harchol-Balter 2004 runs; not from the paper): Student-t
intervals of the mean over independent replications, and paired ratios of two policies' metrics
(common random numbers) with the t-interval of their logarithms."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .config import CONFIDENCE


def t_quantile(confidence: float, dof: int) -> float:
    """Two-sided Student-t quantile t_{(1+confidence)/2, dof} (scipy.special: light import)."""
    from scipy.special import stdtrit

    return float(stdtrit(dof, 0.5 + confidence / 2))


def t_interval(values: np.ndarray | list[float], confidence: float = CONFIDENCE
               ) -> tuple[float, float, float]:
    """(mean, low, high): Student-t confidence interval of the mean of independent replications.

    One value gives a degenerate interval (low = high = mean): nothing to estimate spread from.
    """
    v = np.asarray(values, dtype=np.float64)
    m = float(v.mean())
    if len(v) < 2:
        return m, m, m
    half = float(t_quantile(confidence, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return m, m - half, m + half


def ratio_interval(num: np.ndarray | list[float], den: np.ndarray | list[float],
                   confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """(ratio, low, high) of two paired per-replication metrics (common random numbers).

    The ratio is the geometric mean of the per-replication ratios; the interval is the t-interval
    of their logarithms, transformed back (ratios of heavy-tailed means are skewed). When some
    replication's ratio is 0 or infinite (e.g. a variance of exactly 0: no job waited), the ratio
    of the means with a delta-method t-interval is used instead.
    """
    a, b = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    if len(a) != len(b) or len(a) == 0:
        raise ValueError("ratio_interval needs paired replications of equal, non-zero length")
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / b
    if np.all(np.isfinite(r) & (r > 0)):
        m, lo, hi = t_interval(np.log(r), confidence)
        return math.exp(m), math.exp(lo), math.exp(hi)
    return _delta_ratio(a, b, confidence)


def _delta_ratio(a: np.ndarray, b: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Ratio of means mean(a)/mean(b) with a delta-method t-interval (paired replications)."""
    ma, mb = float(a.mean()), float(b.mean())
    if mb == 0:
        return math.inf, math.inf, math.inf
    ratio = ma / mb
    if len(a) < 2:
        return ratio, ratio, ratio
    resid = (a - ratio * b) / mb  # linearization of mean(a)/mean(b)
    half = float(t_quantile(confidence, len(a) - 1) * resid.std(ddof=1) / math.sqrt(len(a)))
    return ratio, ratio - half, ratio + half



def ratio_ci(num_rows: pd.DataFrame, den_rows: pd.DataFrame, metric: str = "mean_slowdown",
             confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Paired ratio num/den of a metric with its interval, per common index (load or hosts)."""
    col = f"rep_{metric}"
    idx = [i for i in num_rows.index if i in den_rows.index]
    out = []
    for i in idx:
        a, b = num_rows.loc[i, col], den_rows.loc[i, col]
        if len(a) == 0 or len(a) != len(b):
            continue
        out.append((i, *ratio_interval(a, b, confidence)))
    return pd.DataFrame(out, columns=["index", "ratio", "lo", "hi"]).set_index("index")

