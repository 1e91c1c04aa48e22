"""Cirne 2001 scorecard rows built from hand-made tables (schedlab.papers.cirne2001.scoring):
each finding's row both fails and holds on purpose."""

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

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
    s = SimpleNamespace(published={"table16_geomean_tt_s": {"best": 429, "sa": 543, "user": 1478},
                                   "fig57_ep_sa_over_user": 0.15}, nas_validation={"logs": ["X"]})
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


def _wait_bins(sa, best, user, medians=(1.0, 5.0, 10.0, 25.0)):
    parts = [pd.DataFrame({"factor": "c_min", "measure": "wait", "request": r,
                           "bin": [f"b{m:g}" for m in medians], "bin_median": medians,
                           "geomean": np.asarray(w, float),
                           "relative": np.asarray(w, float) / np.asarray(user, float)})
             for r, w in (("sa", sa), ("best", best), ("user", user))]
    return pd.concat(parts, ignore_index=True)


def _finding(rows, item, quantity):
    sc = scorecard_frame(rows)
    return sc[(sc["item"] == item) & (sc["quantity"] == quantity)].iloc[0]


def test_figure46_adaptive_wait_above_the_users_for_cmin_above_13():
    from schedlab.papers.cirne2001 import findings as F
    q = "adaptive wait above the user's for c_min > 13"
    user = [110, 120, 112, 110]
    ok = _finding(F.breakdown_rows(_wait_bins([90, 112, 113, 146], [81, 101, 102, 127], user),
                                   "s"), "Figure 46", q)
    assert ok["verdict"] == "holds" and ok["phrase"] == "in_all"
    # the best request's wait stays below the user's at c_min ~ 25: not "in all"
    bad = _finding(F.breakdown_rows(_wait_bins([90, 112, 113, 146], [81, 101, 102, 100], user),
                                    "s"), "Figure 46", q)
    assert bad["verdict"] == "fails" and "best c_min~25" in bad["note"]
    rises = _finding(F.breakdown_rows(_wait_bins([90, 112, 113, 146], [81, 101, 102, 127],
                                                 user), "s"),
                     "Figure 46", "SA's relative wait rises with c_min")
    assert rises["verdict"] == "holds"
    falls = _finding(F.breakdown_rows(_wait_bins([146, 113, 112, 90], [81, 101, 102, 127],
                                                 user), "s"),
                     "Figure 46", "SA's relative wait rises with c_min")
    assert falls["verdict"] == "fails"


def test_sa_within_10_percent_of_best_uses_the_papers_own_band():
    from schedlab.papers.cirne2001 import findings as F
    assert scorecard_frame([F.sa_within_best(1000.0, 1090.0, "s")])["verdict"].iloc[0] == "holds"
    row = scorecard_frame([F.sa_within_best(1264.0, 1429.0, "s")]).iloc[0]  # Table 13: 13%
    assert row["verdict"] == "fails" and row["threshold_source"] == "paper"


def test_sweep_findings():
    from schedlab.papers.cirne2001 import findings as F
    v = [0.5, 1.0, 2.0, 4.0]

    def sweep(rel, sa_top, load, rel_sigma):
        kl = pd.DataFrame({"param": "kappa_L", "value": v, "relative_tt": rel,
                           "sa_geomean_tt": [1.0, 1.0, 1.0, sa_top],
                           "user_geomean_tt": [1.0, 2.0, 3.0, 100.0]})
        ks = pd.DataFrame({"param": "kappa_sigma", "value": v, "relative_tt": rel_sigma,
                           "sa_geomean_tt": [1.0, 2.0, 3.0, 4.0], "user_geomean_tt": 9.0,
                           "sa_offered_load": load})
        return scorecard_frame(F.sweep_rows(pd.concat([kl, ks]), "s")).set_index("quantity")

    good = sweep([0.3, 0.4, 0.5, 0.6], 50.0, [0.8, 0.9, 1.0, 1.1], [0.5, 0.6, 0.55, 0.7])
    assert (good["verdict"] == "holds").all()
    # falls with kappa_L; 90 vs 100 is not "considerably"; the offered load falls; SA's advantage
    # grows with kappa_sigma and is lost at the largest
    bad = sweep([0.6, 0.5, 0.4, 0.3], 90.0, [1.1, 1.0, 0.9, 0.8], [0.7, 0.6, 0.55, 1.02])
    for q in ("SA's relative turn-around rises with kappa_L",
              "SA considerably below the user at the largest kappa_L",
              "offered load with SA grows with kappa_sigma",
              "SA's advantage shrinks as kappa_sigma grows",
              "SA stays better than user at every kappa_sigma"):
        assert bad.loc[q, "verdict"] == "fails", q
    assert good.loc["SA stays better than user at every kappa_sigma", "phrase"] == "in_all"
    assert good.loc["offered load with SA grows with kappa_sigma", "threshold_source"] == "ours"


def test_emergent_findings_fail_and_hold():
    from schedlab.papers.cirne2001 import findings as F

    def em(sa_cr):
        rows = []
        for scen in ("sa_static", "sa_adaptive", "user_static", "user_adaptive"):
            for lo, hi, med in ((0.0, 1e5, 5e4), (1e5, 1.2e5, 1.1e5), (2e5, 4e5, 3e5)):
                cr = sa_cr[int(med > 6e4) + int(med > 2e5)] if scen == "sa_adaptive" else 10.0
                rows += [{"scenario": scen, "bin_low": lo, "bin_high": hi, "bin_median": med,
                          "measure": "cr", "geomean": cr}]
        return pd.DataFrame(rows)

    exp = pd.DataFrame({"user_te": [10.0, 20.0], "user_adaptive_te": [10.0, 21.0]})
    good = scorecard_frame(F.emergent_rows(exp, em([30, 20, 10]), "s")).set_index("quantity")
    bad = scorecard_frame(F.emergent_rows(exp.assign(user_adaptive_te=[30.0, 60.0]),
                                          em([10, 20, 30]), "s")).set_index("quantity")
    for q in ("SA's requested computation relative to the user's falls as D grows "
              "(adaptive workload)",
              "user execution time about the same in adaptive and static workloads"):
        assert (good.loc[q, "verdict"], bad.loc[q, "verdict"]) == ("holds", "fails"), q


#: (measure, request) -> (static light, static heavy, adaptive light, adaptive heavy) where §6.1's
#: findings hold; the "bad" case swaps the workloads' values, so every finding fails.
LOAD_VALUES = {("tt", "sa"): (100.0, 1000.0, 130.0, 700.0),
               ("tt", "user"): (200.0, 2000.0, 220.0, 1500.0),
               ("te", "sa"): (50.0, 90.0, 60.0, 70.0),
               ("wait", "sa"): (5.0, 900.0, 5.0, 600.0),
               ("wait", "user"): (6.0, 950.0, 6.0, 800.0)}


def _by_load(bad: bool = False) -> pd.DataFrame:
    """Eight targets; each meets a light or a heavy load in the static workload and the OPPOSITE
    one in the adaptive workload (so reading a scenario by the other workload's D, or the wrong
    side, gives other values). Two targets sit at exactly D = 110,000 s: light."""
    d_static = np.array([5e4, 1.1e5, 3e5, 4e5, 2e4, 1.1e5, 6e5, 2e5])
    d_adaptive = np.where(d_static > 1.1e5, 1.1e5, 5e5)
    cols = {"workload": np.repeat([0, 1], 4), "D_static": d_static, "D_adaptive": d_adaptive}
    for (measure, req), (sl, sh, al, ah) in LOAD_VALUES.items():
        if bad:
            sl, sh, al, ah = al, ah, sl, sh
        cols[f"{req}_{measure}"] = np.where(d_static > 1.1e5, sh, sl)
        cols[f"{req}_adaptive_{measure}"] = np.where(d_adaptive > 1.1e5, ah, al)
    return pd.DataFrame(cols)


def test_load_findings_of_figures_60_to_62_fail_and_hold():
    """Each row of Figures 60-62 compares the adaptive workload with the static one on its side
    of 110,000 s, each target by its own workload's D: it holds on the values where the thesis'
    sentence is true and fails when the workloads' values are swapped."""
    from schedlab.papers.cirne2001 import findings as F

    good = scorecard_frame(F.load_rows(_by_load(), "s", 110_000)).set_index("quantity")
    bad = scorecard_frame(F.load_rows(_by_load(bad=True), "s", 110_000)).set_index("quantity")
    expect = {"sa: adaptive better at moderate-to-high load (D > 110000 s)": 700 / 1000,
              "sa: static better at light load (D <= 110000 s)": 130 / 100,
              "user: adaptive better at moderate-to-high load (D > 110000 s)": 1500 / 2000,
              "user: static better at light load (D <= 110000 s)": 220 / 200,
              "sa: execution time better in the static workload at light load": 60 / 50,
              "sa: execution time better in the adaptive workload at moderate-to-high load":
                  70 / 90,
              "sa: wait smaller in the adaptive workload at moderate-to-high load": 600 / 900,
              "user: wait smaller in the adaptive workload at moderate-to-high load": 800 / 950}
    assert set(good.index) == set(expect)
    for q, ratio in expect.items():
        assert (good.loc[q, "verdict"], bad.loc[q, "verdict"]) == ("holds", "fails"), q
        assert good.loc[q, "reproduced"] == pytest.approx(ratio, rel=1e-12), q
        assert bad.loc[q, "reproduced"] == pytest.approx(1 / ratio, rel=1e-12), q
    assert good["item"].str.startswith("§6.1 Figure 6").all()


def test_load_sides_split_targets_at_110000_s_not_whole_bins():
    """§6.1's light / moderate-to-high load is each target's D against 110,000 s (the threshold
    itself is light: "For D > 110000" is the other side), so a light side exists even when every
    decile bin straddles the boundary (the paper scale's first bin reaches 181,743 s); a side
    without targets is NaN, and the row says it could not be checked."""
    from schedlab.papers.cirne2001 import findings as F

    at = pd.DataFrame({"workload": [0, 0], "D_static": [1.1e5, 3e5], "D_adaptive": [1.1e5, 3e5],
                       "sa_wait": [10.0, 500.0], "sa_adaptive_wait": [0.25, 400.0]})
    assert F.by_load_side(at, "wait", "sa_static", heavy=False) == pytest.approx(10.0)
    assert F.by_load_side(at, "wait", "sa_static", heavy=True) == pytest.approx(500.0)
    # below one second counts as one second (the breakdowns' floor)
    assert F.by_load_side(at, "wait", "sa_adaptive", heavy=False) == pytest.approx(1.0)
    assert F.by_load_side(at, "wait", "sa_adaptive", heavy=False, threshold=1e5) != \
        F.by_load_side(at, "wait", "sa_adaptive", heavy=False)
    heavy_only = _by_load().assign(D_static=3e5, D_adaptive=3e5)
    assert math.isnan(F.by_load_side(heavy_only, "wait", "user_static", heavy=False))
    rows = scorecard_frame(F.load_rows(heavy_only, "s")).set_index("quantity")
    light = rows.loc["sa: execution time better in the static workload at light load"]
    assert light["verdict"] == "fails" and light["note"].startswith("could not be checked")


def test_nas_rows_not_run_name_their_logs_or_say_there_are_none():
    """Not run, Table 16's rows name the NAS logs; a study (no NAS log) says so, not 'logs '."""
    pub = {"table16_geomean_tt_s": {"best": 429, "sa": 543, "user": 1478},
           "fig57_ep_sa_over_user": 0.15, "table16_sa_over_user": 0.37}
    t16 = pd.DataFrame({"request": ["best"], "note": ["no execution times"]})
    empty = pd.DataFrame()
    own = SimpleNamespace(published=pub, nas_validation={"logs": ["CTC", "KTH"]})
    study = SimpleNamespace(published=pub, nas_validation={"logs": []})
    assert {r["condition"] for r in SC.nas_rows(t16, empty, empty, own)} == {"logs CTC, KTH"}
    conds = {r["condition"] for r in SC.nas_rows(t16, empty, empty, study)}
    assert conds == {"no log (nas_validation.logs is empty)"}
