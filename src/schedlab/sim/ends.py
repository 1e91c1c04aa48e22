"""Running jobs sorted by expected end — what EASY needs to find the shadow time fast."""

from __future__ import annotations

from bisect import bisect_left, insort

from .state import MachineView, Run


class EndList:
    """Sorted list of ``(expected_end, job_id, procs)`` of the running jobs a scheduler started.

    Insert/remove are a bisect plus a C-level list shift; :meth:`shadow` walks from the earliest end.
    """

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[int, int, int]] = []

    def add(self, expected_end: int, job_id: int, procs: int) -> None:
        insort(self.items, (expected_end, job_id, procs))

    def remove(self, run: Run) -> None:
        key = (run.expected_end, run.job.job_id, run.procs)
        items = self.items
        k = bisect_left(items, key)
        if k < len(items) and items[k] == key:
            del items[k]

    def rebuild(self, ctx: MachineView) -> None:
        """Re-read every running job (policy switch, fork)."""
        self.items = sorted((r.expected_end, jid, r.procs) for jid, r in ctx.running.items())

    def shadow(self, free: int, procs: int, now: int) -> tuple[int, int]:
        """(shadow time, extra nodes) for a job of ``procs`` processors given ``free`` now.

        Shadow time: the earliest expected end at which ``procs`` processors are free; extra
        nodes: processors free at that time beyond ``procs`` (Talby & Feitelson §2.1) — every
        job expected to end by the shadow time counts, including the others ending at the very
        same time (as pyss's availability profile counts them).
        """
        avail = free
        if avail >= procs:
            return now, avail - procs
        items = self.items
        n = len(items)
        for k in range(n):
            end, _, p = items[k]
            avail += p
            if avail >= procs:
                k += 1
                while k < n and items[k][0] == end:
                    avail += items[k][2]
                    k += 1
                return end, avail - procs
        raise AssertionError("job wider than the machine")  # pragma: no cover

    def __len__(self) -> int:
        return len(self.items)
