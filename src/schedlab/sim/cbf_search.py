"""The searches and the move of conservative backfilling's compiled compression
(:mod:`schedlab.sim.cbf_kernel`, layout :mod:`.cbf_layout`): the first-fit start of a reserved job
once its own slot is given back (:func:`_earliest`, Cirne 2001 §2.2.1; Mu'alem & Feitelson 2001)
with its exact prunes, and :func:`_move`, a reservation moved to that earlier start. Shared by one
pass (:func:`schedlab.sim.cbf_kernel._pass`) and the rounds until stable
(:mod:`schedlab.sim.cbf_stable`).
"""

from __future__ import annotations

from numba import njit

from .cbf_edit import shift_slot
from .cbf_layout import EST, FREE, PM, PMV, PROCS, RES, SEQ, STAMP, N, T
from .cbf_levels import record_increase, window_possible


@njit(cache=True, nogil=True)
def _bisect(a, lo, hi, x, right):
    """``bisect.bisect_left`` (``bisect_right`` if ``right``) of ``x`` in ``a[lo:hi]``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x or (right and a[mid] == x):
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def prefix_max(prof, meta, steps):
    """:meth:`Profile.prefix_max`: make the prefix maxima valid for at least ``steps`` steps."""
    free, pm = prof[FREE], prof[PM]
    v = meta[PMV]
    if v < steps:
        m = pm[v - 1] if v else free[0]
        for k in range(v, steps):
            if free[k] > m:
                m = free[k]
            pm[k] = m
        meta[PMV] = steps


@njit(cache=True, nogil=True)
def earliest_move(prof, meta, procs, duration, current, stop):
    """:meth:`Profile.earliest_move` with ``stop`` = ``min(current, latest + 1)``: the first
    step start ``< stop`` where the job fits once its own slot from ``current`` on is given back
    (``current`` if none)."""
    t, free, pm = prof[T], prof[FREE], prof[PM]
    n = meta[N]
    # steps from kc on start at or after ``current``: there the job's own reservation is given
    # back, so any count passes; only steps before kc can break a window
    kc = _bisect(t, 0, n, current, False)
    v = meta[PMV]
    if v < kc and (v == 0 or pm[v - 1] < procs):
        prefix_max(prof, meta, kc)
    i = _bisect(pm, 0, meta[PMV], procs, False)  # steps before i have fewer than procs free
    while i < kc:
        start = t[i]
        if start >= stop:
            return current
        hi = _bisect(t, i + 1, n, start + duration, False)  # steps i+1..hi-1 lie in the window
        if hi > kc:
            hi = kc
        j = hi - 1  # the last step too small: every start up to it fails
        while j > i and free[j] >= procs:
            j -= 1
        if j == i:
            return start
        i = j + 1
        while i < kc and free[i] < procs:
            i += 1
    return current


@njit(cache=True, nogil=True)
def _final_run_move(prof, meta, procs, d, s, jb):
    """:func:`earliest_move` of a job reserved at ``s`` whose step ``jb`` just before ``s`` has
    ``procs`` free (it always moves): the start of that last run of steps with ``procs`` free
    before ``s`` unless the level runs allow a window in an earlier run, then the full search."""
    ja = jb
    while ja > 0 and prof[FREE, ja - 1] >= procs:
        ja -= 1
    if ja == 0 or not window_possible(prof, meta, procs, d, prof[T, ja - 1]):
        return prof[T, ja]
    return earliest_move(prof, meta, procs, d, s, s)


@njit(cache=True, nogil=True)
def _earliest(prof, meta, now, procs, d, s, fail_procs, fail_d, fail_s):
    """The first-fit start of a job reserved at ``s`` once its own slot is given back (``s`` if
    it cannot start earlier), and whether it searched only windows wholly before ``s`` (then a
    failure joins the dominance of :func:`_pass`). Exact pruning: the window must lie wholly
    before ``s`` unless the step just before it has ``procs`` free; the level runs; dominance
    by ``(fail_procs, fail_d, fail_s)``, the last job that found no such window on this profile."""
    t, free = prof[T], prof[FREE]
    jb = _bisect(t, 0, meta[N], s, False) - 1
    if free[jb] >= procs:
        return _final_run_move(prof, meta, procs, d, s, jb), False
    latest = s - d  # only a window wholly before s
    if latest < now or (procs >= fail_procs and d >= fail_d and s <= fail_s):
        return s, False
    if not window_possible(prof, meta, procs, d, t[jb]):
        return s, False
    j = _bisect(t, 0, meta[N], latest, True) - 1
    if j >= meta[PMV]:
        prefix_max(prof, meta, j + 1)
    if prof[PM, j] < procs:
        return s, False
    return earliest_move(prof, meta, procs, d, s, min(s, latest + 1)), True


@njit(cache=True, nogil=True)
def _search(prof, queue, meta, now, k, fail_procs, fail_d, fail_s):
    """:func:`_earliest` of the job at queue position ``k``: ``(s, s2, bounded)``, its
    reservation, its first-fit start (``s`` if it cannot move or is due now) and whether the
    search was bounded."""
    s = queue[RES, k]
    if s <= now:
        return s, s, False
    s2, bounded = _earliest(prof, meta, now, queue[PROCS, k], queue[EST, k], s, fail_procs,
                            fail_d, fail_s)
    return s, s2, bounded


@njit(cache=True, nogil=True)
def _move(prof, queue, meta, k, s2):
    """Move the job at queue position ``k`` to the earlier start ``s2`` (new stamp); the part of
    its old slot given back joins the level runs' frontier."""
    s, procs, d = queue[RES, k], queue[PROCS, k], queue[EST, k]
    shift_slot(prof, meta, s, s2, d, procs)
    record_increase(prof, meta, max(s2 + d, s), s + d, procs)
    queue[RES, k] = s2
    meta[STAMP] += 1
    queue[SEQ, k] = meta[STAMP]
