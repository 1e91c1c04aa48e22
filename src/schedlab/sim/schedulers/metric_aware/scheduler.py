"""The metric-aware scheduler of the shared engine (Tang et al. 2013 §3.3-§3.4):
:class:`MetricAware` (registered as ``metric_aware``) and the registry variants
``metric_aware-<point>``.

Adaptive tuning (§3.4, Algorithm 1, Table 1; :class:`Tuning`): a check every ``C_i`` = 30 min from
the first submission. BF tuning: BF = ``bf_low`` (0.5) when the queue depth reaches the threshold,
else ``bf_high`` (1). W tuning: W = ``w_high`` (4) when the 10 h utilization average is below the
24 h one, else ``w_low`` (1) — equal averages (e.g. during the first 10 h, when both windows are
cut at the first submission) keep W = 1, the initial value T_i of Table 1. Both tunables are set
from the current reading at each check (two-level switches, as §4.4 describes them). 2-D tuning:
both. The fair-start probe freezes the tunables in force at the job's submission.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from functools import partial
from typing import Any

import numpy as np

from ...job import SimJob
from ...scheduler import Scheduler, Start
from ...state import MachineView, Run
from .metrics import utilization_average
from .policy import INF, Policy, Tuning, next_grid_point, pass_time
from .scheduling_pass import schedule_pass


class MetricAware(Scheduler):
    """The metric-aware scheduler (§3.3) with optional adaptive tuning (§3.4, Algorithm 1) as an
    engine :class:`~schedlab.sim.scheduler.Scheduler` (``schedlab simulate --scheduler
    metric_aware``; the experiments run it through
    :class:`~schedlab.sim.schedulers.metric_aware.MetricAwareSimulator`).

    A scheduling pass (:func:`schedule_pass`) follows every instant with an event that concerns
    it (an arrival, a completion, a withdrawal from its queue, a tuning check); Algorithm 1's
    check every ``C_i`` and, with ``sched_interval``, the grid passes are engine timers. The
    allocation model is the engine's (``ctx.allocation``); the first node of every start under
    contiguous allocation is the one the pass planned (``nodes``).

    Args: the :class:`Policy` fields (``allocation`` comes from the engine) and the
    :class:`Tuning` switches; ``tuning`` (a whole :class:`Tuning`) overrides ``qd_threshold`` /
    ``adapt_window``; ``timing`` records the wall time and profile look-ups of the busy passes.
    """

    name = "metric_aware"

    def __init__(self, bf: float = 1.0, window: int = 1, backfill: str = "easy",
                 qd_threshold: float | None = None, adapt_window: bool = False,
                 sched_interval: float = 0.0, overrun_grace: float | None = None,
                 search_windows: int | None = None, tuning: Tuning | None = None,
                 timing: bool = False, backfill_rule: str = "reservations",
                 backfill_order: str = "priority", window_makespan: str = "window",
                 running_ends: str = "estimate") -> None:
        self.policy = Policy(float(bf), int(window), backfill, "any", search_windows,
                             float(sched_interval), overrun_grace, backfill_rule,
                             backfill_order, window_makespan, running_ends)  # validates
        self.tuning = tuning or Tuning(qd_threshold=qd_threshold, adapt_window=adapt_window)
        self.timing = timing
        self.t0: float | None = None  # the first submission: origin of the check/pass grids
        #: the workload's last submission, if known: a check due on an idle machine after it
        #: and after the last completion is not run (the run is over; a trace driver sets it)
        self.last_submit: int | None = None
        self.last_event = -1
        self.reset()

    @classmethod
    def of(cls, policy: Policy, tuning: Tuning | None = None, timing: bool = False) -> MetricAware:
        """The scheduler of a :class:`Policy` (its ``allocation`` is the engine's setting)."""
        return cls(policy.bf, policy.window, policy.backfill, sched_interval=policy.sched_interval,
                   overrun_grace=policy.overrun_grace, search_windows=policy.search_windows,
                   tuning=tuning, timing=timing, backfill_rule=policy.backfill_rule,
                   backfill_order=policy.backfill_order, window_makespan=policy.window_makespan,
                   running_ends=policy.running_ends)

    def params(self) -> dict[str, Any]:
        p, t = self.policy, self.tuning
        return {"bf": p.bf, "window": p.window, "backfill": p.backfill,
                "qd_threshold": t.qd_threshold, "adapt_window": t.adapt_window,
                "sched_interval": p.sched_interval, "overrun_grace": p.overrun_grace,
                "search_windows": p.search_windows, "backfill_rule": p.backfill_rule,
                "backfill_order": p.backfill_order, "window_makespan": p.window_makespan,
                "running_ends": p.running_ends}

    def reset(self) -> None:
        tun = self.tuning
        self.queue: list[int] = []  # waiting job ids, arrival order (or a frozen priority order)
        self.jobs: dict[int, SimJob] = {}
        self.submit: dict[int, int] = {}
        self.procs: dict[int, int] = {}
        self.est: dict[int, int] = {}
        self.check_pending = False
        self.next_pass = INF  # the pending grid pass (sched_interval > 0)
        self.dirty = True  # something happened since the last pass
        self.bf = tun.bf_high if tun.qd_threshold is not None else self.policy.bf
        self.w = tun.w_low if tun.adapt_window else self.policy.window
        self.backfill = self.policy.backfill  # the fair-start probe may override it
        self.tunables: list[tuple[float, float, int]] = []
        # started jobs still inside the long utilization window: [start, end (inf: running), procs]
        self.history: dict[int, list[float]] = {}
        self.nodes: dict[int, int] = {}  # started job -> first node (-1: any-node allocation)
        self.started_at: dict[int, int] = {}  # started job -> start time
        self.passes = self.busy_passes = self.placements = 0
        self.pass_seconds = 0.0

    # --- hooks ---------------------------------------------------------------------------------
    def enqueue(self, job: SimJob) -> None:
        """Append ``job`` to the queue (arrival order)."""
        jid = job.job_id
        self.queue.append(jid)
        self.jobs[jid] = job
        self.submit[jid], self.procs[jid], self.est[jid] = job.submit, job.procs, job.estimate
        self.dirty = True

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        self.enqueue(job)
        self.last_event = ctx.now
        if self.t0 is None:
            self.t0 = float(job.submit)
            self.tunables.append((self.t0, self.bf, self.w))
        if self.tuning.active and not self.check_pending:
            ctx.set_timer(int(next_grid_point(ctx.now, self.t0, self.tuning.check_interval)),
                          "check")
            self.check_pending = True

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self.last_event = ctx.now
        rec = self.history.get(run.job.job_id)
        if rec is not None:
            rec[1] = float(ctx.now)
        self.dirty = True

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        if run is not None:
            self.on_completion(ctx, run, False)
        elif job.job_id in self.jobs:
            self._forget(job.job_id)
            self.queue.remove(job.job_id)
            self.dirty = True

    def on_timer(self, ctx: MachineView, key: Hashable) -> None:
        if key == "check":
            self.check_pending = False
            if (not self.queue and not ctx.running and self.last_submit is not None
                    and ctx.now >= self.last_submit and ctx.now > self.last_event):
                return  # after the workload's last event: the run is over, no check
            self._check(ctx)
        self.dirty = True

    def _forget(self, jid: int) -> SimJob:
        del self.submit[jid], self.procs[jid], self.est[jid]
        return self.jobs.pop(jid)

    def _check(self, ctx: MachineView) -> None:
        """Algorithm 1's check: read the monitored metrics, set the tunables."""
        now, tun = float(ctx.now), self.tuning
        bf, w = self.bf, self.w
        if tun.qd_threshold is not None:
            qd = float(np.sum(now - np.fromiter((self.submit[j] for j in self.queue),
                                                dtype=np.float64, count=len(self.queue))))
            bf = tun.bf_low if qd >= tun.qd_threshold else tun.bf_high
        if tun.adapt_window:
            # jobs that ended before the long window contribute nothing to either average
            cut = now - tun.long_avg
            self.history = {j: r for j, r in self.history.items() if r[1] > cut}
            h = np.array(list(self.history.values()), dtype=np.float64).reshape(-1, 3)
            args = (self.t0, h[:, 0], h[:, 1], h[:, 2], ctx.machine_size)
            short = utilization_average(now, tun.short_avg, *args)
            long_ = utilization_average(now, tun.long_avg, *args)
            w = tun.w_high if short < long_ else tun.w_low
        if (bf, w) != (self.bf, self.w):
            self.bf, self.w = bf, w
            self.tunables.append((now, bf, w))
        if self.queue or ctx.running:
            ctx.set_timer(int(now + tun.check_interval), "check")
            self.check_pending = True

    # --- the decision ----------------------------------------------------------------------------
    def _planned_end(self, r: Run, now: int) -> float:
        """The end of running job ``r`` the pass plans with: its estimated end (with
        ``overrun_grace`` g, at least ``now + g``), or with ``running_ends="actual"`` its real
        end ``start + runtime`` (:class:`Policy`)."""
        if self.policy.running_ends == "actual":
            return r.start + r.runtime
        g = self.policy.overrun_grace
        return r.expected_end if g is None else max(r.expected_end, now + g)

    def schedule(self, ctx: MachineView) -> list[Start]:
        if not self.dirty:
            return []  # only stale events at this instant: no pass
        now, si = ctx.now, self.policy.sched_interval
        if si > 0:  # Algorithm 1's sleep(SchedInterval): passes on the grid t0 + k * si
            if self.next_pass == INF:
                self.next_pass = pass_time(now, self.t0, si)
                if now < self.next_pass:
                    ctx.set_timer(int(self.next_pass), "pass")
            if now < self.next_pass:
                return []
            self.next_pass = INF
        self.dirty = False
        self.passes += 1
        queue = self.queue
        if not queue:
            return []
        self.busy_passes += 1
        p = self.policy
        running = [(self._planned_end(r, now), r.procs,
                    -1 if r.first_node is None else r.first_node) for r in ctx.running.values()]
        c0, counter = (time.perf_counter(), [0]) if self.timing else (0.0, None)
        starts = schedule_pass(now, queue, self.submit, self.procs, self.est, running,
                               ctx.machine_size, self.bf, self.w, self.backfill, ctx.allocation,
                               p.search_windows, counter, p.backfill_rule, p.backfill_order,
                               p.window_makespan)
        if counter is not None:
            self.pass_seconds += time.perf_counter() - c0
            self.placements += counter[0]
        if not starts:
            return []
        gone = {j for j, _ in starts}
        self.queue = [j for j in queue if j not in gone]
        out = []
        for j, lo in starts:
            self.history[j] = [float(now), INF, float(self.procs[j])]
            self.nodes[j] = lo
            self.started_at[j] = now
            out.append(Start(self._forget(j), first_node=lo if lo >= 0 else None))
        return out


# ---------------------------------------------------------------- registry variants
#: SP2's queue-depth threshold of BF tuning (§4.4.1: "The threshold is set to 400 min").
SP2_QD_THRESHOLD = 400 * 60.0
#: Tables 2-3's configurations besides BF = 1 / W = 1 (``metric_aware``) as registry entries
#: ``metric_aware-<point>`` (:data:`schedlab.sim.schedulers.SCHEDULERS`, e.g. ``schedlab simulate
#: --scheduler metric_aware-bf0.5_w4``); the adaptive schemes with SP2's threshold. Keyword
#: arguments override the settings.
ma_bf1_w4 = partial(MetricAware, window=4)
ma_bf05_w1 = partial(MetricAware, bf=0.5)
ma_bf05_w4 = partial(MetricAware, bf=0.5, window=4)
ma_adapt_bf = partial(MetricAware, qd_threshold=SP2_QD_THRESHOLD)
ma_adapt_w = partial(MetricAware, adapt_window=True)
ma_adapt_2d = partial(MetricAware, qd_threshold=SP2_QD_THRESHOLD, adapt_window=True)
