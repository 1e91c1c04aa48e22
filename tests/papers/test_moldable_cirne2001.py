"""Cirne 2001 experiments on the engine (schedlab.papers.cirne2001.workload, .machine, .moldable,
.runs): conservative-backfilling machine, single-target experiments, reproducibility."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import schedlab.papers.cirne2001.moldable as E
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
        return {a: E._outcome(snapshot, wl, job, k, a) for a in wl.alts(k) if a not in known}

    monkeypatch.setattr(E, "_static_outcomes", every_request)
    full = C.single_target_experiments(wl, 16, targets, check_theorem1=False)
    pd.testing.assert_frame_equal(pruned, full)
    assert (full["nu"] > 1).sum() >= 6  # the comparison covers real choices



def test_run_single_workload_is_byte_reproducible(tmp_path):
    from schedlab.io import write_parquet

    s = C.resolve_settings({"seed": 7, "machine_procs": 500, "sa_version": "cb",
                    "single_target": {"experiments": 2, "targets_per_workload": 2,
                                      "jobs_per_workload": 60}})
    paths = []
    for i in range(2):
        df, meta = C.run_single_workload(s, 0)
        paths.append(tmp_path / f"run{i}.parquet")
        write_parquet(paths[-1], df, meta)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert len(df) == 2 and df["sag_agrees"].dropna().all()

