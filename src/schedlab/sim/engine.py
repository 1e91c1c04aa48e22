"""The discrete-event engine (DESIGN §4): :func:`simulate`, :func:`simulate_from`, :class:`SimResult`.

Time is integer seconds. The engine owns the machine (free processors, optional contiguous 1-D
node blocks), the event queue and the per-job records; the :class:`~schedlab.sim.scheduler.Scheduler`
owns the policy.

Event tie rule (engine setting ``tie_rule``)
--------------------------------------------
All events due at the same time ``t`` are delivered before the single scheduling pass at ``t``:

``"completions_first"`` (default, the common convention in backfilling simulators)
    1. job ends, in (end time, start order): normal completions, estimate kills and speculative
       ``kill_at`` kills (which requeue the job) — processors are released first;
    2. cancellations of jobs whose ``cancel_time`` is ``t`` (waiting or running), in job order;
    3. arrivals, in (submit, position in the input) order;
    4. timers, in the order they were set;
    5. one call to ``scheduler.schedule(ctx)``; its starts happen at ``t``.

``"arrivals_first"``
    as above with step 3 before step 1 (arrival hooks see the machine before the processors freed
    at ``t``; the scheduling pass sees the same state either way).

A job started at ``t`` with duration ``d`` ends at ``t + d``; zero-length steps never occur because
normalization makes every runtime >= 1 s.

Machine
-------
``allocation="any"``: a job needs ``procs`` idle processors. ``allocation="contiguous"``: it needs a
block of ``procs`` consecutive free processors in a 1-D machine (Tang §4.1, BG/P); the engine
places it first-fit (lowest index) unless the :class:`Start` names ``first_node``. Either way a start
that does not fit raises :class:`~schedlab.sim.errors.SimulationError` naming job and time.

Runtimes: an attempt runs for ``min(runtime, estimate)`` (killed at its estimate, DESIGN §4) unless
``enforce_estimate=False``, and for at most ``kill_at - start`` when a ``kill_at`` is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

from .job import SimJob
from .scheduler import Scheduler
from .state import Snapshot

TieRule = Literal["completions_first", "arrivals_first"]
Allocation = Literal["any", "contiguous"]
TIE_RULES: tuple[str, ...] = ("completions_first", "arrivals_first")
ALLOCATIONS: tuple[str, ...] = ("any", "contiguous")

#: Per-job result columns (DESIGN §3 "Per-job result").
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


def simulate(
    jobs: Sequence[SimJob],
    machine_size: int,
    scheduler: Scheduler,
    *,
    allocation: Allocation = "any",
    tie_rule: TieRule = "completions_first",
    enforce_estimate: bool = True,
    record_timeline: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> SimResult:
    """Simulate ``jobs`` (any order; processed by (submit, input position)) on a machine.

    Args:
        jobs: the workload; every ``procs`` must be <= ``machine_size`` (else SimulationError).
        machine_size: processors.
        scheduler: a fresh scheduler instance (it is mutated).
        allocation: ``"any"`` or ``"contiguous"`` (see module docstring).
        tie_rule: order of same-time events (see module docstring).
        enforce_estimate: kill attempts at ``start + estimate``.
        record_timeline: keep the per-event-time state rows.
        progress: optional callback ``(jobs_finished, jobs_total)``, called every few thousand events.

    Returns:
        :class:`SimResult`. Raises SimulationError if the scheduler over-allocates, starts a job
        that is not waiting, or leaves jobs waiting forever on an idle machine (deadlock).
    """
    raise NotImplementedError("engine implementation in progress (interface commit)")


def simulate_from(
    snapshot: Snapshot,
    scheduler: Scheduler,
    jobs: Iterable[SimJob] = (),
    *,
    sync: bool = True,
    runtimes: Literal["estimate", "actual"] = "estimate",
    until: int | None = None,
    stop_when_started: Iterable[int] | None = None,
    tie_rule: TieRule = "completions_first",
    enforce_estimate: bool = True,
    record_timeline: bool = False,
) -> SimResult:
    """Fork: continue from ``snapshot`` with ``scheduler``; the real run is untouched.

    Args:
        snapshot: from ``ctx.snapshot()``.
        scheduler: the policy for the fork — ``self.fork()`` (the current policy with its current
            state) or a fresh instance of another policy.
        jobs: extra future arrivals (``submit >= snapshot.now``), e.g. SAg's one candidate request
            or the arrivals of PBAS's next time frame. Default none ("no later arrivals").
        sync: call ``scheduler.sync(ctx)`` first so it rebuilds its queue from the snapshot's
            waiting jobs; pass ``False`` when ``scheduler`` is a ``fork()`` taken at the same moment
            as the snapshot (its queue already matches).
        runtimes: running and waiting jobs run for their ``estimate`` (SAg, fair start time: run
            times unknown) or their actual ``runtime``.
        until: stop after the pass at the last event time <= ``until``.
        stop_when_started: stop after the pass in which all these job ids have started (Tang's fair
            start time: the probed job's start).
    Returns:
        :class:`SimResult` over the snapshot's running + waiting + extra jobs (``start`` -1 for jobs
        not started when the fork stopped; running jobs keep their original start).
    """
    raise NotImplementedError("engine implementation in progress (interface commit)")
