"""Cirne 2001 §2.2.1's compression until stable, compiled (:func:`until_stable`, called by
:func:`schedlab.sim.cbf_kernel.compress`; state layout :mod:`.cbf_layout`): "traverses the queue
(in submission order) and 'promotes' the first job that fits in the just-made-available slot. Of
course, this may create another available slot. Such a slot is backfilled in the same way. The
process stops only when no more backfilling can be done."

Each promotion is of the first job in queue order that can start earlier, as rounds of
``_pass(first_only=True)`` from the head of the queue would find it (the reference the tests
hold it to), but a round searches only the *woken* jobs: every other queued job carries a proof
that it cannot move (``queue[CLEAN]`` = 1), kept from one compression to the next.

**The proof and what breaks it.** A job reserved at ``r`` (``p`` processors, estimate ``d``)
can move iff some ``x < r``, ``x >= now``, has ``p`` free throughout ``[x, min(x + d, r))``
(the part from ``r`` on is its own slot, given back for the search). Room given back on
``[b, e)`` (profile ``P0`` before, ``P1`` after; nowhere else has more free in ``P1``) can make
a job unmovable on ``P0`` movable on ``P1`` only if (:func:`_wakes`):

* ``r > b``: the new window has a point ``y`` where ``P1`` has more free than ``P0``, so
  ``b <= y < r``;
* ``p <= mf``, the most free of ``P1`` on ``[b, e)``: ``y`` has ``p`` free;
* if ``r > e``: ``d <= spans[q]`` (``2**q <= p < 2**(q+1)``, :func:`~.cbf_levels.spans` on
  ``P1``): unmovable on ``P0``, the step before ``r`` had fewer than ``p`` free (else the job
  starts at the start of that run), and ``r - 1 >= e`` is unchanged, so the window is a whole
  ``[x, x + d)`` before ``r`` inside a run of ``P1`` with ``2**q`` free meeting ``[b, e)``.

Room is given back (a) by a promotion from ``s`` to ``s2 < s``: ``[b, e) = [max(s2 + d, s),
s + d)``; the rest of its change takes room; (b) between compressions by :func:`~.cbf_kernel.add`
with more free (a job ending early, a cancellation), recorded as the hull ``[GB, GE)`` of those
intervals in ``meta``; the compression then tests it on its own profile (any window made by them
meets the hull; ``P1`` is that profile). Nothing else adds room: time passing only shortens the
windows, an arrival is placed first fit (it cannot move, ``CLEAN`` = 1; the others lose room),
a start was already in the profile. And a promoted job cannot move again on the profile its move
made: an earlier ``x < s2`` would need the room of ``[x, s2)`` (unchanged by the move) and of
``[s2, x + d)`` (inside the slot it just found free), so it would have fitted at ``x`` before.

So, once each woken job is searched again, the first job in queue order that can move is the
first woken one that can: a round takes the woken jobs in queue order (a heap), searches each
(:func:`~.cbf_search._search`, its prunes and dominance as in one pass: the profile is fixed
within a round) and promotes the first that moves; each move wakes the jobs its room may serve.
``meta[CLEAN_OK]`` = 0 (a new state; a pass, which keeps no proofs; arrays written directly)
makes every queued job woken.

**Indexes of the proofs.** The jobs a move wakes are found without a walk of the queue, each by
one of the two ways of waking (the lists hold the jobs without a proof too, skipped): the jobs by
reservation (sorted, kept sorted through the promotions), whose range ``(b, e]`` holds every job
woken with ``r <= e``; and per level the jobs by estimate (estimates do not change), whose prefix
``d <= spans[q]`` holds every job of level ``q`` woken with ``r > e``. Both are built at the
first promotion of a compression (``O(m log m)``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cbf_layout import BIG, CLEAN, CLEAN_OK, EST, GB, GE, NL, PROCS, RES, M
from .cbf_levels import level_of, levels_reset, most_free, spans
from .cbf_search import _bisect, _move, _search


@njit(cache=True, nogil=True)
def _wakes(r, p, d, q, b, e, mf, sp):
    """Whether room given back on ``[b, e)`` (``mf`` most free there, ``sp`` the spans per
    level) may let a job reserved at ``r`` (``p`` processors of level ``q``, estimate ``d``)
    move, it could not before (module docstring)."""
    return r > b and p <= mf and (r <= e or d <= sp[q])


@njit(cache=True, nogil=True)
def _push(heap, hn, k):
    """Push ``k`` on the min-heap ``heap[:hn]``; returns the new size."""
    i = hn
    heap[i] = k
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= k:
            break
        heap[i] = heap[up]
        i = up
    heap[i] = k
    return hn + 1


@njit(cache=True, nogil=True)
def _pop(heap, hn):
    """The least of ``heap[:hn]``, removed (the new size is ``hn - 1``)."""
    top = heap[0]
    hn -= 1
    x = heap[hn]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= hn:
            break
        if c + 1 < hn and heap[c + 1] < heap[c]:
            c += 1
        if heap[c] >= x:
            break
        heap[i] = heap[c]
        i = c
    heap[i] = x
    return top


@njit(cache=True, nogil=True)
def _wake(queue, by_r, by_k, nr, by_d, lstart, heap, hn, b, e, mf, sp, qmf):
    """Wake (``CLEAN`` = 0, onto the heap) every job with a proof that room given back on
    ``[b, e)`` may let move (:func:`_wakes`): those reserved in ``(b, e]`` (``by_r[:nr]`` the
    reservations ascending, ``by_k`` their queue positions) and those of each level
    ``q <= qmf`` (``by_d[lstart[q]:lstart[q + 1]]``, positions by estimate ascending) with
    ``d <= sp[q]``. Returns the heap's size."""
    i = _bisect(by_r, 0, nr, b, True)
    while i < nr and by_r[i] <= e:
        k = by_k[i]
        if queue[CLEAN, k] and queue[PROCS, k] <= mf:
            queue[CLEAN, k] = 0
            hn = _push(heap, hn, k)
        i += 1
    for q in range(qmf + 1):
        for i in range(lstart[q], lstart[q + 1]):
            k = by_d[i]
            if queue[EST, k] > sp[q]:
                break
            if queue[CLEAN, k] and queue[RES, k] > b and queue[PROCS, k] <= mf:
                queue[CLEAN, k] = 0
                hn = _push(heap, hn, k)
    return hn


@njit(cache=True, nogil=True)
def _reorder(by_r, by_k, nr, s, s2, k):
    """Job ``k``'s reservation moved from ``s`` to the earlier ``s2``: ``by_r`` stays sorted."""
    i = _bisect(by_r, 0, nr, s, False)
    while by_k[i] != k:
        i += 1
    j = _bisect(by_r, 0, i, s2, False)  # its new place
    while i > j:
        by_r[i], by_k[i] = by_r[i - 1], by_k[i - 1]
        i -= 1
    by_r[j], by_k[j] = s2, k


@njit(cache=True, nogil=True)
def _indexes(queue, m, now, lvl, nl):
    """The indexes of :func:`_wake` over the jobs reserved after ``now``."""
    pos = np.empty(m, dtype=np.int64)
    nr = 0
    for k in range(m):
        if queue[RES, k] > now:
            pos[nr] = k
            nr += 1
    pos = pos[:nr]
    r = np.empty(nr, dtype=np.int64)
    key = np.empty(nr, dtype=np.int64)  # level, then estimate
    lstart = np.zeros(nl + 1, dtype=np.int64)
    for i in range(nr):
        k = pos[i]
        r[i] = queue[RES, k]
        key[i] = (lvl[k] << 40) | queue[EST, k]
        lstart[lvl[k] + 1] += 1
    for q in range(nl):
        lstart[q + 1] += lstart[q]
    o = np.argsort(r)
    return r[o], pos[o], nr, pos[np.argsort(key)], lstart


@njit(cache=True, nogil=True)
def until_stable(prof, queue, meta, now):
    """Promote the first job in queue order that can start earlier until none can (module
    docstring); returns the number of promotions. Leaves every queued job with a proof
    (``CLEAN`` = 1, ``meta[CLEAN_OK]`` = 1) and no room pending (``meta[GB] > meta[GE]``)."""
    m = meta[M]
    nl = meta[NL]
    levels_reset(prof, meta)
    sp = np.empty(nl, dtype=np.int64)
    gb, ge = max(meta[GB], now), meta[GE]
    pending = gb < ge
    mf = 0
    if pending:
        mf = most_free(prof, meta, gb, ge)
        spans(prof, meta, gb, ge, sp)
    if meta[CLEAN_OK] == 0:
        for k in range(m):
            queue[CLEAN, k] = 0
    meta[GB], meta[GE], meta[CLEAN_OK] = BIG, -1, 1
    lvl = np.empty(m, dtype=np.int64)
    heap = np.empty(m + 1, dtype=np.int64)
    hn = 0
    for k in range(m):
        r, p, d = queue[RES, k], queue[PROCS, k], queue[EST, k]
        q = level_of(meta, p)
        lvl[k] = q
        if r <= now:  # due now: never moves
            queue[CLEAN, k] = 1
        elif queue[CLEAN, k] == 0 or (pending and _wakes(r, p, d, q, gb, ge, mf, sp)):
            queue[CLEAN, k] = 0
            heap[hn] = k  # increasing: already a heap
            hn += 1
    moves = 0
    built = False
    while hn:  # one round: the woken jobs in queue order until one moves
        fail_procs, fail_d, fail_s = 0, 0, -1
        while hn:
            k = _pop(heap, hn)
            hn -= 1
            queue[CLEAN, k] = 1
            s, s2, bounded = _search(prof, queue, meta, now, k, fail_procs, fail_d, fail_s)
            d = queue[EST, k]
            if s2 != s:
                if not built:
                    by_r, by_k, nr, by_d, lstart = _indexes(queue, m, now, lvl, nl)
                    built = True
                _move(prof, queue, meta, k, s2)
                _reorder(by_r, by_k, nr, s, s2, k)
                b, e = max(s2 + d, s), s + d
                mf = most_free(prof, meta, b, e)
                spans(prof, meta, b, e, sp)
                hn = _wake(queue, by_r, by_k, nr, by_d, lstart, heap, hn, b, e, mf, sp,
                           level_of(meta, mf))
                moves += 1
                break
            if bounded:
                fail_procs, fail_d, fail_s = queue[PROCS, k], d, s
    return moves
