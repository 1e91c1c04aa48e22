"""Trace table -> simulation jobs, by explicit rules, each one counted (docs/design.md §3).

Defaults are common practice in trace-driven backfilling studies (Feitelson's PWA guidelines;
Mu'alem & Feitelson 2001):

=====================  ==================================================================================
rule (report key)      default behaviour (option)
=====================  ==================================================================================
``dropped_no_submit``  submit time unknown (< 0): job dropped
``dropped_no_procs``   neither requested nor allocated processors known: dropped
``dropped_no_runtime`` run time unknown (< 0): dropped
``dropped_too_wide``   needs more processors than the machine: dropped
``dropped_cancelled``  ``cancelled="drop"``: jobs with status 5 dropped (default ``"keep"``: simulated
                       like any other job; ``"withdraw"``: a cancelled job that never ran (run time
                       <= 0) is simulated with ``cancel_time`` = submit + wait, i.e. it leaves the
                       queue when its user withdrew it, and still runs if started before then)
``procs_from_alloc``   ``procs="requested"`` (default): requested processors if > 0, else allocated —
                       this counts the fall-backs. ``procs="allocated"``: allocated if > 0 else
                       requested (the archive's own convention for "used")
``estimate_missing``   requested time unknown (<= 0): estimate := run time (a perfect estimate)
``runtime_cut``        run time > estimate: run time := estimate (the job was killed at its limit)
``runtime_zero``       run time 0: run time := 1 s (so every job occupies the machine; estimate raised
                       to 1 s too if needed)
=====================  ==================================================================================

Every dropped job is counted under its rule; a trace left with no job at all is an error
(:class:`NormalizationError`), not an empty simulation with NaN metrics.

Submit times are shifted so that the first kept job arrives at 0 unless ``rebase=False`` (SWF
submit times are already relative to the log start; the shift is recorded in the report). Jobs keep
their SWF job numbers. The machine size comes from the header (``MaxProcs``, else ``MaxNodes``)
unless given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import SchedlabError
from ..sim.job import SimJob
from .swf import SWFHeader

PROCS_RULES = ("requested", "allocated")
CANCELLED_RULES = ("keep", "drop", "withdraw")
#: SWF status of a job cancelled by its user.
STATUS_CANCELLED = 5


class NormalizationError(SchedlabError):
    """The trace cannot be turned into simulation jobs (e.g. unknown machine size)."""


@dataclass
class Normalized:
    """Result of :func:`normalize`: the jobs, the same as a table, the report and the machine size."""

    jobs: list[SimJob]
    table: pd.DataFrame
    machine_size: int
    report: dict[str, Any] = field(default_factory=dict)


#: Columns of :attr:`Normalized.table` (docs/design.md §3 "Simulation jobs").
SIM_JOB_COLUMNS = ("job_id", "submit", "runtime", "estimate", "procs", "user_id", "cancel_time")


def normalize(
    trace_jobs: pd.DataFrame,
    header: SWFHeader | None = None,
    *,
    machine_size: int | None = None,
    procs: str = "requested",
    cancelled: str = "keep",
    rebase: bool = False,
    source: str = "<trace>",
) -> Normalized:
    """Apply the normalization rules (module docstring) to an SWF job table.

    Args:
        trace_jobs: the 18-column SWF table (:data:`schedlab.traces.swf.SWF_COLUMNS`).
        header: the SWF header (for the machine size).
        machine_size: overrides the header.
        procs: ``"requested"`` or ``"allocated"`` (which field wins when both are known).
        cancelled: ``"keep"``, ``"drop"`` or ``"withdraw"``.
        rebase: shift submit times so the first kept job arrives at 0.
        source: file/trace name for error messages.
    """
    if procs not in PROCS_RULES:
        raise NormalizationError(f"{source}: unknown procs rule {procs!r}; choose {PROCS_RULES}")
    if cancelled not in CANCELLED_RULES:
        raise NormalizationError(
            f"{source}: unknown cancelled rule {cancelled!r}; choose {CANCELLED_RULES}"
        )
    if machine_size is None:
        machine_size = header.machine_size if header is not None else None
    if machine_size is None or machine_size < 1:
        raise NormalizationError(
            f"{source}: machine size unknown (no MaxProcs/MaxNodes in the header); give it "
            "explicitly (schedlab simulate --procs N, or machine_size in the trace's registry entry)"
        )

    def col(name: str) -> np.ndarray:
        return trace_jobs[name].to_numpy(dtype=np.int64, copy=True)

    n_in = len(trace_jobs)
    submit, wait, run = col("submit_time"), col("wait_time"), col("run_time")
    req_p, alloc_p, req_t = col("req_procs"), col("alloc_procs"), col("req_time")
    status, user = col("status"), col("user_id")

    first, second = (req_p, alloc_p) if procs == "requested" else (alloc_p, req_p)
    p = np.where(first > 0, first, second)
    from_second = (first <= 0) & (second > 0)

    keep = np.ones(n_in, dtype=bool)
    report: dict[str, Any] = {"jobs_in": n_in}

    def drop(key: str, mask: np.ndarray) -> None:
        m = mask & keep
        report[key] = int(m.sum())
        keep[m] = False

    drop("dropped_no_submit", submit < 0)
    drop("dropped_no_procs", p <= 0)
    is_cancelled = status == STATUS_CANCELLED
    withdraw = np.zeros(n_in, dtype=bool)
    if cancelled == "drop":
        drop("dropped_cancelled", is_cancelled)
    else:
        report["dropped_cancelled"] = 0
        if cancelled == "withdraw":
            withdraw = is_cancelled & (run <= 0)
    run = np.where(withdraw & (run < 0), 0, run)
    drop("dropped_no_runtime", run < 0)
    drop("dropped_too_wide", p > machine_size)

    report["procs_from_" + ("alloc" if procs == "requested" else "request")] = int(
        (from_second & keep).sum()
    )
    est_missing = req_t <= 0
    report["estimate_missing"] = int((est_missing & keep).sum())
    est = np.where(est_missing, run, req_t)
    cut = run > est
    report["runtime_cut"] = int((cut & keep).sum())
    run = np.minimum(run, est)
    zero = run == 0
    report["runtime_zero"] = int((zero & keep).sum())
    run = np.maximum(run, 1)
    est = np.maximum(est, run)
    report["withdrawn_cancelled"] = int((withdraw & keep).sum())

    idx = np.flatnonzero(keep)
    if len(idx) == 0:
        counts = ", ".join(f"{k.removeprefix('dropped_')} {v}" for k, v in report.items()
                           if k.startswith("dropped_") and v)
        raise NormalizationError(
            f"{source}: no jobs left after normalization ({n_in} in; dropped: {counts}; "
            f"machine size {machine_size})"
        )
    submit_k = submit[idx]
    shift = int(submit_k.min()) if rebase and len(idx) else 0
    submit_k = submit_k - shift
    cancel = np.where(withdraw[idx], submit_k + np.maximum(wait[idx], 0), -1)
    table = pd.DataFrame(
        {
            "job_id": col("job_id")[idx],
            "submit": submit_k,
            "runtime": run[idx],
            "estimate": est[idx],
            "procs": p[idx],
            "user_id": user[idx],
            "cancel_time": cancel,
        }
    )
    report.update(
        jobs_out=len(idx),
        jobs_dropped=n_in - len(idx),
        machine_size=int(machine_size),
        submit_shift=shift,
        rules={"procs": procs, "cancelled": cancelled, "rebase": rebase},
    )
    return Normalized(
        jobs=jobs_from_table(table), table=table, machine_size=int(machine_size), report=report
    )


def jobs_from_table(table: pd.DataFrame) -> list[SimJob]:
    """SimJobs from a table with :data:`SIM_JOB_COLUMNS` (``cancel_time`` optional, -1/NaN = none)."""
    missing = [c for c in SIM_JOB_COLUMNS[:5] if c not in table.columns]
    if missing:
        raise NormalizationError(f"simulation job table lacks columns {missing}")
    user = table["user_id"] if "user_id" in table.columns else pd.Series(-1, index=table.index)
    cancel = (
        table["cancel_time"].fillna(-1)
        if "cancel_time" in table.columns
        else pd.Series(-1, index=table.index)
    )
    cols = [table[c].to_numpy().tolist() for c in SIM_JOB_COLUMNS[:5]]
    cols += [user.to_numpy().tolist(), cancel.to_numpy().tolist()]
    return [
        SimJob(int(j), int(s), int(r), int(e), int(q), int(u), None if c < 0 else int(c))
        for j, s, r, e, q, u, c in zip(*cols, strict=True)
    ]
