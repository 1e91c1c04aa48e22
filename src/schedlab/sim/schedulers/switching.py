"""Adaptive backfilling (Talby & Feitelson 2005): PBAS (§3, Figure 1) and WBAS (§4.2, Figure 4).

Registered as ``pbas`` and ``wbas`` (``schedlab simulate --scheduler pbas``); the Talby pipeline
(:mod:`schedlab.papers.talby2005.runs`) builds them the same way, through
:func:`~schedlab.sim.schedulers.make_scheduler`. Parameters (keyword arguments):

* ``candidates``: registry names of the candidate schedulers (or ``(name, factory)`` pairs), each
  built with ``candidate_options[name]`` (e.g. Flex's slack, Maui's weights). Default
  ``("flex", "maui")``, the paper's main pair (§3.3); WBAS accepts only flex then maui.
* ``time_frame`` (s): PBAS's switching/history frame, WBAS's switch time.
* PBAS ``metric``: ``resp`` | ``bsld`` | ``util``. WBAS ``maf``: the moving-average factor.

Defaults are the paper's best configurations: PBAS "Resp 12-Hour" (Table 5: response time,
43,200 s; the other, "Util 7-Days", is ``metric="util", time_frame=604800``), WBAS "7500 MAF 1 Day"
(Table 8: MAF 7,500, 86,400 s). The candidates' own options default to their registry defaults
(Flex ``slack_factor`` 3.0, Maui queue time only); the paper does not state them, and the Talby
pipeline passes its fitted ``scheduler_options`` (``config/papers/talby2005.yaml``).

Both are meta-schedulers for the engine: they forward every hook to the *active* candidate scheduler
and switch the active one at regular time frames (engine timers). A newly activated candidate is
synchronized to the real state with :meth:`Scheduler.sync` (its queue rebuilt from the waiting jobs
in arrival order; running jobs are read from the machine).

PBAS (§3.2): "Run a set of candidate schedulers in the background, while using one of them as the
active scheduler; at regular intervals, review the performance of all schedulers, and choose the one
with the best performance to be the active scheduler for the next time frame." The history frame
equals the switching frame (§3.3).

*How the background candidates run (the cheapest faithful way we found).* Running every candidate as
a full parallel simulation and re-synchronizing it every frame is equivalent to this: at the start
of each frame ``[t_k, t_k+1)`` we take a snapshot of the real machine; when the frame ends, each
*inactive* candidate is run on a fork from that snapshot (a fresh instance, synchronized to the
snapshot, with the frame's arrivals and the jobs' actual run times) up to ``t_k+1``. The active
candidate needs no fork: its background run *is* the real run, whose frame statistics we accumulate
as it goes. Frames in which nothing can differ (no job waiting at the frame start and no arrival
during it) are not forked at all. A fork costs one frame of simulation plus the synchronization, so
PBAS costs about ``len(candidates)`` plain simulations plus one sync per candidate per busy frame.
Forked Flex instances are seeded with the real run's wait statistics (the slack base). The real run
and the forks are measured by the same hook-driven meter, so identical candidates score identically
when the policy's plan depends only on the waiting and running jobs (Maui, EASY; tested); conservative
and Flex carry history (reservations, slacks fixed at arrival) that a fork's sync re-plans, so two
copies of them can score differently and PBAS may switch between them.

Frames are not forked when no candidate could have done anything different: nothing was waiting at
the frame start and, in the real run, every job started in the scheduling pass of its arrival (no
job ever waited). All four schedulers of the paper start a job at once when the queue is empty and
it fits, so their forks would replay the real run exactly; all scores tie and the active stays.

Metrics per frame (§3.3): ``resp`` = mean response time of the jobs that completed in the frame
``(t_k, t_k+1]``, ``bsld`` = their mean bounded slowdown (10 s), ``util`` = processor-seconds used in
``[t_k, t_k+1)`` / (machine size x frame). Lower is better for resp/bsld, higher for util. A candidate
with no completion in the frame has no resp/bsld value and ranks last; if no candidate has a value,
or several share the best one (equal up to a relative 1e-9, float rounding) and the active is among
them, the active scheduler stays. Otherwise ties go to the candidate listed first. The initial active scheduler is the first candidate.

WBAS (§4.2, Figure 4): on every arrival ``AP = (1 - 1/MAF) AP + P_new / MAF`` (initialized with
the first job's processors); at each switch event ``AP_last`` = mean processors of the jobs that
arrived during the last frame (no arrival: no switch); Flex is activated if ``AP < AP_last`` and
Maui otherwise; a changed active scheduler is synchronized. The initial active scheduler is Maui
(Figure 4: "arbitrarily").

*Frames without the workload in advance.* The frame timer (frames ``t_first + k x time_frame``,
``t_first`` the first arrival) runs while jobs wait or run. When a frame ends on an idle machine
the timer stops; the next arrival first replays the frames it missed (each ends idle: nothing
waiting, no arrival, so nothing is decided and the active scheduler keeps its time share), then
re-arms the timer on the same grid. The arrivals of a frame, which the PBAS forks replay, are
recorded as they arrive (jobs submitted in ``(t_k, t_k+1]``: arrivals at ``t_k+1`` come before its
timer under every ``tie_rule``). So the policies are built from their parameters alone, as every
registered scheduler is, and schedule exactly as the earlier implementation that was handed the
job list to read frame arrivals and pending work from (golden schedules saved from it:
``tests/sim/schedulers/test_talby_golden.py``). The forks replay events in the real run's order (the engine's
options, ``ctx.options``: under another order identical candidates would score differently, and
PBAS switch between them).

Both record the share of simulated time each candidate was active (Table 6) and the number of
switches.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from typing import Any

from ..fork import simulate_from
from ..job import SimJob
from ..options import BSLD_BOUND
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run, Snapshot

METRICS = ("resp", "bsld", "util")

#: a candidate: registry name, or (name, zero-argument factory of a fresh instance)
Candidate = str | tuple[str, Callable[[], Scheduler]]


def _candidate(spec: Candidate, options: Mapping[str, Mapping[str, Any]]
               ) -> tuple[str, Callable[[], Scheduler]]:
    if isinstance(spec, str):
        from . import make_scheduler  # the registry (lazy: it imports this module by name)

        return spec, partial(make_scheduler, spec, **dict(options.get(spec, {})))
    name, factory = spec
    return name, factory


class _Switching(Scheduler):
    """Common part of PBAS and WBAS: forwarding to the active candidate, timers, time shares."""

    def __init__(self, candidates: Sequence[Candidate], time_frame: int,
                 candidate_options: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        if time_frame < 1:
            raise ValueError(f"time frame must be >= 1 s, got {time_frame}")
        if not candidates:
            raise ValueError("at least one candidate scheduler is needed")
        self.candidate_options = {k: dict(v) for k, v in (candidate_options or {}).items()}
        pairs = [_candidate(c, self.candidate_options) for c in candidates]
        self.names = [n for n, _ in pairs]
        self.factories = [f for _, f in pairs]
        self.instances = [f() for f in self.factories]
        self.active = 0
        self.time_frame = int(time_frame)
        self._frame_start: int | None = None
        self._paused = False      # the frame timer stopped on an idle machine at _frame_start
        self.active_time = dict.fromkeys(self.names, 0)
        self.switches = 0
        self.wait_sum = 0.0
        self.started = 0

    def params(self) -> dict[str, Any]:
        return {"candidates": list(self.names), "time_frame": self.time_frame,
                "candidate_options": {n: self.candidate_options.get(n, {}) for n in self.names}}

    @property
    def current(self) -> Scheduler:
        return self.instances[self.active]

    def _activate(self, ctx: MachineView, k: int) -> None:
        if k != self.active:
            self.active = k
            self.switches += 1
            sched = self.instances[k]
            if hasattr(sched, "set_wait_stats"):
                sched.set_wait_stats(self.wait_sum, self.started)
            sched.sync(ctx)

    def _resume(self, ctx: MachineView) -> None:
        """First arrival after the timer stopped: end the idle frames before ``ctx.now`` and
        re-arm the timer at the next frame boundary (see the module docstring)."""
        assert self._frame_start is not None
        while self._frame_start + self.time_frame < ctx.now:
            t0, t1 = self._frame_start, self._frame_start + self.time_frame
            self.active_time[self.names[self.active]] += t1 - t0
            self._idle_frame(ctx, t0, t1)
            self._frame_start = t1
        self._paused = False
        ctx.set_timer(self._frame_start + self.time_frame, "frame")

    # hooks -----------------------------------------------------------------------------------
    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        if self._frame_start is None:
            self._frame_start = ctx.now
            ctx.set_timer(ctx.now, "frame")
        elif self._paused:
            self._resume(ctx)
        self._arrived(job)
        self.current.on_arrival(ctx, job)

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self.current.on_completion(ctx, run, killed_at_estimate)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        self.current.on_cancel(ctx, job, run)

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self.current.on_killed(ctx, run)

    def on_timer(self, ctx: MachineView, key: Hashable) -> None:
        if key != "frame":
            self.current.on_timer(ctx, key)
            return
        now = ctx.now
        assert self._frame_start is not None
        self.active_time[self.names[self.active]] += now - self._frame_start
        self._switch(ctx, self._frame_start, now)
        self._frame_start = now
        if ctx.waiting or ctx.running:
            ctx.set_timer(now + self.time_frame, "frame")
        else:
            self._paused = True

    def _arrived(self, job: SimJob) -> None:
        """Note an arrival of the current frame (before it reaches the active scheduler)."""

    def _switch(self, ctx: MachineView, t0: int, t1: int) -> None:
        raise NotImplementedError

    def _idle_frame(self, ctx: MachineView, t0: int, t1: int) -> None:
        """End the frame ``[t0, t1)`` during which the machine was idle and nothing arrived."""
        raise NotImplementedError

    def schedule(self, ctx: MachineView) -> list[Start]:
        starts = list(self.current.schedule(ctx))
        for s in starts:
            self.wait_sum += ctx.now - s.job.submit
            self.started += 1
        return starts

    def shares(self) -> dict[str, float]:
        """Fraction of the simulated time each candidate was active."""
        total = sum(self.active_time.values())
        return {n: (t / total if total else float("nan")) for n, t in self.active_time.items()}


class _Meter:
    """Frame statistics of one run: completions (response, bounded slowdown) and busy
    processor-seconds, accumulated from the scheduler hooks so that the real run and a fork are
    measured by exactly the same code."""

    __slots__ = ("bsld_sum", "busy", "busy_integral", "contended", "done", "last_t", "resp_sum")

    def __init__(self, busy: int = 0, now: int | None = None) -> None:
        self.busy = busy
        self.last_t = now
        self.reset()

    def reset(self) -> None:
        self.busy_integral = 0
        self.done = 0
        self.resp_sum = 0.0
        self.bsld_sum = 0.0
        self.contended = False   # a job had to wait at some pass of the frame

    def tick(self, now: int) -> None:
        if self.last_t is not None and now > self.last_t:
            self.busy_integral += (now - self.last_t) * self.busy
        self.last_t = now

    def completion(self, run: Run, now: int) -> None:
        self.tick(now)
        self.busy -= run.procs
        resp = now - run.job.submit
        self.done += 1
        self.resp_sum += resp
        self.bsld_sum += max(1.0, resp / max(now - run.start, BSLD_BOUND))

    def score(self, metric: str, t0: int, t1: int, size: int) -> float:
        """Frame score, larger is better (NaN = no value)."""
        if metric == "util":
            return self.busy_integral / (size * (t1 - t0)) if t1 > t0 else float("nan")
        if self.done == 0:
            return float("nan")
        return -(self.resp_sum if metric == "resp" else self.bsld_sum) / self.done


def _top(scores: Sequence[float]) -> list[int]:
    """The candidates sharing the best finite score, in candidate order (none if no score is
    finite): equal up to a relative 1e-9, float rounding (the real run and a fork sum in different
    orders). Plain floats: numpy's per-call overhead outweighs two or four scores."""
    finite = [k for k, x in enumerate(scores) if math.isfinite(x)]
    if not finite:
        return []
    best = max(scores[k] for k in finite)
    floor = best - 1e-9 * max(abs(best), 1.0)
    return [k for k in finite if scores[k] >= floor]


class _MeteredFork(Scheduler):
    """Wraps a candidate in a fork and measures it with a :class:`_Meter`."""

    name = "metered"

    def __init__(self, inner: Scheduler, meter: _Meter) -> None:
        self.inner, self.meter = inner, meter

    def sync(self, ctx: MachineView) -> None:
        self.inner.sync(ctx)

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        self.meter.tick(ctx.now)
        self.inner.on_arrival(ctx, job)

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self.meter.completion(run, ctx.now)
        self.inner.on_completion(ctx, run, killed_at_estimate)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        self.meter.tick(ctx.now)
        if run is not None:
            self.meter.busy -= run.procs
        self.inner.on_cancel(ctx, job, run)

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self.meter.completion(run, ctx.now)
        self.inner.on_killed(ctx, run)

    def on_timer(self, ctx: MachineView, key: Hashable) -> None:
        self.meter.tick(ctx.now)
        self.inner.on_timer(ctx, key)

    def schedule(self, ctx: MachineView) -> list[Start]:
        self.meter.tick(ctx.now)
        starts = list(self.inner.schedule(ctx))
        self.meter.busy += sum(s.procs for s in starts)
        return starts


class PBAS(_Switching):
    """Performance-based adaptive scheduling (§3, Figure 1); see the module docstring."""

    name = "pbas"

    def __init__(self, candidates: Sequence[Candidate] = ("flex", "maui"), time_frame: int = 43200,
                 metric: str = "resp", *,
                 candidate_options: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        if metric not in METRICS:
            raise ValueError(f"PBAS metric must be one of {METRICS}, got {metric!r}")
        super().__init__(candidates, time_frame, candidate_options)
        self.metric = metric
        self._snapshot: Snapshot | None = None
        self._had_waiting = False
        self._frame_arrivals: list[SimJob] = []   # jobs submitted in the current frame
        self.meter = _Meter()          # the real run, current frame
        self.frames_forked = 0

    def params(self) -> dict[str, Any]:
        return super().params() | {"metric": self.metric}

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        if self._paused:
            self._resume(ctx)
        self.meter.tick(ctx.now)
        super().on_arrival(ctx, job)

    def _arrived(self, job: SimJob) -> None:
        self._frame_arrivals.append(job)

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self.meter.completion(run, ctx.now)
        super().on_completion(ctx, run, killed_at_estimate)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        self.meter.tick(ctx.now)
        if run is not None:
            self.meter.busy -= run.procs
        super().on_cancel(ctx, job, run)

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self.meter.completion(run, ctx.now)
        super().on_killed(ctx, run)

    def on_timer(self, ctx: MachineView, key: Hashable) -> None:
        self.meter.tick(ctx.now)
        super().on_timer(ctx, key)

    def schedule(self, ctx: MachineView) -> list[Start]:
        self.meter.tick(ctx.now)
        starts = super().schedule(ctx)
        self.meter.busy += sum(s.procs for s in starts)
        if len(ctx.waiting) > len(starts):
            self.meter.contended = True
        return starts

    def _fork_score(self, ctx: MachineView, k: int, t0: int, t1: int) -> float:
        assert self._snapshot is not None
        sched = self.factories[k]()
        if hasattr(sched, "set_wait_stats"):
            sched.set_wait_stats(self.wait_sum, self.started)
        meter = _Meter(self._snapshot.busy, t0)
        simulate_from(self._snapshot, _MeteredFork(sched, meter), self._frame_arrivals,
                      sync=True, runtimes="actual", until=t1, record_timeline=False,
                      options=ctx.options, per_job=False)
        self.frames_forked += 1
        meter.tick(t1)
        return meter.score(self.metric, t0, t1, ctx.machine_size)

    def _switch(self, ctx: MachineView, t0: int, t1: int) -> None:
        self.meter.tick(t1)
        if (self._snapshot is not None and t1 > t0 and len(self.instances) > 1
                and (self._had_waiting or self.meter.contended)):
            scores = []
            for k in range(len(self.instances)):
                if k == self.active:
                    scores.append(self.meter.score(self.metric, t0, t1, ctx.machine_size))
                else:
                    scores.append(self._fork_score(ctx, k, t0, t1))
            top = _top(scores)
            if top and self.active not in top:
                self._activate(ctx, top[0])
        # new frame
        self.meter.reset()
        self._had_waiting = bool(ctx.waiting)
        self._snapshot = ctx.snapshot() if len(self.instances) > 1 else None
        self._frame_arrivals = []

    def _idle_frame(self, ctx: MachineView, t0: int, t1: int) -> None:
        # What _switch does at the end of a frame that found nothing waiting and saw no arrival: no
        # fork, no decision; the next frame starts from an empty machine.
        self.meter.tick(t1)
        self.meter.reset()
        self._had_waiting = False
        self._snapshot = (Snapshot(t1, ctx.machine_size, ctx.allocation, (), (), {})
                          if len(self.instances) > 1 else None)
        self._frame_arrivals = []


class WBAS(_Switching):
    """Workload-based adaptive scheduling (§4.2, Figure 4); see the module docstring.

    ``candidates`` must be flex then maui (Flex when parallelism rises).
    """

    name = "wbas"

    def __init__(self, candidates: Sequence[Candidate] = ("flex", "maui"), time_frame: int = 86400,
                 maf: float = 7500.0, *,
                 candidate_options: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        if maf < 1:
            raise ValueError(f"WBAS moving-average factor MAF must be >= 1, got {maf}")
        if [c if isinstance(c, str) else c[0] for c in candidates] != ["flex", "maui"]:
            raise ValueError("WBAS candidates must be flex then maui")
        super().__init__(candidates, time_frame, candidate_options)
        self.maf = float(maf)
        self.active = 1   # Maui
        self.ap: float | None = None
        self._frame_procs = 0
        self._frame_jobs = 0

    def params(self) -> dict[str, Any]:
        return super().params() | {"maf": self.maf}

    def _arrived(self, job: SimJob) -> None:
        p = float(job.procs)
        self.ap = p if self.ap is None else (1 - 1 / self.maf) * self.ap + p / self.maf
        self._frame_procs += job.procs
        self._frame_jobs += 1

    def _switch(self, ctx: MachineView, t0: int, t1: int) -> None:
        if self._frame_jobs and self.ap is not None:
            ap_last = self._frame_procs / self._frame_jobs
            self._activate(ctx, 0 if self.ap < ap_last else 1)
        self._frame_procs = 0
        self._frame_jobs = 0

    def _idle_frame(self, ctx: MachineView, t0: int, t1: int) -> None:
        pass   # no arrival in the frame: no switch (its counters are already zero)
