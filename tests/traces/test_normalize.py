"""Normalization: every rule applied and counted in the report."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.traces.normalize import NormalizationError, jobs_from_table, normalize
from schedlab.traces.swf import SWF_COLUMNS, SWFHeader


def table(rows: list[dict]) -> pd.DataFrame:
    base = dict.fromkeys(SWF_COLUMNS, -1)
    return pd.DataFrame([{**base, **r} for r in rows], columns=list(SWF_COLUMNS))


HEADER = SWFHeader(fields={"MaxProcs": "8"})

ROWS = [
    # ok: requested procs, requested time, runtime below the estimate
    dict(job_id=1, submit_time=100, wait_time=0, run_time=50, req_procs=4, alloc_procs=4,
         req_time=60, status=1, user_id=3),
    # procs from allocated (requested unknown); estimate missing -> runtime
    dict(job_id=2, submit_time=110, wait_time=5, run_time=30, req_procs=-1, alloc_procs=2,
         req_time=-1, status=1, user_id=4),
    # runtime above the estimate -> cut (killed at its limit)
    dict(job_id=3, submit_time=120, wait_time=0, run_time=90, req_procs=1, alloc_procs=1,
         req_time=60, status=0),
    # zero runtime -> 1 s
    dict(job_id=4, submit_time=130, wait_time=0, run_time=0, req_procs=1, alloc_procs=1,
         req_time=10, status=1),
    # too wide for an 8-processor machine
    dict(job_id=5, submit_time=140, wait_time=0, run_time=10, req_procs=16, alloc_procs=16,
         req_time=10, status=1),
    # unknown submit, unknown procs, unknown runtime
    dict(job_id=6, submit_time=-1, run_time=10, req_procs=1, req_time=10, status=1),
    dict(job_id=7, submit_time=150, run_time=10, req_procs=-1, alloc_procs=-1, req_time=10),
    dict(job_id=8, submit_time=160, run_time=-1, req_procs=2, req_time=10, status=1),
    # cancelled before it ran: waited 40 s then withdrawn
    dict(job_id=9, submit_time=170, wait_time=40, run_time=0, req_procs=2, alloc_procs=-1,
         req_time=100, status=5),
]  # fmt: skip


def test_default_rules_counted():
    n = normalize(table(ROWS), HEADER)
    r = n.report
    assert n.machine_size == 8
    assert (r["jobs_in"], r["jobs_out"], r["jobs_dropped"]) == (9, 5, 4)
    assert r["dropped_no_submit"] == 1 and r["dropped_no_procs"] == 1
    assert r["dropped_no_runtime"] == 1 and r["dropped_too_wide"] == 1
    assert r["procs_from_alloc"] == 1 and r["estimate_missing"] == 1
    assert r["runtime_cut"] == 1 and r["runtime_zero"] == 2  # jobs 4 and 9
    t = n.table.set_index("job_id")
    assert list(t.index) == [1, 2, 3, 4, 9]
    assert t.loc[2, ["procs", "estimate", "runtime"]].tolist() == [2, 30, 30]
    assert t.loc[3, ["runtime", "estimate"]].tolist() == [60, 60]
    assert t.loc[4, ["runtime", "estimate"]].tolist() == [1, 10]
    assert t.submit[1] == 100  # SWF times kept by default
    assert (t.estimate >= t.runtime).all() and (t.runtime >= 1).all()
    assert [j.job_id for j in n.jobs] == [1, 2, 3, 4, 9]
    assert n.jobs[0].user_id == 3 and n.jobs[-1].cancel_time is None


def test_options():
    n = normalize(table(ROWS), HEADER, cancelled="drop", rebase=True, machine_size=16)
    assert n.report["dropped_cancelled"] == 1 and n.report["dropped_too_wide"] == 0
    assert n.table.submit.min() == 0 and n.report["submit_shift"] == 100
    w = normalize(table(ROWS), HEADER, cancelled="withdraw")
    job9 = next(j for j in w.jobs if j.job_id == 9)
    assert job9.cancel_time == 170 + 40 and w.report["withdrawn_cancelled"] == 1
    a = normalize(table(ROWS), HEADER, procs="allocated")
    assert a.report["procs_from_request"] == 1  # job 9 (job 8 has alloc -1 but is dropped)
    assert jobs_from_table(w.table) == w.jobs


def test_bad_input_is_one_clear_error():
    with pytest.raises(NormalizationError, match="machine size unknown"):
        normalize(table(ROWS), SWFHeader(), source="x.swf")
    with pytest.raises(NormalizationError, match="procs rule"):
        normalize(table(ROWS), HEADER, procs="max")
    with pytest.raises(NormalizationError, match="lacks columns"):
        jobs_from_table(pd.DataFrame({"job_id": [1]}))


def test_real_log_normalizes(mirror):
    from schedlab.traces.lookup import load_trace

    tr = load_trace("KTH-SP2-1996-2.1-cln", mirror=mirror)
    n = normalize(tr.jobs, tr.header)
    r = n.report
    assert n.machine_size == 100
    assert r["jobs_out"] + r["jobs_dropped"] == r["jobs_in"] == len(tr.jobs)
    assert all(1 <= j.procs <= 100 and 1 <= j.runtime <= j.estimate for j in n.jobs)
