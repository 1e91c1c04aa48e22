"""Cirne 2001: the scorecard's claim checks (issue 16 contract: small named pure functions).

Each returns True/False (None when a quantity is missing), or, for the thesis' words, the
vocabulary's PhraseCheck; tests/papers/test_checks_cirne2001.py gives each a holding and a failing
hand-made case.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...report.scorecard import claim_check
from ...report.vocabulary import PhraseCheck, in_all, increases_as, significantly, similar, within
from .config import PAPER


def _missing(*xs: Any) -> bool:
    return any(x is None or (isinstance(x, float) and math.isnan(x)) for x in xs)


@claim_check(PAPER)
def adaptive_requests_order(best: float, sa: float, user: float) -> bool | None:
    """Table 13: best <= SA < user (geometric mean turn-around)."""
    if _missing(best, sa, user):
        return None
    return bool(best <= sa < user)


@claim_check(PAPER)
def ci_narrower_than(low: float, high: float, half_width: float, groups: int = 10**9,
                     min_groups: int = 20) -> bool | None:
    """Our precision target (not the thesis'): the 95% interval of a ratio lies within
    +-half_width. The interval resamples whole workloads, so with fewer than ``min_groups``
    workloads it is not trustworthy (two workloads give a near-zero width): then None."""
    if _missing(low, high) or groups < min_groups:
        return None
    return bool((high - low) / 2 <= half_width)


@claim_check(PAPER)
def lower_in_second(first: float, second: float) -> bool | None:
    """A quantity is lower in the second condition than in the first (e.g. Table 18's adaptive
    vs static workload, §6.1 Figure 59's median load per processor)."""
    if _missing(first, second):
        return None
    return bool(second < first)


@claim_check(PAPER)
def all_below_one(ratios: Any) -> bool | None:
    """Figures 63 / 66: SA's relative turn-around is below 1 at every point of a sweep."""
    r = np.asarray(ratios, float)
    if r.size == 0 or np.isnan(r).any():
        return None
    return bool((r < 1).all())


@claim_check(PAPER)
def all_agree(flags: Any) -> bool | None:
    """Theorem 1: SAg and SAcb choose the same request in every checked state."""
    f = pd.Series(flags).dropna()
    if f.empty:
        return None
    return bool(f.astype(bool).all())


def bins_of(breakdowns: pd.DataFrame, factor: str, request: str = "sa",
            measure: str = "tt") -> tuple[np.ndarray, np.ndarray]:
    """(bin medians, relative values) of one factor's decile breakdown, ordered by bin median."""
    g = breakdowns[(breakdowns["factor"] == factor) & (breakdowns["measure"] == measure)
                   & (breakdowns["request"] == request)].sort_values("bin_median")
    return g["bin_median"].to_numpy(float), g["relative"].to_numpy(float)


# The thesis' words (vocabulary) on our numbers: each returns the phrase test's PhraseCheck.

@claim_check(PAPER)
def rises_with(x: Any, y: Any, decreasing: bool = False) -> PhraseCheck:
    """"grows with", "the larger the L ..., the greater", "decreases as" (§5.3-§6.2): ``y`` rises
    (``decreasing``: falls) with ``x`` (vocabulary 'increases as', Spearman, threshold ours)."""
    return increases_as(x, y, decreasing=decreasing)


@claim_check(PAPER)
def flat(values: Any) -> PhraseCheck:
    """"very little impact" (Figure 44), "levels off" (Figures 42b, 47, 52b), "not affected"
    (Figure 66a): the largest and smallest of ``values`` (NaN ignored) are 'similar'; fewer than
    two values cannot be checked."""
    v = [float(x) for x in values if not pd.isna(x)]
    return similar(max(v), min(v)) if len(v) >= 2 else similar(None, None)


@claim_check(PAPER)
def each_pair(pairs: Mapping[str, tuple[float, float] | None], above: bool) -> PhraseCheck:
    """"better ... even for large jobs" (Figure 39a), "greater than" (Figures 41a, 46): in every
    case the first value is above (``above``) or below the second (vocabulary 'in all'); a case
    given as None could not be checked."""
    return in_all({k: None if p is None else bool(p[0] > p[1] if above else p[0] < p[1])
                   for k, p in pairs.items()})


@claim_check(PAPER)
def similar_values(a: float | None, b: float | None) -> PhraseCheck:
    """"do not seem to be affected" (Figure 61), "does not experience much difference" (§6.1,
    Figure 59): ``a`` and ``b`` 'similar' (vocabulary, ours)."""
    return similar(a, b)


@claim_check(PAPER)
def significantly_below(a: float | None, b: float | None) -> PhraseCheck:
    """§6.2.1: "SA still achieves considerably smaller turn-around time than the user request":
    ``a`` 'significantly' below ``b`` (vocabulary, ours)."""
    return significantly(a, b, above=False)


@claim_check(PAPER)
def within_percent(a: float | None, b: float | None, percent: float) -> PhraseCheck:
    """Chapter 8: "SA is shown to be close (within 10%) to the performance achieved by the best
    request": ``a`` within ``percent`` % of ``b`` (vocabulary 'within', the thesis' band)."""
    return within(a, b, percent)
