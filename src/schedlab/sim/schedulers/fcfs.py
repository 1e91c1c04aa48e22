"""First-come first-served: start queued jobs strictly in arrival order, never reorder.

The baseline every backfilling paper compares against (Talby & Feitelson §2.1 describes backfilling
as the optimization over it; Perković & Keleher §2). A killed speculative attempt (never produced
by FCFS itself) would rejoin the end of the queue.
"""

from __future__ import annotations

from collections import deque

from ..job import SimJob
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run


class FCFS(Scheduler):
    """Start the head of the queue while it fits; the head blocks everything behind it."""

    name = "fcfs"

    def __init__(self) -> None:
        self.queue: deque[SimJob] = deque()
        self.cancelled: set[int] = set()

    def reset(self) -> None:
        self.queue.clear()
        self.cancelled.clear()

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        self.queue.append(job)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        if run is None:
            self.cancelled.add(job.job_id)

    def schedule(self, ctx: MachineView) -> list[Start]:
        q, starts = self.queue, []
        machine = ctx.machine_copy() if ctx.allocation == "contiguous" else None
        free = ctx.free
        while q:
            job = q[0]
            if job.job_id in self.cancelled:
                self.cancelled.discard(job.job_id)
                q.popleft()
                continue
            if job.procs > free or (machine is not None and not machine.fits(job.procs)):
                break
            if machine is not None:
                machine.allocate(job.procs, None, "fcfs")
            q.popleft()
            free -= job.procs
            starts.append(Start(job))
        return starts
