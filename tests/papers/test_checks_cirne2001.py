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
from schedlab.report.vocabulary import PhraseCheck

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
    # §5.3.1 Figure 41b: "the relative wait time clearly grows with L" (a trend); Figure 55 falls
    (K.rises_with, ([10.0, 20.0, 30.0, 40.0], [0.5, 0.7, 0.6, 0.9]), True),
    (K.rises_with, ([10.0, 20.0, 30.0, 40.0], [0.9, 0.7, 0.6, 0.5]), False),
    (K.rises_with, ([10.0, 20.0, 30.0, 40.0], [0.9, 0.7, 0.6, 0.5], True), True),
    # Figure 44: "variations in sigma show very little impact"; Figure 42b "levels off"
    (K.flat, ([0.50, 0.53, float("nan"), 0.48],), True),
    (K.flat, ([0.50, 0.80, 0.48],), False),
    # Figure 39a: "the turn-around time of the adaptive requests is better than ... the user
    # request even for large jobs" (below in every decile); Figure 46: "surpassing" (above)
    (K.each_pair, ({"L~10": (1000.0, 1500.0), "L~900": (8000.0, 9000.0)}, False), True),
    (K.each_pair, ({"L~10": (1000.0, 1500.0), "L~900": (9500.0, 9000.0)}, False), False),
    (K.each_pair, ({"sa c_min~20": (900.0, 700.0)}, True), True),
    # Figure 61: "do not seem to be affected by whether the workload is adaptive or static"
    (K.similar_values, (1000.0, 1080.0), True),
    (K.similar_values, (1000.0, 1400.0), False),
    # §6.2.1: "SA still achieves considerably smaller turn-around time than the user request"
    (K.significantly_below, (500.0, 1000.0), True),
    (K.significantly_below, (900.0, 1000.0), False),
    # Chapter 8: "close (within 10%) to the performance achieved by the best request" (Table
    # 13's own 1429 / 1264 = 1.13 is not)
    (K.within_percent, (1350.0, 1264.0, 10), True),
    (K.within_percent, (1429.0, 1264.0, 10), False),
]


@pytest.mark.parametrize(("check", "args", "expected"), CASES,
                         ids=[f"{c.__name__}-{e}-{i}" for i, (c, _, e) in enumerate(CASES)])
def test_case(check, args, expected):
    r = check(*args)
    assert (r.holds if isinstance(r, PhraseCheck) else r) is expected


def test_every_cirne_check_has_a_holding_and_a_failing_case():
    assert S.uncovered_checks("cirne2001", [(c, e) for c, _, e in CASES]) == []


def test_missing_inputs_give_none():
    assert K.adaptive_requests_order(math.nan, 1.0, 2.0) is None
    assert K.ci_narrower_than(None, 0.5, 0.03) is None
    assert K.ci_narrower_than(0.49, 0.50, 0.03, groups=2) is None  # two workloads: untrustworthy
    assert K.lower_in_second(None, 1.0) is None
    assert K.all_below_one([]) is None
    assert K.all_agree(pd.Series([], dtype="boolean")) is None
    assert K.rises_with([1.0], [2.0]).holds is None
    assert K.flat([0.5, float("nan")]).holds is None
    assert K.each_pair({"sa": None, "best": (2.0, 1.0)}, True).holds is None
    assert K.similar_values(None, 1.0).holds is None
    assert K.significantly_below(1.0, None).holds is None
    assert K.within_percent(1.0, 0.0, 10).holds is None


def test_bins_of_orders_by_bin_median():
    bd = pd.DataFrame({"factor": ["L"] * 3, "measure": ["tt"] * 3, "request": ["sa"] * 3,
                       "bin_median": [30.0, 10.0, 20.0], "relative": [0.9, 0.3, 0.6]})
    x, y = K.bins_of(bd, "L")
    assert np.array_equal(x, [10.0, 20.0, 30.0]) and np.array_equal(y, [0.3, 0.6, 0.9])
