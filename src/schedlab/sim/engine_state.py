"""The engine's state during one run and its event handlers (docs/design.md §4).

:class:`EngineState` owns the machine (free processors, optional contiguous 1-D node blocks), the
event heap, the waiting and running jobs and the per-job records; it is the
:class:`~schedlab.sim.state.MachineView` the schedulers see, applies their starts and delivers
single events (an arrival, an end, a cancellation) to them. In which order the events of one time
are delivered and when the scheduling passes run is the event loops' part
(:class:`~schedlab.sim.engine.Engine`); pausing and forking a run is :mod:`.fork`'s.

Machine
-------
``allocation="any"``: a job needs ``procs`` idle processors. ``allocation="contiguous"``: it needs a
block of ``procs`` consecutive free processors in a 1-D machine (Tang §4.1, BG/P); the engine
places it first-fit (lowest index) unless the :class:`Start` names ``first_node``. Either way a start
that does not fit raises :class:`~schedlab.sim.errors.SimulationError` naming job and time.

Runtimes: an attempt runs for ``min(runtime, estimate)`` (killed at its estimate, docs/design.md §4) unless
``enforce_estimate=False``, and for at most ``kill_at - start`` when a ``kill_at`` is given.

A job started at ``t`` with duration ``d`` ends at ``t + d``; zero-length steps never occur because
normalization makes every runtime >= 1 s.
"""

from __future__ import annotations

import copy
from array import array
from collections.abc import Hashable, Sequence
from heapq import heappop, heappush
from typing import Any, Self

import numpy as np
import pandas as pd

from .errors import SimulationError
from .job import SimJob
from .machine import Machine, make_machine
from .options import BSLD_BOUND, SimOptions
from .result import TIMELINE_COLUMNS, SimResult
from .scheduler import Scheduler, Start
from .state import Run, Snapshot

#: event kinds on the heap: ``(time, sequence number, kind, job id or timer key, code)``
END, CANCEL, TIMER = 0, 1, 2
#: the per-job record lists of :class:`EngineState` (copied by :meth:`EngineState.fork`)
_PER_JOB = ("start", "first_start", "end", "attempts", "run_procs", "run_runtime", "run_estimate",
            "killed", "cancelled", "wasted", "alt", "tag")


class EngineState:
    """One simulation run (without its event loops: :class:`~schedlab.sim.engine.Engine`);
    implements :class:`~schedlab.sim.state.MachineView` for schedulers.

    ``now``, ``machine_size``, ``allocation``, ``options``, ``free``, ``running`` and ``waiting``
    are plain attributes (fast to read); schedulers must treat them as read-only. ``options`` is
    set by :class:`~schedlab.sim.engine.Engine`, whose event loops read its tie rule.
    """

    #: the run's engine options (set by Engine before this constructor runs)
    options: SimOptions

    def __init__(
        self,
        jobs: Sequence[SimJob],
        machine_size: int,
        scheduler: Scheduler,
        allocation: str,
        enforce_estimate: bool,
        record_timeline: bool,
        use_estimates: bool = False,
        order: list[int] | None = None,
    ) -> None:
        self.machine = make_machine(machine_size, allocation)
        self.machine_size = machine_size
        self.allocation = allocation
        self.enforce_estimate = enforce_estimate
        self.use_estimates = use_estimates
        self.scheduler = scheduler
        self.now = 0
        self.free = machine_size
        self.running: dict[int, Run] = {}
        self.waiting: dict[int, SimJob] = {}
        self.jobs = list(jobs)
        n = len(self.jobs)
        self.pos: dict[int, int] = {}
        for i, j in enumerate(self.jobs):
            if j.job_id in self.pos:
                raise SimulationError(f"job {j.job_id}: duplicate job id")
            if not 1 <= j.procs <= machine_size:
                raise SimulationError(
                    f"job {j.job_id}: needs {j.procs} processors, machine has {machine_size}"
                )
            self.pos[j.job_id] = i
        #: the arrival list: job indices by (submit, index); a fork passes its own (extra jobs only)
        self.order = (sorted(range(n), key=lambda i: (self.jobs[i].submit, i)) if order is None
                      else order)
        self.next_arrival = 0
        self.heap: list[tuple] = []
        self.seq = 0
        # per-job records (input order)
        self.start = [-1] * n
        self.first_start = [-1] * n
        self.end = [-1] * n
        self.attempts = [0] * n
        self.run_procs = [j.procs for j in self.jobs]
        self.run_runtime = [j.runtime for j in self.jobs]
        self.run_estimate = [j.estimate for j in self.jobs]
        self.killed = [False] * n
        self.cancelled = [False] * n
        self.wasted = [0] * n
        self.alt = [-1] * n
        self.tag = [""] * n
        self.finished = 0
        # queue accounting for the timeline
        self.sum_submit_waiting = 0
        self.waiting_procs = 0
        self.min_heap: list[tuple[int, int, int]] = []  # (procs, seq, job_id), lazy
        self.record_timeline = record_timeline
        self.tl = array("q")  # timeline rows, flattened (TIMELINE_COLUMNS per row)
        self.events = 0
        self.passes = 0
        self.stop_ids: set[int] | None = None
        #: forks: run a scheduling pass at this time even if no event is due then
        self.pass_at: int | None = None
        #: pause just before this arrival (index into ``order``); see :class:`Simulation`
        self.stop_arrival: int | None = None
        self.paused = False
        #: per_event: the step-3 events of the time a pause interrupted (resumed by the next run)
        self.paused_todo: list[tuple[int, Any, int]] | None = None
        self._arrivals: tuple[list[SimJob], list[int]] | None = None

    # --- MachineView --------------------------------------------------------------------------
    def fits_now(self, procs: int) -> bool:
        return self.machine.fits(procs)

    def largest_free_block(self) -> int:
        return self.machine.largest_block()

    def machine_copy(self) -> Machine:
        return copy.deepcopy(self.machine)

    def set_timer(self, t: int, key: Hashable) -> None:
        if t < self.now:
            raise SimulationError(f"timer {key!r} set for t={t} in the past (now {self.now})")
        self._push(t, TIMER, key, 0)

    def snapshot(self) -> Snapshot:
        # the Run records themselves: the engine never changes a Run (a new attempt is a new
        # one) and schedulers only read them; a fork shares them too (:func:`.fork.simulate_from`)
        running = tuple(self.running.values())
        attempts = {r.job.job_id: r.attempt for r in running}
        for jid in self.waiting:
            attempts[jid] = self.attempts[self.pos[jid]]
        return Snapshot(
            now=self.now,
            machine_size=self.machine_size,
            allocation=self.allocation,
            running=running,
            waiting=tuple(self.waiting.values()),
            attempts=attempts,
        )

    # --- internals ----------------------------------------------------------------------------
    def _push(self, t: int, kind: int, a: Any, b: int) -> None:
        self.seq += 1
        heappush(self.heap, (t, self.seq, kind, a, b))

    def _enqueue(self, job: SimJob) -> None:
        self.waiting[job.job_id] = job
        self.sum_submit_waiting += job.submit
        self.waiting_procs += job.procs
        self.seq += 1
        heappush(self.min_heap, (job.procs, self.seq, job.job_id))

    def _dequeue(self, job: SimJob) -> None:
        del self.waiting[job.job_id]
        self.sum_submit_waiting -= job.submit
        self.waiting_procs -= job.procs

    def _record_timeline(self, t: int) -> None:
        """Append one timeline row (:data:`TIMELINE_COLUMNS`) after the pass at time ``t``."""
        nw = len(self.waiting)
        self.tl.extend((t, self.free, len(self.running), nw, self.waiting_procs,
                        nw * t - self.sum_submit_waiting,
                        self._min_waiting_procs() if nw else 0))

    def _min_waiting_procs(self) -> int:
        h, w = self.min_heap, self.waiting
        while h and h[0][2] not in w:
            heappop(h)
        return h[0][0] if h else 0

    def _arrive(self, job: SimJob) -> None:
        self._enqueue(job)
        if job.cancel_time is not None:
            self._push(max(job.cancel_time, job.submit), CANCEL, job.job_id, 0)
        self.scheduler.on_arrival(self, job)

    def _start(self, s: Start) -> None:
        jid = s.job.job_id
        job = self.waiting.get(jid)
        now = self.now
        if job is None:
            state = "running" if jid in self.running else "not waiting"
            raise SimulationError(
                f"t={now}: scheduler {self.scheduler.name} started job {jid}, which is {state}"
            )
        alt = s.alternative
        if alt is None:
            procs, runtime, estimate = job.procs, job.runtime, job.estimate
        else:
            procs, runtime, estimate = alt.procs, alt.runtime, alt.estimate
            if not 1 <= procs <= self.machine_size or runtime < 1 or estimate < 1:
                raise SimulationError(f"t={now}: job {jid}: invalid alternative {alt}")
        first = self.machine.allocate(procs, s.first_node, f"t={now}: job {jid}")
        self.free = self.machine.free
        self._dequeue(job)
        i = self.pos[jid]
        dur = estimate if self.use_estimates else runtime
        at_estimate = False
        if self.enforce_estimate and dur > estimate:
            dur, at_estimate = estimate, True
        expected_end = now + estimate
        kind_kill = False
        if s.kill_at is not None:
            if s.kill_at <= now:
                raise SimulationError(
                    f"t={now}: job {jid}: kill_at {s.kill_at} is not in the future"
                )
            expected_end = min(expected_end, s.kill_at)
            if s.kill_at < now + dur:
                dur, kind_kill, at_estimate = s.kill_at - now, True, False
        attempt = self.attempts[i]
        run = Run(
            job, now, procs, runtime, estimate, expected_end, s.kill_at, first, attempt, s.tag, alt
        )
        self.running[jid] = run
        if attempt == 0:
            self.first_start[i] = now
        self.attempts[i] = attempt + 1
        self.start[i] = now
        self.run_procs[i], self.run_runtime[i], self.run_estimate[i] = procs, dur, estimate
        self.killed[i] = at_estimate
        self.tag[i] = s.tag
        if alt is not None:
            try:
                self.alt[i] = job.alternatives.index(alt)
            except ValueError:
                self.alt[i] = -1
        self._push(now + dur, END, jid, attempt * 2 + kind_kill)

    def _end(self, jid: int, code: int) -> None:
        run = self.running.get(jid)
        if run is None or run.attempt != code >> 1:
            return  # stale: the attempt was cancelled
        del self.running[jid]
        self.machine.release(run.procs, run.first_node, f"t={self.now}: job {jid}")
        self.free = self.machine.free
        i = self.pos[jid]
        if code & 1:  # speculative kill: back to the queue
            self.wasted[i] += run.procs * (self.now - run.start)
            self.start[i] = -1
            self._enqueue(run.job)
            self.scheduler.on_killed(self, run)
        else:
            self.end[i] = self.now
            self.finished += 1
            self.scheduler.on_completion(self, run, self.killed[i])

    def _cancel(self, jid: int) -> None:
        i = self.pos[jid]
        if self.end[i] >= 0 or self.cancelled[i]:
            return
        job = self.jobs[i]
        self.cancelled[i] = True
        self.finished += 1
        if jid in self.waiting:
            self._dequeue(job)
            self.scheduler.on_cancel(self, job, None)
            return
        run = self.running.pop(jid)
        self.machine.release(run.procs, run.first_node, f"t={self.now}: job {jid}")
        self.free = self.machine.free
        self.end[i] = self.now
        self.run_runtime[i] = self.now - run.start
        self.killed[i] = False
        self.scheduler.on_cancel(self, job, run)

    def _arrival_list(self) -> tuple[list[SimJob], list[int]]:
        """Jobs in arrival order and their submit times (built once; shared by forks)."""
        if self._arrivals is None:
            arr_jobs = [self.jobs[i] for i in self.order]
            self._arrivals = (arr_jobs, [j.submit for j in arr_jobs])
        return self._arrivals

    def fork(self, arrival: SimJob | None = None) -> Self:
        """An independent copy of this run in its current state, with the scheduler's
        :meth:`~schedlab.sim.scheduler.Scheduler.fork`. The job list and arrival order are shared
        (read-only); ``arrival`` replaces the job whose arrival is next (same id and submit time),
        e.g. a target job submitted with another request. Cost: O(jobs) list copies."""
        new = copy.copy(self)
        new.scheduler = self.scheduler.fork()
        m = self.machine
        new.machine = copy.copy(m) if type(m) is Machine else copy.deepcopy(m)
        new.running, new.waiting = dict(self.running), dict(self.waiting)
        new.heap, new.min_heap = list(self.heap), list(self.min_heap)
        for name in _PER_JOB:
            setattr(new, name, list(getattr(self, name)))
        new.tl = array("q", self.tl)
        new.stop_ids = None if self.stop_ids is None else set(self.stop_ids)
        if self.paused_todo is not None:
            new.paused_todo = list(self.paused_todo)
        if arrival is not None:
            arr_jobs, arr_t = self._arrival_list()
            k = self.next_arrival
            old = arr_jobs[k] if k < len(arr_jobs) else None
            if old is None or (old.job_id, old.submit) != (arrival.job_id, arrival.submit):
                raise SimulationError(f"fork at t={self.now}: job {arrival.job_id} (submit "
                                      f"{arrival.submit}) is not the next arrival")
            arr_jobs = list(arr_jobs)
            arr_jobs[k] = arrival
            new._arrivals = (arr_jobs, arr_t)
            i = self.pos[arrival.job_id]
            new.jobs = list(self.jobs)
            new.jobs[i] = arrival
            new.run_procs[i] = arrival.procs
            new.run_runtime[i], new.run_estimate[i] = arrival.runtime, arrival.estimate
        return new


    def result(self, wall: float) -> SimResult:
        jobs = self.jobs
        start = np.asarray(self.start, dtype=np.int64)
        end = np.asarray(self.end, dtype=np.int64)
        submit = np.fromiter((j.submit for j in jobs), dtype=np.int64, count=len(jobs))
        runtime = np.asarray(self.run_runtime, dtype=np.int64)
        done = (start >= 0) & (end >= 0)
        wait = np.where(start >= 0, start - submit, np.nan).astype(np.float64)
        response = np.where(done, end - submit, np.nan).astype(np.float64)
        bsld = np.maximum(1.0, response / np.maximum(runtime, BSLD_BOUND))
        df = pd.DataFrame(
            {
                "job_id": np.fromiter((j.job_id for j in jobs), dtype=np.int64, count=len(jobs)),
                "submit": submit,
                "start": start,
                "end": end,
                "procs": np.asarray(self.run_procs, dtype=np.int64),
                "runtime": runtime,
                "estimate": np.asarray(self.run_estimate, dtype=np.int64),
                "wait": wait,
                "response": response,
                "bounded_slowdown": bsld,
                "user_id": np.fromiter((j.user_id for j in jobs), dtype=np.int64, count=len(jobs)),
                "first_start": np.asarray(self.first_start, dtype=np.int64),
                "attempts": np.asarray(self.attempts, dtype=np.int64),
                "killed": np.asarray(self.killed, dtype=bool),
                "cancelled": np.asarray(self.cancelled, dtype=bool),
                "wasted_proc_seconds": np.asarray(self.wasted, dtype=np.int64),
                "alternative": np.asarray(self.alt, dtype=np.int64),
                "tag": pd.array(self.tag, dtype="string"),
            }
        )
        timeline = None
        if self.record_timeline:
            rows = np.frombuffer(self.tl, dtype=np.int64).reshape(-1, len(TIMELINE_COLUMNS))
            timeline = pd.DataFrame(rows.copy(), columns=list(TIMELINE_COLUMNS))
        sched = self.scheduler
        return SimResult(
            jobs=df,
            timeline=timeline,
            machine_size=self.machine_size,
            scheduler=sched.name,
            params=sched.params(),
            settings={
                "allocation": self.allocation,
                **self.options.as_dict(),
                "enforce_estimate": self.enforce_estimate,
                "runtimes": "estimate" if self.use_estimates else "actual",
            },
            end_time=self.now,
            events=self.events,
            passes=self.passes,
            wall_time=wall,
        )
