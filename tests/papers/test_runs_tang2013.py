"""Tang et al. 2013 runs: the workload, one sweep point, the queue-depth threshold."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from tang2013_cases import CFG

from schedlab.errors import ConfigError
from schedlab.papers.tang2013.config import SUBSTITUTE, LogSpec
from schedlab.papers.tang2013.runs import (
    month_average_threshold_min,
    qd_threshold_min,
    run_average_threshold_min,
    run_sweep_point,
)
from schedlab.papers.tang2013.workload import workload


def test_qd_threshold_auto_rounds_the_baseline_average():
    base = pd.DataFrame({"hours": [0.0, 0.5, 1.0, 1.5],
                         "queue_depth_min": [0.0, 300.0, 600.0, 700.0]})  # mean 400
    assert qd_threshold_min(base, CFG) == 400.0
    fixed = dataclasses.replace(CFG, tuning={**CFG.tuning, "qd_threshold_min": 1000})
    assert qd_threshold_min(base, fixed) == 1000.0


def test_run_sweep_point_small_workload():
    spec = LogSpec("SP2", "synthetic", 40, 16, 1, "easy", "any", "Table 3", {}, False, None)
    rng = np.random.default_rng(np.random.SeedSequence(7))
    est = rng.integers(600, 7200, 40)
    jobs = pd.DataFrame({"job_id": np.arange(40), "submit": np.sort(rng.integers(0, 20000, 40)),
                         "runtime": est // 2, "estimate": est, "procs": rng.integers(1, 17, 40)})
    per_job, series, summary = run_sweep_point(jobs, spec, "adapt-2d", CFG, qd_threshold_s=3000.0)
    assert (per_job["start"] >= per_job["submit"]).all()
    assert summary["unfair_jobs"] == int(per_job["unfair"].sum())
    assert summary["mean_wait_min"] == pytest.approx(per_job["wait"].mean() / 60)
    assert series["hours"].iloc[1] == 0.5 and set(series["window"]) <= {1, 4}
    again = run_sweep_point(jobs, spec, "adapt-2d", CFG, qd_threshold_s=3000.0)
    pd.testing.assert_frame_equal(per_job, again[0])
    with pytest.raises(ConfigError, match="threshold"):
        run_sweep_point(jobs, spec, "adapt-bf", CFG)


def test_paper_thresholds_are_the_defaults():
    base = pd.DataFrame({"hours": [0.0, 0.5, 1.0],
                         "queue_depth_min": [0.0, 800.0, 1000.0]})  # our own average: 600
    assert qd_threshold_min(base, CFG, "SP2") == 400.0      # §4.4.1, stated
    assert qd_threshold_min(base, CFG, "BGP") == 1000.0     # §4.4.1, stated
    assert qd_threshold_min(base, CFG, SUBSTITUTE) == 600.0  # no published value: auto
    assert month_average_threshold_min(base, CFG) == 600.0


def test_auto_threshold_is_the_whole_months_average_not_the_whole_runs():
    """§4.4.1 "set based on the whole month's average" on a two-month run (SP2's first 5000
    jobs): ``auto`` is the first 30 days' mean (400 min), not the whole run's (900 min, the
    attribution reading run_average)."""
    hours = [h / 2 for h in range(2 * 60 * 24)]   # 60 days of 30-min samples
    series = pd.DataFrame({"hours": hours,
                           "queue_depth_min": [400.0 if h < 720 else 1400.0 for h in hours]})
    assert qd_threshold_min(series, CFG, SUBSTITUTE) == 400.0
    assert run_average_threshold_min(series, CFG) == 900.0
    one_month = series[series["hours"] < 720]
    assert run_average_threshold_min(one_month, CFG) == month_average_threshold_min(one_month, CFG)


def test_workload_selection_readings():
    from schedlab.traces.swf import SWF_COLUMNS

    rows = []
    for i in range(12):
        r = dict.fromkeys(SWF_COLUMNS, -1)
        r.update(job_id=i + 1, submit_time=10 * i, run_time=-1 if i % 4 == 0 else 50,
                 req_procs=2, alloc_procs=2, req_time=100, status=1)
        rows.append(r)
    trace = pd.DataFrame(rows)[list(SWF_COLUMNS)]
    spec = LogSpec("SP2", "synthetic", 8, 16, 1, "easy", "any", "Table 3", {}, False, None)
    rec, rep = workload(trace, None, spec)
    run, rep2 = workload(trace, None, spec, "runnable")
    assert len(rec) == 6 and rep["input_jobs"] == 8            # 2 of the first 8 have no runtime
    assert len(run) == 8 and rep2["input_jobs"] == 11 and rep2["selection"] == "runnable"
    with pytest.raises(ConfigError, match="job selection"):
        workload(trace, None, spec, "all")
