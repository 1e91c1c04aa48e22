"""Backfilling with sorted queues, no guarantees, speculation and adaptation (Perković & Keleher 2000).

One :class:`~schedlab.sim.scheduler.Scheduler` of the shared engine (:mod:`schedlab.sim.engine`)
covering the paper's Figure 2 flow. At every event time it runs

1. *queue sorting* (§3, Table 4; :mod:`.queue_orders`),
2. the *regular backfilling pass* — conservative backfilling with guarantees (§2: every job gets the
   earliest start time not delaying any guaranteed job when it arrives; "Whenever a job finishes
   earlier than estimated, conservative backfilling attempts to reschedule each waiting job in the
   arrival order to an earlier than its current guaranteed start-time": the queue is compressed,
   each job moved to its earliest start no later than its guarantee, in queue order,
   :func:`.compression.compress`; ``PKConfig.compress_on`` / ``compress_passes``, default the
   paper's reading: early ends only, one pass, :mod:`.compression`) or without guarantees (§4, ``-NG``:
   the whole queue is re-planned from the running jobs in queue order, sorted by
   ``criterion + Weight × Delay``; jobs planned to start now start),
3. *speculative backfilling* and *test runs* (§6, §6.1; :mod:`.speculative`), then
4. *start-time widening* (§7.1; :mod:`.adaptation`).

Fixed half/quarter-size alternatives are applied at submission; greedy adaptation picks, at every
planning attempt, the alternative (regular, half, double) with the least planned end time (with
guarantees: among alternatives that start no later than the current guarantee). Planning uses one
availability profile (:class:`schedlab.sim.profile.Profile`): with guarantees it holds every
running job and every reservation; without, the running jobs (each pass plans the queue on a copy).

Engine semantics (issue 18; decisions, checked by the golden schedules of
``tests/sim/schedulers/test_perkovic_golden.py``, saved from the former private loop):

* **Same-time order.** Run under ``completions_first`` (:data:`TIE_RULE`, the drivers' default
  options; the paper pins it in config/papers/perkovic2000.yaml ``sim:``; a single pass per
  event time): at time t all completions and kills are handled, then all arrivals
  (in submission order, then input position), then one scheduling pass. The engine reports ends in
  start order; this scheduler buffers them and applies them in arrival order (the former loop's
  job-index order), which matters only for the queue position of jobs requeued after a kill under
  -NG (ties of the sort keys are broken by queue position). Every non-adaptive golden schedule is
  identical under this rule. Under ``per_event`` (the CLI default) the policy is the same but
  passes run after each event.
* **Whole seconds.** Engine time is integer seconds. Speculated and test-run allotments are whole
  seconds in every case (estimates and profile breakpoints are; a speculated time grows to the
  hole, capped at the estimate). Adapted alternatives at constant efficiency (§7: ``r·p/p'``) are
  rounded *up* to whole seconds (:meth:`schedlab.sim.job.SimJob.scaled`, exact integer arithmetic,
  always from the job's own request), where the former loop kept fractional seconds. This changes
  the adaptive schedules only (half, quarter, greedy, widening), and only through the rounding: on a
  workload whose alternatives are exact whole seconds every adaptive schedule equals the former
  loop's (golden case ``whole_seconds_adaptive``). On the first 3,000 CTC jobs the deterministic
  orders' mean wait and bounded slowdown move by at most 0.6% and 0.9% (one -NG cascade: 27%);
  at default scale one claim flips (Figure 9 widening, 7/12 -> 6/12 algorithms, an ``R`` order).
  Tables in docs/papers/perkovic2000.md ("On the shared engine").
* **Random streams.** One ``numpy`` generator from the recorded seed: the fixed ``P`` priorities
  (one per job, in arrival order) and the ``R`` draws of every pass. ``n_jobs`` draws the
  priorities of the whole workload as one batch before the run (the paper driver's stream); without
  it (the CLI) each arrival draws its own, which gives the same priorities but, for ``R`` orders,
  interleaves them with the ``R`` draws.

Jobs never run past the time they were given: a regular run is killed at its estimate (runtimes are
cut at the estimate by normalization), a speculative or test run at its speculated/test length
(:class:`~schedlab.sim.scheduler.Start` ``kill_at``), after which the engine requeues it
(:meth:`Perkovic.on_killed`). Choices where the paper is silent: with guarantees a speculative copy
must end before the job's own guaranteed start (the hole is cut there) and the queued copy is not
compressed while it runs; without guarantees the job leaves the queue while its speculative copy
runs and its planned slot is dropped before the hole is measured. Bounded slowdown uses the job's
original runtime (the paper driver), so a half-sized job "incurs slowdown of at least 2" (§7.1).

CLI: :data:`FACTORIES` holds one factory per Table 4 algorithm (``pk-<order>[-ng]`` in
:data:`schedlab.sim.schedulers.SCHEDULERS`) and :func:`perkovic` takes every option. Without an
explicit ``weight`` the -NG weight is :func:`.queue_orders.anti_starvation_weight` with the paper
pipeline's default horizon (:data:`.queue_orders.STARVATION_HORIZON_S` = 0: no weight term); a
positive ``starvation_horizon_s`` gives :func:`.queue_orders.default_weight` for a median estimate
of ``median_estimate`` seconds (default 10,800 s, the CTC-SP2 median of Table 1).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any, ClassVar

import numpy as np

from ..job import SimJob
from ..profile import Profile
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run
from . import adaptation as adapt
from . import perkovic_kernel as pk
from . import speculative as specmod
from .compression import PERKOVIC
from .perkovic_config import PKConfig
from .queue_orders import (
    ORDERS,
    STARVATION_HORIZON_S,
    QueueOrder,
    anti_starvation_weight,
    draw_priorities,
    slug,
)

#: The same-time order the policy is defined with (module docstring).
TIE_RULE = "completions_first"


class Perkovic(Scheduler):
    """Perković & Keleher backfilling: queue order, guarantees or -NG, speculation, adaptation."""

    name: ClassVar[str] = "perkovic"

    def __init__(self, config: PKConfig | None = None,
                 seed: np.random.SeedSequence | int = 0, n_jobs: int | None = None) -> None:
        self.cfg = config if config is not None else PKConfig()
        self.seed = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(
            int(seed))
        self.n_jobs = n_jobs
        self.reset()

    def params(self) -> dict[str, Any]:
        o, s = self.cfg.order, self.cfg.speculation
        return {"order": o.order, "guarantees": o.guarantees, "weight": o.weight,
                "speculation": None if s is None else s.percentage,
                "test_runs": bool(s and s.test_runs), "adaptation": self.cfg.adaptation,
                "widening": self.cfg.widening, "compress_on": self.cfg.compress_on,
                "compress_passes": self.cfg.compress_passes, "seed": self.seed.entropy,
                "seed_spawn_key": list(self.seed.spawn_key)}

    def reset(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.g = self.cfg.order.guarantees
        self.prio: list[float] = (draw_priorities(self.rng, self.n_jobs).tolist()
                                  if self.n_jobs else [])
        self.index: dict[int, int] = {}  # job id -> arrival rank k (the per-job lists below)
        self.jobs: list[SimJob] = []
        self.submit: list[int] = []
        self.p: list[int] = []  # current alternative
        self.est: list[int] = []
        # the sort keys as arrays (capacity grows by doubling; valid for the first len(jobs))
        cap = max(self.n_jobs or 0, 16)
        self.submit_a = np.zeros(cap)
        self.est_a = np.zeros(cap)
        self.p_i, self.est_i = np.zeros((2, cap), dtype=np.int64)  # self.p, self.est
        self.prio_a = np.zeros(cap)
        self.no_draws = np.zeros(0)  # the R draws of an order without them
        # greedy adaptation: each job's alternatives (:meth:`_alternatives`) as kernel arrays
        self.alt_p = np.zeros((cap if self.cfg.adaptation == "greedy" else 0, 3), dtype=np.int64)
        self.alt_e = np.zeros_like(self.alt_p)
        self.n_alt = np.zeros(len(self.alt_p), dtype=np.int64)
        self.spec_base: list[float] = []
        self.queue: dict[int, None] = {}
        self.suspended: set[int] = set()
        self.resv: dict[int, tuple[int, int, int]] = {}
        #: ``resv`` as columns (processors, duration, start): the rows of a kernel queue
        self.res_a = np.zeros((3, cap), dtype=np.int64)
        self.running: dict[int, tuple[int, int, int, str]] = {}  # start, allotted, procs, kind
        self.profile: Profile | None = None
        self.buf: pk.Buffers | None = None  # the compiled passes' arrays
        self.greedy_alts: dict[int, list[tuple[int, int]]] = {}
        self.freed = False
        self.timer_at: int | None = None
        self.chain_at: set[int] = set()  # timers set after a timer's starts (see schedule)
        self.chain_due = self.timer_fired = False
        self.new: list[int] = []
        self.ended: list[tuple[int, bool]] = []
        self.pending: list[int] = []  # launched in this pass, in launch order
        #: per-job outputs beside the engine's record (in arrival order)
        self.guaranteed: list[float] = []
        self.spec_starts: list[int] = []
        self.test_runs: list[int] = []
        self.widened: list[bool] = []

    @property
    def first_reservations(self) -> dict[int, int] | None:
        """Job id -> the start guaranteed at its arrival (§2); None for -NG (no guarantees)."""
        if not self.g:
            return None
        return {self.jobs[k].job_id: int(g) for k, g in enumerate(self.guaranteed)
                if not math.isnan(g)}

    # ---------------------------------------------------------------- engine hooks
    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        k = len(self.jobs)
        self.index[job.job_id] = k
        self.jobs.append(job)
        self.submit.append(job.submit)
        if k >= len(self.prio):
            self.prio += draw_priorities(self.rng, 1).tolist()
        p, est = job.procs, job.estimate
        mode = self.cfg.adaptation
        if mode in ("half", "quarter"):
            w = adapt.fixed_width(p, mode)
            if w != p:
                p, est = w, job.scaled(w).estimate
        self.p.append(p)
        self.est.append(est)
        if k == len(self.est_a):
            for name in ("submit_a", "est_a", "prio_a", "p_i", "est_i", "alt_p", "alt_e",
                         "n_alt"):
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.zeros_like(a)]))
            self.res_a = np.concatenate([self.res_a, np.zeros_like(self.res_a)], axis=1)
        self.submit_a[k], self.est_a[k], self.prio_a[k] = job.submit, est, self.prio[k]
        self.p_i[k], self.est_i[k] = p, est
        if mode == "greedy":
            alts = self._alternatives(k, ctx.machine_size)
            self.n_alt[k] = len(alts)
            self.alt_p[k, : len(alts)], self.alt_e[k, : len(alts)] = zip(*alts, strict=True)
        spec = self.cfg.speculation
        self.spec_base.append(specmod.initial_speculation(est, spec.percentage) if spec else 0.0)
        self.guaranteed.append(math.nan)
        self.spec_starts.append(0)
        self.test_runs.append(0)
        self.widened.append(False)
        self.new.append(k)

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self.ended.append((self.index[run.job.job_id], True))

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self.ended.append((self.index[run.job.job_id], False))

    def schedule(self, ctx: MachineView) -> Iterable[Start]:
        now = ctx.now
        if self.profile is None:
            self.profile = Profile(ctx.machine_size, now)
            self.buf = pk.Buffers(ctx.machine_size)
        self.profile.advance(now)
        self.freed = False
        self.timer_due = not self.ended and self.timer_at == now
        chain_only = self.chain_due and not (self.timer_fired or self.ended or self.new)
        self.chain_due = self.timer_fired = False
        if self.ended:
            for k, finished in sorted(self.ended):
                self._end(k, now, finished)
            self.ended = []
        new, self.new = self.new, []
        if self.g and (chain_only or self.timer_due) and not new and not self.freed:
            self._start_guaranteed(now)  # only a guaranteed start has come: no pass (§2)
            self._chain_timer(ctx, now)
        elif self.g:
            self._pass_guarantee(now, new)
            nxt = self._next_guaranteed_start(now)  # it may fall where no job event happens
            if nxt is not None and nxt != self.timer_at:
                self.timer_at = nxt
                ctx.set_timer(nxt, "reservation")
        else:
            self.queue.update(dict.fromkeys(new))
            self._pass_no_guarantee(now, ctx.machine_size)
        if not self.pending:
            return ()
        starts = []
        for k in self.pending:
            job = self.jobs[k]
            _, alloc, p, kind = self.running[k]
            alt = None if p == job.procs else job.scaled(p)
            kill = None if kind == "regular" else now + alloc
            starts.append(Start(job, alternative=alt, kill_at=kill,
                                tag="" if kind == "regular" else kind))
        self.pending = []
        return starts

    def on_timer(self, ctx: MachineView, key: Hashable) -> None:
        if key == "guarantee":
            self.chain_at.discard(ctx.now)
            self.chain_due = True
        else:
            self.timer_fired = True

    def _chain_timer(self, ctx: MachineView, now: int) -> None:
        """A timer for the next guaranteed start after :meth:`_start_guaranteed` (else a start
        between job events would wait for the next one, its processors counted free by the
        profile from the guaranteed start on while the engine holds them from the late start).
        Alone at its time it only starts guaranteed jobs; it leaves ``timer_at`` alone, so every
        other pass is as without it."""
        nxt = self._next_guaranteed_start(now)
        if nxt is not None and nxt != self.timer_at and nxt not in self.chain_at:
            self.chain_at.add(nxt)
            ctx.set_timer(nxt, "guarantee")

    def _next_guaranteed_start(self, now: int) -> int | None:
        """The least reserved start, if it is after ``now``."""
        nxt = min(self.resv.values())[0] if self.resv else now
        return nxt if nxt > now else None

    # ---------------------------------------------------------------- job events
    def _launch(self, k: int, now: int, alloc: int, p: int, kind: str) -> None:
        self.running[k] = (now, alloc, p, kind)
        self.pending.append(k)
        if not self.g:  # -NG: a started job occupies the profile of running jobs (with
            self.profile.reserve(now, alloc, p)  # guarantees its reservation already does)

    def _end(self, k: int, now: int, finished: bool) -> None:
        """Job k's attempt ended; ``freed``: compress in this pass (a slot was given back, or
        every termination under ``compress_on="every"``)."""
        start, alloc, p, kind = self.running.pop(k)
        self.profile.release(start, alloc, p)  # the rest of its slot (before now is gone)
        if start + alloc > now or self.cfg.compress_on == "every":
            self.freed = True
        if finished:
            if kind != "regular":
                self.queue.pop(k, None)
                self.suspended.discard(k)
                r = self.resv.pop(k, None)
                if r is not None:
                    self.profile.release(*r)
                    self.freed = True
            return
        # killed speculative or test run: requeue (a guaranteed copy kept its slot)
        if kind == "spec":
            self.spec_base[k] = specmod.next_speculation(alloc, self.est[k])
        if self.g:
            self.suspended.discard(k)
        else:
            self.queue[k] = None

    # ---------------------------------------------------------------- helpers
    def _sorted_queue(self, now: int, ks: list[int]) -> list[int]:
        if len(ks) <= 1:
            return list(ks)
        o = self.cfg.order
        if o.order == "D":  # delay descending = submission ascending, ties by queue position:
            return sorted(ks, key=self.submit.__getitem__)  # sort_queue's order, stable sort
        n = len(ks)  # sort_queue's order, compiled (perkovic_kernel.sort_order)
        rnd = self.rng.random(n) if o.redraw_each_pass else self.no_draws
        return pk.sort_order(pk.ORDER_CODES[o.order], np.fromiter(ks, dtype=np.int64, count=n),
                             self.submit_a, self.est_a, self.prio_a, rnd, now,
                             0.0 if self.g else o.weight).tolist()

    def _set_estimate(self, k: int, p: int, est: int) -> None:
        """Job k now plans with alternative (p, est)."""
        self.p[k], self.est[k] = p, est
        self.est_a[k] = self.est_i[k] = est
        self.p_i[k] = p

    def _alternatives(self, k: int, machine: int) -> list[tuple[int, int]]:
        """(procs, estimate) of the alternatives planned for job k."""
        if self.cfg.adaptation != "greedy":
            return [(self.p[k], self.est[k])]
        alts = self.greedy_alts.get(k)
        if alts is None:  # fixed per job: computed once
            job = self.jobs[k]
            alts = self.greedy_alts[k] = [
                (w, job.scaled(w).estimate if w != job.procs else job.estimate)
                for w in adapt.greedy_widths(job.procs, machine)]
        return alts

    def _plan(self, prof: Profile, k: int, now: int, latest: float = math.inf
              ) -> tuple[int, int, int]:
        """Earliest (start, duration, procs) over k's alternatives (least end; ties: first listed)."""
        best = None
        for p, e in self._alternatives(k, prof.machine_size):
            s = prof.earliest_start(p, e, now)
            if s > latest:
                continue
            if best is None or s + e < best[0] + best[1]:
                best = (s, e, p)
        assert best is not None
        if self.cfg.adaptation == "greedy" and best[2] != self.p[k]:
            self._set_estimate(k, best[2], best[1])
            if self.cfg.speculation:
                self.spec_base[k] = specmod.initial_speculation(
                    best[1], self.cfg.speculation.percentage)
        return best

    # ---------------------------------------------------------------- guarantee passes
    def _pass_guarantee(self, now: int, new: list[int]) -> None:
        prof = self.profile
        for k in new:
            r = self._plan(prof, k, now)
            prof.reserve(*r)
            self.resv[k] = r
            self.res_a[:, k] = r[::-1]
            self.guaranteed[k] = r[0]
            self.queue[k] = None
        if not self.queue:
            return
        order = self._sorted_queue(now, [k for k in self.queue if k not in self.suspended])
        resv = self.resv
        if self.freed:
            self._compress(prof, now, order)
        started = []
        for k in order:
            if resv[k][0] <= now:
                del resv[k]
                del self.queue[k]
                self._launch(k, now, self.est[k], self.p[k], "regular")
                started.append(k)
        if self.cfg.speculation is not None:
            for k in order:
                if k in self.queue:
                    self._try_speculate(prof, k, now, resv[k][0] - now)
        if self.cfg.widening:
            self._widen(prof, started, now)

    def _start_guaranteed(self, now: int) -> None:
        """Start the jobs whose guaranteed start is ``now``, in arrival order: the timer set for
        a guarantee that falls where no job arrives or ends (under ``compress_on="early"`` a
        termination at the estimate runs no compression, so a job may wait for its guarantee
        while the machine has room; the paper's pass runs "every time a new job arrives or a
        running job finishes earlier than it expected", so this is no pass: no sorting, no
        random draw, no speculation)."""
        for k in [k for k in self.queue if k not in self.suspended and self.resv[k][0] <= now]:
            del self.resv[k]
            del self.queue[k]
            self._launch(k, now, self.est[k], self.p[k], "regular")

    def _compress(self, prof: Profile, now: int, order: list[int]) -> None:
        """Compression in queue ``order`` (one pass or until stable: ``compress_passes``),
        compiled (:mod:`.perkovic_kernel`)."""
        resv = self.resv
        until_stable = self.cfg.compress_passes == "until_stable"
        if self.cfg.adaptation != "greedy":  # one alternative: the shared compression pass
            rows = self.res_a[:, np.array(order, dtype=np.int64)]
            starts = pk.compress_in_order(prof, now, rows, until_stable, self.buf)
            for i in np.flatnonzero(starts != rows[2]).tolist():  # the jobs moved
                k, s2 = order[i], int(starts[i])
                resv[k] = (s2, *resv[k][1:])
                self.res_a[2, k] = s2
        else:  # each job re-planned over its alternatives; until stable: again from the head
            self._compress_greedy(prof, now, order, until_stable)

    def _compress_greedy(self, prof: Profile, now: int, order: list[int], until_stable: bool
                         ) -> None:
        """Compression with greedy adaptation: each waiting job (queue ``order``) released and
        re-planned no later than its reservation (as :meth:`_plan` with ``latest``); until stable,
        again from the head of the queue after every change. Compiled
        (:func:`.perkovic_kernel.compress_greedy`)."""
        resv, spec = self.resv, self.cfg.speculation
        idx = np.array(order, dtype=np.int64)
        new, switched, changed = pk.compress_greedy_arrays(
            prof, now, [resv[k] for k in order], self.alt_p[idx], self.alt_e[idx],
            self.n_alt[idx], self.p_i[idx], until_stable, self.buf)
        for i in changed.tolist():  # the others keep their reservation and width
            k = order[i]
            if resv[k][0] <= now:
                continue
            resv[k] = r = tuple(new[:, i].tolist())
            self.res_a[:, k] = r[::-1]
            if switched[i]:  # as _plan: the job now plans with the alternative chosen last
                self._set_estimate(k, r[2], r[1])
                if spec:
                    self.spec_base[k] = specmod.initial_speculation(r[1], spec.percentage)

    # ---------------------------------------------------------------- no-guarantee pass
    def _pass_no_guarantee(self, now: int, machine: int) -> None:
        if not self.queue:
            return
        order = self._sorted_queue(now, list(self.queue))
        if self.cfg.adaptation == "greedy":
            procs = [min(w for w, _ in self._alternatives(k, machine)) for k in order]
            suffix_min = np.minimum.accumulate(np.array(procs[::-1]))[::-1].tolist()
            prof, plan, started = self._plan_queue(now, order, suffix_min)
        else:
            prof, plan, started = self._plan_compiled(now, order)
        for j in started:
            del self.queue[j]
            self._launch(j, now, self.est[j], self.p[j], "regular")
        if self.cfg.speculation is not None:  # the plan in queue order
            for j, slot in plan.items():
                if prof.free[0] >= self.p[j]:
                    self._try_speculate(prof, j, now, math.inf, slot)
        if self.cfg.widening:
            self._widen(prof, started, now)

    def _plan_queue(self, now: int, order: list[int], suffix_min: list[int]
                    ) -> tuple[Profile | None, dict[int, tuple[int, int, int]], list[int]]:
        """The -NG plan (§4): the sorted queue first fit on the running jobs' profile, each job
        reserved in turn, until no remaining job could start now (all of it when speculation or
        widening follow). Returns that profile, the plan of the jobs not starting and the jobs
        starting now."""
        prof = self.profile.copy()  # the running jobs only (see _launch)
        plan: dict[int, tuple[int, int, int]] = {}
        started = []
        k = 0
        for k, j in enumerate(order):
            if prof.free[0] < suffix_min[k]:
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
        if rest and extra and prof.free[0] > 0:  # later phases need the complete plan
            for j in rest:
                r = self._plan(prof, j, now)
                prof.reserve(*r)
                plan[j] = r
        return prof, plan, started

    def _plan_compiled(self, now: int, order: list[int]
                       ) -> tuple[Profile | None, dict[int, tuple[int, int, int]], list[int]]:
        """:meth:`_plan_queue` with one alternative per job (the limits: the least width from
        each job on), compiled (:func:`.perkovic_kernel.plan_ng`); the profile only for the
        phases that read it, the plan only for speculation and only of the jobs it can start
        (no wider than the processors free now: a speculative start only takes more)."""
        spec, widening = self.cfg.speculation is not None, self.cfg.widening
        idx = np.array(order, dtype=np.int64)
        p, e = self.p_i[idx], self.est_i[idx]
        starts, prof = pk.plan_ng(
            self.profile, now, p, e, np.minimum.accumulate(p[::-1])[::-1].copy(),
            lambda st: spec or (widening and min(st, default=now + 1) <= now),
            spec or widening, self.buf)
        started = [order[i] for i in np.flatnonzero(starts <= now).tolist()]
        plan = {}
        if spec and prof is not None:
            for i in np.flatnonzero((starts > now) & (p[: len(starts)] <= prof.free[0])).tolist():
                plan[order[i]] = (int(starts[i]), int(e[i]), int(p[i]))
        return prof, plan, started

    # ---------------------------------------------------------------- phases 3 and 4
    def _try_speculate(self, prof: Profile, k: int, now: int, cap: float,
                       slot: tuple[int, int, int] | None = None) -> bool:
        """Speculative start or test run of queued job k (§6, §6.1); True if it was started.
        ``slot``: k's planned (start, duration, processors) in ``prof``, given back first (left
        in place if k does not start)."""
        p = self.p[k]
        if slot is None:
            free, hole = prof.free[0], min(specmod.hole(prof, p), cap)
        else:
            s, d, q = slot
            free = prof.free[0] + (q if s <= prof.t[0] < s + d else 0)
            hole = min(specmod.hole_released(prof, p, s, s + d, q), cap)
        if free < p or cap <= 0:
            return False
        spec = self.cfg.speculation
        assert spec is not None
        allot = specmod.speculated_time(self.spec_base[k], hole, self.est[k])
        kind = "spec"
        if allot is None:
            allot = specmod.test_run_length(spec, self.est[k], hole, self.test_runs[k])
            kind = "test"
            if allot is None:
                return False
        if kind == "spec" and allot >= self.est[k] and not self.g:
            kind = "regular"  # the hole holds the whole estimate: an ordinary start
        allot = specmod.whole_seconds(allot)
        if slot is not None:
            prof.release(*slot)
        prof.reserve(now, allot, p)
        if kind == "test":
            self.test_runs[k] += 1
        elif kind == "spec":
            self.spec_starts[k] += 1
        if self.g:
            self.suspended.add(k)
        else:
            del self.queue[k]
        self._launch(k, now, allot, p, kind)
        return True

    def _widen(self, prof: Profile, started: list[int], now: int) -> None:
        """Start-time widening (§7.1): widen jobs starting now into idle nodes, in queue order."""
        for k in started:
            if prof.free[0] <= 0:
                return
            _, alloc, p, _ = self.running[k]
            for factor in self.cfg.widen_factors:  # each width with k's own slot given back
                w = adapt.widened_width(p, prof.machine_size, int(factor))
                if w is None:
                    continue
                job = self.jobs[k]
                e = job.estimate if w == job.procs else job.scaled(w).estimate
                if specmod.hole_released(prof, w, now, now + alloc, p) >= e:
                    prof.release(now, alloc, p)
                    prof.reserve(now, e, w)
                    if not self.g:  # -NG: its running slot (with guarantees prof is the profile)
                        self.profile.release(now, alloc, p)
                        self.profile.reserve(now, e, w)
                    self._set_estimate(k, w, e)
                    self.running[k] = (now, e, w, "regular")
                    self.widened[k] = True
                    break


def perkovic(order: str = "D", guarantees: bool = True, weight: float | None = None,
             speculation: float | None = None, test_runs: bool = False, adaptation: str = "none",
             widening: bool = False, seed: int = 0, median_estimate: float = 10800.0,
             starvation_horizon_s: float = STARVATION_HORIZON_S, compress_on: str = PERKOVIC[0],
             compress_passes: str = PERKOVIC[1]) -> Perkovic:
    """A :class:`Perkovic` scheduler from plain options (the CLI's ``perkovic``)."""
    if weight is None:
        weight = anti_starvation_weight(order, guarantees, median_estimate, starvation_horizon_s)
    spec = specmod.Speculation(speculation, test_runs=test_runs) if speculation else None
    return Perkovic(PKConfig(QueueOrder(order, guarantees, weight), spec, adaptation, widening,
                             compress_on=compress_on, compress_passes=compress_passes), seed)


def _factory(order: str, guarantees: bool):
    def make(**kw: Any) -> Perkovic:
        return perkovic(order=order, guarantees=guarantees, **kw)

    make.__doc__ = f"Perković & Keleher {order} ({'guarantees' if guarantees else '-NG'})."
    return make


#: ``pk_<slug>`` -> factory, one per Table 4 algorithm with and without guarantees.
FACTORIES = {f"pk_{slug(o, g).replace('-', '_')}": _factory(o, g) for o in ORDERS
             for g in (True, False)}
globals().update(FACTORIES)
