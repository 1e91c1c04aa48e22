"""Cirne 2001 statistics and tables (schedlab.papers.cirne2001.stats, .tabulate)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from schedlab.papers import cirne2001 as C


def test_geomean_ci_and_shares():
    x = np.array([1.0, 10.0, 100.0, 1000.0])
    gm, lo, hi = C.geomean_ci(x, [0, 0, 1, 1], np.random.default_rng(0), resamples=200)
    assert gm == pytest.approx(math.sqrt(1000))
    assert lo <= gm <= hi and lo >= 1 and hi <= 1000
    assert C.geomean_ci(x, [0, 0, 0, 0], np.random.default_rng(0), 50)[1:] == pytest.approx(
        (gm, gm))
    s = C.shares([1, 2, 3, 4], [2, 2, 2, 2])
    assert s == {"better": 25.0, "same": 25.0, "worse": 50.0}


def test_table14_expected_same_share():
    df = pd.DataFrame({"user_tt": [5.0, 5.0], "sa_tt": [4.0, 5.0], "best_tt": [4.0, 5.0],
                       "nu": [2, 4]})
    t = C.table14(df)
    exp = t[t["request"] == "expected"]["percent"].iloc[0]
    assert exp == pytest.approx(100 * (0.5 + 0.25) / 2)

