"""What a simulation returns (docs/design.md §3 "Per-job result"): :class:`SimResult`, its per-job
columns :data:`JOB_COLUMNS` and its timeline columns :data:`TIMELINE_COLUMNS`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

#: Per-job result columns (docs/design.md §3 "Per-job result").
JOB_COLUMNS: tuple[str, ...] = (
    "job_id", "submit", "start", "end", "procs", "runtime", "estimate", "wait", "response",
    "bounded_slowdown", "user_id", "first_start", "attempts", "killed", "cancelled",
    "wasted_proc_seconds", "alternative", "tag",
)  # fmt: skip

#: Timeline columns: one row per event time, state after the scheduling pass.
TIMELINE_COLUMNS: tuple[str, ...] = (
    "time", "free", "running", "waiting", "waiting_procs", "queue_depth", "min_waiting_procs",
)  # fmt: skip


@dataclass
class SimResult:
    """Outcome of one simulation.

    Attributes:
        jobs: one row per input job, columns :data:`JOB_COLUMNS`, in input order:
            ``start``/``end`` of the final attempt (-1 if it never started, e.g. cancelled while
            waiting or the run stopped early), ``procs``/``runtime``/``estimate`` of the request it
            ran with, ``wait = start - submit``, ``response = end - submit``,
            ``bounded_slowdown = max(1, response / max(runtime, 10))``, ``first_start`` (first
            attempt), ``attempts`` (number of starts), ``killed`` (ended at its estimate),
            ``cancelled``, ``wasted_proc_seconds`` (killed speculative attempts),
            ``alternative`` (index into ``job.alternatives``, -1 = own request / ad-hoc), ``tag``.
        timeline: :data:`TIMELINE_COLUMNS` (``queue_depth`` = sum of waits so far of all waiting
            jobs, Tang §4.2; ``min_waiting_procs`` = narrowest waiting job, 0 if none, for the
            loss-of-capacity δ of Tang eq. 4). ``None`` if ``record_timeline=False``.
        machine_size, scheduler, params, settings: provenance.
        end_time: time of the last event processed.
        events: number of events processed; passes: number of scheduling passes;
        wall_time: seconds of wall clock spent.
    """

    jobs: pd.DataFrame
    timeline: pd.DataFrame | None
    machine_size: int
    scheduler: str
    params: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    end_time: int = 0
    events: int = 0
    passes: int = 0
    wall_time: float = 0.0

