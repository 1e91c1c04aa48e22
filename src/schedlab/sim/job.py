"""Simulation job records (docs/design.md §3 "Simulation jobs").

A :class:`SimJob` is what the engine simulates: built from a trace table by
:func:`schedlab.traces.normalize.normalize` (every rule counted) or directly by a workload model.
Times are integer seconds; ``submit`` is relative to the trace start (SWF convention).

Schedulers may read ``submit``, ``estimate``, ``procs``, ``user_id`` and ``alternatives``. They must
**not** read ``runtime`` (the actual run time is unknown to a real scheduler); it is on the record only
because the engine needs it. (Perković §7 builds width-changed variants of a job under a
constant-efficiency assumption; :meth:`SimJob.scaled` does that on the engine's side of the line.)
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way to run a job (Cirne's "request"; Perković §7 "alternative").

    ``procs`` processors for ``runtime`` seconds (actual), with the scheduler-visible ``estimate``
    (the requested time, an upper bound the engine enforces).
    """

    procs: int
    runtime: int
    estimate: int


@dataclass(frozen=True, slots=True)
class SimJob:
    """A job as the simulator sees it.

    Attributes:
        job_id: unique integer id (the trace's job number is kept).
        submit: arrival time, seconds.
        runtime: actual run time, seconds (>= 1). Hidden from schedulers by convention.
        estimate: user-requested run time, seconds (>= runtime after normalization); the engine
            kills a job that reaches its estimate (docs/design.md §4).
        procs: processors requested (1 <= procs <= machine size).
        user_id: submitting user (-1 if unknown).
        cancel_time: absolute time at which the user withdraws the job, or ``None``. A job still
            waiting then never runs; a running job is terminated then (its record says so).
        alternatives: moldable jobs only: the (procs, runtime, estimate) requests a scheduler may
            choose from (Cirne §2; Perković §7). Empty for rigid jobs; when non-empty the default
            request (procs, runtime, estimate) is normally one of them.
    """

    job_id: int
    submit: int
    runtime: int
    estimate: int
    procs: int
    user_id: int = -1
    cancel_time: int | None = None
    alternatives: tuple[Alternative, ...] = field(default=())

    @property
    def default(self) -> Alternative:
        """The job's own request as an :class:`Alternative`."""
        return Alternative(self.procs, self.runtime, self.estimate)

    def scaled(self, procs: int) -> Alternative:
        """The job re-shaped to ``procs`` processors at constant efficiency (Perković §7).

        Work (procs x time) is preserved: runtime and estimate scale by ``self.procs / procs``,
        rounded up to whole seconds (at least 1 s) in exact integer arithmetic (a float product
        such as ``300 * (5 / 3)`` = 500.00000000000006 would round up one second too far).
        """
        if procs < 1:
            raise ValueError(f"job {self.job_id}: cannot scale to {procs} processors")
        return Alternative(
            procs,
            max(1, -(-self.runtime * self.procs // procs)),
            max(1, -(-self.estimate * self.procs // procs)),
        )
