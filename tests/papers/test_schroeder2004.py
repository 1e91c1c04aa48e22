"""Schroeder & Harchol-Balter (2004) driver: config validation, a tiny end-to-end run, the real log."""

import copy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.papers import schroeder2004 as s04
from schedlab.report.scorecard import COLUMNS

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def raw():
    return yaml.safe_load((REPO / "config/papers/schroeder2004.yaml").read_text())


@pytest.fixture(scope="module")
def tiny_cfg(raw):
    over = {"loads": [0.3, 0.7], "replications": 2, "cutoff_replications": 2,
            "cutoff_candidates": 5, "many_hosts": [2, 4], "scaled_loads": [0.5, 0.97]}
    return s04.resolve_config(raw, "quick", over)


@pytest.fixture(scope="module")
def tiny_jobs():
    rng = np.random.default_rng(3)
    n = 600
    return pd.DataFrame({"submit_time": np.cumsum(rng.integers(0, 900, n)),
                         "run_time": np.ceil(rng.lognormal(6.5, 1.5, n)).astype(int),
                         "alloc_procs": rng.choice([4, 8], n), "req_procs": 8})


@pytest.mark.parametrize("scale", ["default", "quick", "paper"])
def test_every_scale_resolves(raw, scale):
    cfg = s04.resolve_config(raw, scale)
    assert cfg["trace"] == "CTC-SP2-1996-3.1-cln"
    assert cfg["subset"] == {"procs": [8], "max_run_time": 43200}  # Table 1: 12-hour limit
    assert cfg["service_orders"][0] == "shuffled"  # i.i.d. service times (module docstring)
    assert cfg["scale"] == scale and 2 in cfg["hosts"]
    assert cfg["loads"] == sorted(cfg["loads"])


@pytest.mark.parametrize(("key", "value", "match"), [
    ("loads", [0.5, 1.2], "loads"), ("service_orders", ["reversed"], "service_orders"),
    ("slowdown", "bogus", "slowdown"), ("hosts", [4], "include 2"), ("many_hosts", [3], "even"),
    ("subset", {"cores": 8}, "subset"), ("replications", "many", "replications"),
])
def test_bad_options_name_the_option(raw, key, value, match):
    with pytest.raises(ConfigError, match=match):
        s04.resolve_config(raw, "default", {key: value}, "cfg.yaml")


def test_unknown_scale_and_missing_option(raw):
    with pytest.raises(ConfigError, match="scale"):
        s04.resolve_config(raw, "huge")
    broken = copy.deepcopy(raw)
    del broken["trace"]
    with pytest.raises(ConfigError, match="'trace'"):
        s04.resolve_config(broken, "default")


def test_tiny_end_to_end(tiny_cfg, tiny_jobs, raw):
    d, e, report = s04.workload_halves(tiny_jobs, tiny_cfg)
    assert report["derivation_jobs"] + report["evaluation_jobs"] == report["jobs"]
    assert np.all(d.submit <= e.submit.min())  # chronological halves
    cuts = s04.derive_cutoffs(d, tiny_cfg)
    a = cuts[(cuts["hosts"] == 2) & (cuts["method"] == "analytic")]
    assert set(a["policy"]) == {"SITA-E", "SITA-U-opt", "SITA-U-fair", "SITA-U-rule"}
    assert (cuts[cuts["hosts"] == 4]["cutoffs"].map(len) == 3).all()
    sims = pd.concat([s04.run_experiment(x, e, cuts, tiny_cfg) for x in
                      s04.experiments(tiny_cfg)], ignore_index=True)
    p = sims[sims["experiment"] == "poisson"]
    lwl = p[p["policy"] == "Least-Work-Left"].set_index(["service_order", "hosts", "load"])
    cq = p[p["policy"] == "Central-Queue"].set_index(["service_order", "hosts", "load"])
    pd.testing.assert_series_equal(lwl["mean_slowdown"], cq["mean_slowdown"])
    assert (sims["mean_slowdown"] >= 1).all()
    # every point carries its replication interval; one scaled-arrival run has a point interval
    pois = sims[sims["experiment"] != "scaled"]
    assert (pois["mean_slowdown_lo"] <= pois["mean_slowdown"] + 1e-9).all()
    assert (pois["mean_slowdown_hi"] >= pois["mean_slowdown"] - 1e-9).all()
    assert (pois["rep_mean_slowdown"].map(len) == tiny_cfg["replications"]).all()
    sc = sims[sims["experiment"] == "scaled"]
    assert (sc["mean_slowdown_lo"] == sc["mean_slowdown_hi"]).all()
    assert set(sims["experiment"]) == {"poisson", "many_hosts", "scaled"}
    # rerunning gives identical numbers (seeded streams only)
    again = s04.run_experiment("poisson-trace", e, cuts, tiny_cfg)
    pd.testing.assert_frame_equal(again, sims[(sims["experiment"] == "poisson")
                                              & (sims["service_order"] == "trace")]
                                  .reset_index(drop=True))
    analysis = s04.analyze(e, cuts, tiny_cfg)
    assert {"Random", "Least-Work-Left", "SITA-E"} <= set(analysis["policy"])
    t1 = pd.DataFrame([s04.table1_row("CTC IBM-SP2", s04.service_trace(tiny_jobs, {"procs": [8]}),
                                      {"procs": [8]})])
    card = s04.scorecard(t1, cuts, sims, analysis, raw["published"], tiny_cfg)
    assert list(card.columns) == COLUMNS
    assert {"holds", "fails", "not_run"} & set(card["verdict"])
    assert card["item"].str.contains("Fig 7").any() and card["item"].str.contains("Fig 6").any()
    claims = card[card["check"] != ""]
    assert (claims["verdict"].isin(["holds", "fails"])).all()  # every claim evaluated
    assert 3 <= int(card["headline"].sum()) <= 5
    nr = card[card["verdict"] == "not_run"]
    assert nr["note"].str.startswith("data unavailable offline").all() and len(nr) == 11
    att = s04.service_order_attribution(sims, cuts, analysis, tiny_cfg)
    assert {"verdict_shuffled", "verdict_trace"} <= set(att.columns)
    assert len(att) == len(s04.claim_rows(sims, cuts, analysis, tiny_cfg, "trace"))
    figs = s04.figures(cuts, sims, analysis, tiny_cfg)
    assert sorted(figs) == s04.figure_stems(tiny_cfg)
    import matplotlib.pyplot as plt
    for f in figs.values():
        plt.close(f)


def test_table1_row_hand_example():
    jobs = pd.DataFrame({"submit_time": [0, 86400, 172800, 259200], "run_time": [1, 2, 3, 6],
                         "alloc_procs": [8, 8, 8, 8], "req_procs": [8, 8, 8, 8]})
    r = s04.table1_row("x", s04.service_trace(jobs, {"procs": [8]}), {"procs": [8]})
    assert r["jobs"] == 4 and r["mean_service"] == 3.0 and r["max_service"] == 6.0
    assert r["scv"] == pytest.approx(3.5 / 9)  # var 3.5 (population) / mean² 9
    assert r["duration_days"] == 3.0
    assert s04.lag1_autocorrelation(np.array([1.0, 2.0, 3.0, 4.0])) == pytest.approx(1.0)
    assert np.isnan(s04.lag1_autocorrelation(np.array([1.0, 1.0, 1.0])))


def test_ctc_eight_processor_subset(mirror):
    from schedlab.traces.lookup import load_trace

    jobs = load_trace("CTC-SP2-1996-3.1-cln", mirror=mirror).jobs
    st = s04.service_trace(jobs, {"procs": [8]})
    r = s04.table1_row("CTC IBM-SP2", st, {"procs": [8]}, 835823160, "US/Eastern")
    # without the 12-hour limit the cleaned 3.1 log has 191 more 8-processor jobs:
    assert r["jobs"] == 5920
    assert r["scv"] == pytest.approx(6.23, abs=0.01)
    assert r["min_service"] == 2.0 and r["max_service"] == 68868.0
    assert r["duration"] == "July 1996 - May 1997"  # as in the paper's Table 1
    assert r["lag1_autocorr_log_service"] > 0.3  # consecutive run times are strongly correlated
    # the paper's Table 1 row (5729 jobs, mean 2903.6 s, max 43138 s, C² 5.42): jobs that ran
    # at most 12 hours; the cleaned log's shortest run time is 2 s (paper: 1 s)
    sub = {"procs": [8], "max_run_time": 43200}
    t = s04.table1_row("CTC IBM-SP2", s04.service_trace(jobs, sub), sub, 835823160, "US/Eastern")
    assert t["jobs"] == 5729 and round(t["mean_service"], 1) == 2903.6
    assert t["max_service"] == 43138.0 and t["min_service"] == 2.0
    assert t["scv"] == pytest.approx(5.42, abs=0.006)
    assert t["duration"] == "July 1996 - May 1997"
    assert t["selection"].endswith("5729 after dropping 191 running longer than 43200 s")


def test_command_line_strings_are_coerced(raw):
    cfg = s04.resolve_config(raw, "quick", {"loads": ["0.5", "0.3"], "replications": "3",
                                            "hosts": ["2"]})
    assert cfg["loads"] == [0.3, 0.5] and cfg["replications"] == 3 and cfg["hosts"] == [2]
    with pytest.raises(ConfigError, match="list of numbers"):
        s04.resolve_config(raw, "quick", {"hosts": ["two"]})


def test_intervals_hand_examples():
    m, lo, hi = s04.t_interval([1.0, 2.0, 3.0], 0.95)
    # mean 2, sd 1, t(0.975, 2) = 4.303: half-width 4.303 / sqrt(3)
    assert m == 2.0 and hi - m == pytest.approx(4.302653 / np.sqrt(3)) and m - lo == hi - m
    assert s04.t_interval([5.0]) == (5.0, 5.0, 5.0)
    r, lo, hi = s04.ratio_interval([2.0, 8.0], [1.0, 2.0], 0.95)
    assert r == pytest.approx(np.sqrt(2 * 4))  # geometric mean of the paired ratios 2 and 4
    assert lo < r < hi
    # a replication with ratio 0 (variance exactly 0): ratio of means, delta-method interval
    r, lo, hi = s04.ratio_interval([0.0, 2.0, 4.0], [1.0, 1.0, 1.0], 0.95)
    assert r == pytest.approx(2.0) and lo < 2.0 < hi and np.isfinite([lo, hi]).all()
    with pytest.raises(ValueError, match="paired"):
        s04.ratio_interval([1.0], [1.0, 2.0])


def test_selection_steps_text():
    rep = {"trace_jobs": 10, "subset_jobs": 6, "dropped_unknown_or_zero_run_time": 1,
           "dropped_above_max_run_time": 2, "jobs": 3}
    txt = s04.selection_steps(rep, {"procs": [8], "max_run_time": 43200})
    assert txt == ("10 jobs in the log -> 6 jobs using 8 processors -> 5 after dropping 1 with "
                   "unknown or zero run time -> 3 after dropping 2 running longer than 43200 s")
