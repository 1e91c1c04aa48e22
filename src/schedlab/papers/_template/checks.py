"""The template's claim checks: pure functions on plain numbers, True/False, or None when a
quantity is missing (tests/papers/test_template.py makes each fail and hold)."""

from __future__ import annotations

import math

from ...report.scorecard import claim_check
from .config import PAPER


@claim_check(PAPER)
def mean_positive(mean: float | None) -> bool | None:
    """Every job takes time: the mean run time is positive."""
    if mean is None or not math.isfinite(mean):
        return None
    return mean > 0
