"""Tang et al. 2013 Figs. 11-12: scores and relative gains."""

from __future__ import annotations

import pandas as pd
import pytest
from tang2013_cases import CFG

from schedlab.errors import ConfigError
from schedlab.papers.tang2013.gains import all_gains, published_table, relative_gains, scores


def test_scores_and_relative_gains_by_hand():
    table = pd.DataFrame({
        "log": ["X"] * 2, "configuration": ["BF=1/W=1", "B"],
        "avg_wait_min": [100.0, 50.0], "unfair_jobs": [10, 20], "loc_pct": [4.0, 3.0]})
    sc = scores(table)
    # maxima 100, 20, 4 -> scores A: 100, 50, 100; B: 50, 100, 75
    assert sc["unfair_jobs"].tolist() == [50.0, 100.0]
    g = relative_gains(table, {"EQUAL": [1 / 3] * 3, "WAIT+": [0.5, 0.25, 0.25]})
    g = g.set_index("weighting")["gain"]
    # G_wait = 0.5, G_unfair = (50 - 100) / 50 = -1, G_loc = 0.25
    assert g["EQUAL"] == pytest.approx((0.5 - 1 + 0.25) / 3)
    assert g["WAIT+"] == pytest.approx(0.25 - 0.25 + 0.0625)
    assert g["average"] == pytest.approx((g["EQUAL"] + g["WAIT+"]) / 2)


def test_gain_readings_on_the_papers_own_table3():
    pub = published_table(CFG, "Table 3", "SP2")
    g = all_gains(pub, CFG.weightings)
    avg = g[g["weighting"] == "average"].set_index(["reading", "configuration"])["gain"]
    # score points: 2D = (wait 30.5 - unfair 28.4 + LoC 29.4 points) / 3 ~ 10.5%
    assert avg["score_points", "2D Adapt."] == pytest.approx(0.105, abs=0.002)
    assert avg["as_written", "2D Adapt."] == pytest.approx(-0.253, abs=0.002)
    assert avg["score_points", "W Adapt."] > avg["score_points", "BF Adapt."]
    with pytest.raises(ConfigError, match="gain reading"):
        relative_gains(pub, CFG.weightings, "ratio")
