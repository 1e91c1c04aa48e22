"""Cirne 2001 scorecard rows built from hand-made tables (schedlab.papers.cirne2001.scoring):
each finding's row both fails and holds on purpose."""

import numpy as np
import pandas as pd

from schedlab.papers.cirne2001 import scoring as SC
from schedlab.report.scorecard import scorecard_frame


def _exp(static, adaptive):
    return pd.DataFrame({"D_static": np.asarray(static, float),
                         "D_adaptive": np.asarray(adaptive, float)})


def _verdicts(rows):
    sc = scorecard_frame(rows)
    return dict(zip(sc["quantity"].str.split(" \\(").str[0], sc["verdict"], strict=True))


def test_high_loads_are_tested_above_500000_not_on_the_median():
    # the medians agree (the former median test would fail), but above D = 500,000 s the adaptive
    # workload has fewer targets: the thesis' Figure 59 effect holds
    static = [1e4, 2e4, 3e4, 6e5, 7e5, 8e5]
    adaptive = [1e4, 2e4, 3e4, 4e5, 7e5, 8e5]
    v = _verdicts(SC.high_load_rows(_exp(static, adaptive), "s"))
    assert v["adaptive workloads reduce high-load states"] == "holds"
    # the same medians, more targets above 500,000 s in the adaptive workload: fails
    v = _verdicts(SC.high_load_rows(_exp(adaptive, static), "s"))
    assert v["adaptive workloads reduce high-load states"] == "fails"


def test_high_loads_without_a_target_above_500000_cannot_be_checked():
    sc = scorecard_frame(SC.high_load_rows(_exp([1e4, 2e4], [1e4, 3e4]), "s"))
    row = sc[sc["quantity"].str.startswith("adaptive workloads")].iloc[0]
    assert row["verdict"] == "fails" and "could not be checked" in row["note"]


def test_little_difference_below_500000():
    same = _verdicts(SC.high_load_rows(_exp([1e4] * 6 + [6e5] * 4, [1e4] * 6 + [6e5] * 4), "s"))
    assert same["little difference below D = 500,000 s"] == "holds"
    # 40% below in the static workload, 90% in the adaptive one: not similar
    far = _verdicts(SC.high_load_rows(_exp([1e4] * 4 + [6e5] * 6, [1e4] * 9 + [6e5]), "s"))
    assert far["little difference below D = 500,000 s"] == "fails"
    sc = scorecard_frame(SC.high_load_rows(_exp([1e4, 6e5], [1e4, 6e5]), "s"))
    assert (sc.iloc[1][["phrase", "threshold_source"]] == ["similar", "ours"]).all()


def _bd(factor, medians, relative):
    return pd.DataFrame({"factor": factor, "measure": "tt", "request": "sa",
                         "bin_median": np.asarray(medians, float),
                         "relative": np.asarray(relative, float)})


def test_decile_trends_use_the_vocabulary_and_say_their_threshold_is_ours():
    rising = pd.concat([_bd(f, [1, 2, 3, 4, 5], [0.3, 0.35, 0.5, 0.6, 0.8])
                        for f in ("L", "A", "c_min", "nu", "D")])
    sc = scorecard_frame(SC.trend_rows(rising, "s")).set_index("item")
    # L, c_min and D are stated to rise, A and nu to fall (their effectiveness grows)
    assert sc["verdict"].to_dict() == {"Figure 39b": "holds", "Figure 42b": "fails",
                                       "Figure 45b": "holds", "Figure 51": "fails",
                                       "Figure 52b": "holds"}
    assert set(sc["phrase"]) == {"increases_as"} and set(sc["threshold_source"]) == {"ours"}
    assert sc["note"].str.contains("Spearman").all()
    # a trend without a clear rank agreement (rho 0.3 < 0.5) fails either way
    flat = SC.trend_rows(_bd("L", [1, 2, 3, 4, 5], [0.5, 0.4, 0.6, 0.45, 0.55]), "s")
    assert scorecard_frame(flat).set_index("item").loc["Figure 39b", "verdict"] == "fails"


def test_figure57_is_about_015_with_the_vocabularys_band():
    from schedlab.report.vocabulary import PHRASES
    s = {"published": {"table16_geomean_tt_s": {"best": 429, "sa": 543, "user": 1478},
                       "fig57_ep_sa_over_user": 0.15}, "nas_validation": {"logs": ["X"]}}
    t16 = pd.DataFrame({"request": ["best", "sa", "user"], "geomean_s": [429.0, 543.0, 1478.0],
                        "ci_low": [400.0, 500.0, 1400.0], "ci_high": [450.0, 600.0, 1500.0]})

    def ep(rel):
        by_kind = pd.DataFrame({"group_by": ["kind"], "group": ["unrestricted"],
                                "request": ["sa"], "relative": [rel], "rel_ci_low": [rel],
                                "rel_ci_high": [rel], "n": [30]})
        rows = SC.nas_rows(t16, by_kind, pd.DataFrame({"x": range(30)}), s)
        return scorecard_frame(rows).set_index("item").loc["Figure 57"]

    assert ep(0.16)["verdict"] == "match" and ep(0.19)["verdict"] != "match"  # 0.25 matched it
    row = ep(0.16)
    assert row["tolerance"] == PHRASES["about"].threshold
    assert (row["phrase"], row["threshold_source"]) == ("about", "ours")
