"""SA, the Supercomputer AppLeS: choosing the request that submits a moldable job (Cirne 2001, ch. 2).

A moldable job comes with a set of requests ``r = (r[1], ..., r[v])``, each a pair (processors ``n``,
requested time ``tr``). SA picks the request with the earliest *expected* completion time, computed
from the current state of the supercomputer assuming (i) no future arrivals and (ii) every job runs
for its requested time (``te = tr``, §2.1).

Two versions, which choose the same request (Theorem 1, §2.3):

* :func:`sag_select` — generic SA (§2.1): a black box ``expected_completion(i)`` simulates the
  submission of request ``i`` from the current state (no arrivals, ``te = tr``) and returns the
  completion time of the job. :func:`sag_choice` is that black box on the engine: one
  :func:`~schedlab.sim.fork.starts_from` fork per request (cancellations unknown to SA: the
  waiting jobs' cancellations are dropped in the fork).
* :func:`sacb_select` — SA over conservative backfilling (§2.2.2, Figure 5): walks the *availability
  list* (free processors per time period) once per request.

Availability list: two arrays ``starts`` (increasing period start times) and ``free`` (free processors
in ``[starts[i], starts[i+1])``; the last period extends to infinity).

Reading of Figure 5 (documented choice). Line 10 extends the slot of period ``f = (s, e, n)`` while the
next periods have at least ``n`` free processors, ``n`` being the free count of ``f``. Taken literally,
a request for fewer than ``n`` processors is only tried in a window that ends where fewer than ``n``
(rather than fewer than its own processor count) are free, so it can miss that request's first fit and
break Theorem 1 (example: list [(0, 1, 10), (1, inf, 5)], request 5 processors x 3: its first fit starts
at 0, the literal walk only finds start 1). The proof of Theorem 1 considers, for each slot, the request
that finishes soonest *if started in that slot*; we therefore extend the window of each request by its
own processor count (``literal=False``, the default). ``literal=True`` keeps the text of Figure 5.

Tie rule (not specified by the thesis): among requests with equal expected completion time SA picks the
one with fewer processors, then the one listed first. Both versions use this rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import SimulationError
from ..job import Alternative, SimJob
from ..scheduler import Start
from ..state import MachineView, Run
from .compression import CIRNE
from .conservative import Conservative

INF = float("inf")


@dataclass(frozen=True)
class Choice:
    """The request chosen by SA: its index in the request list, expected start and completion."""

    index: int
    start: float
    completion: float


def _run_end(starts: np.ndarray, free: np.ndarray, procs: int) -> np.ndarray:
    """For each period i: the end of the maximal run of periods i, i+1, ... with ``free >= procs``
    (``starts[i]`` itself when period i has fewer than ``procs`` free)."""
    n = len(free)
    blocked = np.where(free < procs, np.arange(n), n)
    nxt = np.minimum.accumulate(blocked[::-1])[::-1]  # first blocked period at or after i
    bounds = np.append(starts, INF)  # start of the blocking period (inf when none)
    return np.where(free < procs, starts, bounds[nxt])


def first_fit(
    starts: np.ndarray, free: np.ndarray, procs: int, duration: float, earliest: float | None = None
) -> float:
    """Earliest time ``t >= earliest`` (default: the list's first start) at which ``procs`` processors
    are free for ``duration`` seconds (first fit, §2.2.1). Infinity when ``procs`` never fit."""
    earliest = float(starts[0]) if earliest is None else earliest
    run_end = _run_end(starts, free, procs)
    cand = np.maximum(starts, earliest)
    ok = (free >= procs) & (run_end - cand >= duration)
    ok &= np.append(starts[1:], INF) > earliest  # the period must reach past `earliest`
    idx = np.flatnonzero(ok)
    return float(cand[idx[0]]) if idx.size else INF


def _better(a: tuple[float, int, int], b: tuple[float, int, int] | None) -> bool:
    return b is None or a < b


def sacb_select(
    starts: Sequence[float] | np.ndarray,
    free: Sequence[int] | np.ndarray,
    procs: Sequence[int],
    durations: Sequence[float],
    literal: bool = False,
) -> Choice:
    """SAcb (§2.2.2, Figure 5): the request with the least expected completion time found by walking
    the availability list. ``durations`` are the requested times ``tr`` (SA assumes ``te = tr``).

    ``literal=True`` follows Figure 5 word for word (the slot of period f is extended while at least
    f's free count is available); the default extends it by each request's own processor count (see
    the module docstring)."""
    starts = np.asarray(starts, dtype=float)
    free = np.asarray(free, dtype=np.int64)
    procs_a = np.asarray(procs, dtype=np.int64)
    dur = np.asarray(durations, dtype=float)
    if starts.size == 0 or procs_a.size == 0 or procs_a.size != dur.size:
        raise ValueError(
            "sacb_select needs a non-empty availability list and one duration per request"
        )
    best: tuple[float, int, int] | None = None
    best_choice: Choice | None = None
    if literal:
        ends = np.append(starts[1:], INF)
        for i in range(len(starts)):  # line 3: each time period f = (s, e, n)
            s, n = float(starts[i]), int(free[i])
            d = float(ends[i])  # line 8
            g = i + 1
            while g < len(starts) and free[g] >= n:  # lines 10-12
                d = float(ends[g])
                g += 1
            fits = np.flatnonzero((procs_a <= n) & (dur <= d - s))  # line 14
            if fits.size == 0:
                continue
            # line 15: the fitting request with the smallest execution time (ties: fewer processors)
            k = min(fits, key=lambda j: (dur[j], procs_a[j], j))
            key = (s + float(dur[k]), int(procs_a[k]), int(k))
            if _better(key, best):  # line 18
                best, best_choice = key, Choice(int(k), s, s + float(dur[k]))
    else:
        best_choice = _least_completion(
            [first_fit(starts, free, int(p), float(d)) for p, d in zip(procs_a, dur, strict=True)],
            procs_a.tolist(), dur.tolist())
    if best_choice is None:
        raise ValueError("no request fits the machine (every request is wider than the machine)")
    return best_choice


def _least_completion(starts: Sequence[float], procs: Sequence[int], durations: Sequence[float]
                      ) -> Choice | None:
    """The request with the least completion ``start + duration`` among those with a finite
    start (ties: fewer processors, then list order); None if none has one."""
    best: tuple[float, int, int] | None = None
    best_choice: Choice | None = None
    for k, (st, p, d) in enumerate(zip(starts, procs, durations, strict=True)):
        key = (st + d, int(p), k)
        if st < INF and _better(key, best):
            best, best_choice = key, Choice(k, st, st + d)
    return best_choice


def sag_select(
    procs: Sequence[int], expected_completion: Callable[[int], tuple[float, float]]
) -> Choice:
    """SAg (§2.1): simulate the submission of each request from the current state (no future arrivals,
    ``te = tr`` for every job) with the black box ``expected_completion(i) -> (start, completion)``
    and pick the earliest completion (ties: fewer processors, then list order)."""
    best: tuple[float, int, int] | None = None
    best_choice: Choice | None = None
    for k in range(len(procs)):
        st, end = expected_completion(k)
        key = (float(end), int(procs[k]), k)
        if end < INF and _better(key, best):
            best, best_choice = key, Choice(k, float(st), float(end))
    if best_choice is None:
        raise ValueError("no request could be simulated to completion")
    return best_choice


def load_per_processor(
    now: float, procs: np.ndarray, requested: np.ndarray, started: np.ndarray, machine_procs: int
) -> float:
    """Load per processor D (§5.3.3): ``sum_j n_j (tr_j - (now - i_j)) / P`` over the jobs in the
    system, ``i_j`` the start time of j (``now`` for waiting jobs, given as NaN)."""
    i = np.where(np.isnan(started), now, started)
    return float(np.sum(procs * (requested - (now - i))) / machine_procs)


def sacb_choice(ctx: MachineView, sched: Conservative, alts: Sequence[Alternative]) -> Choice:
    """SAcb for requests ``alts`` on the availability list of ``sched`` (conservative backfilling)
    now, the queue compressed first if a release is pending — SA's arrival hook, and Cirne's
    experiments at a run paused before a target's arrival."""
    p = sched._profile(ctx)
    if sched.dirty:
        sched._compress(p, ctx.now)
    procs = [a.procs for a in alts]
    durations = [float(a.estimate) for a in alts]
    if not procs or any(d != int(d) for d in durations):
        return sacb_select(p.t, p.free, procs, durations)
    # first fit of each request on the compiled profile (what sacb_select computes from p.t, p.free)
    prof, _, meta = sched.state
    starts = sched.kernel.first_fits(prof, meta, np.asarray(procs, dtype=np.int64),
                                     np.asarray(durations, dtype=np.int64))
    c = _least_completion([INF if s < 0 else float(s) for s in starts.tolist()], procs, durations)
    if c is None:
        raise ValueError("no request fits the machine (every request is wider than the machine)")
    return c


def sag_choice(ctx: MachineView, sched: Conservative, job: SimJob,
               alts: Sequence[Alternative] | None = None) -> Choice:
    """SAg (§2.1) on the engine: ``job``, arriving now, is submitted with each request of
    ``alts`` (default ``job.alternatives``) in a fork of the current state and of ``sched`` (no
    later arrivals; every job runs for its requested time, ``te = tr``; the waiting jobs'
    cancellations unknown), run until it starts (:func:`~schedlab.sim.fork.starts_from`)."""
    from ..fork import starts_from

    p = sched._profile(ctx)
    if sched.dirty:
        sched._compress(p, ctx.now)
    snap = ctx.snapshot()
    if job.job_id in ctx.waiting:  # called from the job's own arrival hook
        snap = replace(snap, waiting=tuple(j for j in snap.waiting if j.job_id != job.job_id))
    alts = list(job.alternatives if alts is None else alts)
    fork = sched.fork()
    fork.timer_at = None  # its timer belongs to the real run's event queue
    variants = [replace(job, procs=a.procs, runtime=a.runtime, estimate=a.estimate,
                        cancel_time=None, alternatives=()) for a in alts]
    starts = starts_from(snap, fork, variants, runtimes="estimate", cancellations=False,
                         options=ctx.options)

    def expected_completion(i: int) -> tuple[float, float]:
        st = starts[i]
        return (float(st), float(st + alts[i].estimate)) if st >= 0 else (INF, INF)

    return sag_select([a.procs for a in alts], expected_completion)


# SA on the shared engine: conservative backfilling whose moldable arrivals are submitted by SA.
class SA(Conservative):
    """Conservative backfilling (§2.2.1) where every moldable job (``job.alternatives``) is
    submitted with the request SA picks at its arrival: SAcb on the availability list
    (``version="cb"``, §2.2.2, the default) or SAg's forked simulations (``version="g"``, §2.1);
    Theorem 1: the same request. Rigid jobs are placed as usual. The job is queued, reserved and
    compressed with the chosen request's processors and estimate, and started with
    ``Start(job, alternative=...)``. Registry name: ``sa``. Compression: Cirne's §2.2.1 reading
    by default (early ends only, until no job moves; :mod:`.compression`)."""

    name = "sa"

    def __init__(self, version: str = "cb", record_reservations: bool = False,
                 compress_on: str = CIRNE[0], compress_passes: str = CIRNE[1]) -> None:
        if version not in ("cb", "g"):
            raise SimulationError(f"sa: version must be 'cb' or 'g', not {version!r}")
        self.version = version
        super().__init__(record_reservations, compress_on, compress_passes)

    def params(self) -> dict[str, Any]:
        return {"version": self.version, **super().params()}

    def reset(self) -> None:
        super().reset()
        self.chosen: dict[int, Alternative] = {}

    def fork(self) -> SA:
        new = super().fork()
        new.chosen = dict(self.chosen)
        return new

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        if job.alternatives:
            alts = list(job.alternatives)
            c = (sacb_choice(ctx, self, alts) if self.version == "cb"
                 else sag_choice(ctx, self, job, alts))
            alt = alts[c.index]
            self.chosen[job.job_id] = alt
            job = replace(job, procs=alt.procs, runtime=alt.runtime, estimate=alt.estimate,
                          alternatives=())
        super().on_arrival(ctx, job)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        alt = self.chosen.pop(job.job_id, None)
        if run is None and alt is not None:
            job = replace(job, procs=alt.procs, estimate=alt.estimate, alternatives=())
        super().on_cancel(ctx, job, run)

    def schedule(self, ctx: MachineView) -> list[Start]:
        out = []
        for s in super().schedule(ctx):
            alt = self.chosen.pop(s.job.job_id, None)
            out.append(s if alt is None else Start(ctx.waiting[s.job.job_id], alternative=alt))
        return out
