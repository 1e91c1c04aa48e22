"""Adaptive metric-aware scheduling (Tang, Ren, Lan & Desai 2013, §3.3-§3.4, metrics of §4.2).

The metric-aware policy as a scheduler of the shared engine (:class:`MetricAware`, registered
as ``metric_aware`` and ``metric_aware-<point>``), planning on the shared availability profile
(:class:`~schedlab.sim.profile.Profile`; its contiguous mode
:class:`~schedlab.sim.profile.ContiguousProfile` for BG/P), with the paper's monitored metrics;
:class:`MetricAwareSimulator` runs a trace through :func:`~schedlab.sim.engine.simulate` and
computes the fair start times with :func:`~schedlab.sim.fork.simulate_from` forks (issue 18:
the private event loop, probe loop and profiles this module had are gone).

The parts (issue 25: one concept a module; every public name is importable from here):

* :mod:`.policy`: the settings, :class:`Policy` and :class:`Tuning`, and the check/pass grids;
* :mod:`.scheduling_pass`: one scheduling pass, Steps 1-6 (:func:`schedule_pass`; eqs. 1-3 and
  the priority order);
* :mod:`.window`: Step 5's window allocation (:func:`window_allocation`) and the placements on
  the availability profile;
* :mod:`.scheduler`: the engine scheduler :class:`MetricAware` with Algorithm 1's adaptive
  tuning, and the registry variants;
* :mod:`.simulator`: the experiment driver :class:`MetricAwareSimulator` (a run, the fair start
  times of §4.2) and its :class:`Result`;
* :mod:`.metrics`: the monitored metrics of §4.2 (queue depth, utilization, loss of capacity).

Event order: the engine's batch order ``completions_first`` (:data:`TIE_RULE`) — at one
instant, completions, withdrawals, arrivals (input order), then the tuning check, then one pass
(Algorithm 1 calls ``schedule_jobs`` after each check); an instant whose events do not concern
the scheduler (the end of a job already withdrawn) gets no pass. Checks fall on the grid
``t0 + k * C_i`` (``t0`` = first submission) while jobs are queued or running; an arrival on an
idle machine re-arms the next grid point; a check due after the workload's last event is not
run. The scheduler knows only estimates (unless the attribution reading
``Policy.running_ends="actual"``); a job runs for its runtime (<= estimate, unless
``overrun_grace``). A job still running at its cancel time is ended then (the engine's rule;
the log's withdrawn jobs run 1 s).

Golden schedules (issue 18; ``tests/sim/schedulers/test_tang_golden.py``, saved from the private loop this
module had until then): identical start, end and first node of every job, tunable changes,
pass counts and fair start times (all 16 probe readings on 14 synthetic cases covering every
option; the configured reading on SP2's first 5,000 jobs at BF {1, 0.5} x W {1, 4} and the three
adaptive schemes, and on the BG/P substitute at two points). One listed difference: a job still
running at its cancel time was left running by the old loop (synthetic case ``easy_cancel``).
"""

from __future__ import annotations

from .metrics import (
    delivered,
    loss_of_capacity,
    monitor_series,
    queue_depth,
    utilization_average,
)
from .policy import (
    ALLOCATIONS,
    BACKFILLS,
    CHECK_INTERVAL,
    INF,
    Policy,
    Tuning,
    next_grid_point,
    pass_time,
    with_policy,
)
from .scheduler import (
    SP2_QD_THRESHOLD,
    MetricAware,
    ma_adapt_2d,
    ma_adapt_bf,
    ma_adapt_w,
    ma_bf05_w1,
    ma_bf05_w4,
    ma_bf1_w4,
)
from .scheduling_pass import (
    balanced_priority,
    priority_order,
    schedule_pass,
    waiting_score,
    walltime_score,
)
from .simulator import (
    PROBE_BACKFILLS,
    PROBE_ORDERS,
    PROBE_POLICIES,
    PROBE_RUNTIMES,
    TIE_RULE,
    MetricAwareSimulator,
    Result,
)
from .window import (
    earliest,
    fits_now,
    new_profile,
    take,
    window_allocation,
    window_allocation_reference,
)

__all__ = [
    "ALLOCATIONS",
    "BACKFILLS",
    "CHECK_INTERVAL",
    "INF",
    "PROBE_BACKFILLS",
    "PROBE_ORDERS",
    "PROBE_POLICIES",
    "PROBE_RUNTIMES",
    "SP2_QD_THRESHOLD",
    "TIE_RULE",
    "MetricAware",
    "MetricAwareSimulator",
    "Policy",
    "Result",
    "Tuning",
    "balanced_priority",
    "delivered",
    "earliest",
    "fits_now",
    "loss_of_capacity",
    "ma_adapt_2d",
    "ma_adapt_bf",
    "ma_adapt_w",
    "ma_bf05_w1",
    "ma_bf05_w4",
    "ma_bf1_w4",
    "monitor_series",
    "new_profile",
    "next_grid_point",
    "pass_time",
    "priority_order",
    "queue_depth",
    "schedule_pass",
    "take",
    "utilization_average",
    "waiting_score",
    "walltime_score",
    "window_allocation",
    "window_allocation_reference",
    "with_policy",
]
