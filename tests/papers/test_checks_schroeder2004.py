"""Claim checks of Schroeder & Harchol-Balter (2004): each one both ways on hand-made tables."""

import numpy as np
import pandas as pd
import pytest

from schedlab.papers.schroeder2004 import checks as C
from schedlab.report import scorecard as S
from schedlab.report.vocabulary import PhraseCheck


def iv(rows, index=None):
    """An interval table (ratio, lo, hi) from (ratio, lo, hi) triples."""
    return pd.DataFrame(rows, columns=["ratio", "lo", "hi"],
                        index=index if index is not None else range(len(rows)))


ABOVE = iv([(3.0, 2.5, 3.5), (5.0, 4.0, 6.0)])
STRADDLES = iv([(3.0, 2.5, 3.5), (1.2, 0.9, 1.5)])
INSIDE = iv([(1.0, 0.95, 1.05), (1.05, 1.0, 1.08)])
BY_HOSTS_OVERTAKEN = iv([(3.0, 2.0, 4.0), (1.1, 0.9, 1.3), (0.6, 0.5, 0.7), (0.8, 0.7, 0.99)],
                        index=[2, 4, 10, 80])
BY_HOSTS_NEVER = iv([(3.0, 2.0, 4.0), (2.0, 1.5, 2.5), (1.1, 0.95, 1.2)], index=[2, 4, 10])
BY_HOSTS_LWL_FIRST = iv([(0.8, 0.7, 0.9), (0.6, 0.5, 0.7)], index=[2, 4])
BY_HOSTS_BACK = iv([(3.0, 2.0, 4.0), (0.6, 0.5, 0.7), (1.5, 1.2, 1.8)], index=[2, 10, 80])
SIM = iv([(10.0, 9.0, 11.0), (20.0, 18.0, 22.0), (40.0, 36.0, 44.0)], index=[0.3, 0.5, 0.7])

CASES = [
    (C.beats_by_factor, C.beats_by_factor(ABOVE, 1.0)),
    (C.beats_by_factor, C.beats_by_factor(ABOVE, 3.0)),       # "by a factor 3": lo 2.5 < 3
    (C.beats_by_factor, C.beats_by_factor(STRADDLES, 1.0)),   # one interval contains 1
    (C.beats_at_most_points, C.beats_at_most_points(ABOVE)),
    (C.beats_at_most_points, C.beats_at_most_points(STRADDLES)),  # 1 of 2: not "most"
    (C.beats_at_most_points, C.beats_at_most_points(iv([(0.5, 0.4, 0.6)] * 3))),
    (C.overtakes_as_hosts_grow, C.overtakes_as_hosts_grow(BY_HOSTS_OVERTAKEN)),
    (C.overtakes_as_hosts_grow, C.overtakes_as_hosts_grow(BY_HOSTS_NEVER)),
    (C.overtakes_as_hosts_grow, C.overtakes_as_hosts_grow(BY_HOSTS_LWL_FIRST)),
    (C.overtakes_as_hosts_grow, C.overtakes_as_hosts_grow(BY_HOSTS_BACK)),
    (C.load_fraction_follows_rule, C.load_fraction_follows_rule([0.2, 0.6], [0.12, 0.28], 0.1)),
    (C.load_fraction_follows_rule, C.load_fraction_follows_rule([0.2, 0.6], [0.12, 0.45], 0.1)),
    (C.underloads_host1, C.underloads_host1([0.1, 0.3, 0.49])),
    (C.underloads_host1, C.underloads_host1([0.1, 0.5])),
    (C.identical_results, C.identical_results(pd.Series([1.0, 2.0]), pd.Series([1.0, 2.0]))),
    (C.identical_results, C.identical_results(pd.Series([1.0, 2.0]), pd.Series([1.0, 2.1]))),
    (C.analysis_similar, C.analysis_similar(SIM, pd.Series([10.5, 24.2, 41.0],
                                                           index=[0.3, 0.5, 0.7]))),
    (C.analysis_similar, C.analysis_similar(SIM, pd.Series([10.5, 26.0, 41.0],
                                                           index=[0.3, 0.5, 0.7]))),
    (C.cutoffs_agree, C.cutoffs_agree(pd.Series([0.1, 0.2, 0.3]), pd.Series([0.12, 0.2, 0.5]),
                                      0.05)),
    (C.cutoffs_agree, C.cutoffs_agree(pd.Series([0.1, 0.2, 0.3]), pd.Series([0.2, 0.3, 0.3]),
                                      0.05)),
    (C.similar_throughout, C.similar_throughout(INSIDE)),
    (C.similar_throughout, C.similar_throughout(iv([(1.0, 0.95, 1.05), (1.1, 1.0, 1.16)]))),
    (C.within_throughout, C.within_throughout(INSIDE, 10)),
    (C.within_throughout, C.within_throughout(INSIDE, 5)),          # hi 1.08 > 1.05
    (C.significantly_throughout, C.significantly_throughout(ABOVE)),
    (C.significantly_throughout, C.significantly_throughout(iv([(1.5, 1.25, 1.8)]))),
    (C.order_of_magnitude_somewhere, C.order_of_magnitude_somewhere(
        iv([(0.3, 0.2, 0.4), (0.05, 0.04, 0.09)]))),
    (C.order_of_magnitude_somewhere, C.order_of_magnitude_somewhere(
        iv([(0.3, 0.2, 0.4), (0.09, 0.08, 0.1)]))),                 # hi 0.1 is not below 1/10
    (C.ranges_about, C.ranges_about(iv([(4.3, 4.0, 4.6), (9.0, 8.0, 10.0)]), 4, 10)),
    (C.ranges_about, C.ranges_about(iv([(2.0, 1.8, 2.2), (9.0, 8.0, 10.0)]), 4, 10)),
    # §4.3: "SITA-U-opt is not far from SITA-U-fair": the Host-1 load fractions similar at every
    # load (0.25 / 0.20 = 1.25 is beyond the 1.15 band)
    (C.fractions_similar, C.fractions_similar({0.5: 0.25, 0.8: 0.38}, {0.5: 0.24, 0.8: 0.40})),
    (C.fractions_similar, C.fractions_similar({0.5: 0.25, 0.8: 0.38}, {0.5: 0.20, 0.8: 0.40})),
]
EXPECTED = [True, False, False, True, False, False, True, False, False, False,
            True, False, True, False, True, False, True, False, True, False,
            True, False, True, False, True, False, True, False, True, False, True, False]


def _holds(v):
    return v.holds if isinstance(v, PhraseCheck) else v


def test_each_check_gives_the_expected_verdict():
    assert [_holds(v) for _, v in CASES] == EXPECTED
    assert all(isinstance(_holds(v), bool) for _, v in CASES)


def test_phrase_checks_name_the_vocabulary():
    """The checks in the papers' words name the phrase and its source."""
    assert C.similar_throughout(INSIDE).phrase == "similar"
    assert C.similar_throughout(INSIDE).source == "ours"
    assert (C.within_throughout(INSIDE, 10).phrase, C.within_throughout(INSIDE, 10).source) == \
        ("within", "paper")
    assert C.order_of_magnitude_somewhere(ABOVE).source == "paper"
    for check, args in ((C.similar_throughout, ()), (C.within_throughout, (10,)),
                        (C.significantly_throughout, ()), (C.order_of_magnitude_somewhere, ()),
                        (C.ranges_about, (4, 10))):
        assert check(iv([]), *args).holds is None


def test_every_check_is_covered_both_ways():
    assert S.uncovered_checks("schroeder2004", list(zip([f for f, _ in CASES], EXPECTED,
                                                        strict=True))) == []
    assert set(S.CLAIM_CHECKS["schroeder2004"]) == {f.__name__ for f, _ in CASES}


@pytest.mark.parametrize("check", [C.beats_by_factor, C.beats_at_most_points,
                                   C.overtakes_as_hosts_grow])
def test_missing_intervals_cannot_be_checked(check):
    empty = iv([])
    args = {C.beats_by_factor: (empty, 1.0)}.get(check, (empty,))
    assert check(*args) is None
    nan = iv([(1.0, np.nan, 2.0), (2.0, 1.5, 2.5)])
    assert check(nan, *args[1:]) is None


def test_other_missing_inputs():
    assert C.fractions_similar({0.5: 0.25}, {0.8: 0.40}).holds is None
    assert C.load_fraction_follows_rule([0.5], [], 0.1) is None
    assert C.underloads_host1([np.nan]) is None
    assert C.identical_results(None, pd.Series([1.0])) is None
    assert C.analysis_similar(SIM, pd.Series([np.inf] * 3, index=[0.3, 0.5, 0.7])).holds is None
    assert C.cutoffs_agree(pd.Series([0.1], index=[0.3]), pd.Series([0.1], index=[0.5]),
                           0.05) is None


def test_analysis_gap_is_1_inside_and_the_ratio_to_the_nearest_end_outside():
    # inside, inside, on the edge
    assert C.analysis_gap(SIM, pd.Series([10.5, 20.0, 44.0], index=[0.3, 0.5, 0.7])) == 1.0
    a = pd.Series([4.5, 24.2, 88.0], index=[0.3, 0.5, 0.7])
    # ratios 9/4.5 = 2, 24.2/22 = 1.1, 88/44 = 2 -> the largest, 2
    assert C.analysis_gap(SIM, a) == pytest.approx(2.0)
    assert C.analysis_similar(SIM, a).phrase == "similar"
    assert np.isnan(C.analysis_gap(SIM, pd.Series([np.inf] * 3, index=[0.3, 0.5, 0.7])))
