"""Tang et al. 2013 attribution (issue 22): fair-start readings, unfair counts, the search cap,
base-schedule and loss-of-capacity readings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from tang2013_cases import CFG

from schedlab.errors import ConfigError
from schedlab.papers.tang2013.attribution import (
    attribution_table,
    search_cap_rows,
    unfair_counts,
    unfair_table,
)
from schedlab.papers.tang2013.base_readings import (
    BASE_READINGS,
    POLICY_READINGS,
    base_attribution_table,
    engine_scheduler_row,
    loss_of_capacity_reading,
)
from schedlab.papers.tang2013.config import LogSpec, log_specs
from schedlab.papers.tang2013.plots import published_label
from schedlab.papers.tang2013.runs import simulate_point
from schedlab.sim.schedulers.metric_aware import Policy


def test_search_cap_rows_pair_capped_and_uncapped_runs():
    spec = LogSpec("BGP-substitute", "synthetic", 50, 32, 1, "conservative", "contiguous",
                     "Table 2", {}, True, None)
    rng = np.random.default_rng(np.random.SeedSequence(22))
    est = rng.integers(600, 7200, 50)
    jobs = pd.DataFrame({"job_id": np.arange(50), "submit": np.sort(rng.integers(0, 20000, 50)),
                         "runtime": est // 2, "estimate": est, "procs": rng.integers(1, 33, 50)})
    df = pd.DataFrame(search_cap_rows(jobs, spec, CFG, 3000.0))
    assert len(df) == 2 * len(CFG.configurations)
    assert set(df["search"]) == {"capped", "uncapped"}
    by = df.set_index(["configuration", "search"])
    # W = 1 has one window per job: the cap cannot change the schedule
    assert by.loc[("BF=1/W=1", "capped"), "same_schedule"]
    assert by.loc[("BF=1/W=1", "capped"), "avg_wait_min"] == by.loc[("BF=1/W=1", "uncapped"),
                                                                     "avg_wait_min"]
    # a changed schedule shows up in the flag (both rows of a pair carry it)
    for conf in CFG.configurations:
        a, b = by.loc[(conf, "capped")], by.loc[(conf, "uncapped")]
        assert a["same_schedule"] == b["same_schedule"]
        if a["same_schedule"]:
            assert (a["unfair_jobs"], a["loc_pct"]) == (b["unfair_jobs"], b["loc_pct"])


def test_attribution_table_ranks_readings():
    rows = []
    for fs, unfair in (("estimate/dynamic/submission", 2.0), ("actual/dynamic/submission", 1.0)):
        for conf, point in CFG.configurations.items():
            w, u, loc = CFG.published["Table 3"][conf]
            rows.append({"selection": "records", "threshold": "paper", "fair_start": fs,
                         "point": point, "avg_wait_min": w, "unfair_jobs": u * unfair,
                         "loc_pct": loc})
    tab = attribution_table(pd.DataFrame(rows), CFG)
    assert tab["fair_start"].tolist() == ["actual/dynamic/submission",
                                          "estimate/dynamic/submission"]
    assert tab["within_tolerance"].tolist() == [21, 14]
    assert tab.loc[1, "mean_abs_err_unfair_jobs"] == pytest.approx(1.0)


def test_unfair_counts_rules_by_hand():
    t0 = 1000.0
    start = np.array([t0 + 100, t0 + 700, t0 + 4000, t0 + 59, t0 + 10])
    fair = np.array([t0 + 100, t0 + 600, t0 + 200, t0 + 1, np.nan])
    c = unfair_counts(start, fair, t0)
    # delays 0 (fair: not later), 100 s, 3800 s, 58 s; NaN = cut at the real start (fair)
    assert c["unfair_jobs"] == 3
    assert c["unfair_gt_1min"] == 2 and c["unfair_gt_10min"] == 1 and c["unfair_gt_60min"] == 1
    assert c["unfair_gt_120min"] == 0
    assert c["unfair_whole_min"] == 2  # 59 s vs 1 s: both in minute 0


def test_unfair_table_counts_and_ranks():
    rows = []
    for fs, factor in (("a/b/c/policy", 2.0), ("a/b/c/none", 1.0)):
        for conf, point in CFG.configurations.items():
            u = CFG.published["Table 3"][conf][1]
            rows.append({"selection": "runnable", "threshold": "paper", "fair_start": fs,
                         "point": point, "unfair_jobs": int(u * factor),
                         "unfair_gt_60min": int(u)})
    rows.append({**rows[0], "threshold": "month_average", "unfair_jobs": 0})  # not counted
    tab = unfair_table(pd.DataFrame(rows), CFG)
    assert tab["selection"].tolist() == ["published", "runnable", "runnable"]
    assert tab["fair_start"].tolist()[1:] == ["a/b/c/none", "a/b/c/policy"]
    assert tab.loc[2, "BF=1/W=1"] == 28 and tab.loc[2, "within_tolerance"] == 0
    assert tab.loc[2, "mean_abs_err"] == pytest.approx(1.0)
    assert tab.loc[1, "within_tolerance"] == 7
    m = unfair_table(pd.DataFrame(rows), CFG, readings=["a/b/c/policy"],
                       count_rules=("unfair_jobs", "unfair_gt_60min"))
    assert m["count"].tolist() == ["unfair_jobs", "unfair_gt_60min", "unfair_jobs"]
    assert m.loc[1, "within_tolerance"] == 7


def test_loss_of_capacity_readings_by_hand():
    # 4 nodes, t = 0..10. A (2 nodes) runs 0-10; B (3 nodes) waits 0-10 and runs 10-20;
    # C (1 node) arrives at 5 and starts at 5 (fits the 2 idle nodes), ends 10.
    submit = np.array([0.0, 0.0, 5.0])
    start = np.array([0.0, 10.0, 5.0])
    end = np.array([10.0, 20.0, 10.0])
    procs = np.array([2, 3, 1])
    n = 4
    # eq. 4: no waiting job fits the idle nodes after any event -> 0
    assert loss_of_capacity_reading(submit, start, end, procs, n, "eq4") == 0.0
    # any job waiting: 2 idle on [0, 5), 1 idle on [5, 10) while B waits; 1 idle on [10, 20)
    # (nothing waits then) -> (10 + 5) / (4 * 20)
    assert loss_of_capacity_reading(submit, start, end, procs, n, "any_waiting") == \
        pytest.approx(15 / 80)
    # before the pass (events 0, 5, 10, 20 = arrivals and ends): at 0 nothing runs yet, 4 idle,
    # A fits -> 4 * 5; at 5 C has not started, 2 idle, C fits -> 2 * 5; at 10 B has not
    # started, 4 idle, B fits -> 4 * 10
    assert loss_of_capacity_reading(submit, start, end, procs, n, "before_pass") == \
        pytest.approx(70 / 80)
    with pytest.raises(ConfigError):
        loss_of_capacity_reading(submit, start, end, procs, n, "nope")


def test_base_attribution_table_counts_and_ranks():
    pub = CFG.published["Table 3"]
    rows = []
    for conf, (w, u, loc) in pub.items():
        rows.append({"reading": "exact", "configuration": conf, "jobs": 5000,
                     "avg_wait_min": w, "unfair_jobs": u, "loc_pct": loc})
        rows.append({"reading": "off", "configuration": conf, "jobs": 5000,
                     "avg_wait_min": 2 * w, "unfair_jobs": u, "loc_pct": 3 * loc})
    tab = base_attribution_table(pd.DataFrame(rows), CFG)
    assert tab["reading"].tolist() == ["published (Table 3)", "exact", "off"]
    assert tab.set_index("reading").loc["exact", "within_tolerance"] == 21
    assert tab.set_index("reading").loc["off", "within_tolerance"] == 7  # only unfair counts
    assert tab.set_index("reading").loc["off", "BF=1/W=1 wait"] == pytest.approx(154.8)


def test_base_readings_are_known_options():
    specs = log_specs(CFG, False)
    assert published_label(specs[0]) == "published"
    assert "BG/P" in published_label(specs[1]) and "substitute" in published_label(specs[1])
    first = next(iter(BASE_READINGS))
    assert BASE_READINGS[first] == {"cost": "default"}  # the configured schedule
    for r in BASE_READINGS.values():
        assert r["cost"] in ("default", "full")
        assert set(r) <= {"cost", "estimates", "selection", "cancelled", "scheduler",
                          *POLICY_READINGS}
    Policy(**{k: v for r in BASE_READINGS.values() for k, v in r.items()
              if k in POLICY_READINGS and k != "backfill"})  # every Policy value is valid


def test_base_attribution_table_w4_effects_and_partial_rows():
    """The W = 4 effect columns (% change of the wait, W = 1 -> 4) and a reading with only the
    BF = 1 / W = 1 cells (the engine's easy): NaN elsewhere, its values counted alone."""
    pub = CFG.published["Table 3"]
    rows = [{"reading": "easy", "configuration": "BF=1/W=1", "jobs": 5000,
             "avg_wait_min": 2 * pub["BF=1/W=1"][0], "unfair_jobs": np.nan,
             "loc_pct": pub["BF=1/W=1"][2]}]
    rows += [{"reading": "all", "configuration": conf, "jobs": 5000, "avg_wait_min": w,
              "unfair_jobs": u, "loc_pct": loc} for conf, (w, u, loc) in pub.items()]
    tab = base_attribution_table(pd.DataFrame(rows), CFG).set_index("reading")
    effect = 100 * (pub["BF=1/W=4"][0] / pub["BF=1/W=1"][0] - 1)
    assert tab.loc["published (Table 3)", "W=4 effect BF=1 %"] == pytest.approx(effect)
    assert tab.loc["all", "W=4 effect BF=1 %"] == pytest.approx(effect)
    assert tab.loc["published (Table 3)", "W=4 effect BF=1 %"] == pytest.approx(-11.6, abs=0.1)
    assert tab.loc["easy", "values"] == 2 and tab.loc["easy", "within_tolerance"] == 1
    assert tab.loc["easy", "mean_abs_err"] == pytest.approx(0.5)
    assert np.isnan(tab.loc["easy", "BF=0.5/W=1 wait"])
    assert np.isnan(tab.loc["easy", "W=4 effect BF=1 %"])
    assert tab.loc["all", "values"] == 21 and tab.loc["all", "within_tolerance"] == 21


def test_engine_easy_row_is_the_metric_aware_bf1_w1_schedule():
    """The textbook-EASY cross-check row: on a random workload the engine's easy scheduler
    gives the BF = 1 / W = 1 metric-aware schedule's wait (§3.3: "FCFS plus backfilling") and
    a different one from conservative backfilling (the check can tell schedulers apart)."""
    rng = np.random.default_rng(np.random.SeedSequence(2222))
    m, n = 150, 32
    runtime = rng.integers(10, 2000, m).astype(float)
    jobs = pd.DataFrame({"job_id": np.arange(m), "submit": np.cumsum(rng.integers(0, 120, m)),
                         "runtime": runtime,
                         "estimate": runtime * rng.choice([1.0, 2.0, 5.0], m),
                         "procs": rng.integers(1, n + 1, m)}).astype(float)
    jobs["procs"] = jobs["procs"].astype(int)
    spec = LogSpec("SP2", "tiny", m, n, 1, "easy", "any", "Table 3", {}, False, None)
    sim, res = simulate_point(jobs, spec, "bf1_w1", CFG)
    ours = float((res.start - sim.submit).mean() / 60.0)
    easy = engine_scheduler_row(jobs, spec, CFG, "easy", "easy")
    assert easy["configuration"] == "BF=1/W=1" and np.isnan(easy["unfair_jobs"])
    assert easy["avg_wait_min"] == pytest.approx(ours)
    cons = engine_scheduler_row(jobs, spec, CFG, "conservative", "conservative")
    assert cons["avg_wait_min"] != pytest.approx(ours)
