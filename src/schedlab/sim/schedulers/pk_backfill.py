"""Backfilling with sorted queues, no guarantees, speculation and adaptation (Perković & Keleher 2000).

One scheduler covering the paper's Figure 2 flow: at every event time it runs

1. *queue sorting* (§3, Table 4; :mod:`.queue_orders`),
2. the *regular backfilling pass* — conservative backfilling with guarantees (§2: every job gets the
   earliest start time not delaying any guaranteed job when it arrives; when a job ends earlier than
   estimated the queue is compressed, each job moved to its earliest start no later than its guarantee,
   in queue order) or without guarantees (§4, ``-NG``: the whole queue is re-planned from the running
   jobs in queue order, sorted by ``criterion + Weight × Delay``; jobs planned to start now start),
3. *speculative backfilling* and *test runs* (§6, §6.1; :mod:`.speculative`), then
4. *start-time widening* (§7.1; :mod:`.adaptation`).

Fixed half/quarter-size alternatives are applied at submission; greedy adaptation picks, at every
planning attempt, the alternative (regular, half, double) with the least planned end time (with
guarantees: among alternatives that start no later than the current guarantee).

Event rule (ties): at time t all completions and kills are processed (in job-index order), then all
arrivals (in submission order, then job index), then one scheduling pass. Jobs never run past the
time they were given: a regular run is killed at its estimate (runtimes are cut at the estimate by
normalization), a speculative or test run at its speculated/test length, after which the job is
requeued. Choices where the paper is silent: with guarantees a speculative copy must end before the
job's own guaranteed start (the hole is cut there) and the queued copy is not compressed while it
runs; without guarantees the job leaves the queue while its speculative copy runs and its planned
slot is dropped before the hole is measured. Bounded slowdown uses the job's original runtime, so a
half-sized job "incurs slowdown of at least 2" as in §7.1.

Until the shared engine (issue 3) is available this module carries its own event loop; the job,
result and profile semantics follow docs/design.md §3–§4.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from . import adaptation as adapt
from . import speculative as specmod
from .pk_profile import Profile
from .queue_orders import QueueOrder, draw_priorities, sort_queue


@dataclass(frozen=True)
class PKConfig:
    """One algorithm mix of Figure 2: order, guarantees, speculation, adaptation, widening."""

    order: QueueOrder = field(default_factory=QueueOrder)
    speculation: specmod.Speculation | None = None
    adaptation: str = "none"
    widening: bool = False
    widen_factors: tuple[int, ...] = (2,)

    def __post_init__(self) -> None:
        if self.adaptation not in adapt.MODES:
            raise ValueError(
                f"unknown adaptation {self.adaptation!r}; expected one of {', '.join(adapt.MODES)}"
            )
        if any(int(f) < 2 for f in self.widen_factors):
            raise ValueError("widen factors must be integers >= 2")


#: Per-job output columns (docs/design.md §3 per-job result plus the flags this scheduler needs).
RESULT_COLUMNS = (
    "start",
    "end",
    "run_procs",
    "run_runtime",
    "guaranteed_start",
    "first_start",
    "kills",
    "spec_starts",
    "test_runs",
    "speculative",
    "widened",
    "wasted_proc_s",
)


class PKBackfill:
    """The scheduler state and event loop; use :func:`simulate_pk`."""

    def __init__(
        self,
        submit: np.ndarray,
        runtime: np.ndarray,
        estimate: np.ndarray,
        procs: np.ndarray,
        machine: int,
        config: PKConfig,
        seed: np.random.SeedSequence,
    ) -> None:
        self.machine, self.cfg = int(machine), config
        self.rng = np.random.default_rng(seed)
        self.g = config.order.guarantees
        self.n = 0
        self.submit: list[float] = []
        self.orig_rt: list[float] = []
        self.orig_est: list[float] = []
        self.orig_p: list[int] = []
        self.prio: list[float] = []
        self.p: list[int] = []  # current alternative
        self.rt: list[float] = []
        self.est: list[float] = []
        self.spec_base: list[float] = []
        self.queue: dict[int, None] = {}
        self.suspended: set[int] = set()
        self.resv: dict[int, tuple[float, float, int]] = {}
        self.running: dict[int, tuple[float, float, int, str, bool]] = {}
        self.heap: list[tuple[float, int]] = []
        self.profile = Profile(0.0, machine)
        self.freed = False
        # outputs
        self.out_start: list[float] = []
        self.out_end: list[float] = []
        self.out_p: list[int] = []
        self.out_rt: list[float] = []
        self.guaranteed: list[float] = []
        self.first_start: list[float] = []
        self.kills: list[int] = []
        self.spec_starts: list[int] = []
        self.test_runs: list[int] = []
        self.speculative: list[bool] = []
        self.widened: list[bool] = []
        self.wasted: list[float] = []
        self.add_jobs(submit, runtime, estimate, procs)

    def add_jobs(self, submit, runtime, estimate, procs) -> range:
        """Append jobs (their ``P`` priorities drawn now, as one batch); returns their indices."""
        k = len(submit)
        first = self.n
        cp = [int(x) for x in procs]
        if k and (max(cp) > self.machine or min(cp) < 1):
            raise ValueError(f"job widths must be in 1..{self.machine}")
        self.submit += [float(x) for x in submit]
        self.orig_rt += [float(x) for x in runtime]
        self.orig_est += [float(x) for x in estimate]
        self.orig_p += cp
        self.prio += draw_priorities(self.rng, k).tolist()
        mode, spec = self.cfg.adaptation, self.cfg.speculation
        for j in range(first, first + k):
            p, rt, est = self.orig_p[j], self.orig_rt[j], self.orig_est[j]
            if mode in ("half", "quarter"):
                w = adapt.fixed_width(p, mode)
                if w != p:
                    p, rt, est = adapt.resize(p, rt, est, w)
            self.p.append(p)
            self.rt.append(rt)
            self.est.append(est)
            if spec:
                self.spec_base.append(specmod.initial_speculation(est, spec.percentage))
        nan = math.nan
        for lst, v in ((self.out_start, nan), (self.out_end, nan), (self.out_p, 0),
                       (self.out_rt, nan), (self.guaranteed, nan), (self.first_start, nan),
                       (self.kills, 0), (self.spec_starts, 0), (self.test_runs, 0),
                       (self.speculative, False), (self.widened, False), (self.wasted, 0.0)):
            lst += [v] * k
        self.n += k
        return range(first, first + k)

    # ---------------------------------------------------------------- event loop
    def run(self) -> dict[str, np.ndarray]:
        sub = np.asarray(self.submit, dtype=np.float64)
        order = np.lexsort((np.arange(self.n), sub))
        ai, n = 0, self.n
        while ai < n or self.heap:
            t_arr = sub[order[ai]] if ai < n else math.inf
            now = min(t_arr, self.heap[0][0]) if self.heap else t_arr
            now = float(now)
            self.profile.advance(now)
            self.freed = False
            ended = []
            while self.heap and self.heap[0][0] <= now:
                ended.append(heapq.heappop(self.heap)[1])
            for j in sorted(ended):
                self._end(j, now)
            new = []
            while ai < n and sub[order[ai]] <= now:
                new.append(int(order[ai]))
                ai += 1
            if self.g:
                self._pass_guarantee(now, new)
            else:
                self.queue.update(dict.fromkeys(new))
                self._pass_no_guarantee(now)
        if self.queue or self.running:
            raise RuntimeError("simulation ended with unfinished jobs")
        return {
            "start": np.array(self.out_start),
            "end": np.array(self.out_end),
            "run_procs": np.array(self.out_p, dtype=np.int64),
            "run_runtime": np.array(self.out_rt),
            "guaranteed_start": np.array(self.guaranteed),
            "first_start": np.array(self.first_start),
            "kills": np.array(self.kills, dtype=np.int64),
            "spec_starts": np.array(self.spec_starts, dtype=np.int64),
            "test_runs": np.array(self.test_runs, dtype=np.int64),
            "speculative": np.array(self.speculative),
            "widened": np.array(self.widened),
            "wasted_proc_s": np.array(self.wasted),
        }

    def _launch(self, j: int, now: float, alloc: float, p: int, kind: str) -> None:
        runs, finishes = specmod.outcome(
            self.rt[j] if kind == "regular" else self._rt_at(j, p), alloc
        )
        self.running[j] = (now, alloc, p, kind, finishes)
        heapq.heappush(self.heap, (now + runs, j))
        self._hold(now, alloc, p)
        if math.isnan(self.first_start[j]):
            self.first_start[j] = now

    def _hold(self, now: float, alloc: float, p: int) -> None:
        """-NG: a started job occupies the profile of running jobs (with guarantees its
        reservation already does)."""
        if not self.g:
            self.profile.reserve(now, alloc, p)

    def _rt_at(self, j: int, p: int) -> float:
        return self.rt[j] * self.p[j] / p

    def _end(self, j: int, now: float) -> None:
        start, alloc, p, kind, finishes = self.running.pop(j)
        self.profile.add(now, start + alloc, p)  # the rest of its slot is free again
        self.freed = True
        if finishes:
            self.out_start[j], self.out_end[j] = start, now
            self.out_p[j], self.out_rt[j] = p, now - start
            self.speculative[j] = kind != "regular"
            if kind != "regular":
                self.queue.pop(j, None)
                self.suspended.discard(j)
                r = self.resv.pop(j, None)
                if r is not None:
                    self.profile.release(*r)
            return
        # killed speculative or test run: requeue (a guaranteed copy kept its slot)
        self.kills[j] += 1
        self.wasted[j] += p * (now - start)
        if kind == "spec":
            self.spec_base[j] = specmod.next_speculation(alloc, self.est[j])
        if self.g:
            self.suspended.discard(j)
        else:
            self.queue[j] = None

    # ---------------------------------------------------------------- helpers
    def _sorted_queue(self, now: float, jobs: list[int]) -> list[int]:
        if len(jobs) <= 1:
            return list(jobs)
        o = self.cfg.order
        n = len(jobs)
        rnd = self.rng.random(len(jobs)) if o.redraw_each_pass else np.zeros(len(jobs))
        est = np.fromiter((self.est[j] for j in jobs), dtype=np.float64, count=len(jobs))
        sub = np.fromiter((self.submit[j] for j in jobs), dtype=np.float64, count=n)
        prio = np.fromiter((self.prio[j] for j in jobs), dtype=np.float64, count=n)
        pos = sort_queue(o.order, sub, est, prio, rnd, now, 0.0 if self.g else o.weight)
        return [jobs[k] for k in pos]

    def _alternatives(self, j: int) -> list[tuple[int, float]]:
        """(procs, estimate) of the alternatives planned for job j."""
        if self.cfg.adaptation != "greedy":
            return [(self.p[j], self.est[j])]
        p0, e0 = self.orig_p[j], self.orig_est[j]
        return [(w, adapt.resize(p0, 0.0, e0, w)[2]) for w in adapt.greedy_widths(p0, self.machine)]

    def _plan(
        self, prof: Profile, j: int, now: float, latest: float = math.inf
    ) -> tuple[float, float, int]:
        """Earliest (start, duration, procs) over j's alternatives (least end; ties: first listed)."""
        best = None
        for p, e in self._alternatives(j):
            s = prof.earliest(p, e, now)
            if s > latest:
                continue
            if best is None or s + e < best[0] + best[1]:
                best = (s, e, p)
        assert best is not None
        if self.cfg.adaptation == "greedy" and best[2] != self.p[j]:
            p0 = self.orig_p[j]
            self.p[j], self.rt[j], self.est[j] = adapt.resize(
                p0, self.orig_rt[j], self.orig_est[j], best[2]
            )
            if self.cfg.speculation:
                self.spec_base[j] = specmod.initial_speculation(
                    self.est[j], self.cfg.speculation.percentage
                )
        return best

    def _start_regular(self, j: int, now: float) -> None:
        self._launch(j, now, self.est[j], self.p[j], "regular")

    # ---------------------------------------------------------------- guarantee passes
    def _pass_guarantee(self, now: float, new: list[int]) -> None:
        prof = self.profile
        for j in new:
            r = self._plan(prof, j, now)
            prof.reserve(*r)
            self.resv[j] = r
            self.guaranteed[j] = r[0]
            self.queue[j] = None
        if not self.queue:
            return
        active = [j for j in self.queue if j not in self.suspended]
        order = self._sorted_queue(now, active)
        if self.freed:  # compression in queue order
            fixed = self.cfg.adaptation != "greedy"
            for j in order:
                s, d, p = self.resv[j]
                if s <= now:
                    continue
                if fixed:  # one alternative: test the move without releasing the slot (same result)
                    c = prof.earliest_before(p, d, now, s)
                    if c is not None:
                        prof.release(s, d, p)
                        prof.reserve(c, d, p)
                        self.resv[j] = (c, d, p)
                    continue
                prof.release(s, d, p)
                r = self._plan(prof, j, now, latest=s)
                prof.reserve(*r)
                self.resv[j] = r
        started = []
        for j in order:
            s, d, p = self.resv[j]
            if s <= now:
                del self.resv[j]
                del self.queue[j]
                self._start_regular(j, now)
                started.append(j)
        if self.cfg.speculation is not None:
            for j in order:
                if j in self.queue:
                    self._try_speculate(prof, j, now, self.resv[j][0] - now)
        if self.cfg.widening:
            self._widen(prof, started, now)

    # ---------------------------------------------------------------- no-guarantee pass
    def _pass_no_guarantee(self, now: float) -> None:
        if not self.queue:
            return
        prof = self.profile.copy()  # the running jobs only (see _hold)
        order = self._sorted_queue(now, list(self.queue))
        procs = [
            self.p[j]
            if self.cfg.adaptation != "greedy"
            else min(w for w, _ in self._alternatives(j))
            for j in order
        ]
        suffix_min = list(np.minimum.accumulate(np.array(procs[::-1]))[::-1]) if procs else []
        plan: dict[int, tuple[float, float, int]] = {}
        started = []
        k = 0
        for k, j in enumerate(order):
            if prof.f[0] < suffix_min[k]:
                break
            r = self._plan(prof, j, now)
            prof.reserve(*r)
            if r[0] <= now:
                started.append(j)
            else:
                plan[j] = r
        else:
            k = len(order)
        rest = order[k:]
        extra = self.cfg.speculation is not None or (self.cfg.widening and started)
        if rest and extra and prof.f[0] > 0:  # later phases need the complete plan
            for j in rest:
                r = self._plan(prof, j, now)
                prof.reserve(*r)
                plan[j] = r
        for j in started:
            del self.queue[j]
            self._start_regular(j, now)
        if self.cfg.speculation is not None:
            for j in order:
                if j in plan and prof.f[0] >= self.p[j]:
                    r = plan[j]
                    prof.release(*r)
                    if not self._try_speculate(prof, j, now, math.inf):
                        prof.reserve(*r)
        if self.cfg.widening:
            self._widen(prof, started, now)

    # ---------------------------------------------------------------- phases 3 and 4
    def _try_speculate(self, prof: Profile, j: int, now: float, cap: float) -> bool:
        """Speculative start or test run of queued job j (§6, §6.1); True if it was started."""
        p = self.p[j]
        if prof.f[0] < p or cap <= 0:
            return False
        hole = min(prof.hole(p, now), cap)
        spec = self.cfg.speculation
        assert spec is not None
        allot = specmod.speculated_time(self.spec_base[j], hole, self.est[j])
        kind = "spec"
        if allot is None:
            allot = specmod.test_run_length(spec, self.est[j], hole, self.test_runs[j])
            kind = "test"
            if allot is None:
                return False
        if kind == "spec" and allot >= self.est[j] and not self.g:
            kind = "regular"  # the hole holds the whole estimate: an ordinary start
        prof.reserve(now, allot, p)
        if kind == "test":
            self.test_runs[j] += 1
        elif kind == "spec":
            self.spec_starts[j] += 1
        if self.g:
            self.suspended.add(j)
        else:
            del self.queue[j]
        self._launch(j, now, allot, p, kind)
        return True

    def _widen(self, prof: Profile, started: list[int], now: float) -> None:
        """Start-time widening (§7.1): widen jobs starting now into idle nodes, in queue order."""
        for j in started:
            if prof.f[0] <= 0:
                return
            _, alloc, p, _, _ = self.running[j]
            prof.release(now, alloc, p)
            done = False
            for factor in self.cfg.widen_factors:
                w = adapt.widened_width(p, self.machine, int(factor))
                if w is None:
                    continue
                e = adapt.resize(p, 0.0, self.est[j], w)[2]  # same float as _rewiden
                if prof.hole(w, now) >= e:
                    prof.reserve(now, e, w)
                    self._rewiden(j, now, w)
                    done = True
                    break
            if not done:
                prof.reserve(now, alloc, p)

    def _rewiden(self, j: int, now: float, w: int) -> None:
        p0 = self.p[j]
        self.p[j], self.rt[j], self.est[j] = adapt.resize(p0, self.rt[j], self.est[j], w)
        self.widened[j] = True
        # replace the heap entry of j (it was pushed at start for now + old runtime)
        self.heap = [(t, k) for t, k in self.heap if k != j]
        heapq.heapify(self.heap)
        _, alloc, p, _, _ = self.running.pop(j)
        if not self.g:  # -NG: its running slot (with guarantees _widen moved it already)
            self.profile.release(now, alloc, p)
        self._launch(j, now, self.est[j], w, "regular")


def simulate_pk(
    submit: np.ndarray,
    runtime: np.ndarray,
    estimate: np.ndarray,
    procs: np.ndarray,
    machine: int,
    config: PKConfig,
    seed: np.random.SeedSequence,
) -> dict[str, np.ndarray]:
    """Run one algorithm mix on a job list; returns per-job arrays named as :data:`RESULT_COLUMNS`."""
    return PKBackfill(submit, runtime, estimate, procs, machine, config, seed).run()
