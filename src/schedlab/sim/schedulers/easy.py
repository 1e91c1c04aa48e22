"""EASY backfilling (Talby & Feitelson 2005, §2.1; Lifka 1995; Mu'alem & Feitelson 2001).

Queue in arrival order; only the first queued job (the *head*) gets a reservation. The time at which
the head can start, given the expected ends (start + estimate) of the running jobs, is the *shadow
time*; the processors still idle once the head has started then are the *extra nodes*. A job behind
the head is backfilled — started now, overtaking the head — if (Talby §2.1)

1. it needs no more than the currently free processors and will terminate by the shadow time, or
2. it needs no more than the minimum of the currently free processors and the extra nodes
   (each such job uses up extra nodes).

Readings of the paper (option ``backfill``; Talby §2.1 describes EASY only on arrival: "When a new
job is submitted, EASY checks its requirements against the currently running jobs and the first job
in the queue", and contrasts Maui: "when a new job arrives, it is not the only one that the scheduler
tries to backfill. Instead, all waiting jobs are sorted [...] and are then backfilled"):

``"every_event"`` (default; the usual EASY of Lifka and Mu'alem & Feitelson)
    at every scheduling pass, start queued jobs from the head while they fit, then try to backfill
    every other queued job in arrival order. As an exact optimization, a pass with no completion,
    kill or cancellation since the last one (only arrivals; free processors, head, shadow and extra
    unchanged, time later) examines only the new arrivals: every older job failed both conditions
    with the same free/extra and an earlier ``now``, so it would fail again.
``"completion_queue"``
    the reading "on arrival only the new job is tried, on a completion the whole queue": this is
    *exactly* what the optimization above computes, so it runs the same code (same schedule).
``"every_event_rescan"``
    ``every_event`` without the optimization (every pass re-plans the head and re-examines the
    whole queue): the independent check that the three readings above give one schedule (the
    attribution experiment, ``results/talby2005/tables/attr_easy_maui.parquet``, compares them).
``"arrival_only"``
    Talby's literal wording throughout: backfilling is tried only for newly submitted jobs; on a
    completion only jobs at the head start.

Attribution (Talby §2.1 vs Tables 2-3; rule ``talby2005``, report tables ``attr_easy_maui``,
``attr_easy_maui_fit``; cleaned logs, cancelled jobs dropped): the first three readings give one
schedule (``every_event_rescan`` = ``every_event`` on every log), identical to Maui with its default
FCFS priority (:mod:`.maui`), and match Table 2's EASY column: BLUE 2080 s (paper 2083), KTH
6843 s (6806), SDSC-SP2 7541 s (6033, +25%, as every scheduler on that log). ``arrival_only`` waits
2.3-4.9 times longer than Table 2 (BLUE 4838 s, SDSC-SP2 21325 s, KTH 33226 s): jobs that miss
their one backfilling chance wait until they reach the head, so it cannot be the paper's EASY.
``every_event`` stays the default.

Under ``allocation="contiguous"`` starts are checked against a copy of the 1-D machine, but the
shadow time is computed from processor counts (fragmentation ignored in the plan).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..ends import EndList
from ..errors import SimulationError
from ..job import SimJob
from ..machine import Machine
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run

BACKFILL_MODES = ("every_event", "completion_queue", "every_event_rescan", "arrival_only")


def backfill(
    candidates: Iterable[SimJob],
    now: int,
    free: int,
    shadow: int,
    extra: int,
    machine: Machine | None = None,
) -> tuple[list[SimJob], int, int]:
    """Talby §2.1 conditions 1 and 2 over ``candidates`` in order.

    Returns (jobs to start now, free processors left, extra nodes left).
    """
    chosen: list[SimJob] = []
    for job in candidates:
        p = job.procs
        if p > free:
            continue
        if now + job.estimate <= shadow:  # condition 1
            pass
        elif p <= extra:  # condition 2 (p <= free already checked)
            extra -= p
        else:
            continue
        if machine is not None:
            if not machine.fits(p):
                if now + job.estimate > shadow:
                    extra += p
                continue
            machine.allocate(p, None, "easy")
        free -= p
        chosen.append(job)
        if free == 0:
            break
    return chosen, free, extra


class EASY(Scheduler):
    """EASY backfilling: one reservation (the head), conditions 1–2 of Talby §2.1."""

    name = "easy"

    def __init__(self, backfill: str = "every_event", record_reservations: bool = False) -> None:
        if backfill not in BACKFILL_MODES:
            raise SimulationError(
                f"easy: unknown backfill mode {backfill!r}; choose one of {BACKFILL_MODES}"
            )
        self.backfill_mode = backfill
        #: job id -> shadow time when it first became a blocked head (tests check the guarantee)
        self.head_reservations: dict[int, int] | None = {} if record_reservations else None
        self.reset()

    def reset(self) -> None:
        self.queue: dict[int, SimJob] = {}
        self.new: list[SimJob] = []
        self.ends = EndList()
        self.full = True
        self.head_id: int | None = None
        self.shadow = 0
        self.extra = 0

    def params(self) -> dict[str, object]:
        return {"backfill": self.backfill_mode}

    def sync(self, ctx: MachineView) -> None:
        super().sync(ctx)
        self.ends.rebuild(ctx)

    # --- hooks -------------------------------------------------------------------------------
    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        self.queue[job.job_id] = job
        self.new.append(job)

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self.ends.remove(run)
        self.full = True

    def on_killed(self, ctx: MachineView, run: Run) -> None:
        self.ends.remove(run)
        self.full = True
        self.on_arrival(ctx, run.job)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        if run is None:
            self.queue.pop(job.job_id, None)
            if job.job_id == self.head_id:
                self.full = True
        else:
            self.ends.remove(run)
            self.full = True

    # --- the pass ------------------------------------------------------------------------------
    def _start(self, job: SimJob, now: int, starts: list[Start]) -> None:
        del self.queue[job.job_id]
        self.ends.add(now + job.estimate, job.job_id, job.procs)
        starts.append(Start(job))

    def schedule(self, ctx: MachineView) -> list[Start]:
        now, free, q = ctx.now, ctx.free, self.queue
        machine = ctx.machine_copy() if ctx.allocation == "contiguous" else None
        starts: list[Start] = []
        head: SimJob | None = None
        while q:  # start from the head while it fits
            head = next(iter(q.values()))
            if head.procs > free or (machine is not None and not machine.fits(head.procs)):
                break
            if machine is not None:
                machine.allocate(head.procs, None, "easy")
            self._start(head, now, starts)
            free -= head.procs
            head = None
        new, self.new = self.new, []
        if head is None:
            self.full, self.head_id = False, None
            return starts
        rescan = (self.full or head.job_id != self.head_id
                  or self.backfill_mode == "every_event_rescan")
        if rescan:
            self.shadow, self.extra = self.ends.shadow(free, head.procs, now)
            if self.head_reservations is not None:
                self.head_reservations.setdefault(head.job_id, self.shadow)
            self.head_id = head.job_id
        self.full = False
        if rescan and self.backfill_mode != "arrival_only":
            it = iter(q.values())
            next(it)
            candidates: Iterable[SimJob] = list(it)
        else:
            candidates = [j for j in new if j.job_id in q and j.job_id != head.job_id]
        chosen, free, self.extra = backfill(candidates, now, free, self.shadow, self.extra, machine)
        for job in chosen:
            self._start(job, now, starts)
        return starts
