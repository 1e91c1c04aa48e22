"""Level runs: an exact necessary condition for a move in conservative backfilling's compression
(:func:`schedlab.sim.cbf_kernel.compress`), compiled over the state of :mod:`.cbf_layout`.

A job of ``procs`` processors that can only move into a window wholly before a time ``x``
(compression's bounded case: the step before its reservation lacks ``procs``; or, when that step
has them, any window before its last such run) needs a span of its estimate within [now, x) with
``procs`` free throughout, hence with ``2**q`` free, q = floor(log2(procs)). Per compression pass
and level, two upper bounds of the longest such span (a job failing both cannot move: pruning
only, schedules unchanged):

* prefix entries (rows TE, BEST, OPEN of the level): at times ``te`` increasing from ``now``, the
  longest run with ``2**q`` free closed by then and the start of the open one (-1: none),
  extended lazily along the profile as queries need, never truncated within the pass: later
  decreases leave them upper bounds;
* the frontier (rows FLEN, FSTART): the runs with ``2**q`` free that contain an increase made
  during the pass (the part of a moved reservation given back), as (length, start) pairs not
  dominated by a longer and earlier one, sorted by length (descending; starts then descend too).

A window within [now, x) created by an increase lies in such a run; one that existed without it
is bounded by the prefix entries. Both are reset when a pass starts (:func:`levels_reset`), and once
per compression until stable (:mod:`.cbf_stable`: between its rounds they stay valid as within
one pass). The per-level counts live in ``meta`` from ``LV`` (:mod:`.cbf_layout`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cbf_layout import (
    BEST,
    BIG,
    FLEN,
    FREE,
    FSTART,
    LEVEL0,
    LV,
    NL,
    OPEN,
    TE,
    N,
    T,
    bisect_row,
    move_row,
)


@njit(cache=True, nogil=True)
def levels_reset(prof, meta):
    for q in range(meta[NL]):
        r = LEVEL0 + 5 * q
        prof[r + TE, 0], prof[r + BEST, 0], prof[r + OPEN, 0] = prof[T, 0], 0, -1
        meta[LV + 2 * q], meta[LV + 2 * q + 1] = 1, 0


@njit(cache=True, nogil=True)
def level_of(meta, procs):
    """q with ``2**q <= procs < 2**(q+1)`` (the top level for wider requests)."""
    q = 0
    while q + 1 < meta[NL] and (2 << q) <= procs:
        q += 1
    return q


@njit(cache=True, nogil=True)
def window_possible(prof, meta, procs, d, x):
    """False if no span of length ``d`` within ``[now, x)`` can have ``procs`` processors free
    throughout (see "level runs"); True when the bounds allow one."""
    q = level_of(meta, procs)
    r = LEVEL0 + 5 * q
    rte, rbest, ropen = r + TE, r + BEST, r + OPEN
    v = meta[LV + 2 * q]
    if prof[rte, v - 1] < x:
        n = meta[N]
        level = 1 << q
        cap = prof.shape[1]
        b, o, t0 = prof[rbest, v - 1], prof[ropen, v - 1], prof[rte, v - 1]
        i = bisect_row(prof, T, 0, n, t0, True) - 1  # the step holding t0
        while t0 < x:
            if v == cap:  # no room left: no pruning
                meta[LV + 2 * q] = v
                return True
            if prof[FREE, i] >= level:
                if o < 0:
                    o = t0
            elif o >= 0:
                if t0 - o > b:
                    b = t0 - o
                o = -1
            i += 1
            t0 = prof[T, i] if i < n else BIG
            prof[rte, v], prof[rbest, v], prof[ropen, v] = t0, b, o
            v += 1
        meta[LV + 2 * q] = v
    e = bisect_row(prof, rte, 0, v, x, False)  # the first entry at or after x
    w = prof[rbest, e]
    o = prof[ropen, e]
    if o >= 0 and x - o > w:
        w = x - o
    if w >= d:
        return True
    # the frontier entries at least d long (lengths descend): their earliest start is the last's
    c = _count_at_least(prof, r + FLEN, meta[LV + 2 * q + 1], d)
    return c > 0 and prof[r + FSTART, c - 1] < x


@njit(cache=True, nogil=True)
def _count_at_least(prof, row, fc, length):
    """How many of the first ``fc`` entries of ``prof[row]`` (descending) are >= ``length``."""
    lo, hi = 0, fc
    while lo < hi:
        mid = (lo + hi) >> 1
        if prof[row, mid] >= length:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def _frontier_add(prof, meta, q, length, start):
    r = LEVEL0 + 5 * q
    rlen, rstart = r + FLEN, r + FSTART
    fc = meta[LV + 2 * q + 1]
    c1 = _count_at_least(prof, rlen, fc, length + 1)
    c2 = _count_at_least(prof, rlen, fc, length)
    if c2 > 0 and prof[rstart, c2 - 1] <= start:
        return  # dominated
    k = c1
    while k < fc and prof[rstart, k] >= start:
        k += 1  # entries c1..k-1 are dominated by the new one
    if fc - (k - c1) + 1 > prof.shape[1]:  # no room: one run covering everything (no pruning)
        prof[rlen, 0], prof[rstart, 0] = BIG, prof[T, 0]
        meta[LV + 2 * q + 1] = 1
        return
    if k != c1 + 1 and fc > k:
        move_row(prof, rlen, c1 + 1, k, fc - k)
        move_row(prof, rstart, c1 + 1, k, fc - k)
    prof[rlen, c1], prof[rstart, c1] = length, start
    meta[LV + 2 * q + 1] = fc - (k - c1) + 1


@njit(cache=True, nogil=True)
def _bit_length(x):
    """``int.bit_length`` of ``x >= 0``."""
    b = 0
    while x:
        x >>= 1
        b += 1
    return b


#: longest run scan of :func:`record_increase` before it gives up (and stops pruning the level)
SCAN_LIMIT = 512


@njit(cache=True, nogil=True)
def record_increase(prof, meta, start, end, procs):
    """``procs`` processors were given back during ``[start, end)``: the runs of each level that
    the increase reaches join the frontier."""
    n = meta[N]
    i0 = bisect_row(prof, T, 0, n, start, True) - 1
    crossed = 0  # bit q: some step went from below 2**q to at least 2**q
    i = i0
    while i < n and prof[T, i] < end:
        f = prof[FREE, i]
        crossed |= ((1 << _bit_length(f)) - 1) & ~((1 << _bit_length(f - procs)) - 1)
        i += 1
    for q in range(meta[NL]):
        if not crossed >> q & 1:
            continue
        level = 1 << q
        i = i0
        while i < n and prof[T, i] < end:
            f = prof[FREE, i]
            if f >= level > f - procs:  # this step reaches the level now
                a = i
                while a > 0 and prof[FREE, a - 1] >= level and i - a < SCAN_LIMIT:
                    a -= 1
                z = i + 1
                while z < n and prof[FREE, z] >= level and z - i < SCAN_LIMIT:
                    z += 1
                if (a > 0 and prof[FREE, a - 1] >= level) or (z < n and prof[FREE, z] >= level):
                    _frontier_add(prof, meta, q, BIG, prof[T, 0])  # too long to follow
                    break
                _frontier_add(prof, meta, q, (prof[T, z] if z < n else BIG) - prof[T, a],
                              prof[T, a])
                i = z
            else:
                i += 1


@njit(cache=True, nogil=True)
def most_free(prof, meta, start, end):
    """The most processors free at any time of ``[start, end)``."""
    n = meta[N]
    i = bisect_row(prof, T, 0, n, start, True) - 1
    most = 0
    while i < n and prof[T, i] < end:
        if prof[FREE, i] > most:
            most = prof[FREE, i]
        i += 1
    return most


#: steps :func:`spans` follows on each side of a slot before it gives up (no bound there)
SPAN_SCAN = 64


@njit(cache=True, nogil=True)
def spans(prof, meta, start, end, out):
    """``out[q]``: an upper bound of the longest run of steps with ``2**q`` processors free that
    meets ``[start, end)`` (0 if no step there has them): the slot's steps widened on each side
    while the steps have them (to the origin, or without bound past the last step or
    :data:`SPAN_SCAN` steps)."""
    n = meta[N]
    nl = meta[NL]
    i0 = bisect_row(prof, T, 0, n, start, True) - 1
    i1 = i0
    most = prof[FREE, i0]
    while i1 + 1 < n and prof[T, i1 + 1] < end:
        i1 += 1
        if prof[FREE, i1] > most:
            most = prof[FREE, i1]
    left = np.empty(nl, dtype=np.int64)
    for q in range(nl):
        left[q] = prof[T, 0]
        out[q] = -1
    a = i0 - 1
    low = BIG  # the least free on the steps a + 1 .. i0 - 1
    while a >= 0 and i0 - a <= SPAN_SCAN and low > 0:
        f = prof[FREE, a]
        if f < low:
            for q in range(nl):
                if (1 << q) > f and (1 << q) <= low:
                    left[q] = prof[T, a + 1]
            low = f
        a -= 1
    if a >= 0 and low > 0:  # gave up: bound from the origin
        for q in range(nl):
            if (1 << q) <= low:
                left[q] = prof[T, 0]
    z = i1 + 1
    low = BIG
    while z < n and z - i1 <= SPAN_SCAN and low > 0:
        f = prof[FREE, z]
        if f < low:
            for q in range(nl):
                if (1 << q) > f and (1 << q) <= low:
                    out[q] = prof[T, z] - left[q]
            low = f
        z += 1
    for q in range(nl):
        if (1 << q) > most:
            out[q] = 0
        elif out[q] < 0:  # runs past the last step or the scan
            out[q] = BIG
