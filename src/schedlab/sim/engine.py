"""The discrete-event engine (docs/design.md §4): :func:`simulate`, :func:`simulate_from`, :class:`SimResult`.

Time is integer seconds. The engine owns the machine (free processors, optional contiguous 1-D
node blocks), the event queue and the per-job records; the :class:`~schedlab.sim.scheduler.Scheduler`
owns the policy. This module runs a whole workload (:func:`simulate`) and gathers the engine's
public names; the parts live beside it:

* :mod:`.core`: the state of one run and its event handlers (:class:`~schedlab.sim.core.EngineState`;
  the machine models, runtimes and kills);
* :mod:`.event_order`: the order of same-time events (``tie_rule``: ``per_event``, pyss's order and
  the default, or the batch orders ``completions_first`` / ``arrivals_first``), the event loops
  (:class:`~schedlab.sim.event_order.Engine`) and the evidence for the default;
* :mod:`.fork`: continuing from a state (:func:`simulate_from`, :func:`starts_from`) and the
  run that pauses and forks (:class:`Simulation`);
* :mod:`.result`: :class:`SimResult` and its columns.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .errors import SimulationError
from .event_order import Engine
from .fork import Simulation as Simulation  # re-exported
from .fork import simulate_from as simulate_from  # re-exported
from .fork import starts_from as starts_from  # re-exported
from .job import SimJob
from .options import ALLOCATIONS as ALLOCATIONS  # re-exported
from .options import BSLD_BOUND as BSLD_BOUND  # re-exported
from .options import TIE_RULES as TIE_RULES  # re-exported
from .options import Allocation, TieRule
from .result import JOB_COLUMNS as JOB_COLUMNS  # re-exported
from .result import TIMELINE_COLUMNS as TIMELINE_COLUMNS  # re-exported
from .result import SimResult
from .scheduler import Scheduler


def simulate(
    jobs: Sequence[SimJob],
    machine_size: int,
    scheduler: Scheduler,
    *,
    allocation: Allocation = "any",
    tie_rule: TieRule | None = None,
    enforce_estimate: bool = True,
    record_timeline: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> SimResult:
    """Simulate ``jobs`` (any order; processed by (submit, input position)) on a machine.

    Args:
        jobs: the workload; every ``procs`` must be <= ``machine_size`` (else SimulationError).
        machine_size: processors.
        scheduler: a fresh scheduler instance (it is mutated).
        allocation: ``"any"`` or ``"contiguous"`` (see :mod:`.core`).
        tie_rule: order of same-time events (see :mod:`.event_order`); ``None``: the default
            (:func:`~schedlab.sim.options.default_tie_rule`, ``$SCHEDLAB_TIE_RULE`` if set).
        enforce_estimate: kill attempts at ``start + estimate``.
        record_timeline: keep the per-event-time state rows.
        progress: optional callback ``(jobs_finished, jobs_total)``, called every few thousand events.

    Returns:
        :class:`SimResult`. Raises SimulationError if the scheduler over-allocates, starts a job
        that is not waiting, or leaves jobs waiting forever on an idle machine (deadlock).
    """
    t0 = time.perf_counter()
    eng = Engine(
        jobs, machine_size, scheduler, allocation, tie_rule, enforce_estimate, record_timeline
    )
    eng.run(None, progress)
    if eng.finished < len(eng.jobs):  # pragma: no cover - guarded by the deadlock check
        raise SimulationError(f"{len(eng.jobs) - eng.finished} jobs never finished")
    return eng.result(time.perf_counter() - t0)

