"""Conservative backfilling (Cirne 2001 §2.2.1, Figures 3–4; Mu'alem & Feitelson 2001; Perković &
Keleher 2000 §2; Talby & Feitelson 2005 §2.1).

Every job gets a reservation when it arrives: the first slot of the availability profile (free
processors over time, :class:`~schedlab.sim.profile.Profile`) where it fits for its whole estimate
— *first fit*, so a later job may be placed before an earlier one (Cirne Figure 3: C before B).
A job starts when its reservation comes; it never starts later than its first reservation, because
reservations only move earlier:

* when a job ends before its estimate (or a running job is cancelled, or a waiting one withdrawn),
  its unused slot is released and the queue is *compressed*: each waiting job, in arrival
  (submission) order, is taken out and re-placed at the first slot where it fits. A job keeps its
  slot unless the new one is earlier.
* when and how often: ``compress_on`` (``"every"`` termination, pyss's, the default; or only
  ``"early"`` ones, Perković's and Cirne's text) and ``compress_passes`` (``"one"`` pass, pyss's and
  Perković's, the default; or ``"until_stable"``, Cirne's), each source quoted in
  :mod:`~schedlab.sim.schedulers.compression`. A job that ends exactly at its estimate frees
  nothing the profile did not already show free; under ``"every"`` its pass still compresses.

A reservation may fall at a time when no job event happens (the job whose expected end defined it
ended early, and the waiting job could not move because of something placed before it since): the
scheduler sets an engine timer for the earliest reservation so the job starts exactly then.

Exactness-preserving speed-ups: compression skips a job that provably cannot move (see
:func:`compress`), finds the new slot of the others without modifying the profile
(:meth:`~schedlab.sim.profile.Profile.earliest_move`), moves a reservation by changing only the
non-overlapping parts of its two slots (:meth:`~schedlab.sim.profile.Profile.shift`), and is
skipped entirely when nothing triggered it. A released slot's compression happens before any new
arrival is placed, so the older jobs see it first. Schedules are checked identical to the unpruned
re-placement (tests/sim/test_sim_schedulers.py, random workloads and 4,000 CTC-SP2 jobs) and, whole
logs, to the schedules before each speed-up (``benchmarks/golden_schedules.py``).

Two implementations of the same algorithm: :class:`Conservative` (registry name
``conservative``) runs it compiled (:mod:`schedlab.sim.cbf_kernel`, numba from wheels), with the
profile and the queue in int64 arrays that one kernel call per arrival, release or scheduling pass
updates in place; :class:`ListConservative` is the pure-Python statement on the list
:class:`~schedlab.sim.profile.Profile` and :func:`~.compression.compress` (which Flex and
Perković's orders share), kept as the reference the compiled one is tested against job for job (random workloads
with withdrawn jobs under every event order in tests/sim/test_sim_profile.py; whole logs with
``benchmarks/golden_schedules.py``). Speed (issue 17, ``make bench``, CPU s, per_event): CTC-SP2
5.4 -> 1.4 (78x pyss; target 50x), KTH-SP2 0.72 -> 0.37 (13x; target 10x), SDSC-SP2 2.2 -> 0.64;
why compiled and what pure-Python work reached first is in docs/engine.md (also the command
line's wall times under each reading).

``allocation="contiguous"`` is not supported by this count-based plan (a start could fail on
fragmentation): use Tang's contiguous scheduler for BG/P-style machines.
"""

from __future__ import annotations

import copy
from heapq import heapify, heappop, heappush
from typing import Any, ClassVar

import numpy as np

from ..errors import SimulationError
from ..job import SimJob
from ..profile import Profile
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run
from .compression import PYSS, check_compression, compress


class _Compressing(Scheduler):
    """What both implementations share: the options ``compress_on`` / ``compress_passes``
    (:mod:`~schedlab.sim.schedulers.compression`) and when a compression is due.

    ``dirty``: a slot was released (or, under the batch orders, a job ended at its estimate under
    ``"every"``): compress before the next placement or in the next pass. ``owed``: under
    ``per_event``, terminations at the estimate whose own pass (after the same-time arrivals, as
    in pyss) is still to come; a pass pays one unless it is an arrival's (``placed``)."""

    name = "conservative"

    def __init__(self, record_reservations: bool = False, compress_on: str = PYSS[0],
                 compress_passes: str = PYSS[1]) -> None:
        check_compression(compress_on, compress_passes, self.name)
        self.compress_on, self.compress_passes = compress_on, compress_passes
        self.until_stable = compress_passes == "until_stable"
        #: job id -> first reservation (tests check the guarantee)
        self.first_reservations: dict[int, int] | None = {} if record_reservations else None
        self.reset()

    def params(self) -> dict[str, Any]:
        return {"compress_on": self.compress_on, "compress_passes": self.compress_passes}

    def reset(self) -> None:
        self.dirty = False
        self.owed = 0
        self.owed_at = 0
        self.placed = False
        self.timer_at: int | None = None

    def _ended_on_estimate(self, ctx: MachineView) -> None:
        """A termination that released nothing: under ``"every"`` it still gets a compression."""
        if self.compress_on != "every":
            return
        if ctx.options.tie_rule == "per_event":
            self.owed += 1
            self.owed_at = ctx.now
        else:
            self.dirty = True

    def _compress_due(self, ctx: MachineView) -> bool:
        """Whether this scheduling pass compresses (consumes the trigger)."""
        arrival_pass, self.placed = self.placed, False
        if self.dirty:
            return True
        if self.owed and not arrival_pass:
            if ctx.now != self.owed_at:  # pragma: no cover - an engine event-order change
                raise SimulationError(
                    f"{self.name}: the compression pass of a termination at {self.owed_at} "
                    f"did not come before t={ctx.now}"
                )
            self.owed -= 1
            return True
        return False

    def sync(self, ctx: MachineView) -> None:
        super().sync(ctx)
        self.placed = False  # re-placed, not arrived: the next pass is no arrival's

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self.on_completion(ctx, run, False)
        self.on_arrival(ctx, run.job)
        self.placed = False  # a requeue, not an arrival: the kill's own pass is still to come


class Conservative(_Compressing):
    """Conservative backfilling with compression in arrival order, compiled: the profile and the
    queue live in int64 arrays that the kernels of :mod:`schedlab.sim.cbf_kernel` update in place
    (one call per arrival, release or scheduling pass). Schedules identical to
    :class:`ListConservative` under every reading (``compress_on``, ``compress_passes``: see
    :mod:`~schedlab.sim.schedulers.compression`; default pyss's, every termination and one pass)."""

    #: :mod:`schedlab.sim.cbf_kernel`, imported on first use (a class attribute: forks deep-copy
    #: the instance)
    kernel: ClassVar[Any] = None

    def reset(self) -> None:
        super().reset()
        self.state: tuple | None = None  # (prof, queue, meta) arrays, see cbf_kernel
        self.queue: dict[int, SimJob] = {}  # arrival order

    def _state(self, ctx: MachineView) -> tuple:
        if self.state is None:
            if ctx.allocation != "any":
                raise SimulationError("conservative backfilling supports allocation='any' only")
            if Conservative.kernel is None:
                Conservative.kernel = _kernel()
            k = self.kernel
            running = [r for r in ctx.running.values() if r.expected_end > ctx.now]
            size = max(64, k.capacity_needed(len(running), 0))
            prof, queue, meta = k.new_state(ctx.machine_size, ctx.now, size)
            for r in running:
                k.add(prof, meta, ctx.now, r.expected_end, -r.procs, -1)
            self.state = (prof, queue, meta)
            self.out = np.zeros(queue.shape[1], dtype=np.int64)
        return self.state

    def fork(self) -> Conservative:
        """A copy with its own profile and queue arrays (shallow otherwise: jobs are immutable);
        much cheaper than the default deep copy (engine forks, Cirne's experiments)."""
        new = copy.copy(self)
        if self.state is not None:
            new.state = tuple(a.copy() for a in self.state)
            new.out = self.out.copy()
        new.queue = dict(self.queue)
        if self.first_reservations is not None:
            new.first_reservations = dict(self.first_reservations)
        return new

    @property
    def profile(self):
        """The availability profile (read-only view, :class:`~schedlab.sim.profile.ProfileView`)."""
        return None if self.state is None else self.kernel.profile_view(self.state[0], self.state[2])

    @property
    def res(self) -> dict[int, int]:
        """Job id -> reserved start of every waiting job."""
        if self.state is None:
            return {}
        _, queue, meta = self.state
        m = int(meta[self.kernel.M])
        k = self.kernel
        return dict(zip(queue[k.JID, :m].tolist(), queue[k.RES, :m].tolist(), strict=True))

    def _profile(self, ctx: MachineView):
        """The profile advanced to ``ctx.now`` (for subclasses that plan on it, e.g. SA)."""
        prof, _, meta = self._state(ctx)
        self.kernel.advance(prof, meta, int(ctx.now))
        return self.kernel.profile_view(prof, meta)

    def _compress(self, p, now: int) -> None:
        """Compress the queue now (:func:`~.compression.compress`, compiled)."""
        prof, queue, meta = self.state
        self.kernel.compress(prof, queue, meta, int(now), self.until_stable, True)
        self.dirty = False

    # --- hooks -------------------------------------------------------------------------------
    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        prof, queue, meta = self._state(ctx)
        if job.procs > ctx.machine_size:
            raise SimulationError(
                f"{job.procs} processors requested on a {ctx.machine_size}-processor machine"
            )
        now, est = ctx.now, job.estimate
        if now != int(now) or est != int(est):  # the kernels' arrays hold int64 seconds
            raise SimulationError(
                f"conservative: job {job.job_id}: times must be whole seconds "
                f"(now {now}, estimate {est}); use ListConservative for fractional times"
            )
        k = self.kernel
        need = k.capacity_needed(len(self.queue) + 1, len(ctx.running))
        if need > prof.shape[1] or len(self.queue) + 1 > queue.shape[1]:
            prof, queue = k.grown(prof, need), k.grown(queue, need)
            self.state = (prof, queue, meta)
            self.out = np.zeros(queue.shape[1], dtype=np.int64)
        s = k.arrive(prof, queue, meta, int(now), self.dirty, self.until_stable, int(job.procs),
                     int(est), int(job.job_id))
        self.dirty = False
        self.placed = True
        self.queue[job.job_id] = job
        if self.first_reservations is not None:
            self.first_reservations.setdefault(job.job_id, s)

    def _give_back(self, ctx: MachineView, start: int, end: int, procs: int) -> None:
        prof, _, meta = self._state(ctx)
        if self.kernel.release(prof, meta, ctx.now, start, end, procs, ctx.machine_size):
            raise SimulationError(
                f"profile over-allocation: {-procs:+d} processors during [{start}, {end}) "
                f"(machine {ctx.machine_size})"
            )
        self.dirty = True

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        if run.expected_end > ctx.now:
            self._give_back(ctx, ctx.now, run.expected_end, run.procs)
        else:
            self._ended_on_estimate(ctx)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        if run is not None:
            self.on_completion(ctx, run, False)
            return
        _, queue, meta = self._state(ctx)
        s = int(self.kernel.withdraw(queue, meta, job.job_id))
        del self.queue[job.job_id]
        self._give_back(ctx, max(s, ctx.now), s + job.estimate, job.procs)

    def schedule(self, ctx: MachineView) -> list[Start]:
        now = ctx.now
        prof, queue, meta = self._state(ctx)
        k = self.kernel
        starts: list[Start] = []
        full = self.dirty  # a released slot: else a termination at the estimate (cbf_kernel)
        squeeze = self._compress_due(ctx)
        if squeeze or (meta[k.M] and meta[k.NEXT] <= now):
            c = k.due(prof, queue, meta, int(now), squeeze, self.until_stable, full, self.out)
            self.dirty = False
            if c < 0:  # pragma: no cover - would break the guarantee
                raise SimulationError(
                    f"conservative: job {queue[k.JID, -1 - c]} missed its reservation at "
                    f"{queue[k.RES, -1 - c]}"
                )
            if c:
                pop = self.queue.pop
                starts = [Start(pop(jid)) for jid in self.out[:c].tolist()]
        if meta[k.M]:
            nxt = int(meta[k.NEXT])
            if nxt != self.timer_at:
                self.timer_at = nxt
                ctx.set_timer(nxt, "reservation")
        return starts


def _kernel():
    """The compiled kernels, imported on first use (numba's import and cache load cost ~0.3 s;
    :func:`~.compression.compress` users and the CLI's other policies do not pay it)."""
    try:
        from .. import cbf_kernel
    except ModuleNotFoundError as e:  # an environment made before numba joined the lock
        raise ModuleNotFoundError(
            f"conservative backfilling needs {e.name} (requirements.lock): run `make setup`"
        ) from e
    return cbf_kernel


class ListConservative(_Compressing):
    """Conservative backfilling on the list :class:`Profile` and :func:`~.compression.compress`:
    the pure-Python statement of the algorithm that :class:`Conservative` compiles (tests check
    them identical under every reading; the tests' unpruned reference subclasses this one)."""

    def reset(self) -> None:
        super().reset()
        self.profile: Profile | None = None
        self.queue: dict[int, SimJob] = {}  # arrival order
        self.res: dict[int, int] = {}  # job id -> reserved start
        self.due: list[tuple[int, int, int]] = []  # (start, arrival seq, job id), lazy
        self.seq = 0

    def _profile(self, ctx: MachineView) -> Profile:
        p = self.profile
        if p is None:
            if ctx.allocation != "any":
                raise SimulationError("conservative backfilling supports allocation='any' only")
            p = self.profile = Profile(ctx.machine_size, ctx.now)
            for r in ctx.running.values():
                if r.expected_end > ctx.now:
                    p.reserve(ctx.now, r.expected_end - ctx.now, r.procs)
        else:
            p.advance(ctx.now)
        return p

    def fork(self) -> ListConservative:
        """A copy with its own profile, queue and reservations (shallow: jobs are immutable);
        much cheaper than the default deep copy (engine forks, Cirne's experiments)."""
        res = self.res
        # drop superseded reservations from the lazy heap first (same pop order: live entries
        # keep their keys), so neither copy pops them again
        self.due = [e for e in self.due if res.get(e[2]) == e[0]]
        heapify(self.due)
        new = copy.copy(self)
        new.profile = None if self.profile is None else self.profile.copy()
        new.queue, new.res, new.due = dict(self.queue), dict(res), list(self.due)
        if self.first_reservations is not None:
            new.first_reservations = dict(self.first_reservations)
        return new

    # --- hooks -------------------------------------------------------------------------------
    def _place(self, profile: Profile, job: SimJob, now: int) -> None:
        s = profile.earliest_start(job.procs, job.estimate, now)
        profile.reserve(s, job.estimate, job.procs)
        self.res[job.job_id] = s
        self.seq += 1
        heappush(self.due, (s, self.seq, job.job_id))

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        p = self._profile(ctx)
        if self.dirty:
            self._compress(p, ctx.now)
        self.queue[job.job_id] = job
        self._place(p, job, ctx.now)
        self.placed = True
        if self.first_reservations is not None:
            self.first_reservations.setdefault(job.job_id, self.res[job.job_id])

    def _release_run(self, ctx: MachineView, run: Run) -> None:
        if run.expected_end > ctx.now:
            self._profile(ctx).release(ctx.now, run.expected_end - ctx.now, run.procs)
            self.dirty = True
        else:
            self._ended_on_estimate(ctx)

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self._release_run(ctx, run)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        if run is not None:
            self._release_run(ctx, run)
            return
        p = self._profile(ctx)
        s = self.res.pop(job.job_id)
        del self.queue[job.job_id]
        p.release(max(s, ctx.now), s + job.estimate - max(s, ctx.now), job.procs)
        self.dirty = True

    # --- compression and starts ----------------------------------------------------------------
    def _compress(self, p: Profile, now: int) -> None:
        """Move waiting jobs, in arrival order, to earlier slots (never later):
        :func:`~.compression.compress` over the queue, one pass or until stable."""
        self.dirty = False
        res, queue = self.res, self.queue
        waiting = ((jid, job.procs, job.estimate, res[jid]) for jid, job in queue.items())
        for jid, s2 in compress(p, now, waiting, self.compress_passes):
            res[jid] = s2
            self.seq += 1
            heappush(self.due, (s2, self.seq, jid))

    def schedule(self, ctx: MachineView) -> list[Start]:
        now = ctx.now
        p = self._profile(ctx)
        if self._compress_due(ctx):
            self._compress(p, now)
        due, res, starts = self.due, self.res, []
        while due and due[0][0] <= now:
            s, _, jid = heappop(due)
            if res.get(jid) != s:
                continue  # superseded by an earlier reservation, or started/cancelled
            if s < now:  # pragma: no cover - would break the guarantee
                raise SimulationError(f"conservative: job {jid} missed its reservation at {s}")
            del res[jid]
            starts.append(Start(self.queue.pop(jid)))
        while due and res.get(due[0][2]) != due[0][0]:
            heappop(due)  # drop superseded entries so the head is the next real reservation
        if due and due[0][0] != self.timer_at:
            self.timer_at = due[0][0]
            ctx.set_timer(self.timer_at, "reservation")
        return starts
