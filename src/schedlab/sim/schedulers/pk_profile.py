"""Availability profile (free processors over time) for the Perković & Keleher schedulers.

A step function stored as two parallel lists: segment ``i`` covers ``[t[i], t[i+1])`` with ``f[i]``
free processors; the last segment extends to infinity and always has the whole machine free (every
running job and reservation has a finite end). This is the planning structure of conservative
backfilling (Perković & Keleher 2000 §2, Figure 1): jobs are placed at the earliest time their width
is free for their whole (estimated or speculated) duration.

Kept self-contained in this package until the shared engine's profile is available (see the report of
issue 8); it has the same semantics.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right


class Profile:
    """Free processors over time from ``now`` on (step function; see module docstring)."""

    __slots__ = ("f", "machine", "t")

    def __init__(self, now: float, machine: int) -> None:
        self.t: list[float] = [float(now)]
        self.f: list[int] = [int(machine)]
        self.machine = int(machine)

    def copy(self) -> Profile:
        c = Profile.__new__(Profile)
        c.t, c.f, c.machine = list(self.t), list(self.f), self.machine
        return c

    def advance(self, now: float) -> None:
        """Forget the past: the first segment starts at ``now``."""
        i = bisect_right(self.t, now) - 1
        if i > 0:
            del self.t[:i]
            del self.f[:i]
        if now > self.t[0]:
            self.t[0] = float(now)

    def free_at(self, time: float) -> int:
        """Free processors at ``time`` (>= the profile start)."""
        return self.f[max(bisect_right(self.t, time) - 1, 0)]

    def _split(self, time: float) -> int:
        t = self.t
        i = bisect_left(t, time)
        if i < len(t) and t[i] == time:
            return i
        t.insert(i, time)
        self.f.insert(i, self.f[i - 1])
        return i

    def add(self, start: float, end: float, delta: int) -> None:
        """Add ``delta`` free processors over ``[start, end)`` (negative = occupy)."""
        if end <= start:
            return
        start = max(start, self.t[0])
        if end <= start:
            return
        i = self._split(start)
        j = self._split(end)
        f = self.f
        for k in range(i, j):
            f[k] += delta
            if f[k] < 0 or f[k] > self.machine:
                raise ValueError(
                    f"profile overflow at t={self.t[k]}: {f[k]} free of {self.machine}"
                )
        # merge equal neighbours at the two touched boundaries (end first: indices shift)
        if j < len(f) and f[j] == f[j - 1]:
            del self.t[j]
            del f[j]
        if i > 0 and f[i] == f[i - 1]:
            del self.t[i]
            del f[i]

    def reserve(self, start: float, duration: float, procs: int) -> None:
        """Occupy ``procs`` processors over ``[start, start + duration)``."""
        self.add(start, start + duration, -procs)

    def release(self, start: float, duration: float, procs: int) -> None:
        """Undo :meth:`reserve` (exactly the same arguments)."""
        self.add(start, start + duration, procs)

    def earliest(self, procs: int, duration: float, t0: float) -> float:
        """Earliest start >= ``t0`` with ``procs`` free for ``duration`` seconds."""
        start = self.earliest_before(procs, duration, t0, math.inf)
        assert start is not None  # the last segment has the whole machine free
        return start

    def earliest_before(self, procs: int, duration: float, t0: float, limit: float
                        ) -> float | None:
        """Earliest start ``c`` in ``[t0, limit)`` with ``procs`` free over ``[c, min(c + duration,
        limit))``, else None (never None for ``limit`` = inf: :meth:`earliest`).

        For a job holding a reservation ``[limit, limit + duration)`` this is :meth:`earliest` on
        the profile with that reservation released (the released part of any earlier window is
        free for the job), so compression can test a job without releasing and re-reserving it.
        """
        t, f = self.t, self.f
        n = len(t)
        j = max(bisect_right(t, t0) - 1, 0)
        s = float(t0)
        while s < limit:
            if f[j] < procs:
                j += 1
                s = t[j]  # the last segment has the whole machine free, so j < n here
                continue
            end = min(s + duration, limit)
            k = j + 1
            while k < n and t[k] < end and f[k] >= procs:
                k += 1
            if k == n or t[k] >= end:
                return s
            j = k
        return None

    def hole(self, procs: int, t0: float) -> float:
        """How long from ``t0`` at least ``procs`` processors stay free (0 if not free now)."""
        t, f = self.t, self.f
        j = max(bisect_right(t, t0) - 1, 0)
        if f[j] < procs:
            return 0.0
        k = j + 1
        n = len(t)
        while k < n and f[k] >= procs:
            k += 1
        return math.inf if k == n else t[k] - t0
