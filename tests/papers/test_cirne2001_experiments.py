"""Cirne 2001 experiment driver: conservative-backfilling machine, experiments, statistics, config."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.papers import cirne2001 as C


def _wl(rows, alts=(), procs=10):
    jobs = pd.DataFrame(rows, columns=["job_id", "submit", "runtime", "estimate", "procs"])
    alts = pd.DataFrame(list(alts), columns=["job_id", "procs", "runtime", "estimate"])
    return C.workload_from_tables(jobs, alts, procs)


def _run(wl, procs=10, policy="user"):
    """The whole run as the experiments simulate it (engine, their tie rule): per-job records."""
    sim = C.machine_run(C.sim_jobs(wl), procs, policy)
    assert sim.run() is False
    return sim.result().jobs


def test_early_completion_compresses_the_queue():
    # job 1 holds the machine (estimate 100, ends at 20); job 2 (reserved at 100) moves to 20,
    # job 3 (reserved after job 2, at 150) follows it to 70.
    wl = _wl([(1, 0, 20, 100, 10), (2, 1, 50, 50, 10), (3, 2, 5, 5, 4)])
    m = _run(wl)
    assert list(m["start"]) == [0, 20, 70]
    assert list(m["end"]) == [20, 70, 75]


def test_a_later_arrival_changes_the_targets_start_so_forks_simulate_it():
    # why a fork runs every later arrival (issue 23): the target J (8 processors, reserved at 100)
    # cannot use A's early end at 10 (6 free), but the later job L (3 x 80, reserved at 150) can
    # and takes it; at B's early end (20) J finds 7 free and moves to 90 only. Without L it
    # would start at 20.
    rows = [(1, 0, 10, 100, 6), (2, 0, 20, 100, 4), (3, 1, 50, 50, 8), (4, 2, 80, 80, 3)]
    assert list(_run(_wl(rows))["start"]) == [0, 0, 90, 10]
    assert _run(_wl(rows[:3]))["start"].iloc[2] == 20


def test_first_fit_backfills_a_later_small_job_before_a_wide_one():
    # Figure 3's rule: C is placed before B when B does not fit at time 1 but C does.
    wl = _wl([(1, 0, 10, 10, 6), (2, 1, 5, 5, 8), (3, 1, 4, 4, 4)])
    assert list(_run(wl)["start"]) == [0, 10, 1]


def test_cancellation_of_a_waiting_job_frees_its_reservation():
    jobs = pd.DataFrame([(1, 0, 100, 100, 10, np.nan), (2, 1, 50, 50, 10, 30.0),
                         (3, 2, 10, 10, 10, np.nan)],
                        columns=["job_id", "submit", "runtime", "estimate", "procs",
                                 "cancel_time"])
    wl = C.workload_from_tables(jobs, pd.DataFrame(columns=["job_id", "procs", "runtime",
                                                            "estimate"]), 10)
    m = _run(wl)
    assert m["cancelled"].iloc[1] and m["start"].iloc[1] == -1
    assert m["start"].iloc[2] == 100  # moved up from 150 when job 2 left the queue


def test_workload_adds_the_user_request_and_drops_wide_alternatives():
    wl = _wl([(1, 0, 10, 20, 4)], [(1, 2, 20, 40), (1, 64, 1, 2)], procs=10)
    assert list(wl.alt_procs) == [2, 4]
    assert wl.alt_procs[wl.user_alt[0]] == 4


def test_sa_picks_the_wide_request_on_an_empty_machine():
    wl = _wl([(1, 0, 100, 100, 2)], [(1, 8, 25, 25)], procs=10)
    m = _run(wl, policy="sa")
    assert m["procs"].iloc[0] == 8 and m["end"].iloc[0] == 25
    with pytest.raises(ConfigError, match="unknown policy"):
        C.machine_run(C.sim_jobs(wl), 10, "fastest")


def _random_tables(seed, n=30, machine=16):
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.integers(0, n * 30, n))
    rows, alts = [], []
    for j in range(n):
        sizes = sorted({int(x) for x in rng.integers(1, machine + 1, int(rng.integers(1, 4)))})
        work, acc = float(rng.integers(50, 5000)), float(rng.uniform(0.1, 1))
        for p in sizes:
            est = math.ceil(work / p ** 0.8)
            alts.append((j, p, max(1, math.floor(est * acc)), est))
        up = sizes[0]
        _, _, r, e = next(a for a in alts if a[0] == j and a[1] == up)
        rows.append((j, int(submit[j]), r, e, up))
    jobs = pd.DataFrame(rows, columns=["job_id", "submit", "runtime", "estimate", "procs"])
    return jobs, pd.DataFrame(alts, columns=["job_id", "procs", "runtime", "estimate"])


def test_single_target_experiments_invariants_and_determinism():
    wl = C.workload_from_tables(*_random_tables(3), 16)
    targets = C.pick_targets(wl, 5, np.random.default_rng(0))
    df = C.single_target_experiments(wl, 16, targets)
    again = C.single_target_experiments(wl, 16, targets)
    pd.testing.assert_frame_equal(df, again)
    assert len(df) == 5
    assert (df["best_tt"] <= df["user_tt"]).all() and (df["best_tt"] <= df["sa_tt"]).all()
    assert (df["user_tt"] == df["user_wait"] + df["user_te"]).all()
    assert df["sag_agrees"].all()  # Theorem 1 on every target-arrival state
    # forks do not disturb the base run: the static user request is what a plain run gives
    m = _run(wl, 16)
    k = np.searchsorted(wl.job_id, df["job_id"].to_numpy())
    np.testing.assert_array_equal(m["end"].to_numpy()[k] - wl.submit[k], df["user_tt"].to_numpy())


def test_pruned_static_search_equals_simulating_every_request(monkeypatch):
    wl = C.workload_from_tables(*_random_tables(11, n=40), 16)
    targets = C.pick_targets(wl, 40, np.random.default_rng(1))
    pruned = C.single_target_experiments(wl, 16, targets, check_theorem1=False)

    def every_request(snapshot, wl, job, k, known):
        return {a: C._outcome(snapshot, wl, job, k, a) for a in wl.alts(k) if a not in known}

    monkeypatch.setattr(C, "_static_outcomes", every_request)
    full = C.single_target_experiments(wl, 16, targets, check_theorem1=False)
    pd.testing.assert_frame_equal(pruned, full)
    assert (full["nu"] > 1).sum() >= 6  # the comparison covers real choices


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


def test_settings_quick_and_bad_values():
    cfg = {"seed": 1, "machine_procs": 500,
           "single_target": {"experiments": 10, "targets_per_workload": 4,
                             "jobs_per_workload": 100},
           "quick": {"single_target": {"experiments": 3}}}
    assert C.settings(cfg)["n_workloads"] == 3
    assert C.settings(cfg, quick=True)["n_workloads"] == 1
    with pytest.raises(ConfigError, match="experiments"):
        C.settings({**cfg, "single_target": {**cfg["single_target"], "experiments": 0}})
    with pytest.raises(ConfigError, match="scale"):
        C.settings(cfg, scale="huge")
    cfg["full"] = {"single_target": {"experiments": 20}}
    assert C.settings(cfg, scale="full")["n_workloads"] == 5
    assert C.settings(cfg, scale="paper")["n_workloads"] == 5  # the thesis' scale is full
    assert C.settings(cfg, quick=True, scale="full")["n_workloads"] == 1  # quick wins
    with pytest.raises(ConfigError, match="lacks columns"):
        C.workload_from_tables(pd.DataFrame({"job_id": [1]}), pd.DataFrame(), 10)


def test_run_single_workload_is_byte_reproducible(tmp_path):
    from schedlab.pipeline.io import write_parquet

    s = C.settings({"seed": 7, "machine_procs": 500, "sa_version": "cb",
                    "single_target": {"experiments": 2, "targets_per_workload": 2,
                                      "jobs_per_workload": 60}})
    paths = []
    for i in range(2):
        df, meta = C.run_single_workload(s, 0)
        paths.append(tmp_path / f"run{i}.parquet")
        write_parquet(paths[-1], df, meta)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert len(df) == 2 and df["sag_agrees"].dropna().all()


def test_tables_and_scorecard_end_to_end_on_tiny_runs(tmp_path, request):
    from pathlib import Path

    import yaml

    path = Path(__file__).resolve().parents[2] / "config/papers/cirne2001_sa.yaml"
    cfg = yaml.safe_load(path.read_text())
    cfg["quick"] = {**cfg["quick"], "single_target": {"experiments": 6, "targets_per_workload": 3,
                                                      "jobs_per_workload": 60},
                    "offered_load": {"kappa_L": [0.5, 1.0], "kappa_sigma": [1.0, 2.0],
                                     "workloads_per_point": 1, "jobs_per_workload": 60}}
    s = C.settings(cfg, quick=True)
    single, sweep = C.inline_runs(s)
    assert len(single) == 2 and len(sweep) == 2
    tables = C.build_tables(single, sweep, s, [])
    assert set(tables) == set(C.TABLES)
    assert (tables["table16"]["status"] == "not run").all()  # no SP2 times configured
    sc = C.scorecard(tables, s)
    t16 = sc[sc["item"].isin(["Table 16", "Figure 57"])]
    assert len(t16) == 6 and (t16["verdict"] == "not_run").all()
    assert "6 experiments in 2 workloads" in sc["condition"].iloc[0]
    assert set(sc["verdict"]) <= {"match", "close", "differs", "holds", "fails", "not_run"}
    # every claim row names its check; the headline rows are marked
    claims = sc[sc["verdict"].isin(["holds", "fails"])]
    assert (claims["check"] != "").all()
    assert sc["headline"].sum() >= 3
    t13 = tables["table13"].set_index("request")
    assert {"sa/user", "best/user", "sa/best"} <= set(t13.index)
    assert (t13.loc["sa/user", "ci_low"] <= t13.loc["sa/user", "geomean_s"]
            <= t13.loc["sa/user", "ci_high"])
    gen = tables["generator_check"]
    assert {"arrival_factor 1", "arrival_factor 0.5", "condition_on_request True",
            "condition_on_request False"} <= set(gen["reading"])
    if request.config.getoption("-m") == "slow":  # figures: ~40 PNG + PDF files
        C.make_figures(tables, str(tmp_path), published=s["published"])
        assert all((tmp_path / f"{f}.png").exists() for f in C.FIGURES)


def test_attribution_runs_share_seeds_and_differ_by_reading():
    from pathlib import Path

    import yaml

    from schedlab.papers.cirne2001_checks import attribution_table

    path = Path(__file__).resolve().parents[2] / "config/papers/cirne2001_sa.yaml"
    s = C.settings(yaml.safe_load(path.read_text()))
    s["attribution"] = {"readings": {"a": {}, "b": {"rigid": {"arrival_factor": 0.5}}},
                        "workloads": 1, "targets_per_workload": 3, "jobs_per_workload": 80}
    a, ma = C.run_attribution_workload(s, "a", 0)
    b, meta = C.run_attribution_workload(s, "b", 0)
    assert meta["overrides"] == {"rigid": {"arrival_factor": 0.5}}
    assert len(a) == len(b) == 3 and set(a["reading"]) == {"a"}
    # same workload seed, same polynomial, half the arrival rate
    wa, wb = ma["workload_info"], meta["workload_info"]
    assert wa["arrival_polynomial"] == wb["arrival_polynomial"]
    assert wb["arrival_scale"] == pytest.approx(wa["arrival_scale"] / 2)
    assert list(a["job_id"]) == list(b["job_id"])
    t = attribution_table({"a": a, "b": b}, s["published"]).set_index("reading")
    assert list(t.index) == ["a", "b", "thesis"]
    assert t.loc["thesis", "sa_over_user"] == pytest.approx(1429 / 2878)
    with pytest.raises(ConfigError, match="no reading"):
        C.run_attribution_workload(s, "zzz", 0)
    # a reading may set the workload size: the same first jobs, more of them
    s["attribution"]["readings"]["big"] = {"jobs_per_workload": 160}
    big, mbig = C.run_attribution_workload(s, "big", 0)
    assert (ma["jobs"], mbig["jobs"], len(big)) == (80, 160, 3)
    assert mbig["overrides"] == {"jobs_per_workload": 160}
    s["attribution"]["readings"]["bad"] = {"jobs_per_workload": 0}
    with pytest.raises(ConfigError, match=r"bad\.jobs_per_workload"):
        C.run_attribution_workload(s, "bad", 0)
    # a reading may set the experiments' same-time order; the workload is the same
    s["attribution"]["readings"]["pe"] = {"tie_rule": "per_event"}
    pe, mpe = C.run_attribution_workload(s, "pe", 0)
    assert (ma["tie_rule"], mpe["tie_rule"]) == (C.TIE_RULE, "per_event")
    assert list(pe["job_id"]) == list(a["job_id"]) and (pe["nu"] == a["nu"]).all()
    s["attribution"]["readings"]["bad_rule"] = {"tie_rule": "whenever"}
    with pytest.raises(ConfigError, match=r"bad_rule\.tie_rule"):
        C.run_attribution_workload(s, "bad_rule", 0)


def test_decile_figures_mark_what_the_thesis_prints():
    published = {"table13_geomean_tt_s": {"best": 1264, "sa": 1429, "user": 2878},
                 "generator": {"L_decile_edges_s": [92, 348]},
                 "decile_marks": {"A": {"at": 100, "text": "tapers at A = 100"}}}
    assert C._published_marks(published, "L") == [(92.0, "decile edge L = 92 s (§5.3.1)"),
                                                   (348.0, "decile edge L = 348 s (§5.3.1)")]
    assert C._published_marks(published, "A") == [(100.0, "tapers at A = 100")]
    assert C._published_marks(published, "sigma") == []
    rows = [{"factor": "A", "bin": b, "bin_median": m, "measure": "tt", "request": r,
             "geomean": 10.0, "ci_low": 9.0, "ci_high": 11.0, "relative": 0.5,
             "rel_ci_low": 0.4, "rel_ci_high": 0.6}
            for b, m in (("lo", 10.0), ("mid", 50.0), ("hi", 150.0)) for r in ("user", "sa")]
    fig = C._breakdown_figure(pd.DataFrame(rows), "A", "tt", "t", published)
    xs = [ln.get_xdata()[0] for ln in fig.axes[1].get_lines() if ln.get_linestyle() == "-."]
    assert xs == [pytest.approx(1.5)]  # A = 100 lies halfway between the medians 50 and 150
