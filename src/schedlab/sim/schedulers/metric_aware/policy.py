"""The settings of the metric-aware scheduler (Tang et al. 2013 §3.3-§3.4): :class:`Policy` (a
static policy: BF, W, backfilling, allocation), :class:`Tuning` (Algorithm 1, Table 1) and the
grids their checks and passes fall on.

Readings of the base schedule (issue 22; all off by default, run side by side by
``tang2013.BASE_READINGS``, table ``attribution_base``): ``Policy.sched_interval`` — passes only on
the grid ``t0 + k * interval`` after an event (Algorithm 1's ``sleep(SchedInterval)``; §4.5:
"the scheduling iteration is triggered about every 10 s in real systems (e.g., Cobalt uses the
10-s setting)"), the fair-start probe on the same grid; ``backfill="greedy"`` — no
reservations, every job that fits starts in priority order (the first-fit loop of Cobalt's
cluster queue simulator, ``cqsim.find_job_location``); ``Policy.overrun_grace`` — run times may
exceed the estimate and a running job is predicted to end at ``max(start + estimate, now +
grace)`` (Cobalt's qsim keeps overruns up to 1.1 x the request and predicts ``now + 5 min``);
``cancel`` (:class:`~schedlab.sim.schedulers.metric_aware.MetricAwareSimulator`) — cancelled
log jobs wait in the queue until their cancel time. Four more (issue 22, "the base-schedule gap"),
each a field of :class:`Policy` documented there: ``backfill_rule="drain"`` (Cobalt's drain rule),
``backfill_order="sjf"``, ``window_makespan="machine"`` and ``running_ends="actual"``. None of
them fits SP2's Table 3 better than the defaults on both counts (docs/papers/tang2013.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ....errors import ConfigError

BACKFILLS = ("easy", "conservative", "greedy")
ALLOCATIONS = ("any", "contiguous")
BACKFILL_RULES = ("reservations", "drain")
BACKFILL_ORDERS = ("priority", "sjf")
WINDOW_MAKESPANS = ("window", "machine")
RUNNING_ENDS = ("estimate", "actual")
CHECK_INTERVAL = 1800.0  # C_i, Table 1: 30 min
INF = math.inf


def next_grid_point(now: float, t0: float, interval: float) -> float:
    """The first check time ``t0 + k * interval`` strictly after ``now``."""
    return t0 + interval * (math.floor((now - t0) / interval) + 1)


def pass_time(t: float, t0: float, interval: float) -> float:
    """The first scheduling pass at or after ``t``: ``t`` itself when event-driven
    (``interval`` 0), else the first grid point ``t0 + k * interval >= t``."""
    if interval <= 0:
        return t
    return t0 + interval * math.ceil((t - t0) / interval)



@dataclass(frozen=True)
class Policy:
    """A static metric-aware policy: balance factor, window size, backfilling, allocation."""

    bf: float = 1.0
    window: int = 1
    backfill: str = "easy"
    allocation: str = "any"
    search_windows: int | None = None
    sched_interval: float = 0.0  # 0: a pass after every event; > 0: passes on a fixed grid
    # None: runtimes may not exceed estimates. A number g (s): jobs may overrun their estimate
    # and a running job is predicted to end at max(start + estimate, now + g) (Cobalt's qsim
    # uses 5 min); an attribution reading of the base schedule.
    overrun_grace: float | None = None
    # Step 6 under EASY (§3.3: "For EASY backfilling, the reservation of jobs in the first window
    # will not be delayed by backfilling jobs"). "reservations" (the paper's words): a job is
    # backfilled if it fits now without delaying any reservation of the blocked window (EASY's
    # extra nodes allowed). "drain": it must also *end before* the earliest of those reserved
    # starts — Cobalt's drain rule (public ido/cobalt, src/lib/Components/
    # cluster_base_system.py, ``_find_job_location``: a job may use drained nodes only if
    # ``job_end_time < drain_time``; every idle node is drained), i.e. no extra nodes.
    backfill_rule: str = "reservations"
    # Step 6's candidate order: "priority" (S_p, the pass's order) or "sjf" (shortest estimate
    # first, ties in priority order; Cobalt's BG/P simulator bqsim.py, ``SJF_BACKFILL = True``).
    # The paper names no order.
    backfill_order: str = "priority"
    # Step 5's makespan (§3.3: "Select one schedule with the least makespan, meaning that the
    # jobs in the window generate a schedule with the highest utilization rate"): "window" (the
    # latest end of the window's jobs) or "machine" (the latest end of the machine's whole
    # planned schedule: running jobs, jobs planned earlier in the pass, the window's jobs).
    window_makespan: str = "window"
    # The running jobs' ends the pass plans with: "estimate" (start + requested time, what a
    # scheduler knows) or "actual" (start + real run time; a simulator leak: Cobalt's qsim stores
    # end_time = start + runtime on a started job, cqsim.run_job_updates). A fair-start probe on
    # estimates runs every job for its estimate, so there the two coincide.
    running_ends: str = "estimate"

    def __post_init__(self) -> None:
        if self.sched_interval < 0:
            raise ConfigError(f"scheduling interval must be >= 0 s, got {self.sched_interval}")
        if not 0.0 <= self.bf <= 1.0:
            raise ConfigError(f"balance factor must be in [0, 1], got {self.bf}")
        if self.window < 1:
            raise ConfigError(f"window size must be >= 1, got {self.window}")
        if self.backfill not in BACKFILLS:
            raise ConfigError(f"unknown backfilling {self.backfill!r}; choose from {BACKFILLS}")
        if self.allocation not in ALLOCATIONS:
            raise ConfigError(f"unknown allocation {self.allocation!r}; choose from {ALLOCATIONS}")
        for name, allowed in (("backfill_rule", BACKFILL_RULES),
                              ("backfill_order", BACKFILL_ORDERS),
                              ("window_makespan", WINDOW_MAKESPANS),
                              ("running_ends", RUNNING_ENDS)):
            if getattr(self, name) not in allowed:
                raise ConfigError(f"unknown {name} {getattr(self, name)!r}; choose from {allowed}")


@dataclass(frozen=True)
class Tuning:
    """Adaptive policy tuning (Algorithm 1, Table 1). ``qd_threshold`` (seconds of queue depth)
    enables BF tuning (T_i = 1, Delta = 0.5); ``adapt_window`` enables W tuning 1 <-> 4 on the
    10 h vs 24 h utilization averages."""

    qd_threshold: float | None = None
    bf_high: float = 1.0
    bf_low: float = 0.5
    adapt_window: bool = False
    w_low: int = 1
    w_high: int = 4
    check_interval: float = CHECK_INTERVAL
    short_avg: float = 10 * 3600.0
    long_avg: float = 24 * 3600.0

    @property
    def active(self) -> bool:
        return self.qd_threshold is not None or self.adapt_window



def with_policy(policy: Policy, **changes) -> Policy:
    """A copy of ``policy`` with fields replaced."""
    return replace(policy, **changes)

