"""The scheduler interface: :class:`Scheduler` and :class:`Start`.

How to write a scheduler
========================

Subclass :class:`Scheduler`, keep your own queue, and return start decisions from
:meth:`Scheduler.schedule`. The engine (:func:`schedlab.sim.engine.simulate`) owns time, the machine
and the per-job records; you own the policy. Minimal FCFS::

    class FCFS(Scheduler):
        name = "fcfs"

        def __init__(self):
            self.queue: deque[SimJob] = deque()

        def on_arrival(self, ctx, job):
            self.queue.append(job)

        def schedule(self, ctx):
            starts, free = [], ctx.free
            while self.queue and self.queue[0].procs <= free:
                job = self.queue.popleft()
                free -= job.procs
                starts.append(Start(job))
            return starts

Rules of the game:

1. **Event order.** Under the batch tie rules the engine delivers every event due at a time (in
   the order fixed by the run's ``ctx.options.tie_rule``, see :mod:`schedlab.sim.engine`), then
   calls :meth:`schedule` **once**; under ``per_event`` (pyss's order) it calls :meth:`schedule`
   after every single event, so several passes can happen at the same ``ctx.now``. The starts you return happen
   at ``ctx.now``. There is no pass at a time when nothing happens: if you need one (e.g. a
   reservation falling between job events), set a timer for it.
2. **Keep your queue in sync.** A job you return in a :class:`Start` leaves ``ctx.waiting``; remove
   it from your own queue. ``on_cancel`` tells you a waiting job was withdrawn: drop it.
   ``on_killed`` tells you a job you started with ``kill_at`` was killed: it is waiting again (the
   default implementation re-enqueues it through :meth:`on_arrival`).
3. **What you may know.** Plan with ``job.estimate`` (or the chosen alternative's estimate) and
   ``Run.expected_end``; never read ``job.runtime`` (the actual run time).
4. **Capacity.** Return only starts that fit *together* at ``now``; the engine raises
   :class:`~schedlab.sim.errors.SimulationError` on over-allocation (a bug in the scheduler, never
   silently fixed). Under ``allocation="contiguous"`` use ``ctx.fits_now`` /
   ``ctx.largest_free_block`` and, optionally, :attr:`Start.first_node`.
5. **Planning.** Schedulers with reservations share :class:`schedlab.sim.profile.Profile`
   (free processors over time: reserve / release / earliest_start / copy). Rebuild or update it
   from ``ctx.running`` (``Run.expected_end``) and your own reservations.
6. **Timers.** ``ctx.set_timer(t, key)`` -> ``on_timer(ctx, key)`` at ``t`` (PBAS time frames, Tang's
   checking interval C_i, periodic sampling).
7. **Forks / probes.** ``ctx.snapshot()`` + :func:`schedlab.sim.fork.simulate_from` simulate from
   the current state with another scheduler instance (``self.fork()`` for "the current policy") —
   e.g. Tang's fair start time (no later arrivals), Cirne's SAg (one extra submission), PBAS
   candidates (the next time frame's arrivals). A fork never changes the real run; pass it the
   run's engine options (``options=ctx.options``) so that it replays events in the run's order.
8. **Switching policy mid-run** (PBAS/WBAS): a meta-scheduler forwards hooks to its active
   sub-scheduler; a newly activated one is brought up to date by :meth:`sync`, which rebuilds its
   queue from ``ctx.waiting`` (default: ``reset`` then :meth:`on_arrival` for each waiting job in
   arrival order). Running jobs are visible to it through ``ctx.running``.
9. **Moldable jobs, speculation, test runs.** A :class:`Start` can pick an alternative
   ``(procs, runtime, estimate)`` (one of ``job.alternatives`` or ``job.scaled(p)``) and/or a
   ``kill_at`` time: the engine kills the attempt then if it has not finished, records the wasted
   processor-seconds, and calls :meth:`on_killed` so you can requeue it.
10. **Determinism.** Any randomness comes from a ``numpy.random.Generator`` you are given (built
    from a recorded seed); iterate over dicts/sets only in insertion order.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .job import Alternative, SimJob
from .state import MachineView, Run


@dataclass(frozen=True, slots=True)
class Start:
    """A decision to start ``job`` now.

    Attributes:
        job: a job currently in ``ctx.waiting``.
        alternative: the (procs, runtime, estimate) request to run it with; ``None`` = the job's own
            request. Cirne's SA and Perković's half/quarter-size and start-time widening use it.
        kill_at: absolute time after which the engine kills this attempt if it is still running
            (Perković §6 speculative backfilling with the speculated time, §6.1 test runs). The
            engine also always enforces the estimate (the job ends, killed, at ``start + estimate``
            if its runtime is longer); a ``kill_at`` earlier than that makes the attempt
            *speculative*: on reaching it the job is requeued via :meth:`Scheduler.on_killed`.
        first_node: contiguous allocation only: the first processor of the block; ``None`` lets the
            engine choose (first fit, lowest index).
        tag: free label copied into the per-job record (e.g. ``"speculative"``, ``"test_run"``).
    """

    job: SimJob
    alternative: Alternative | None = None
    kill_at: int | None = None
    first_node: int | None = None
    tag: str = ""

    @property
    def procs(self) -> int:
        return self.alternative.procs if self.alternative is not None else self.job.procs

    @property
    def estimate(self) -> int:
        return self.alternative.estimate if self.alternative is not None else self.job.estimate


class Scheduler:
    """Base class for every scheduling policy (see the module docstring for the rules).

    Subclasses set :attr:`name`, implement :meth:`on_arrival` and :meth:`schedule`, and override the
    other hooks they need. All hooks receive the :class:`~schedlab.sim.state.MachineView` ``ctx``.
    """

    #: Short name used in CLI/outputs (``fcfs``, ``easy``, ``conservative``, ``maui``, ...).
    name: ClassVar[str] = "scheduler"

    # --- lifecycle -----------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget all queue state (called by the default :meth:`sync`). Override if you keep any."""

    def params(self) -> dict[str, Any]:
        """Parameters that identify this policy (recorded in outputs). Override to add yours."""
        return {}

    def fork(self) -> Scheduler:
        """An independent copy of this scheduler *including* its current state (for probes).

        Default: ``copy.deepcopy(self)``. Override if you hold something that must not be copied.
        """
        return copy.deepcopy(self)

    def sync(self, ctx: MachineView) -> None:
        """Rebuild internal state from the machine (policy switch, forked run from a snapshot).

        Default: :meth:`reset`, then :meth:`on_arrival` for every job in ``ctx.waiting`` in arrival
        order. Running jobs need no action for schedulers that read ``ctx.running``.
        """
        self.reset()
        for job in list(ctx.waiting.values()):
            self.on_arrival(ctx, job)

    # --- event hooks ---------------------------------------------------------------------------
    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        """A job was submitted (it is now in ``ctx.waiting``)."""
        raise NotImplementedError

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        """A running job ended (normally, or killed because it reached its estimate).

        ``run.expected_end - ctx.now`` > 0 means it ended early: the planning schedulers' cue to
        compress their schedule.
        """

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        """An attempt started with ``kill_at`` reached it and was killed; the job waits again.

        Default: treat it as a new arrival (append to the queue). Perković §6 speculation overrides
        this to lengthen the next speculated time.
        """
        self.on_arrival(ctx, run.job)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        """The user withdrew ``job`` at its ``cancel_time``.

        ``run`` is ``None`` if it was waiting (drop it from your queue), else the terminated run.
        """

    def on_timer(self, ctx: MachineView, key: Hashable) -> None:
        """A timer set with ``ctx.set_timer(t, key)`` fired."""

    # --- the decision ---------------------------------------------------------------------------
    def schedule(self, ctx: MachineView) -> Iterable[Start]:
        """Return the jobs to start now (called after every event under ``per_event``, the default;
        once per event time, after all hooks, under the batch orders)."""
        raise NotImplementedError
