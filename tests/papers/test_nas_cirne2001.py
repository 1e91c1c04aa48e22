"""Cirne 2001 §5.4 NAS validation (schedlab.papers.cirne2001.nas; its figure and scorecard rows):
hand-checked cases, pruning, errors (small logs only)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.papers import cirne2001 as C
from schedlab.papers.cirne2001 import nas as N
from schedlab.papers.cirne2001.plots import figure57
from schedlab.papers.cirne2001.scoring import nas_rows

SPEC = {"MG": {"constraint": "power_of_2"}, "EP": {"constraint": "unrestricted"}}



def settings_of(**fields):
    """Cirne settings with ``fields`` set and the rest at small defaults."""
    base = {"machine_procs": 16, "seed": 0,
            "single_target": {"experiments": 1, "targets_per_workload": 1, "jobs_per_workload": 1}}
    return C.Settings.from_dict(base | fields)

def _log(rows, procs=16):
    """A normalised log table (cancel_time -1 = never cancelled)."""
    t = pd.DataFrame(rows, columns=["job_id", "submit", "runtime", "estimate", "procs"])
    t["user_id"] = 1
    t["cancel_time"] = -1
    return N.log_workload(t, procs)


def _mg(times=None):
    return N.Benchmark("MG", "power_of_2", times or {4: 400.0, 8: 200.0, 16: 100.0})


def test_hand_checked_case_sa_equals_best_without_later_arrivals():
    # 16 processors; job 1 holds 8 of them until 100. Job 2 (8 processors) is replaced by MG
    # (4: 400 s, 8: 200 s, 16: 100 s), arriving at 10: request 4 ends at 410 (tt 400), request 8
    # (the user request) at 210 (tt 200), request 16 waits for job 1 and ends at 200 (tt 190).
    wl = _log([(1, 0, 100, 100, 8), (2, 10, 50, 100, 8)])
    for rule in ("exact", "accuracy"):
        df = N.nas_experiments(wl, 16, [(1, _mg())], estimate=rule)
        r = df.iloc[0]
        assert (r["user_procs"], r["user_tt"], r["user_wait"]) == (8, 200, 0)
        assert (r["best_procs"], r["best_tt"], r["best_wait"]) == (16, 190, 90)
        assert (r["sa_procs"], r["sa_tt"]) == (16, 190)  # SA finds the best (no later arrival)
        assert r["nu"] == 3 and r["benchmark"] == "MG" and r["kind"] == "power of 2"
    assert r["accuracy"] == 0.5  # job 2 ran 50 of its 100 requested seconds


def test_best_uses_the_early_end_sa_cannot_foresee():
    # job 1 requests 300 s but ends at 100; SA (te = tr) expects request 16 to end at 400 and
    # request 8 at 210, so it picks 8 (tt 200); with the early end request 16 starts at 100 (tt 190).
    wl = _log([(1, 0, 100, 300, 8), (2, 10, 200, 200, 8)])
    r = N.nas_experiments(wl, 16, [(1, _mg())], estimate="exact").iloc[0]
    assert (r["sa_procs"], r["sa_tt"]) == (8, 200)
    assert (r["best_procs"], r["best_tt"]) == (16, 190)


def test_the_user_request_wins_ties_for_best():
    wl = _log([(1, 0, 10, 10, 8)])
    r = N.nas_experiments(wl, 16, [(0, _mg({8: 100.0, 16: 100.0}))], estimate="exact").iloc[0]
    assert r["best_procs"] == 8 and r["best_tt"] == r["user_tt"] == 100


def _random_log(seed, n=40, procs=16):
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.integers(0, 3000, n))
    sizes = rng.choice([1, 2, 3, 4, 8, 9, 16], n)
    run = rng.integers(10, 600, n)
    est = run + rng.integers(0, 600, n)
    return _log(list(zip(range(n), submit, run, est, sizes, strict=True)), procs)


def test_pruned_best_equals_brute_force_and_other_targets_keep_their_requests():
    wl = _random_log(3)
    ep = N.Benchmark("EP", "unrestricted", {1: 900.0, 4: 240.0, 16: 70.0})
    plan = [(int(k), ep) for k in (5, 12, 20, 31)]
    df = N.nas_experiments(wl, 16, plan, estimate="accuracy")
    for (k, b), (_, r) in zip(plan, df.iterrows(), strict=True):
        # brute force: every request simulated from a fresh run paused at k
        alone = N.nas_experiments(wl, 16, [(k, b)], estimate="accuracy").iloc[0]
        assert alone.equals(r)  # earlier targets ran with their own logged requests
        jobs = C.sim_jobs(wl)
        base = C.machine_run(jobs, 16, "user")
        base.run(stop_before=jobs[k].job_id)
        procs, te = N.nas_requests(b, 16)
        u = int(wl.user_alt[k])
        run, est = N._estimates(te, float(wl.alt_run[u] / wl.alt_est[u]), "accuracy")
        tts = [C.fork_start(base, C.rigid(jobs[k], procs[i], run[i], est[i]))
               - wl.submit[k] + run[i] for i in range(len(procs))]
        assert r["best_tt"] == min(tts)
        assert r["sa_tt"] == tts[r["sa_procs"] - 1] and r["user_tt"] == tts[r["user_procs"] - 1]
        assert r["nu"] == 16


def test_warmup_window_starts_an_empty_machine_before_the_target():
    wl = _random_log(4)
    plan = [(30, _mg({1: 800.0, 2: 420.0, 4: 230.0, 8: 130.0, 16: 80.0}))]
    full = N.nas_experiments(wl, 16, plan).iloc[0]
    zero = N.nas_experiments(wl, 16, plan, warmup_jobs=0).iloc[0]
    assert zero["user_wait"] == 0 and zero["D"] == 0  # nothing before it on the machine
    assert full["D"] > 0


def test_ep_ideal_scaling_from_the_closest_measured_size():
    procs, te = N.nas_requests(N.Benchmark("EP", "unrestricted", {1: 1000.0, 4: 260.0}), 6)
    assert list(procs) == [1, 2, 3, 4, 5, 6]
    np.testing.assert_allclose(te, [1000, 500, 260 * 4 / 3, 260, 260 * 4 / 5, 260 * 4 / 6])
    procs, te = N.nas_requests(N.Benchmark("EP", "unrestricted", {1: 1000.0, 4: 260.0}), 6,
                               "measured")
    assert list(procs) == [1, 4]


def test_restricted_requests_are_the_measured_sizes_that_fit():
    procs, te = N.nas_requests(_mg(), 10)
    assert list(procs) == [4, 8] and list(te) == [400, 200]
    with pytest.raises(ConfigError, match="no measured partition size of MG fits"):
        N.nas_requests(_mg({16: 1.0}), 10)
    # §5.4's sizes limit the requests to the thesis' partitions (MG: 8..256)
    spec = {"MG": {"constraint": "power_of_2", "sizes": [8, 16]}}
    mg = N.benchmarks_from_config({"benchmarks": spec,
                                   "execution_times": {"MG": {4: 400.0, 8: 200.0, 16: 100.0}}})
    assert list(N.nas_requests(mg["MG"], 16)[0]) == [8, 16]
    with pytest.raises(ConfigError, match=r"benchmarks\.MG\.sizes"):
        N.benchmarks_from_config({"benchmarks": {"MG": {"constraint": "power_of_2",
                                                        "sizes": "some"}},
                                  "execution_times": {"MG": {4: 1.0}}})


def test_compatible_targets_need_a_measured_size_and_no_cancellation():
    t = pd.DataFrame([(1, 0, 10, 10, 8, -1), (2, 1, 10, 10, 2, -1), (3, 2, 10, 10, 8, 5),
                      (4, 3, 10, 10, 9, -1)],
                     columns=["job_id", "submit", "runtime", "estimate", "procs", "cancel_time"])
    wl = N.log_workload(t, 16)
    assert list(N.compatible_targets(wl, np.array([4, 8, 16]))) == [0]


def test_plan_targets_is_reproducible_and_split_is_even():
    wl = _random_log(5)
    bm = {"MG": _mg({1: 9.0, 2: 5.0, 4: 3.0, 8: 2.0, 16: 1.0})}
    seeds = {"MG": np.random.SeedSequence(7)}
    a = N.plan_targets(wl, bm, 16, 5, seeds)
    b = N.plan_targets(wl, bm, 16, 5, {"MG": np.random.SeedSequence(7)})
    assert [k for k, _ in a] == [k for k, _ in b] and len(a) == 5
    assert N.split_experiments(10, 3) == [4, 3, 3]


def test_config_errors_are_clear():
    with pytest.raises(ConfigError, match=r"execution_times\.FT: unknown NAS benchmark"):
        N.benchmarks_from_config({"benchmarks": SPEC, "execution_times": {"FT": {8: 1.0}}})
    with pytest.raises(ConfigError, match=r"execution_times\.MG is empty"):
        N.benchmarks_from_config({"benchmarks": SPEC, "execution_times": {"EP": {8: 1.0}}})
    with pytest.raises(ConfigError, match=r"execution_times\.MG\.9"):
        N.benchmarks_from_config({"benchmarks": SPEC,
                                  "execution_times": {"MG": {9: 1.0}, "EP": {3: 1.0}}})
    with pytest.raises(ConfigError, match=r"benchmarks\.MG\.constraint"):
        N.benchmarks_from_config({"benchmarks": {"MG": {"constraint": "prime"}},
                                  "execution_times": {"MG": {2: 1.0}}})
    with pytest.raises(ConfigError, match=r"nas_validation\.estimate"):
        N.nas_experiments(_log([(1, 0, 10, 10, 8)]), 16, [(0, _mg())], estimate="guess")
    ok = N.benchmarks_from_config({"benchmarks": SPEC,
                                   "execution_times": {"MG": {8: 2.0, 4: 3.0}, "EP": {3: 1.0}}})
    assert list(ok["MG"].times) == [4, 8]


def test_tables_and_scorecard_report_not_run_with_the_reason():
    nas = {"benchmarks": SPEC, "execution_times": {}, "logs": ["KTH"]}
    reason = N.not_run_reason(nas)
    assert "MG, EP" in reason and "execution_times" in reason
    rng = np.random.default_rng(0)
    t16 = N.table16(pd.DataFrame(), rng, reason=reason)
    bk = N.table16_by_kind(pd.DataFrame(), rng, reason=reason)
    assert set(t16["status"]) == {"not run"} and t16["geomean_s"].isna().all()
    s = settings_of(published={"table16_geomean_tt_s": {"best": 429, "sa": 543, "user": 1478}},
                    nas_validation=nas)
    rows = nas_rows(t16, bk, pd.DataFrame(), s)
    assert {r["verdict"] for r in rows} == {"not_run"}
    assert all("execution_times" in r["note"] for r in rows)


def test_tables_and_scorecard_from_experiments():
    wl = _random_log(6)
    mg = _mg({1: 800.0, 2: 420.0, 4: 230.0, 8: 130.0, 16: 80.0})
    ep = N.Benchmark("EP", "unrestricted", {1: 900.0, 16: 60.0})
    plan = N.plan_targets(wl, {"MG": mg, "EP": ep}, 16, 4,
                          {"MG": np.random.SeedSequence(1), "EP": np.random.SeedSequence(2)})
    exp = N.nas_experiments(wl, 16, plan)
    rng = np.random.default_rng(0)
    t16 = N.table16(exp, rng, resamples=50)
    bk = N.table16_by_kind(exp, rng, resamples=50)
    gm = t16.set_index("request")["geomean_s"]
    assert gm["best"] <= gm["sa"] and gm["best"] <= gm["user"]
    assert (t16["ci_low"] <= t16["geomean_s"]).all() and (t16["n"] == 8).all()
    assert set(bk[bk["group_by"] == "kind"]["group"]) == {"power of 2", "unrestricted"}
    s = settings_of(published={"table16_geomean_tt_s": {"best": 429, "sa": 543, "user": 1478}},
                    nas_validation={"logs": ["toy"], "experiments_per_benchmark": 4})
    rows = nas_rows(t16, bk, exp, s)
    assert all(r["verdict"] != "not_run" for r in rows)
    assert rows[0]["reproduced"] == pytest.approx(gm["best"])
    fig = figure57(bk)
    assert [len(ax.patches) for ax in fig.axes] == [6, 4]  # 2 kinds x (3 | 2) requests


def _swf(n=40, seed=8):
    from schedlab.traces.swf import SWF_COLUMNS

    rng = np.random.default_rng(seed)
    t = pd.DataFrame(-1, index=range(n), columns=list(SWF_COLUMNS))
    t["job_id"] = np.arange(1, n + 1)
    t["submit_time"] = np.sort(rng.integers(0, 2 * 86400, n))
    t["wait_time"] = 0
    t["run_time"] = rng.integers(10, 3000, n)
    t["req_time"] = t["run_time"] + rng.integers(0, 3000, n)
    t["req_procs"] = rng.choice([1, 4, 8, 16], n)
    t["alloc_procs"] = t["req_procs"]
    t["status"] = 1
    t["user_id"] = 1
    return t


def test_run_nas_log_on_a_small_swf_table():
    from schedlab.traces.swf import SWFHeader

    header = SWFHeader(fields={"MaxProcs": "32", "UnixStartTime": "0", "TimeZoneString": "UTC"})
    nas = {"logs": ["A", "B"], "machine_procs": {"A": 16}, "experiments_per_benchmark": 5,
           "periods": {"A": ["1970-01-02", "1970-01-03"]}, "benchmarks": SPEC,
           "execution_times": {"MG": {4: 400.0, 8: 200.0, 16: 100.0}, "EP": {1: 900.0}}}
    s = settings_of(seed=3, nas_validation=nas)
    df, meta = N.run_nas_log(s, "A", _swf(), header)
    assert meta["machine_procs"] == 16 and len(df) == 6  # 3 of 5 per benchmark go to log A
    assert (df["submit"] >= 86400).all() and (df["submit"] < 2 * 86400).all()  # the period
    assert set(df["benchmark"]) == {"MG", "EP"} and (df["log"] == "A").all()
    assert (df[df["benchmark"] == "EP"]["nu"] == 16).all()
    assert df.equals(N.run_nas_log(s, "A", _swf(), header)[0])  # deterministic
    assert N.run_nas_log(s, "B", _swf(), header)[1]["machine_procs"] == 32  # from the header
    with pytest.raises(ConfigError, match=r"not in nas_validation\.logs"):
        N.run_nas_log(s, "C", _swf(), header)


def test_table15_request_counts_from_the_configured_sizes():
    # Table 15: MG/LU 4, 5 or 6 requests, SP/BT 5, 6 or 7, EP as many as processors, on the
    # 100 (KTH), 128 (SDSC) and 430 (CTC) processor machines of Table 1
    from pathlib import Path

    import yaml

    cfg = yaml.safe_load((Path(__file__).resolve().parents[2]
                          / "config/papers/cirne2001_sa.yaml").read_text())
    t = N.table15(cfg["nas_validation"]).set_index(["benchmark", "machine_procs"])["requests"]
    for (b, p), n in {("MG", 100): 4, ("LU", 128): 5, ("MG", 430): 6, ("SP", 100): 5,
                      ("BT", 128): 6, ("SP", 430): 7, ("EP", 430): 430}.items():
        assert t[b, p] == n
    rows = nas_rows(N.table16(pd.DataFrame(), None, reason="x"),
                            N.table16_by_kind(pd.DataFrame(), None, reason="x"), pd.DataFrame(),
                            settings_of(published=cfg["published"],
                                        nas_validation=cfg["nas_validation"]))
    # Table 15 is our configuration, not a result: no scorecard row (it would hold by construction)
    assert [r for r in rows if r["item"] == "Table 15"] == []
