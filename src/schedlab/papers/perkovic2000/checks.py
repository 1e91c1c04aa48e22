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
from ...report.vocabulary import PhraseCheck, significantly
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
