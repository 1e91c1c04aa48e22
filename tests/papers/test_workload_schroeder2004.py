"""Schroeder & Harchol-Balter (2004) workload: Table 1 rows, the job selection, the CTC log
(schedlab.papers.schroeder2004.workload)."""

import numpy as np
import pandas as pd
import pytest

from schedlab.papers.schroeder2004 import workload as w


def test_table1_row_hand_example():
    jobs = pd.DataFrame({"submit_time": [0, 86400, 172800, 259200], "run_time": [1, 2, 3, 6],
                         "alloc_procs": [8, 8, 8, 8], "req_procs": [8, 8, 8, 8]})
    r = w.table1_row("x", w.service_trace(jobs, {"procs": [8]}), {"procs": [8]})
    assert r["jobs"] == 4 and r["mean_service"] == 3.0 and r["max_service"] == 6.0
    assert r["scv"] == pytest.approx(3.5 / 9)  # var 3.5 (population) / mean² 9
    assert r["duration_days"] == 3.0
    assert w.lag1_autocorrelation(np.array([1.0, 2.0, 3.0, 4.0])) == pytest.approx(1.0)
    assert np.isnan(w.lag1_autocorrelation(np.array([1.0, 1.0, 1.0])))


def test_ctc_eight_processor_subset(mirror):
    from schedlab.traces.lookup import load_trace

    jobs = load_trace("CTC-SP2-1996-3.1-cln", mirror=mirror).jobs
    st = w.service_trace(jobs, {"procs": [8]})
    r = w.table1_row("CTC IBM-SP2", st, {"procs": [8]}, 835823160, "US/Eastern")
    # without the 12-hour limit the cleaned 3.1 log has 191 more 8-processor jobs:
    assert r["jobs"] == 5920
    assert r["scv"] == pytest.approx(6.23, abs=0.01)
    assert r["min_service"] == 2.0 and r["max_service"] == 68868.0
    assert r["duration"] == "July 1996 - May 1997"  # as in the paper's Table 1
    assert r["lag1_autocorr_log_service"] > 0.3  # consecutive run times are strongly correlated
    # the paper's Table 1 row (5729 jobs, mean 2903.6 s, max 43138 s, C² 5.42): jobs that ran
    # at most 12 hours; the cleaned log's shortest run time is 2 s (paper: 1 s)
    sub = {"procs": [8], "max_run_time": 43200}
    t = w.table1_row("CTC IBM-SP2", w.service_trace(jobs, sub), sub, 835823160, "US/Eastern")
    assert t["jobs"] == 5729 and round(t["mean_service"], 1) == 2903.6
    assert t["max_service"] == 43138.0 and t["min_service"] == 2.0
    assert t["scv"] == pytest.approx(5.42, abs=0.006)
    assert t["duration"] == "July 1996 - May 1997"
    assert t["selection"].endswith("5729 after dropping 191 running longer than 43200 s")


def test_selection_steps_text():
    rep = {"trace_jobs": 10, "subset_jobs": 6, "dropped_unknown_or_zero_run_time": 1,
           "dropped_above_max_run_time": 2, "jobs": 3}
    txt = w.selection_steps(rep, {"procs": [8], "max_run_time": 43200})
    assert txt == ("10 jobs in the log -> 6 jobs using 8 processors -> 5 after dropping 1 with "
                   "unknown or zero run time -> 3 after dropping 2 running longer than 43200 s")
