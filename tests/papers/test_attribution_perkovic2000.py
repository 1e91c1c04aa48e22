"""Perković & Keleher 2000: the flurry and the other attribution readings of the load gap."""

from __future__ import annotations

import pandas as pd
import pytest
from perkovic2000_cases import CFG, settings_at, trace_table

from schedlab.papers.perkovic2000.attribution import (
    ATTRIBUTION_ALGORITHMS,
    attribution_jobs,
    attribution_row,
    flurry_jobs,
    input_stats,
    published_attribution_row,
)
from schedlab.papers.perkovic2000.runs import simulate, summarize
from schedlab.papers.perkovic2000.sweep import RunPoint, pk_config


def test_flurry_jobs_follow_the_numbering_gaps():
    tr = trace_table(12)
    tr["user_id"] = 7
    tr.loc[tr["job_id"].isin([2, 3]), "alloc_procs"] = 1
    tr.loc[tr["job_id"].isin([2, 3]), "user_id"] = 9
    kept = tr[~tr["job_id"].isin([5, 6, 7, 9])].reset_index(drop=True)  # flurry: 5-7 and 9
    flurry = {"user": 9, "first_job": 5, "last_job": 9, "jobs": 4}
    shape = {"runtime": 100.4, "estimate": 21_627.0}
    burst = flurry_jobs(kept, flurry, shape, "burst")
    assert list(burst["job_id"]) == [5, 6, 7, 9]
    s = tr.set_index("job_id")["submit_time"]
    lo, hi = s[4], s[8]                                   # jobs 5-7 arrive between jobs 4 and 8
    assert list(burst["submit_time"][:3]) == [int(lo + (hi - lo) * k / 4) for k in (1, 2, 3)]
    assert s[8] <= burst["submit_time"].iloc[3] <= s[10]
    assert (burst["run_time"] == 100).all() and (burst["req_time"] == 21_627).all()
    assert (burst["alloc_procs"] == 1).all() and (burst["user_id"] == 9).all()
    assert list(burst.columns) == list(kept.columns)
    spread = flurry_jobs(kept, flurry, shape, "spread")
    assert list(spread["submit_time"]) == [int(lo + (s[10] - lo) * k / 5) for k in (1, 2, 3, 4)]
    with pytest.raises(ValueError, match="filter says 5"):
        flurry_jobs(kept, {**flurry, "jobs": 5}, shape)
    with pytest.raises(ValueError, match="burst, spread"):
        flurry_jobs(kept, flurry, shape, "uniform")
    pub = {**CFG["published"]["table1"], "Number of jobs": 12}
    jobs, info = attribution_jobs(kept, None, {"machine": 8, "flurry": "burst"}, "t", flurry, pub)
    assert len(jobs) == 12 and info["flurry_jobs"] == 4 and info["flurry_procs"] == 1
    with pytest.raises(ValueError, match="flurry"):
        attribution_jobs(kept, None, {"machine": 8, "flurry": "burst"})


def test_attribution_jobs_and_rows():
    tr = trace_table(40)
    tr.loc[:4, "status"] = 0
    tr.loc[5, "run_time"] = tr.loc[5, "req_time"] + 100  # runs past its estimate
    base, info = attribution_jobs(tr, None, {"machine": 8})
    assert len(base) == 40 and info["cancelled_in_log"] == 0
    cut = base.set_index("job_id").loc[tr.loc[5, "job_id"]]
    assert cut["runtime"] == tr.loc[5, "req_time"]                  # killed at the estimate
    nocut, info = attribution_jobs(tr, None, {"machine": 8, "runtime_cut": False})
    row = nocut.set_index("job_id").loc[tr.loc[5, "job_id"]]
    assert row["runtime"] == row["estimate"] == tr.loc[5, "run_time"] and info["estimates_raised"] == 1
    dropped, info = attribution_jobs(tr, None, {"machine": 8, "drop_failed": True})
    assert len(dropped) == 35 and info["dropped_failed"] == 5
    s = settings_at("quick", starvation_horizon_s=0)
    assert pk_config(RunPoint(8, "base", "R/L", False), s, 100.0).order.weight == 0.0
    rows = []
    for o, g in ATTRIBUTION_ALGORITHMS:
        p = RunPoint(8, "base", o, g)
        rows += summarize(simulate(base, p, settings_at("quick"), 1), p)
    r = attribution_row("paper", {"machine": 8}, pd.DataFrame(rows).assign(**input_stats(base)))
    assert r["input median parallelism"] == base["procs"].median()
    bf = pd.DataFrame(rows).query("group == 'all'").set_index("algorithm")
    assert r["jobs_delayed_BF"] == bf.loc["BF", "jobs_delayed"] and r["machine"] == 8
    assert r["bsd_reduction R/L-NG vs BF"] == pytest.approx(
        1 - bf.loc["R/L-NG", "bounded_slowdown"] / bf.loc["BF", "bounded_slowdown"])
    pub = published_attribution_row(CFG["published"])
    assert pub["bsd_reduction R/L-NG vs BF"] == 0.77 and set(pub) == set(r)
