"""The availability profile: free processors over time (Cirne §2.2.2 "availability list").

Every planning scheduler (conservative, EASY's shadow computation, Maui, Flex, SA, speculation,
Tang's windows) keeps one of these. It is a step function stored as two parallel lists: breakpoint
times ``t[0] < t[1] < ...`` and ``free[i]`` = processors free during ``[t[i], t[i+1])``; the last step
extends to infinity. Cirne's Figure 3 list
``[(1,4,0), (4,6,2), (6,8,1), (8,9,0), (9,13,4), (13,inf,6)]`` is ``segments()`` of such a profile.

Invariants: 0 <= free[i] <= machine_size; adjacent steps with equal ``free`` are merged.
Reserving more than is free raises :class:`~schedlab.sim.errors.SimulationError`.

Why lists and not a balanced tree (issue 17, measured): under conservative backfilling on
CTC-SP2 the profile has 47 steps on average when the queue is compressed (KTH-SP2: 17); the cost
is the number of queue visits (3.46 M in 69 k compressions), window searches (1.47 M after the
pruning in :meth:`~schedlab.sim.schedulers.conservative.Conservative._compress`) and moves (431 k),
not the profile's length. The searches use C-level ``bisect``/``min`` over these short lists and
cached prefix maxima (:meth:`Profile.prefix_max`, kept valid up to the first changed step and
extended only as far as a query needs); a move changes only the non-overlapping parts of the old
and new slot (:meth:`Profile.shift`). Conservative backfilling itself runs the same methods compiled
over arrays (:mod:`schedlab.sim.cbf_kernel`, tested equal to these); this list profile serves
every other planner.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable
from itertools import accumulate

import numpy as np

from .errors import SimulationError

INF = float("inf")


class Profile:
    """Free processors over ``[origin, inf)``.

    Args:
        machine_size: total processors (free everywhere initially).
        origin: first time of the profile (usually ``ctx.now``).
    """

    __slots__ = ("_pm", "free", "machine_size", "t")

    def __init__(self, machine_size: int, origin: int = 0) -> None:
        self.machine_size = machine_size
        self.t: list[int] = [origin]
        self.free: list[int] = [machine_size]
        #: prefix maxima of ``free``, valid for the first ``len(_pm)`` steps: a change at step
        #: ``i`` truncates it to ``i`` entries and :meth:`prefix_max` extends it again
        self._pm: list[int] = []

    # --- queries -----------------------------------------------------------------------------
    @property
    def origin(self) -> int:
        return self.t[0]

    def free_at(self, time: int) -> int:
        """Processors free at ``time`` (>= origin)."""
        return self.free[max(0, bisect_right(self.t, time) - 1)]

    def prefix_max(self, steps: int | None = None) -> list[int]:
        """``m[i] = max(free[:i + 1])``, at least for the first ``steps`` steps (default all): the
        first step with ``procs`` processors free is ``bisect_left(m, procs)`` if that is below
        ``len(m)``. Cached; a change at step ``i`` keeps the first ``i`` entries."""
        pm, free = self._pm, self.free
        m = len(pm)
        n = len(free) if steps is None or steps > len(free) else steps
        if m < n:
            if m:
                rest = accumulate(free[m:n], max, initial=pm[-1])
                next(rest)
                pm.extend(rest)
            else:
                pm.extend(accumulate(free[:n], max))
        return pm

    def segments(self) -> list[tuple[int, float, int]]:
        """The availability list: ``(from, to, free)`` per step, the last one ending at ``inf``."""
        ends: list[float] = [*self.t[1:], INF]
        return list(zip(self.t, ends, self.free, strict=True))

    def earliest_start(self, procs: int, duration: int, after: int | None = None) -> int:
        """Earliest ``s >= after`` with ``procs`` processors free throughout ``[s, s + duration)``.

        ``after`` defaults to the origin. Always exists when ``procs <= machine_size`` (the last
        step is all-free once every reservation has ended). First fit, as conservative backfilling
        places arriving jobs (Cirne §2.2.1).
        """
        if procs > self.machine_size:
            raise SimulationError(
                f"{procs} processors requested on a {self.machine_size}-processor machine"
            )
        t, free = self.t, self.free
        n = len(t)
        i = 0 if after is None or after <= t[0] else bisect_right(t, after) - 1
        start = t[i] if after is None or after <= t[0] else after
        while True:
            # advance to a step where the job fits
            while free[i] < procs:
                i += 1
                start = t[i]
            end = start + duration
            j = i + 1
            while j < n and t[j] < end and free[j] >= procs:
                j += 1
            if j >= n or t[j] >= end:
                return start
            i = j  # step j is too small: restart after it

    def earliest_move(
        self, procs: int, duration: int, current: int, latest: int | None = None
    ) -> int:
        """Where a job reserved at ``current`` would go if re-placed first fit from the origin.

        Same answer as ``release(current, duration, procs)`` then ``earliest_start(procs,
        duration)`` (always <= ``current``), without touching the profile: conservative
        backfilling's compression calls this for every waiting job and most do not move.
        ``latest``: only starts <= ``latest`` are worth finding (the caller knows later ones
        fail); returns ``current`` if there is none.
        """
        t, free = self.t, self.free
        # steps from kc on start at or after ``current``: there the job's own reservation is
        # given back, so any count passes; only steps before kc can break a window
        kc = bisect_left(t, current)
        pm = self._pm
        if len(pm) < kc and (not pm or pm[-1] < procs):
            pm = self.prefix_max(kc)
        i = bisect_left(pm, procs)  # steps before i have fewer than procs free
        stop = current if latest is None else min(current, latest + 1)
        while i < kc:
            start = t[i]
            if start >= stop:
                return current
            hi = bisect_left(t, start + duration, i + 1)  # steps i+1..hi-1 lie in the window
            if hi > kc:
                hi = kc
            if hi <= i + 1 or min(free[i + 1 : hi]) >= procs:
                return start
            j = hi - 1  # the last step too small: every start up to it fails
            while free[j] >= procs:
                j -= 1
            i = j + 1
            while i < kc and free[i] < procs:
                i += 1
        return current

    def fits(self, procs: int, start: int, duration: int) -> bool:
        """Are ``procs`` processors free throughout ``[start, start + duration)``?"""
        t, free = self.t, self.free
        i = max(0, bisect_right(t, start) - 1)
        end = start + duration
        n = len(t)
        while i < n and t[i] < end:
            if free[i] < procs:
                return False
            i += 1
        return True

    # --- updates ------------------------------------------------------------------------------
    def _add(self, start: int, end: int, delta: int, check: bool = True) -> None:
        """Add ``delta`` free processors during ``[start, end)`` (``check``: refuse to go below 0
        or above the machine size)."""
        t, free = self.t, self.free
        if start <= t[0]:
            start = t[0]
        if end <= start or delta == 0:
            return
        # breakpoints at start and end (i, j: their steps)
        i = bisect_left(t, start)
        if i == len(t) or t[i] != start:
            t.insert(i, start)
            free.insert(i, free[i - 1])
        j = bisect_left(t, end, i)
        if j == len(t) or t[j] != end:
            t.insert(j, end)
            free.insert(j, free[j - 1])
        del self._pm[i:]
        if j == i + 1 and not check:
            free[i] += delta
        else:
            seg = [v + delta for v in free[i:j]]
            if check and (min(seg) < 0 if delta < 0 else max(seg) > self.machine_size):
                self._merge_at(j)
                self._merge_at(i)
                raise SimulationError(
                    f"profile over-allocation: {-delta:+d} processors during [{start}, {end}) "
                    f"(machine {self.machine_size}, free during that span {free[i:j]})"
                )
            free[i:j] = seg
        # interior steps stay distinct; only the two boundaries can merge (right one first)
        if j < len(free) and free[j] == free[j - 1]:
            del t[j]
            del free[j]
        if i and free[i] == free[i - 1]:
            del t[i]
            del free[i]

    def _merge_at(self, k: int) -> None:
        """Merge step ``k`` into step ``k-1`` if they have the same free count."""
        free = self.free
        if 0 < k < len(free) and free[k] == free[k - 1]:
            del self.t[k]
            del free[k]

    def move_earlier(self, procs: int, duration: int, start: int, latest: int | None) -> int:
        """Move a reservation ``[start, start + duration)`` of ``procs`` to its
        :meth:`earliest_move` slot (the compression step of conservative backfilling); returns the
        new start (``start`` when it cannot move)."""
        s2 = self.earliest_move(procs, duration, start, latest)
        if s2 != start:
            self.shift(procs, duration, start, s2)
        return s2

    def shift(self, procs: int, duration: int, start: int, new_start: int) -> None:
        """Move a reservation from ``start`` to an earlier ``new_start`` that
        :meth:`earliest_move` found free (not checked again): only the parts of the two slots that
        do not overlap change."""
        end, new_end = start + duration, new_start + duration
        if new_end > start:  # overlapping: [new_start, start) taken, [new_end, end) given back
            self._add(new_start, start, -procs, False)
            self._add(new_end, end, procs, False)
        else:
            self._add(new_start, new_end, -procs, False)
            self._add(start, end, procs, False)

    def reserve(self, start: int, duration: int, procs: int) -> None:
        """Take ``procs`` processors during ``[start, start + duration)``."""
        self._add(start, start + duration, -procs)

    def release(self, start: int, duration: int, procs: int) -> None:
        """Give back ``procs`` processors during ``[start, start + duration)`` (undo a reserve)."""
        self._add(start, start + duration, procs)

    def advance(self, now: int) -> None:
        """Drop the history before ``now`` (memory stays bounded by the number of reservations)."""
        t = self.t
        if now <= t[0]:
            return
        i = bisect_right(t, now) - 1
        if i > 0:
            del t[:i]
            del self.free[:i]
            self._pm.clear()
        t[0] = now

    def copy(self) -> Profile:
        """An independent copy (for what-if planning)."""
        p = Profile.__new__(Profile)
        p.machine_size = self.machine_size
        p.t = self.t.copy()
        p.free = self.free.copy()
        p._pm = []
        return p

    def __len__(self) -> int:
        return len(self.t)

    def __repr__(self) -> str:
        return f"Profile({self.segments()!r})"


# ---------------------------------------------------------------- contiguous allocation mode
# (issue 18, lane tang) Tang et al. 2013 §4.1: on BG/P a job needs a block of consecutive nodes,
# not just a count. The mode keeps the counts of :class:`Profile` (so every count query and the
# over-allocation check still hold) and, beside them, the occupied node blocks.

#: candidate start times tested together by :meth:`ContiguousProfile.earliest_block`
_CANDIDATE_BLOCK = 16
#: below this many blocks :meth:`ContiguousProfile.earliest_block` loops in plain Python
_VECTOR_MIN_RECTS = 48


class ContiguousProfile(Profile):
    """A :class:`Profile` in contiguous mode: free processors over time *and* the occupied
    blocks, as rectangles ``(first node, last node + 1, start, end)`` kept sorted. A request gets
    the lowest-indexed free block (first fit, as the engine's ``allocation="contiguous"`` machine
    places starts) at its earliest feasible time."""

    __slots__ = ("rects",)

    def __init__(self, machine_size: int, origin: int = 0) -> None:
        super().__init__(machine_size, origin)
        self.rects: list[tuple[int, int, int, int]] = []

    def copy(self) -> ContiguousProfile:
        c = ContiguousProfile.__new__(ContiguousProfile)
        c.machine_size, c.t, c.free, c._pm = self.machine_size, self.t.copy(), self.free.copy(), []
        c.rects = self.rects.copy()
        return c

    def reserve_block(self, start: int, duration: int, procs: int, first_node: int) -> None:
        """Take nodes ``first_node .. first_node + procs - 1`` during ``[start, start + duration)``."""
        if duration <= 0:
            return
        self.reserve(start, duration, procs)
        insort(self.rects, (first_node, first_node + procs, start, start + duration))

    def first_fit(self, start: int, duration: int, procs: int) -> int:
        """The lowest first node of a free block of ``procs`` nodes throughout ``[start, start +
        duration)``, or -1: one pass over the blocks in node order (those overlapping the interval
        push the candidate past them)."""
        t1 = start + duration
        pos = 0
        for lo, hi, s, e in self.rects:
            if s < t1 and e > start:
                if lo - pos >= procs:
                    return pos
                if hi > pos:
                    pos = hi
        return pos if self.machine_size - pos >= procs else -1

    def earliest_block(self, procs: int, duration: int, after: int) -> tuple[int, int]:
        """Earliest start ``>= after`` with a free block of ``procs`` nodes for ``duration``:
        ``(start, first node)``.

        The candidate times are ``after`` and every block end after it; each is tested with
        :meth:`first_fit`'s rule, vectorized over groups of candidates (blocks sorted by first
        node; the running maximum of the last nodes seen is first fit's ``pos``). Same result as
        :meth:`earliest_block_reference` (tested)."""
        if procs > self.machine_size:
            raise SimulationError(
                f"{procs} processors requested on a {self.machine_size}-processor machine"
            )
        rects = self.rects
        if len(rects) < _VECTOR_MIN_RECTS:  # small profiles: the plain loop is cheaper
            return self.earliest_block_reference(procs, duration, after)
        lo0 = self.first_fit(after, duration, procs)  # most look-ups fit at once
        if lo0 >= 0:
            return after, lo0
        r = np.array(rects, dtype=np.int64)  # sorted by first node
        lo, hi, s, e = r[:, 0], r[:, 1], r[:, 2], r[:, 3]
        cands = np.unique(np.concatenate(([after], e[e > after])))
        for a in range(0, len(cands), _CANDIDATE_BLOCK):
            t = cands[a:a + _CANDIDATE_BLOCK, None]
            m = (s[None, :] < t + duration) & (e[None, :] > t)
            run = np.maximum.accumulate(np.where(m, hi[None, :], 0), axis=1)
            prev = np.concatenate((np.zeros((len(t), 1), dtype=np.int64), run[:, :-1]), axis=1)
            ok = m & (lo[None, :] - prev >= procs)
            gap_ok = ok.any(axis=1)
            end_ok = self.machine_size - run[:, -1] >= procs
            hit = np.flatnonzero(gap_ok | end_ok)
            if len(hit):
                k = int(hit[0])
                pos = prev[k, int(np.argmax(ok[k]))] if gap_ok[k] else run[k, -1]
                return int(cands[a + k]), int(pos)
        raise AssertionError("unreachable: every block ends")  # pragma: no cover

    def earliest_block_reference(self, procs: int, duration: int, after: int) -> tuple[int, int]:
        """:meth:`earliest_block` one candidate at a time in plain Python (the definition)."""
        for t in sorted({after} | {e for _, _, _, e in self.rects if e > after}):
            lo = self.first_fit(t, duration, procs)
            if lo >= 0:
                return t, lo
        raise AssertionError("unreachable: every block ends")  # pragma: no cover


def profile_of_running(machine_size: int, now: int, running: Iterable[tuple[int, int, int]],
                       contiguous: bool = False) -> Profile:
    """The profile at ``now`` of the running jobs ``(predicted end, procs, first node)``: each
    holds its processors (in contiguous mode its block) until its end; ends at or before ``now``
    hold nothing. One sort instead of a reservation per job (Tang's passes build one per pass)."""
    prof = ContiguousProfile(machine_size, now) if contiguous else Profile(machine_size, now)
    ends = sorted((e, procs) for e, procs, _ in running if e > now)
    free = machine_size - sum(procs for _, procs in ends)
    if free < 0:
        raise SimulationError(f"profile over-allocation: {machine_size - free} processors busy "
                              f"at {now} (machine {machine_size})")
    t, f = [now], [free]
    for e, procs in ends:
        free += procs
        if e == t[-1]:
            f[-1] = free
        else:
            t.append(e)
            f.append(free)
    prof.t, prof.free = t, f
    if contiguous:
        prof.rects = sorted((lo, lo + procs, now, e)  # type: ignore[attr-defined]
                            for e, procs, lo in running if e > now)
    return prof


class ProfileView:
    """Read-only view of a profile kept in arrays (conservative backfilling's compiled one,
    :func:`schedlab.sim.cbf_kernel.profile_view`) with :class:`Profile`'s query API: ``t`` and
    ``free`` are the first ``meta[n_field]`` entries of the two rows, as lists (copies); the view
    follows the arrays as the kernels update them in place."""

    __slots__ = ("free_row", "meta", "n_field", "t_row")

    def __init__(self, t_row, free_row, meta, n_field: int) -> None:
        self.t_row, self.free_row, self.meta, self.n_field = t_row, free_row, meta, n_field

    @property
    def t(self) -> list[int]:
        return self.t_row[: self.meta[self.n_field]].tolist()

    @property
    def free(self) -> list[int]:
        return self.free_row[: self.meta[self.n_field]].tolist()

    @property
    def origin(self) -> int:
        return int(self.t_row[0])

    def segments(self) -> list[tuple[int, float, int]]:
        """The availability list, as :meth:`Profile.segments`."""
        t = self.t
        ends: list[float] = [*t[1:], float("inf")]
        return list(zip(t, ends, self.free, strict=True))

    def __len__(self) -> int:
        return int(self.meta[self.n_field])

    def __repr__(self) -> str:
        return f"ProfileView({self.segments()!r})"
