"""Perković & Keleher 2000: the claim checks of the scorecard.

Small pure functions on plain numbers, registered with :func:`schedlab.report.scorecard.claim_check`
(tests/papers/test_claims_perkovic2000.py: each one both ways).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...report.scorecard import claim_check
from ...report.vocabulary import (
    PhraseCheck,
    for_most,
    in_all,
    in_all_of,
    increases_as,
    less_than,
    significantly,
    similar,
    slightly,
)
from .config import PAPER


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


@claim_check(PAPER)
def lower(values: Mapping[str, float], a: str, b: str) -> bool | None:
    """``values[a] < values[b]`` (e.g. R's bounded slowdown below P's); None if either is missing."""
    va, vb = _num(values.get(a)), _num(values.get(b))
    return None if va is None or vb is None else va < vb


@claim_check(PAPER)
def strictly_increasing(values: Mapping[str, float], names: Sequence[str]) -> bool | None:
    """``values[names[0]] < values[names[1]] < ...`` (§5: R/L-NG < P/L-NG < 1/L < BF)."""
    chain = [_num(values.get(n)) for n in names]
    if any(v is None for v in chain):
        return None
    return all(a < b for a, b in itertools.pairwise(chain))


@claim_check(PAPER)
def ng_better_except_arrival(values: Mapping[str, float], orders: Sequence[str]) -> bool | None:
    """§5: "no-guarantees algorithms performed better with all sorting criteria except arrival
    order": ``X-NG < X`` for every non-arrival order X, and ``BF-NG`` not below ``BF``."""
    pairs = [lower(values, f"{o}-NG", o) for o in orders if o not in ("D", "BF")]
    arrival = lower(values, "BF-NG", "BF")
    if arrival is None or not pairs or None in pairs:
        return None
    return all(pairs) and not arrival


@claim_check(PAPER)
def smallest_is(values: Mapping[str, float], key: str) -> bool | None:
    """``key`` holds the smallest value (Figure 4: long-wide jobs improve least)."""
    v = {k: _num(x) for k, x in values.items()}
    if key not in v or any(x is None for x in v.values()) or len(v) < 2:
        return None
    return min(v, key=lambda k: v[k]) == key


@claim_check(PAPER)
def improvements_large(ratios: Sequence[float]) -> PhraseCheck:
    """§7.1 / Figure 7 (l. 180): "Improvements on bounded slowdown and delay are large": the mean
    ratio to conservative backfilling over the algorithms (``ratios``; below 1 = an improvement)
    is 'significantly' below 1 (vocabulary: "large" read as 'significantly', threshold ours)."""
    v = [float(x) for x in ratios if _num(x) is not None]
    return significantly(float(np.mean(v)) if v else None, 1.0, above=False)


# The papers' words (vocabulary) on our numbers: each returns the phrase test's PhraseCheck.

@claim_check(PAPER)
def less_than_bound(value: float, bound: float) -> PhraseCheck:
    """Abstract: "decrease the bounded slowdown ... to less than 15% of conservative
    backfilling": ``value`` below the paper's ``bound`` (vocabulary 'less than')."""
    return less_than(value, bound)


@claim_check(PAPER)
def all_below(values: Mapping[str, float], bound: float) -> PhraseCheck:
    """§8: "Less than 20,000 jobs were delayed in the queue", which names no algorithm: every
    value (algorithm -> jobs delayed) 'less than' the paper's ``bound``, in all."""
    return in_all_of({k: less_than(float(v), bound) for k, v in values.items()})


@claim_check(PAPER)
def all_positive(values: Mapping[str, float]) -> PhraseCheck:
    """§5 / Figure 4: "there are improvements in all groups": every improvement (case -> value;
    NaN = a case not run) above 0 (vocabulary 'in all')."""
    return in_all({k: None if _num(v) is None else bool(v > 0) for k, v in values.items()})


@claim_check(PAPER)
def slightly_below_in_all(high: Mapping[str, float], low: Mapping[str, float]) -> PhraseCheck:
    """§6.2 / Figure 6: "In all algorithms, the bounded slowdown slightly decreases with the higher
    speculation percentages": for every algorithm, ``high[a]`` 'slightly' below ``low[a]``."""
    return in_all_of({a: slightly(float(high[a]), float(low[a]), above=False) for a in high})


@claim_check(PAPER)
def increases_with(x: Sequence[float], y: Sequence[float]) -> PhraseCheck:
    """A trend the paper states ("smaller with smaller speculation percentage", "help most at
    large percentages", "more ... benefits for otherwise slower algorithms"): ``y`` rises with
    ``x`` (vocabulary 'increases as')."""
    return increases_as(list(x), list(y))


@claim_check(PAPER)
def slightly_above(a: float, b: float) -> PhraseCheck:
    """§5: "Priority backfilling ... performs slightly worse than shortest-first backfilling": ``a``
    'slightly' above ``b``."""
    return slightly(a, b, above=True)


@claim_check(PAPER)
def significantly_above(a: float, b: float) -> PhraseCheck:
    """"significantly increased" (§7.1, Figure 7's response time), "significant improvements"
    (§7.1, Figure 9; ``a`` the value before the improvement): ``a`` 'significantly' above ``b``."""
    return significantly(a, b, above=True)


@claim_check(PAPER)
def significantly_below(a: float, b: float) -> PhraseCheck:
    """"significantly decreases" (§6.2, Figures 5-6): ``a`` 'significantly' below ``b``."""
    return significantly(a, b, above=False)


@claim_check(PAPER)
def similar_values(a: float, b: float) -> PhraseCheck:
    """§7.1 / Figure 9: "improves little or even makes slightly worse": ``a`` 'similar' to ``b``."""
    return similar(a, b)


@claim_check(PAPER)
def similar_for_most(high: Mapping[str, float], low: Mapping[str, float]) -> PhraseCheck:
    """§6.2 / Figure 6: "overall performance is little sensitive to speculation percentages for
    most of the algorithms": per algorithm ``high[a]`` and ``low[a]`` 'similar', for most."""
    return for_most({a: similar(float(high[a]), float(low[a])).holds for a in high})


@claim_check(PAPER)
def all_lower(a: Mapping[str, float], b: Mapping[str, float], keys: Sequence[str]
              ) -> PhraseCheck:
    """§7.1 / Figure 9: "It also reduces average response time for no-guarantee algorithms":
    ``a[k] < b[k]`` for every key (None where one side is missing), in all."""
    return in_all({k: bool(a[k] < b[k]) if k in a and k in b else None for k in keys})


@claim_check(PAPER)
def lower_for_most(a: Mapping[str, float], b: Mapping[str, float]) -> PhraseCheck:
    """§7.1 / Figure 9: start-time widening improves half-sizing for most algorithms:
    ``a[k] < b[k]`` for most keys both have."""
    return for_most({k: bool(a[k] < b[k]) for k in a if k in b})
