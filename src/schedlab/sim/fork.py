"""Continuing a run from a given state: forks (docs/design.md §4).

Pause and fork
--------------
:class:`Simulation` runs a workload in steps: :meth:`Simulation.run` pauses just before a given
job's arrival (within its time step, under every tie rule: the events of that second ordered
before the arrival have happened, the rest follow on resuming) or stops once given jobs have
started or a deadline passes; :meth:`Simulation.fork` copies the run (engine state, and the
scheduler's through :meth:`~schedlab.sim.scheduler.Scheduler.fork`), optionally with the next
arrival replaced. Cirne's single-target experiments fork one base run per request of each target.
:func:`starts_from` is the cheap what-if of :func:`simulate_from` for variants of one arriving job
(SAg). tests/sim/test_sim_fork.py: a paused-and-resumed run equals the uninterrupted one, a fork with
the next arrival replaced equals the run of the changed workload, under every tie rule.
:func:`simulate_from` continues from a :class:`~schedlab.sim.state.Snapshot` (a scheduler's
what-if: Tang's fair start time, SAg, PBAS's candidate runs).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from heapq import heapify
from typing import Literal

from .engine import INF, Engine
from .engine_state import CANCEL, END
from .errors import SimulationError
from .job import SimJob
from .options import Allocation, SimOptions
from .result import SimResult
from .scheduler import Scheduler
from .state import MachineView, Snapshot


def simulate_from(
    snapshot: Snapshot,
    scheduler: Scheduler,
    jobs: Iterable[SimJob] = (),
    *,
    sync: bool = True,
    runtimes: Literal["estimate", "actual"] = "estimate",
    until: int | None = None,
    stop_when_started: Iterable[int] | None = None,
    options: SimOptions = SimOptions(),
    enforce_estimate: bool = True,
    record_timeline: bool = False,
    per_job: bool = True,
) -> SimResult | None:
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
        options: as for :func:`~schedlab.sim.engine.simulate`; a scheduler's fork passes the
            run's (``ctx.options``).
        per_job: ``False`` returns ``None`` instead of building the result (about 1 ms a fork),
            for callers that read their answer from ``scheduler`` (Tang's fair start times).
    Returns:
        :class:`SimResult` over the snapshot's running + waiting + extra jobs (``start`` -1 for jobs
        not started when the fork stopped; running jobs keep their original start).
    """
    t0 = time.perf_counter()
    eng = _fork_engine(snapshot, scheduler, jobs, sync, runtimes, stop_when_started, options,
                       enforce_estimate, record_timeline)
    if eng.stop_ids is None or eng.stop_ids:
        eng.run(until, None)
    return eng.result(time.perf_counter() - t0) if per_job else None


def starts_from(
    snapshot: Snapshot,
    scheduler: Scheduler,
    variants: Sequence[SimJob],
    *,
    runtimes: Literal["estimate", "actual"] = "estimate",
    cancellations: bool = True,
    options: SimOptions = SimOptions(),
) -> list[int]:
    """What-if starts: for each of ``variants`` (one arriving job, ``submit >= snapshot.now``,
    with different requests: same id and submit), its start time (-1 if never) in a fork from
    ``snapshot`` in which it is the only new arrival, run until it starts — :func:`simulate_from`
    with ``sync=False`` (``scheduler`` is a ``fork()`` taken with the snapshot) and
    ``stop_when_started``, built once and forked per variant
    (:meth:`~schedlab.sim.engine_state.EngineState.fork`), without result frames. ``cancellations=False`` drops the waiting jobs' cancellations from the fork (SAg,
    Cirne §2.1: SA does not know them)."""
    if not variants:
        return []
    eng = _fork_engine(snapshot, scheduler, variants[:1], False, runtimes, None, options, True,
                       False)
    if not cancellations:
        eng.heap = [e for e in eng.heap if e[2] != CANCEL]
        heapify(eng.heap)
    jid = variants[0].job_id
    out = []
    for job in variants:
        f = eng.fork(job)
        f.stop_ids = {jid}
        f.run(None, None)
        out.append(f.start[f.pos[jid]])
    return out


def _fork_engine(
    snapshot: Snapshot,
    scheduler: Scheduler,
    jobs: Iterable[SimJob],
    sync: bool,
    runtimes: str,
    stop_when_started: Iterable[int] | None,
    options: SimOptions,
    enforce_estimate: bool,
    record_timeline: bool,
) -> Engine:
    """An engine continuing from ``snapshot`` (see :func:`simulate_from`), not yet run."""
    if runtimes not in ("estimate", "actual"):
        raise SimulationError(f"unknown runtimes {runtimes!r}; choose 'estimate' or 'actual'")
    extra = list(jobs)
    now = snapshot.now
    for j in extra:
        if j.submit < now:
            raise SimulationError(f"fork at t={now}: extra job {j.job_id} submitted at {j.submit}")
    running, waiting = snapshot.running, snapshot.waiting
    all_jobs = [r.job for r in running] + list(waiting) + extra
    n_pre = len(running) + len(waiting)
    eng = Engine(
        all_jobs,
        snapshot.machine_size,
        scheduler,
        snapshot.allocation,
        options,
        enforce_estimate,
        record_timeline,
        use_estimates=runtimes == "estimate",
        # only the extra jobs arrive through the arrival list
        order=sorted(range(n_pre, len(all_jobs)), key=lambda i: (all_jobs[i].submit, i)),
    )
    eng.now = now
    # re-create the running attempts (job i of all_jobs is running[i])
    machine, eng_running, push = eng.machine, eng.running, eng._push
    start, first_start, attempts = eng.start, eng.first_start, eng.attempts
    run_procs, run_estimate, run_runtime = eng.run_procs, eng.run_estimate, eng.run_runtime
    for i, r in enumerate(running):
        jid = r.job.job_id
        machine.allocate(r.procs, r.first_node, f"fork t={now}: job {jid}")
        if runtimes == "estimate":
            end = r.expected_end
        else:
            end = r.start + min(r.runtime, r.estimate) if enforce_estimate else r.start + r.runtime
            if r.kill_at is not None:
                end = min(end, r.kill_at)
        eng_running[jid] = r  # the record itself: no engine changes a Run
        start[i] = first_start[i] = r.start
        attempts[i] = r.attempt + 1
        run_procs[i], run_estimate[i] = r.procs, r.estimate
        run_runtime[i] = end - r.start
        speculative = r.kill_at is not None and end == r.kill_at and r.kill_at < r.start + r.runtime
        push(max(end, now), END, jid, r.attempt * 2 + speculative)
    eng.free = machine.free
    for i, j in enumerate(waiting, len(running)):
        attempts[i] = snapshot.attempts.get(j.job_id, 0)
        eng._enqueue(j)
        if j.cancel_time is not None:
            push(max(j.cancel_time, now), CANCEL, j.job_id, 0)
    if stop_when_started is not None:
        eng.stop_ids = {jid for jid in stop_when_started if eng.start[eng.pos[jid]] < 0}
    if sync:
        scheduler.sync(eng)
    eng.pass_at = now
    return eng


class Simulation:
    """A run that can pause just before an arrival, be forked there, and go on.

    Cirne 2001's single-target experiments (§5.1) and §5.4's NAS validation: one base run per
    workload pauses at each target's arrival (:meth:`run` with ``stop_before``); each of the
    target's requests is tried in a :meth:`fork` whose next arrival is the target with that
    request, run until the target starts (``until_started``) or a deadline passes. A fork copies
    the engine's state (event heap, queues, per-job records: O(jobs) list copies) and the
    scheduler's (:meth:`~schedlab.sim.scheduler.Scheduler.fork`, which a scheduler should make
    cheap); the job list and the arrival order are shared. Unlike :func:`simulate_from` the fork
    keeps the future arrivals and the scheduler's exact state (no ``sync``), so it continues the
    same schedule as the base run would. A pause lies *within* a time step: the events of that
    second that come before the arrival under the tie rule (``options``) have happened, the rest
    (and the scheduling passes they get) follow when the run resumes, so a paused-and-resumed run
    is the uninterrupted run (tests/sim/test_sim_fork.py, every tie rule).
    """

    def __init__(
        self,
        jobs: Sequence[SimJob],
        machine_size: int,
        scheduler: Scheduler,
        *,
        allocation: Allocation = "any",
        options: SimOptions = SimOptions(),
        enforce_estimate: bool = True,
    ) -> None:
        self.engine = Engine(
            jobs, machine_size, scheduler, allocation, options, enforce_estimate, False
        )
        self._index: dict[int, int] | None = None  # job id -> arrival index (shared by forks)
        self._mid_step = False

    @property
    def now(self) -> int:
        return self.engine.now

    @property
    def ctx(self) -> MachineView:
        """The engine as the schedulers see it (read-only)."""
        return self.engine

    @property
    def scheduler(self) -> Scheduler:
        return self.engine.scheduler

    def start(self, job_id: int) -> int:
        """Start time of the job's current attempt (-1 if it has not started)."""
        eng = self.engine
        return eng.start[eng.pos[job_id]]

    def run(
        self,
        *,
        stop_before: int | None = None,
        until_started: Iterable[int] | None = None,
        deadline: float | None = None,
    ) -> bool:
        """Advance the run. Returns True when it paused just before job ``stop_before`` arrives, or
        stopped after the scheduling pass in which every job of ``until_started`` had started
        (under ``per_event`` that stop may lie within a time step: such a run cannot go on); False
        when it ran out of events or the next event time would pass ``deadline``."""
        eng = self.engine
        ids = None
        if until_started is not None:
            ids = {jid for jid in until_started if eng.start[eng.pos[jid]] < 0}
            if not ids:
                return True
        if self._mid_step:
            raise SimulationError(f"t={eng.now}: a per_event run stopped at a start cannot go on")
        eng.stop_ids = ids
        if stop_before is not None:
            if self._index is None:
                self._index = {eng.jobs[i].job_id: a for a, i in enumerate(eng.order)}
            a = self._index[stop_before]
            if a < eng.next_arrival:
                raise SimulationError(f"t={eng.now}: job {stop_before} has already arrived")
            eng.stop_arrival = a
        eng.paused = False
        limit = None if deadline is None or deadline == INF else deadline
        eng.run(limit, None)  # type: ignore[arg-type]
        eng.stop_arrival = None
        started = eng.stop_ids is not None and not eng.stop_ids
        eng.stop_ids = None
        self._mid_step = started and eng.options.tie_rule == "per_event"
        return eng.paused or started

    def fork(self, arrival: SimJob | None = None) -> Simulation:
        """An independent copy (see the class docstring); ``arrival`` replaces the next arriving
        job (same id and submit time)."""
        new = object.__new__(Simulation)
        new.engine = self.engine.fork(arrival)
        new._index, new._mid_step = self._index, self._mid_step
        return new

    def result(self) -> SimResult:
        """Per-job records so far (:class:`SimResult`; jobs not started have start -1)."""
        return self.engine.result(0.0)
