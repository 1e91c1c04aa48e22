"""Perković & Keleher 2000 queue orders on the shared engine (:mod:`schedlab.sim.engine`).

:class:`PKScheduler` runs the same policy as :class:`.pk_backfill.PKBackfill` (§3 queue orders with
guarantees or ``-NG``, §6 speculative backfilling, §6.1 test runs) as a
:class:`~schedlab.sim.scheduler.Scheduler`: the engine owns time, the machine and the per-job
records; the policy state (queue, guarantees, availability profile, speculated times) is the
``PKBackfill`` instance held in ``self.core``, driven through the engine hooks. Speculative and
test runs are returned as :class:`~schedlab.sim.scheduler.Start` with ``kill_at`` (floored to the
engine's integer seconds); a killed attempt comes back through :meth:`on_killed`.

Job adaptation (§7: half/quarter size, greedy, widening) changes runtimes by non-integer factors
and is only available in the paper driver's own loop (:func:`.pk_backfill.simulate_pk`).

For the CLI registry (``"module:callable"``) :data:`FACTORIES` holds one factory per Table 4
algorithm, e.g. ``schedlab.sim.schedulers.pk_engine:pk_R_L_NG``. Without an explicit ``weight`` the
-NG anti-starvation weight is :func:`.queue_orders.anti_starvation_weight` with the paper pipeline's
default horizon (:data:`.queue_orders.STARVATION_HORIZON_S` = 0: no weight term, as
``starvation_horizon_s`` in config/papers/perkovic2000.yaml); a positive ``starvation_horizon_s``
gives :func:`.queue_orders.default_weight` for a median estimate of ``median_estimate`` seconds
(default 10,800 s, the CTC-SP2 median of Table 1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np

from ..job import SimJob
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run
from .pk_backfill import PKBackfill, PKConfig
from .queue_orders import ORDERS, STARVATION_HORIZON_S, QueueOrder, anti_starvation_weight, slug
from .speculative import Speculation


class _EngineCore(PKBackfill):
    """PKBackfill whose launches become engine start decisions instead of heap events."""

    def __init__(self, machine: int, config: PKConfig, seed: np.random.SeedSequence) -> None:
        super().__init__([], [], [], [], machine, config, seed)
        self.pending: list[tuple[int, float, int, str]] = []

    def _launch(self, j: int, now: float, alloc: float, p: int, kind: str) -> None:
        self.running[j] = (now, alloc, p, kind, False)
        self.pending.append((j, now, p, kind))
        self._hold(now, alloc, p)
        if math.isnan(self.first_start[j]):
            self.first_start[j] = now


class PKScheduler(Scheduler):
    """Perković & Keleher backfilling (queue order, guarantees or -NG, optional speculation)."""

    name: ClassVar[str] = "perkovic"

    def __init__(self, order: str = "D", guarantees: bool = True, weight: float | None = None,
                 speculation: float | None = None, test_runs: bool = False, seed: int = 0,
                 median_estimate: float = 10800.0,
                 starvation_horizon_s: float = STARVATION_HORIZON_S) -> None:
        if weight is None:
            weight = anti_starvation_weight(order, guarantees, median_estimate,
                                            starvation_horizon_s)
        self._params = {"order": order, "guarantees": guarantees, "weight": weight,
                        "speculation": speculation, "test_runs": test_runs, "seed": seed}
        spec = Speculation(speculation, test_runs=test_runs) if speculation else None
        self.config = PKConfig(QueueOrder(order, guarantees, weight), spec)
        self.seed = int(seed)
        self.reset()

    def reset(self) -> None:
        self.core: _EngineCore | None = None
        self.index: dict[int, int] = {}
        self.jobs: list[SimJob] = []
        self.new: list[int] = []

    def params(self) -> dict[str, Any]:
        return dict(self._params)

    def _core(self, ctx: MachineView) -> _EngineCore:
        if self.core is None:
            self.core = _EngineCore(ctx.machine_size, self.config,
                                    np.random.SeedSequence(self.seed))
        return self.core

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        core = self._core(ctx)
        if job.job_id in self.index:  # requeued by the engine after a kill: handled in on_killed
            return
        (j,) = core.add_jobs([job.submit], [job.runtime], [job.estimate], [job.procs])
        self.index[job.job_id] = j
        self.jobs.append(job)
        self.new.append(j)

    def _ended(self, ctx: MachineView, run: Run, finished: bool) -> None:
        core = self._core(ctx)
        j = self.index[run.job.job_id]
        start, alloc, p, kind, _ = core.running[j]
        core.running[j] = (start, alloc, p, kind, finished)
        core._end(j, float(ctx.now))

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self._ended(ctx, run, True)

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self._ended(ctx, run, False)

    def schedule(self, ctx: MachineView) -> Iterable[Start]:
        core = self._core(ctx)
        now = float(ctx.now)
        new, self.new = self.new, []
        core.profile.advance(now)
        if core.g:
            core._pass_guarantee(now, new)
        else:
            core.queue.update(dict.fromkeys(new))
            core._pass_no_guarantee(now)
        core.freed = False
        starts = []
        for j, _, _, kind in core.pending:
            alloc = core.running[j][1]
            kill = None if kind == "regular" else math.floor(now + alloc)
            starts.append(Start(self.jobs[j], kill_at=kill, tag="" if kind == "regular" else kind))
        core.pending = []
        return starts


def _factory(order: str, guarantees: bool):
    def make(**kw: Any) -> PKScheduler:
        return PKScheduler(order=order, guarantees=guarantees, **kw)

    make.__doc__ = f"Perković & Keleher {order} ({'guarantees' if guarantees else '-NG'})."
    return make


#: ``pk_<slug>`` -> factory, one per Table 4 algorithm with and without guarantees.
FACTORIES = {f"pk_{slug(o, g).replace('-', '_')}": _factory(o, g) for o in ORDERS
             for g in (True, False)}
globals().update(FACTORIES)
