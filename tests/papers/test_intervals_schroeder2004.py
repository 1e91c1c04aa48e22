"""Replication intervals of the Schroeder & Harchol-Balter (2004) runs
(schedlab.papers.schroeder2004.intervals)."""

import numpy as np
import pandas as pd
import pytest

from schedlab.papers.schroeder2004.intervals import ratio_ci, ratio_interval, t_interval


def test_intervals_hand_examples():
    m, lo, hi = t_interval([1.0, 2.0, 3.0], 0.95)
    # mean 2, sd 1, t(0.975, 2) = 4.303: half-width 4.303 / sqrt(3)
    assert m == 2.0 and hi - m == pytest.approx(4.302653 / np.sqrt(3)) and m - lo == hi - m
    assert t_interval([5.0]) == (5.0, 5.0, 5.0)
    r, lo, hi = ratio_interval([2.0, 8.0], [1.0, 2.0], 0.95)
    assert r == pytest.approx(np.sqrt(2 * 4))  # geometric mean of the paired ratios 2 and 4
    assert lo < r < hi
    # a replication with ratio 0 (variance exactly 0): ratio of means, delta-method interval
    r, lo, hi = ratio_interval([0.0, 2.0, 4.0], [1.0, 1.0, 1.0], 0.95)
    assert r == pytest.approx(2.0) and lo < 2.0 < hi and np.isfinite([lo, hi]).all()
    with pytest.raises(ValueError, match="paired"):
        ratio_interval([1.0], [1.0, 2.0])


def test_ratio_ci_pairs_replications_by_index():
    num = pd.DataFrame({"rep_mean_slowdown": [[4.0, 8.0], [3.0, 3.0]]}, index=[0.5, 0.7])
    den = pd.DataFrame({"rep_mean_slowdown": [[2.0, 2.0], [3.0, 3.0]]}, index=[0.5, 0.9])
    r = ratio_ci(num, den)
    assert list(r.index) == [0.5]  # only the common load
    assert r.loc[0.5, "ratio"] == pytest.approx(np.sqrt(2 * 4))
    assert r.loc[0.5, "lo"] < r.loc[0.5, "ratio"] < r.loc[0.5, "hi"]
