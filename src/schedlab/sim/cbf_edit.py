"""The breakpoint edits of the compiled availability profile (:mod:`schedlab.sim.cbf_kernel`, layout
:mod:`.cbf_layout`): :func:`splice` (``delta`` free processors on an interval, for
:func:`~schedlab.sim.cbf_kernel.add`) and :func:`shift_slot` (a reservation moved earlier, for
compression). Both keep the profile's invariants (increasing times, adjacent steps distinct) and
move the tail of the arrays at most once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cbf_layout import BIG, FREE, PMV, N, T, bisect_row, move_row


@njit(cache=True, nogil=True)
def splice(prof, n, i, start, end, delta):
    """The breakpoint edit of :func:`~schedlab.sim.cbf_kernel.add` (``i``: the first step at or
    after ``start``): a new step at ``start`` / ``end`` unless one is there, ``delta`` on the
    steps between, and the two boundaries merged with their neighbours when equal (interior steps stay distinct). Moves only
    the steps between the boundaries and, when the count changes, the tail once; returns the new
    count. (A move of a reservation by a few steps adds one boundary and merges one away: no tail
    shift.)"""
    j = bisect_row(prof, T, i, n, end, False)  # the first step at or after end
    new_i = i == n or prof[T, i] != start
    new_j = j == n or prof[T, j] != end
    old_last = prof[FREE, j - 1] if j > i else prof[FREE, i - 1]  # holding end - 1, before
    merge_i = not new_i and i > 0 and prof[FREE, i] + delta == prof[FREE, i - 1]
    merge_j = not new_j and prof[FREE, j] == old_last + delta
    o1 = 1 if new_i else (-1 if merge_i else 0)
    o2 = 1 if new_j else (-1 if merge_j else 0)
    ms = i + 1 if merge_i else i  # the steps ms..j-1 keep their times, move by o1
    ts = j + 1 if merge_j else j  # the steps ts..n-1 move by o1 + o2
    sh = o1 + o2
    if sh > 0 and n > ts:
        move_row(prof, T, ts + sh, ts, n - ts)
        move_row(prof, FREE, ts + sh, ts, n - ts)
    if o1 != 0 and j > ms:
        move_row(prof, T, ms + o1, ms, j - ms)
        move_row(prof, FREE, ms + o1, ms, j - ms)
    for k in range(ms + o1, j + o1):
        prof[FREE, k] += delta
    if sh < 0 and n > ts:
        move_row(prof, T, ts + sh, ts, n - ts)
        move_row(prof, FREE, ts + sh, ts, n - ts)
    if new_i:
        prof[T, i] = start
        prof[FREE, i] = prof[FREE, i - 1] + delta
    if new_j:
        prof[T, j + o1] = end
        prof[FREE, j + o1] = old_last
    return n + sh


@njit(cache=True, nogil=True)
def shift_slot(prof, meta, s, s2, d, procs):
    """Move a reservation of ``procs`` for ``d`` from ``s`` to the earlier ``s2`` (found free):
    the same profile as :func:`~schedlab.sim.cbf_kernel.add` of ``-procs`` on its new slot and ``+procs`` on its old one
    (only the parts that do not overlap change), built in one pass over the steps from ``s2`` to
    the old end, the tail moved at most once."""
    end, new_end = s + d, s2 + d
    a = min(new_end, s)  # [s2, a) taken, [b, end) given back
    b = max(new_end, s)
    n = meta[N]
    i = bisect_row(prof, T, 0, n, s2, True) - 1  # the step holding s2
    j = bisect_row(prof, T, i, n, end, False)  # the first step at or after the old end
    # the steps i..j-1 cover [t[i], t[j]) (to infinity if j == n); rebuild them with the cut
    # points s2, a, b, end: at most 4 more steps
    nt = np.empty(j - i + 4, dtype=np.int64)
    nf = np.empty(j - i + 4, dtype=np.int64)
    m = 0
    last = prof[FREE, i - 1] if i > 0 else -1  # the step before the range (unchanged)
    tj = prof[T, j] if j < n else BIG
    cuts = (s2, a, b, end)
    k, x, c = i, prof[T, i], 0
    while c < 4 and cuts[c] <= x:
        c += 1
    while True:  # the segment from x to the next old breakpoint or cut
        v = prof[FREE, k]
        if s2 <= x < a:
            v -= procs
        elif b <= x < end:
            v += procs
        if v != last:
            nt[m], nf[m] = x, v
            m += 1
            last = v
        y = prof[T, k + 1] if k + 1 < j else tj
        if c < 4 and cuts[c] < y:
            y = cuts[c]
        if y >= tj:
            break
        x = y
        if k + 1 < j and x == prof[T, k + 1]:
            k += 1
        while c < 4 and cuts[c] <= x:
            c += 1
    # the first step after the range: merged away if it continues the last rebuilt one
    r = j
    if j < n and prof[FREE, j] == last:
        r = j + 1
    sh = m - (r - i)
    if sh != 0 and n > r:
        move_row(prof, T, r + sh, r, n - r)
        move_row(prof, FREE, r + sh, r, n - r)
    for q in range(m):
        prof[T, i + q], prof[FREE, i + q] = nt[q], nf[q]
    meta[N] = n + sh
    if i < meta[PMV]:
        meta[PMV] = i
