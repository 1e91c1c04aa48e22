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
* ``queue``: shape ``(6, capacity)``; the waiting jobs in arrival order, rows ``PROCS``, ``EST``
  (estimate), ``RES`` (reserved start), ``SEQ`` (stamp of the last reservation: ties between jobs
  due at the same time start in the order their reservations were made, as the heap of the list
  implementation does), ``JID`` and ``CLEAN`` (1: proven unable to move, :mod:`.cbf_stable`);
* ``meta``: ``N`` (profile steps), ``M`` (queued jobs), ``STAMP`` (last stamp), ``NEXT`` (earliest
  reservation in the queue, -1 if empty), ``PMV`` (valid prefix maxima), ``LOOSE`` (only the jobs
  before this queue position can have become movable since the last compression: see
  :func:`compress`), ``NL`` (levels, ``levels = machine_size.bit_length()``), ``GB``/``GE``
  (the hull of the room :func:`add` gave back since the last compression until stable),
  ``CLEAN_OK`` (0: the ``CLEAN`` row holds no proofs; code that writes the arrays other than
  through these kernels must set it to 0), then the level runs' counts.

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
:func:`~.cbf_search._final_run_move`); until stable, a promotion round searches only the jobs
that the room given back since their last search may let move, found by an index
(:mod:`.cbf_stable`); :func:`add` edits the breakpoints in
one :func:`~schedlab.sim.cbf_edit.splice` (the steps between the two boundaries, the tail at
most once) and arrays move by ``llvm.memmove`` (:func:`schedlab.sim.cbf_layout.move_row`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cbf_edit import splice
from .cbf_layout import (  # noqa: F401 (the layout constants are this module's API too)
    BIG,
    CLEAN,
    CLEAN_OK,
    EST,
    FREE,
    GB,
    GE,
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
    QUEUE_ROWS,
    RES,
    SEQ,
    STAMP,
    M,
    N,
    T,
    bisect_row,
    move_row,
)
from .cbf_levels import levels_reset
from .cbf_search import (  # noqa: F401 (the searches are this module's API too)
    _bisect,
    _earliest,
    _final_run_move,
    _move,
    _search,
    earliest_move,
    prefix_max,
)
from .cbf_stable import until_stable as _until_stable
from .profile import ProfileView


def new_state(machine_size: int, origin: int, capacity: int = 64):
    """Empty state: all ``machine_size`` processors free from ``origin`` on."""
    levels = max(1, int(machine_size).bit_length())
    prof = np.zeros((LEVEL0 + 5 * levels, capacity), dtype=np.int64)
    prof[T, 0], prof[FREE, 0] = origin, machine_size
    queue = np.zeros((QUEUE_ROWS, capacity), dtype=np.int64)
    meta = np.zeros(LV + 2 * levels, dtype=np.int64)
    meta[N], meta[NEXT] = 1, -1
    meta[NL] = levels
    meta[GB], meta[GE] = BIG, -1  # no room given back yet
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
    if delta > 0:  # room given back: the proofs of cbf_stable must be checked against it
        meta[GB], meta[GE] = min(meta[GB], start), max(meta[GE], end)
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
def _pass(prof, queue, meta, now, first_only, stop_at):
    """One pass of :func:`~schedlab.sim.schedulers.compression.compress` in arrival order: every
    job that can start earlier moves to its first-fit slot at once (new stamp); with
    ``first_only`` the pass stops after the first move (``until_stable`` read literally, one
    promotion per pass from the head: the reference :mod:`.cbf_stable` is tested against);
    it stops at queue position ``stop_at`` if no job before it moved (the caller knows the jobs
    from there on cannot move then). Returns the number of moves; ``meta[LOOSE]`` becomes the
    position of the last job moved (0 if none). The level runs (:mod:`schedlab.sim.cbf_levels`)
    are rebuilt for every pass: they only prune, so every reading moves the same jobs. Pruning:
    :func:`~.cbf_search._search`."""
    fail_procs, fail_d, fail_s = 0, 0, -1
    moves = 0
    last = 0
    levels_reset(prof, meta)
    for k in range(meta[M]):
        if k == stop_at and moves == 0:
            break
        s, s2, bounded = _search(prof, queue, meta, now, k, fail_procs, fail_d, fail_s)
        if s2 != s:
            _move(prof, queue, meta, k, s2)
            fail_s = -1
            moves += 1
            last = k
            if first_only:
                break
        elif bounded:
            fail_procs, fail_d, fail_s = queue[PROCS, k], queue[EST, k], s
    meta[LOOSE] = last
    meta[CLEAN_OK] = 0  # a pass keeps no proofs for cbf_stable
    return moves


@njit(cache=True, nogil=True)
def compress(prof, queue, meta, now, until_stable, full=True):
    """:func:`~schedlab.sim.schedulers.compression.compress` over the queue: one pass, or
    (``until_stable``) the first job that can move promoted, again and again from the head of the
    queue until none can (Cirne §2.2.1, :func:`.cbf_stable.until_stable`). Returns the number of
    moves.

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
    queue[CLEAN, m] = 1  # placed first fit: it cannot move
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
                for row in range(QUEUE_ROWS):
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
                for row in range(QUEUE_ROWS):
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
