"""Claim checks of Cirne 2001 (schedlab.papers.cirne2001.checks, schedlab.models.compare): each one
has a hand-made case where it holds and one where it fails; a check mutated into a constant makes
the coverage assertion or a case fail."""

import math

import numpy as np
import pandas as pd
import pytest

from schedlab.models import compare as M
from schedlab.papers.cirne2001 import checks as K
from schedlab.report import scorecard as S

CASES = [
    # Table 13: best <= SA < user
    (K.adaptive_requests_order, (1264.0, 1429.0, 2878.0), True),
    (K.adaptive_requests_order, (1264.0, 3000.0, 2878.0), False),
    (K.adaptive_requests_order, (1500.0, 1429.0, 2878.0), False),
    # the precision target of the Table 13 ratios
    (K.ci_narrower_than, (0.47, 0.52, 0.03), True),
    (K.ci_narrower_than, (0.40, 0.60, 0.03), False),
    (K.ci_narrower_than, (0.47, 0.52, 0.03, 40), True),
    # Table 18 / Figure 59: lower in the second condition
    (K.lower_in_second, (1429.0, 1357.0), True),
    (K.lower_in_second, (1357.0, 1429.0), False),
    # Figures 63 / 66
    (K.all_below_one, ([0.27, 0.4, 0.7],), True),
    (K.all_below_one, ([0.27, 1.02, 0.7],), False),
    # Theorem 1
    (K.all_agree, (pd.Series([True, True, None], dtype="boolean"),), True),
    (K.all_agree, (pd.Series([True, False]),), False),
    # chapter-3 model claims (schedlab.models.compare)
    (M.accuracy_tracks_runtime, (0.5, 0.1), True),
    (M.accuracy_tracks_runtime, (0.1, 0.5), False),
    (M.accuracy_tracks_runtime, (0.5, 0.45), False),  # greater, not considerably (< 1.3 x)
    (M.power_of_two_dominates, (0.8,), True),
    (M.power_of_two_dominates, (0.4,), False),
    (M.uncommon_day_excluded, ("1999-02-07", ["1999-02-07"]), True),
    (M.uncommon_day_excluded, ("1999-02-07", []), False),
]


@pytest.mark.parametrize(("check", "args", "expected"), CASES,
                         ids=[f"{c.__name__}-{e}-{i}" for i, (c, _, e) in enumerate(CASES)])
def test_case(check, args, expected):
    assert check(*args) is expected


def test_every_cirne_check_has_a_holding_and_a_failing_case():
    assert S.uncovered_checks("cirne2001", [(c, e) for c, _, e in CASES]) == []


def test_missing_inputs_give_none():
    assert K.adaptive_requests_order(math.nan, 1.0, 2.0) is None
    assert K.ci_narrower_than(None, 0.5, 0.03) is None
    assert K.ci_narrower_than(0.49, 0.50, 0.03, groups=2) is None  # two workloads: untrustworthy
    assert K.lower_in_second(None, 1.0) is None
    assert K.all_below_one([]) is None
    assert K.all_agree(pd.Series([], dtype="boolean")) is None


def test_bins_of_orders_by_bin_median():
    bd = pd.DataFrame({"factor": ["L"] * 3, "measure": ["tt"] * 3, "request": ["sa"] * 3,
                       "bin_median": [30.0, 10.0, 20.0], "relative": [0.9, 0.3, 0.6]})
    x, y = K.bins_of(bd, "L")
    assert np.array_equal(x, [10.0, 20.0, 30.0]) and np.array_equal(y, [0.3, 0.6, 0.9])
