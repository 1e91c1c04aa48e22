"""Run metrics (loss of capacity, utilization, queue depth, per month, per shape) and the CLI."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.cli.main import main
from schedlab.io import read_parquet
from schedlab.sim import SimJob, simulate
from schedlab.sim.metrics import (
    loss_of_capacity,
    month_labels,
    per_month,
    per_shape,
    queue_depth_stats,
    summarize,
)
from schedlab.sim.schedulers import make_scheduler


def test_loss_of_capacity_tang_eq4_by_hand():
    # 10 nodes; events at 0, 10, 30. After event 0: 4 idle, a 3-wide job waits (fits: delta=1);
    # after event 10: 2 idle, a 3-wide job waits (does not fit: delta=0).
    tl = pd.DataFrame(
        {"time": [0, 10, 30], "free": [4, 2, 10], "waiting": [1, 1, 0],
         "min_waiting_procs": [3, 3, 0], "queue_depth": [0, 10, 0], "running": [1, 1, 0],
         "waiting_procs": [3, 3, 0]}
    )  # fmt: skip
    assert loss_of_capacity(tl, 10) == pytest.approx(4 * 10 / (10 * 30))
    tl.loc[0, "min_waiting_procs"] = 4
    assert loss_of_capacity(tl, 10) == pytest.approx(4 * 10 / (10 * 30))  # sufficient (<=)
    assert loss_of_capacity(tl, 10, strict=True) == 0.0  # "smaller than"


def test_queue_depth_integrates_linear_growth():
    # one job waits from 0 to 10: depth grows 0 -> 10, mean over [0, 20] = 50 / 20
    tl = pd.DataFrame({"time": [0, 10, 20], "waiting": [1, 0, 0], "queue_depth": [0, 0, 0]})
    s = queue_depth_stats(tl)
    assert s["mean_queue_depth"] == pytest.approx(2.5)
    assert s["max_queue_depth"] == pytest.approx(10.0)
    assert s["mean_queued_jobs"] == pytest.approx(0.5)


def test_summary_utilization_and_means():
    jobs = [SimJob(1, 0, 10, 10, 2), SimJob(2, 0, 10, 10, 4)]
    res = simulate(jobs, 4, make_scheduler("fcfs"))
    s = summarize(res)
    assert s["mean_wait"] == 5.0 and s["makespan"] == 20
    assert s["utilization"] == pytest.approx((2 * 10 + 4 * 10) / (4 * 20))
    assert s["geomean_turnaround"] == pytest.approx((10 * 20) ** 0.5)
    # at t=0 job 2 waits with 2 idle processors that cannot hold it: delta = 0
    assert s["loss_of_capacity"] == 0.0


def test_months_in_local_time_and_shapes():
    # 1996-09-30 23:30 UTC is already October in Stockholm (UTC+2)
    start = int(pd.Timestamp("1996-09-30 23:00", tz="UTC").timestamp())
    labels = month_labels(pd.Series([0, 1800, 40 * 86400]), start, "Europe/Stockholm")
    assert list(labels) == ["1996-10", "1996-10", "1996-11"]
    assert list(month_labels(pd.Series([0]), start, None)) == ["1996-09"]
    jobs = [SimJob(i, i * 100, 10 + i, 10 + i, 1 + i % 4) for i in range(8)]
    df = simulate(jobs, 4, make_scheduler("easy")).jobs
    m = per_month(df, start, "UTC")
    assert m.jobs.sum() == 8 and list(m.month) == ["1996-09"]
    sh = per_shape(df)
    assert set(sh["shape"]) <= {"SN", "SW", "LN", "LW"} and sh.jobs.sum() == 8


def test_cli_simulate_writes_per_job_table(tmp_path, capsys):
    swf = tmp_path / "tiny.swf"
    swf.write_text(
        "; MaxProcs: 4\n; UnixStartTime: 0\n"
        "1 0 -1 10 2 -1 -1 2 20 -1 1 1 -1 -1 -1 -1 -1 -1\n"
        "2 5 -1 10 4 -1 -1 4 20 -1 1 2 -1 -1 -1 -1 -1 -1\n"
        "3 6 -1 5 8 -1 -1 8 20 -1 1 2 -1 -1 -1 -1 -1 -1\n"
    )
    out = tmp_path / "jobs.parquet"
    assert main(["simulate", str(swf), "--scheduler", "easy", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "jobs simulated         2" in text and "jobs dropped           1" in text
    df, meta = read_parquet(out)
    assert list(df.start) == [0, 10] and meta["scheduler"] == "easy"
    assert meta["normalization"]["dropped_too_wide"] == 1
    assert main(["simulate", str(swf), "--scheduler", "easy", "--procs", "0"]) == 2
    assert "argument --procs: must be >= 1" in capsys.readouterr().err
    assert main(["simulate", str(swf), "--scheduler", "conservative", "--tie-rule", "per_event",
                 "--out", str(out)]) == 0  # fmt: skip
    df, meta = read_parquet(out)
    assert list(df.start) == [0, 10] and meta["settings"]["tie_rule"] == "per_event"


def test_cli_real_logs(mirror, capsys):
    for sched in ("easy", "conservative"):
        assert main(["simulate", "KTH-SP2-1996-2.1-cln", "--scheduler", sched,
                     "--mirror", str(mirror)]) == 0  # fmt: skip
        assert "jobs simulated         28,475" in capsys.readouterr().out
