"""What a scheduler can see of the machine: :class:`Run`, :class:`MachineView`, :class:`Snapshot`.

The engine passes a :class:`MachineView` (``ctx``) to every scheduler hook. It is read-only apart
from :meth:`MachineView.set_timer`; schedulers change the world only by returning
:class:`~schedlab.sim.scheduler.Start` decisions from ``schedule``.

:meth:`MachineView.snapshot` freezes the current state into a :class:`Snapshot`, from which
:func:`schedlab.sim.fork.simulate_from` runs a *forked* simulation (Tang §4.2 fair start time,
Cirne §2.1 SAg, Talby's PBAS candidates) without touching the real run.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .job import Alternative, SimJob
from .machine import Machine
from .options import SimOptions


@dataclass(slots=True)
class Run:
    """A running job (one attempt of it). The engine never changes a Run once made (a restart is
    a new Run) and schedulers only read them, so a :class:`Snapshot` and a fork of it hold the
    records themselves.

    Attributes:
        job: the job.
        start: when this attempt started.
        procs, runtime, estimate: the request it runs with (the job's own or the chosen
            alternative). Schedulers use ``estimate``; ``runtime`` is the engine's business.
        expected_end: ``start + estimate`` capped by ``kill_at`` — the end a scheduler plans with.
        kill_at: absolute time at which the engine kills this attempt if it is still running
            (speculative start / test run), or ``None``.
        first_node: first processor of the block under contiguous allocation, else ``None``.
        attempt: 0 for the first start of the job, 1 after one kill-and-requeue, …
        tag: free label from the :class:`~schedlab.sim.scheduler.Start` (e.g. "speculative").
    """

    job: SimJob
    start: int
    procs: int
    runtime: int
    estimate: int
    expected_end: int
    kill_at: int | None = None
    first_node: int | None = None
    attempt: int = 0
    tag: str = ""
    alternative: Alternative | None = None


class MachineView(Protocol):
    """Read-only view of the simulated machine handed to every scheduler hook.

    Attributes / methods:
        now: current simulated time (s).
        machine_size: number of processors.
        allocation: ``"any"`` or ``"contiguous"``.
        options: the run's :class:`~schedlab.sim.options.SimOptions` (its tie rule, …): a
            scheduler that forks the run (:func:`~schedlab.sim.fork.simulate_from`,
            :func:`~schedlab.sim.fork.starts_from`) passes them on, so the fork replays events
            as the run does.
        free: processors idle right now.
        running: ``job_id -> Run`` for every running job (iteration order = start order).
        waiting: ``job_id -> SimJob`` for every submitted job that is neither running, finished nor
            cancelled, in arrival order (requeued jobs go to the end).
        fits_now(procs): can ``procs`` processors be allocated right now (under contiguous
            allocation: is there a free block that large)?
        largest_free_block(): widest allocatable request right now (== ``free`` for "any").
        machine_copy(): a private copy of the processor allocator
            (:class:`~schedlab.sim.machine.Machine`; ``fits``/``allocate``/``release``) to try a
            set of starts before returning them — under contiguous allocation the engine places
            starts first fit in the order returned, exactly as the copy does.
        set_timer(t, key): ask for ``on_timer(ctx, key)`` at absolute time ``t`` (>= now);
            several timers at the same time fire in the order they were set.
        snapshot(): freeze the current state for a forked simulation.
    """

    now: int
    machine_size: int
    allocation: str
    options: SimOptions

    @property
    def free(self) -> int: ...

    @property
    def running(self) -> Mapping[int, Run]: ...

    @property
    def waiting(self) -> Mapping[int, SimJob]: ...

    def fits_now(self, procs: int) -> bool: ...

    def largest_free_block(self) -> int: ...

    def machine_copy(self) -> Machine: ...

    def set_timer(self, t: int, key: Hashable) -> None: ...

    def snapshot(self) -> Snapshot: ...


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The machine frozen at ``now``: input for :func:`schedlab.sim.fork.simulate_from`.

    Running jobs keep their start, request, node block and ``expected_end``; in the fork they end at
    ``expected_end`` (``runtimes="estimate"``: nothing known about actual run times, as SAg and
    the fair-start-time probe assume) or at their true end (``runtimes="actual"``: e.g. an oracle).
    Waiting jobs are re-submitted to the fork's scheduler at ``now`` in arrival order, keeping their
    original ``submit`` (so wait-based priorities are unchanged).
    """

    now: int
    machine_size: int
    allocation: str
    running: tuple[Run, ...]
    waiting: tuple[SimJob, ...]
    attempts: Mapping[int, int]

    @property
    def busy(self) -> int:
        """Processors in use at ``now``."""
        return sum(r.procs for r in self.running)

    def waiting_ids(self) -> Sequence[int]:
        return [j.job_id for j in self.waiting]
