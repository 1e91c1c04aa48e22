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


def _load_sides(adaptive_heavy_wait: float, sa_te_light: float = 40.0,
                user_adaptive_te: float = 10.0) -> pd.DataFrame:
    """Targets at D = 50,000 s (light) and 300,000 s (heavy) in both workloads: wait 100 s except
    the adaptive workload's heavy targets; SA's execution time 50 s except the adaptive
    workload's light targets (``sa_te_light``)."""
    d = np.array([5e4, 5e4, 3e5, 3e5])
    heavy = d > 1.1e5
    return pd.DataFrame({
        "D_static": d, "D_adaptive": d,
        "sa_wait": 100.0, "user_wait": 100.0,
        "sa_adaptive_wait": np.where(heavy, adaptive_heavy_wait, 100.0),
        "user_adaptive_wait": np.where(heavy, adaptive_heavy_wait, 100.0),
        "sa_te": 50.0, "sa_adaptive_te": np.where(heavy, 45.0, sa_te_light),
        "user_te": 10.0, "user_adaptive_te": user_adaptive_te})


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

    good = scorecard_frame(F.emergent_rows(_load_sides(80.0, 60.0), em([30, 20, 10]), "s")
                           ).set_index("quantity")
    bad = scorecard_frame(F.emergent_rows(_load_sides(120.0, 40.0, 30.0), em([10, 20, 30]), "s")
                          ).set_index("quantity")
    for q in ("sa: wait smaller in the adaptive workload at moderate-to-high load",
              "user: wait smaller in the adaptive workload at moderate-to-high load",
              "sa: execution time better in the static workload at light load",
              "SA's requested computation relative to the user's falls as D grows "
              "(adaptive workload)",
              "user execution time about the same in adaptive and static workloads"):
        assert (good.loc[q, "verdict"], bad.loc[q, "verdict"]) == ("holds", "fails"), q


def test_load_sides_split_targets_at_110000_s_not_whole_bins():
    """§6.1's light / moderate-to-high load is each target's D against 110,000 s, so a light side
    exists even when every decile bin straddles the boundary (the paper scale's first bin reaches
    181,743 s); a side without targets is NaN (the row then says it could not be checked)."""
    from schedlab.papers.cirne2001 import findings as F

    exp = _load_sides(80.0).assign(D_adaptive=[5e4, 1.1e5, 1.2e5, 3e5])
    # 110,000 s itself is light ("for D > 110000" is the other side)
    assert F.by_load_side(exp, "wait", "sa_adaptive", heavy=False) == pytest.approx(100.0)
    assert F.by_load_side(exp, "wait", "sa_adaptive", heavy=True) == pytest.approx(80.0)
    # each scenario by its own workload's D: the static side splits 2 / 2
    assert F.by_load_side(exp, "te", "sa_static", heavy=False) == pytest.approx(50.0)
    heavy_only = exp.assign(D_static=3e5, D_adaptive=3e5)
    assert math.isnan(F.by_load_side(heavy_only, "wait", "user_static", heavy=False))
    rows = scorecard_frame(F.emergent_rows(heavy_only, pd.DataFrame(), "s")).set_index("quantity")
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
