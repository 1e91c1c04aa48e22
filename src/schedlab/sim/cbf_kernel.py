"""Compiled kernels of conservative backfilling (issue 17: CTC-SP2 conservative at >= 50x pyss).

The same algorithm as :class:`~schedlab.sim.profile.Profile` and
:func:`~schedlab.sim.schedulers.compression.compress` (Cirne 2001 §2.2.1; Mu'alem & Feitelson
2001; one pass or until stable, :mod:`~schedlab.sim.schedulers.compression`), compiled with numba (from wheels, ``requirements.lock``) over state that lives in int64
arrays, so a compression pass, a placement or the collection of due jobs is one call with no
conversion of Python lists (measured: converting the profile and the queue per pass, 69 k passes
on CTC-SP2, would cost about as much as the pass itself).

State (owned by :class:`~schedlab.sim.schedulers.conservative.Conservative`):

* ``prof``: shape ``(3 + 5 * levels, capacity)`` (layout: :mod:`schedlab.sim.cbf_layout`);
  ``prof[0, :n]`` the breakpoint times ``t`` and ``prof[1, :n]`` the free processors ``free`` of
  the profile (same invariants as :class:`Profile`: increasing times, adjacent steps distinct, the
  last step extends to infinity); ``prof[2]`` the prefix maxima of ``free``, valid for the first
  ``meta[PMV]`` steps (as :meth:`Profile.prefix_max`: a change at step ``i`` keeps the first
  ``i``, queries extend them only as far as they need); the other rows are the level runs of a
  compression pass (:mod:`schedlab.sim.cbf_levels`), scratch rebuilt by every pass;
* ``queue``: shape ``(5, capacity)``; the waiting jobs in arrival order, rows ``PROCS``, ``EST``
  (estimate), ``RES`` (reserved start), ``SEQ`` (stamp of the last reservation: ties between jobs
  due at the same time start in the order their reservations were made, as the heap of the list
  implementation does) and ``JID``;
* ``meta``: ``N`` (profile steps), ``M`` (queued jobs), ``STAMP`` (last stamp), ``NEXT`` (earliest
  reservation in the queue, -1 if empty), ``PMV`` (valid prefix maxima), ``LOOSE`` (only the jobs
  before this queue position can have become movable since the last compression: see
  :func:`compress`), then the level runs' counts (``NL`` levels,
  ``levels = machine_size.bit_length()``).

Capacity: the profile has at most ``1 + running + 2 * queued`` steps (+4 during a move); the caller
grows the arrays before an arrival (:func:`capacity_needed`). Every kernel first drops the
profile's history before ``now`` (:meth:`Profile.advance`). Results are checked identical to the
list implementation job for job (tests/sim/test_sim_schedulers.py; whole logs by
``benchmarks/golden_schedules.py``).

Speed at high load (Cirne's 10,000-job workloads at kappa_L = 4: 2,157 queued jobs and 1,710
profile steps per compression on average, 7.7 M moves in a run; CPU s of one all-user-request
run, loaded machine: 55 -> 10): compression prunes with the level runs (a job that cannot move
is told in O(log n) instead of a window search; one whose step before its reservation has its
processors goes to the start of that last run unless the level runs allow an earlier window:
:func:`_final_run_move`); until stable, a promotion round skips the jobs that no room given back
since their last search can reach (:func:`_until_stable`); :func:`add` edits the breakpoints in
one :func:`~schedlab.sim.cbf_edit.splice` (the steps between the two boundaries, the tail at
most once) and arrays move by ``llvm.memmove`` (:func:`schedlab.sim.cbf_layout.move_row`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cbf_edit import shift_slot, splice
from .cbf_layout import (  # noqa: F401 (the layout constants are this module's API too)
    BIG,
    EST,
    FREE,
    JID,
    LEVEL0,
    LOOSE,
    LV,
    META_SIZE,
    NEXT,
    NL,
    PM,
    PMV,
    PROCS,
    RES,
    SEQ,
    STAMP,
    M,
    N,
    T,
    bisect_row,
    move_row,
)
from .cbf_levels import (
    level_of,
    levels_reset,
    most_free,
    record_increase,
    spans,
    window_possible,
)
from .profile import ProfileView


def new_state(machine_size: int, origin: int, capacity: int = 64):
    """Empty state: all ``machine_size`` processors free from ``origin`` on."""
    levels = max(1, int(machine_size).bit_length())
    prof = np.zeros((LEVEL0 + 5 * levels, capacity), dtype=np.int64)
    prof[T, 0], prof[FREE, 0] = origin, machine_size
    queue = np.zeros((5, capacity), dtype=np.int64)
    meta = np.zeros(LV + 2 * levels, dtype=np.int64)
    meta[N], meta[NEXT] = 1, -1
    meta[NL] = levels
    return prof, queue, meta


def capacity_needed(queued: int, running: int) -> int:
    """Profile steps that ``queued`` reservations and ``running`` jobs can need (with slack for
    the two transient breakpoints of a move and of an update)."""
    return 2 * (queued + running) + 8


def grown(a: np.ndarray, needed: int) -> np.ndarray:
    """``a`` with at least ``needed`` columns (doubling), contents kept."""
    if a.shape[1] >= needed:
        return a
    b = np.zeros((a.shape[0], max(needed, 2 * a.shape[1])), dtype=np.int64)
    b[:, : a.shape[1]] = a
    return b


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
def advance(prof, meta, now):
    """:meth:`Profile.advance`: drop the steps before ``now``."""
    n = meta[N]
    if now <= prof[T, 0]:
        return
    i = bisect_row(prof, T, 0, n, now, True) - 1
    if i > 0:
        move_row(prof, T, 0, i, n - i)
        move_row(prof, FREE, 0, i, n - i)
        meta[N] = n - i
        meta[PMV] = 0
    prof[T, 0] = now


@njit(cache=True, nogil=True)
def add(prof, meta, start, end, delta, machine_size):
    """:meth:`Profile._add`: ``delta`` more free processors during ``[start, end)``. With
    ``machine_size >= 0`` refuse (return 1, profile untouched) to go below 0 or above it."""
    n = meta[N]
    if start <= prof[T, 0]:
        start = prof[T, 0]
    if end <= start or delta == 0:
        return 0
    if machine_size >= 0:
        k = bisect_row(prof, T, 0, n, start, True) - 1
        while k < n and prof[T, k] < end:
            v = prof[FREE, k] + delta
            if v < 0 or v > machine_size:
                return 1
            k += 1
    i = bisect_row(prof, T, 0, n, start, False)
    if i < meta[PMV]:
        meta[PMV] = i
    meta[N] = splice(prof, n, i, start, end, delta)
    return 0


@njit(cache=True, nogil=True)
def release(prof, meta, now, start, end, procs, machine_size):
    """Advance to ``now``, then give back ``procs`` during ``[start, end)`` (checked: 1 if that
    would exceed the machine, profile untouched)."""
    advance(prof, meta, now)
    return add(prof, meta, start, end, procs, machine_size)


@njit(cache=True, nogil=True)
def earliest_start(prof, meta, procs, duration, after):
    """:meth:`Profile.earliest_start` (first fit at or after ``after``; ``procs`` must fit the
    machine)."""
    t, free = prof[T], prof[FREE]
    n = meta[N]
    if after <= t[0]:
        i = 0
        start = t[0]
    else:
        i = _bisect(t, 0, n, after, True) - 1
        start = after
    while True:
        while free[i] < procs:
            i += 1
            start = t[i]
        end = start + duration
        j = i + 1
        while j < n and t[j] < end and free[j] >= procs:
            j += 1
        if j >= n or t[j] >= end:
            return start
        i = j


@njit(cache=True, nogil=True)
def first_fits(prof, meta, procs, durations):
    """:func:`earliest_start` from the origin of each request ``(procs[k], durations[k])`` (SAcb's
    first fits, :func:`schedlab.sim.schedulers.sa.first_fit` on this profile); -1 for a request
    wider than the machine (the last step, after every reservation, is all free)."""
    out = np.empty(len(procs), dtype=np.int64)
    top = prof[FREE, meta[N] - 1]
    for k in range(len(procs)):
        out[k] = -1 if procs[k] > top else earliest_start(prof, meta, procs[k], durations[k],
                                                          prof[T, 0])
    return out


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
def _move(prof, queue, meta, k, s2):
    """Move the job at queue position ``k`` to the earlier start ``s2`` (new stamp); the part of
    its old slot given back joins the level runs' frontier."""
    s, procs, d = queue[RES, k], queue[PROCS, k], queue[EST, k]
    shift_slot(prof, meta, s, s2, d, procs)
    record_increase(prof, meta, max(s2 + d, s), s + d, procs)
    queue[RES, k] = s2
    meta[STAMP] += 1
    queue[SEQ, k] = meta[STAMP]


@njit(cache=True, nogil=True)
def _pass(prof, queue, meta, now, first_only, stop_at):
    """One pass of :func:`~schedlab.sim.schedulers.compression.compress` in arrival order: every
    job that can start earlier moves to its first-fit slot at once (new stamp); with
    ``first_only`` the pass stops after the first move (``until_stable`` read literally, one
    promotion per pass from the head: the reference :func:`_until_stable` is tested against);
    it stops at queue position ``stop_at`` if no job before it moved (the caller knows the jobs
    from there on cannot move then). Returns the number of moves; ``meta[LOOSE]`` becomes the
    position of the last job moved (0 if none). The level runs (:mod:`schedlab.sim.cbf_levels`)
    are rebuilt for every pass: they only prune, so every reading moves the same jobs. Pruning:
    :func:`_earliest`."""
    fail_procs, fail_d, fail_s = 0, 0, -1
    moves = 0
    last = 0
    levels_reset(prof, meta)
    for k in range(meta[M]):
        if k == stop_at and moves == 0:
            break
        s = queue[RES, k]
        if s <= now:
            continue
        procs, d = queue[PROCS, k], queue[EST, k]
        s2, bounded = _earliest(prof, meta, now, procs, d, s, fail_procs, fail_d, fail_s)
        if s2 != s:
            _move(prof, queue, meta, k, s2)
            fail_s = -1
            moves += 1
            last = k
            if first_only:
                break
        elif bounded:
            fail_procs, fail_d, fail_s = procs, d, s
    meta[LOOSE] = last
    return moves


@njit(cache=True, nogil=True)
def _until_stable(prof, queue, meta, now):
    """Cirne 2001 §2.2.1's compression: "traverses the queue (in submission order) and
    'promotes' the first job that fits in the just-made-available slot. Of course, this may
    create another available slot. Such a slot is backfilled in the same way. The process stops
    only when no more backfilling can be done." Each round promotes the first job in queue order
    that can start earlier (as rounds of ``_pass(first_only=True)`` from the head would) and
    returns the number of promotions; a job is skipped without a window search when it provably
    cannot move:

    * a job found unmovable on profile P stays unmovable until room is given back before its
      reservation ``r``: a move from ``s`` to ``s2 < s`` (estimate ``d``) takes room on
      ``[s2, min(s2 + d, s))`` and gives back ``[b, s + d)``, ``b = max(s2 + d, s)``, and a
      window ``[x, x + e)`` of the job (``x < r``; its part from ``r`` on lies in its own slot,
      given back for the search) that fits now but did not on P contains a point of
      ``[b, s + d)`` before ``r``: so ``r > b``; after several moves, ``r >`` the least ``b``;
    * that point has ``procs`` free now, and no room was given back there since the last move
      whose given-back part holds it, so right after that move its given-back part had
      ``procs`` free somewhere: ``procs <= mf``, the most free there then; after several moves,
      ``procs <=`` the greatest ``mf``;
    * unless its reservation ``r`` lies in a given-back part (``b < r <= s + d``: then the step
      before ``r`` may now have ``procs`` free), the window lies wholly before ``r``; right after
      the last move whose given-back part it meets no room was given back in it since, so it lay
      in a run of steps with ``2**q <= procs`` free meeting that part: with ``r`` past the
      greatest ``s + d``, its estimate must not exceed the greatest such run of level ``q``
      (:func:`~schedlab.sim.cbf_levels.spans`, an upper bound per move);
    * a promoted job cannot move again on the profile its move made: an earlier start ``x < s2``
      would need the room of ``[x, s2)`` (unchanged by the move) and of ``[s2, x + d)`` (inside
      the slot it just found free), so it would have fitted at ``x`` before the move.

    A round searches the positions from the head up to the promoted one, so all of them are then
    verified on the new profile: the verification state is a stack of segments of positions
    (newest first: ``[0, end_top)``, then ``[end_top, end_top-1)`` ...; the positions past the
    bottom's end have not been searched in this compression) and per segment the least ``b``, the
    greatest ``mf``, ``s + d`` and run per level of the moves after its verification and before
    the next newer one's (a segment a promotion covers hands them to the next older one); a round
    walks them with the running bounds. The level runs are reset once: between rounds they stay
    valid as within one pass (decreases leave their bounds upper bounds, increases join the
    frontier). Dominance
    (:func:`_earliest`) is kept within a round, where the profile does not change until the
    promotion."""
    m = meta[M]
    seg_end = np.empty(m + 1, dtype=np.int64)  # stack, bottom (oldest, largest end) first
    seg_b = np.empty(m + 1, dtype=np.int64)
    seg_mf = np.empty(m + 1, dtype=np.int64)
    seg_e = np.empty(m + 1, dtype=np.int64)
    nl = meta[NL]
    seg_span = np.empty((m + 1, nl), dtype=np.int64)
    span = np.empty(nl, dtype=np.int64)  # the greatest spans since position k's verification
    cur = np.empty(nl, dtype=np.int64)
    top = -1
    moves = 0
    levels_reset(prof, meta)
    while True:
        fail_procs, fail_d, fail_s = 0, 0, -1
        g = top  # the segment holding position k
        bound = seg_b[top] if top >= 0 else -1  # the least b since position k's verification
        most = seg_mf[top] if top >= 0 else -1  # the greatest mf since then
        last_end = seg_e[top] if top >= 0 else -1  # the greatest s + d since then
        if top >= 0:
            span[:] = seg_span[top]
        moved, b, mf, e = -1, 0, 0, 0
        for k in range(m):
            while g >= 0 and k >= seg_end[g]:
                g -= 1
                if g >= 0:
                    if seg_b[g] < bound:
                        bound = seg_b[g]
                    if seg_mf[g] > most:
                        most = seg_mf[g]
                    if seg_e[g] > last_end:
                        last_end = seg_e[g]
                    for q in range(nl):
                        if seg_span[g, q] > span[q]:
                            span[q] = seg_span[g, q]
            s = queue[RES, k]
            if s <= now:
                continue
            procs, d = queue[PROCS, k], queue[EST, k]
            if g >= 0 and (s <= bound or procs > most
                           or (s > last_end and d > span[level_of(meta, procs)])):
                continue
            s2, bounded = _earliest(prof, meta, now, procs, d, s, fail_procs, fail_d, fail_s)
            if s2 != s:
                _move(prof, queue, meta, k, s2)
                moved, b = k, max(s2 + d, s)
                mf = most_free(prof, meta, b, s + d)
                spans(prof, meta, b, s + d, cur)
                e = s + d
                break
            if bounded:
                fail_procs, fail_d, fail_s = procs, d, s
        if moved < 0:
            return moves
        moves += 1
        end = moved + 1
        # the segments now covered: their bounds join the next older segment's
        folded, folded_mf, folded_e = b, mf, e
        for q in range(nl):
            span[q] = cur[q]
        while top >= 0 and seg_end[top] <= end:
            folded, folded_mf = min(folded, seg_b[top]), max(folded_mf, seg_mf[top])
            folded_e = max(folded_e, seg_e[top])
            for q in range(nl):
                if seg_span[top, q] > span[q]:
                    span[q] = seg_span[top, q]
            top -= 1
        if top >= 0:
            seg_b[top], seg_mf[top] = min(seg_b[top], folded), max(seg_mf[top], folded_mf)
            seg_e[top] = max(seg_e[top], folded_e)
            for q in range(nl):
                if span[q] > seg_span[top, q]:
                    seg_span[top, q] = span[q]
        top += 1
        seg_end[top], seg_b[top], seg_mf[top], seg_e[top] = end, b, mf, e
        for q in range(nl):
            seg_span[top, q] = cur[q]


@njit(cache=True, nogil=True)
def compress(prof, queue, meta, now, until_stable, full=True):
    """:func:`~schedlab.sim.schedulers.compression.compress` over the queue: one pass, or
    (``until_stable``) the first job that can move promoted, again and again from the head of the
    queue until none can (Cirne §2.2.1, :func:`_until_stable`). Returns the number of moves.

    ``full=False`` (a compression no released slot triggered: a termination at the estimate
    under ``compress_on="every"``) gives the same result faster. Since the last compression only
    time passed (which only shortens the windows), jobs arrived (which only take room: each was
    placed first fit) and jobs started (their slots were already taken): a job can move only if
    it could at the end of the last compression, i.e. only if it lies before the last job that
    pass moved (a job is re-placed at its first fit when visited; only the moves after its visit
    can make room for it): ``meta[LOOSE]``, kept through the queue's changes. If none of those
    moves, neither can the later ones, and the pass stops there."""
    if not full and meta[LOOSE] == 0:
        return 0  # no job can move
    if until_stable:
        moves = _until_stable(prof, queue, meta, now)
        meta[LOOSE] = 0  # no job can move
    else:
        moves = _pass(prof, queue, meta, now, False, -1 if full else meta[LOOSE])
    _set_next(queue, meta)
    return moves


@njit(cache=True, nogil=True)
def _set_next(queue, meta):
    nxt = -1
    for k in range(meta[M]):
        r = queue[RES, k]
        if nxt < 0 or r < nxt:
            nxt = r
    meta[NEXT] = nxt


@njit(cache=True, nogil=True)
def arrive(prof, queue, meta, now, dirty, until_stable, procs, estimate, jid):
    """A job arrives: compress first if ``dirty`` (a released slot), then place it first fit and
    append it to the queue. Returns its reservation."""
    advance(prof, meta, now)
    if dirty:
        compress(prof, queue, meta, now, until_stable, True)
    s = earliest_start(prof, meta, procs, estimate, now)
    add(prof, meta, s, s + estimate, -procs, -1)  # first fit: always free
    m = meta[M]
    meta[STAMP] += 1
    queue[PROCS, m], queue[EST, m], queue[RES, m] = procs, estimate, s
    queue[SEQ, m], queue[JID, m] = meta[STAMP], jid
    meta[M] = m + 1
    if meta[NEXT] < 0 or s < meta[NEXT]:
        meta[NEXT] = s
    return s


@njit(cache=True, nogil=True)
def due(prof, queue, meta, now, squeeze, until_stable, full, out):
    """Compress if ``squeeze`` (``full``: after a released slot; else a termination at the
    estimate, :func:`compress`), then take the jobs whose reservation has come out of the queue:
    their ids go to ``out`` in (reservation, stamp) order. Returns their number, or ``-1 - k``
    if the job at queue index ``k`` missed its reservation."""
    advance(prof, meta, now)
    if squeeze:
        compress(prof, queue, meta, now, until_stable, full)
    m = meta[M]
    c = 0
    w = 0
    for k in range(m):
        r = queue[RES, k]
        if r <= now:
            if r < now:
                return -1 - k
            # insertion by stamp (all due jobs are reserved at now)
            q = c
            while q > 0 and queue[SEQ, out[q - 1]] > queue[SEQ, k]:
                q -= 1
            for z in range(c, q, -1):
                out[z] = out[z - 1]
            out[q] = k
            c += 1
    if c:
        for z in range(c):
            out[z] = queue[JID, out[z]]
        loose = 0
        for k in range(m):
            if queue[RES, k] > now:
                for row in range(5):
                    queue[row, w] = queue[row, k]
                w += 1
                if k < meta[LOOSE]:
                    loose = w
        meta[M] = w
        meta[LOOSE] = loose
        _set_next(queue, meta)
    return c


@njit(cache=True, nogil=True)
def withdraw(queue, meta, jid):
    """Remove job ``jid`` from the queue; returns its reservation (-1 if not queued)."""
    m = meta[M]
    for k in range(m):
        if queue[JID, k] == jid:
            s = queue[RES, k]
            for z in range(k, m - 1):
                for row in range(5):
                    queue[row, z] = queue[row, z + 1]
            meta[M] = m - 1
            if k < meta[LOOSE]:
                meta[LOOSE] -= 1
            _set_next(queue, meta)
            return s
    return -1


def profile_view(prof: np.ndarray, meta: np.ndarray) -> ProfileView:
    """Read access to the profile arrays with :class:`~schedlab.sim.profile.Profile`'s query API
    (SA's request choice and the tests read it; it follows the arrays as the kernels update them)."""
    return ProfileView(prof[T], prof[FREE], meta, N)


def warm() -> None:
    """Compile every kernel conservative backfilling calls, both compression modes, into numba's
    cache (``cache=True``: ``__pycache__`` beside this file, or numba's user cache directory where
    that is read-only). ``make setup`` runs it, so the first simulation after a checkout loads the
    kernels (~0.2 s) instead of compiling them (~2.5 s)."""
    for until_stable in (False, True):
        prof, queue, meta = new_state(4, 0, 64)
        out = np.zeros(64, dtype=np.int64)
        add(prof, meta, 0, 10, -4, -1)  # a running job
        arrive(prof, queue, meta, 0, False, until_stable, 2, 10, 1)
        arrive(prof, queue, meta, 0, True, until_stable, 4, 5, 2)
        release(prof, meta, 1, 1, 10, 4, 4)
        due(prof, queue, meta, 1, True, until_stable, True, out)
        advance(prof, meta, 2)
        compress(prof, queue, meta, 2, until_stable, False)
        compress(prof, queue, meta, 2, until_stable, True)
        withdraw(queue, meta, 2)
