"""Compiled planning passes of Perković & Keleher backfilling (:mod:`.perkovic`): the same steps
as its list-profile code, run over the arrays of :mod:`schedlab.sim.cbf_kernel`.

A pass copies the scheduler's :class:`~schedlab.sim.profile.Profile` into kernel arrays
(:class:`Buffers`, kept from pass to pass), runs one of the loops below and, when the profile
itself must change, writes it back (:func:`write_back`). The profile has tens of steps on CTC-SP2
(45 on average with guarantees, 33 without), so the copies cost little beside the Python loops
they replace (``benchmarks/bench_perkovic.py``):

* :func:`plan_in_order` — the -NG pass (§4): first fit of the sorted queue on the running jobs'
  profile, each reserved in turn, until no remaining job could start now;
* :func:`replan_greedy` — compression with greedy adaptation (§7.1, Figure 8): each waiting job in
  queue order released and re-planned at the alternative with the least end among those that start
  no later than its reservation (one pass, or until stable: :mod:`.compression`);
* compression without adaptation is :func:`schedlab.sim.cbf_kernel.compress` itself (the queue in
  the pass's order), the same algorithm as :func:`.compression.compress`, under either
  ``compress_passes``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from .. import cbf_kernel as K
from ..errors import SimulationError
from ..profile import Profile


class Buffers:
    """Kernel arrays ``(prof, queue, meta)`` of :func:`~schedlab.sim.cbf_kernel.new_state` (with
    the level-run rows), reused by the passes of one scheduler: allocating and zeroing new ones
    costs more than a pass over a short queue. Only the first ``meta[N]`` steps of ``prof`` and
    ``meta[M]`` jobs of ``queue`` are meaningful; every compression pass resets the level runs."""

    def __init__(self, machine_size: int, capacity: int = 64) -> None:
        self.machine_size = machine_size
        self.prof, self.queue, self.meta = K.new_state(machine_size, 0, capacity)
        self.meta0 = self.meta.copy()

    def load(self, profile: Profile, extra_steps: int) -> tuple[np.ndarray, np.ndarray]:
        """``(prof, meta)`` holding ``profile`` with room for ``extra_steps`` more steps (and as
        many queued jobs), ``meta`` as a new state's."""
        n = len(profile.t)
        need = n + extra_steps + 8
        if self.prof.shape[1] < need:
            self.prof, self.queue, _ = K.new_state(self.machine_size, 0,
                                                   max(need, 2 * self.prof.shape[1]))
        prof, meta = self.prof, self.meta
        prof[K.T, :n] = profile.t
        prof[K.FREE, :n] = profile.free
        meta[:] = self.meta0
        meta[K.N] = n
        return prof, meta


def write_back(profile: Profile, prof: np.ndarray, meta: np.ndarray) -> None:
    """``profile`` becomes the kernel profile ``(prof, meta)``."""
    n = int(meta[K.N])
    profile.t = prof[K.T, :n].tolist()
    profile.free = prof[K.FREE, :n].tolist()
    profile._pm = []


@njit(cache=True, nogil=True)
def plan_in_order(prof, meta, procs, est, limit, now, out):
    """Reserve each job ``i`` in order at its first fit from ``now`` (``out[i]`` its start) until
    the first ``i`` with fewer than ``limit[i]`` processors free now; returns the jobs planned."""
    for i in range(len(procs)):
        if prof[K.FREE, 0] < limit[i]:
            return i
        s = K.earliest_start(prof, meta, procs[i], est[i], now)
        K.add(prof, meta, s, s + est[i], -procs[i], -1)
        out[i] = s
    return len(procs)


@njit(cache=True, nogil=True)
def replan_greedy(prof, meta, now, machine, res, alt_procs, alt_est, alts, cur, switched,
                  until_stable):
    """Greedy compression: for each job ``i`` in order with reservation ``res[:, i]`` (start,
    duration, processors) after ``now``, give its slot back and reserve the alternative ``a <
    alts[i]`` (``alt_procs[i, a]``, ``alt_est[i, a]``) with the least end among those whose first
    fit is no later than its start (ties: the first listed); ``until_stable``: after a job's
    reservation changes, again from the first job, until a whole pass changes none. ``cur[i]``:
    the processors job ``i`` plans with, updated; ``switched[i]`` set when a choice changed them.
    Returns -1, or the ``i`` whose slot could not be given back (more than the machine)."""
    i = 0
    while i < res.shape[1]:
        s, d, p = res[0, i], res[1, i], res[2, i]
        if s <= now:
            i += 1
            continue
        if K.add(prof, meta, s, s + d, p, machine):
            return i
        bs, be, bp = -1, 0, 0
        for a in range(alts[i]):
            st = K.earliest_start(prof, meta, alt_procs[i, a], alt_est[i, a], now)
            if st > s:
                continue
            if bs < 0 or st + alt_est[i, a] < bs + be:
                bs, be, bp = st, alt_est[i, a], alt_procs[i, a]
        K.add(prof, meta, bs, bs + be, -bp, -1)
        res[0, i], res[1, i], res[2, i] = bs, be, bp
        if bp != cur[i]:
            cur[i] = bp
            switched[i] = 1
        if until_stable and (bs != s or be != d or bp != p):
            i = 0  # start or end strictly earlier: this terminates
        else:
            i += 1
    return -1


def compress_in_order(profile: Profile, now: int, rows: np.ndarray, until_stable: bool = False,
                      buf: Buffers | None = None) -> np.ndarray:
    """:func:`.compression.compress` of the reservations ``rows`` (processors, duration and
    start of each, in queue order: the rows ``PROCS``, ``EST``, ``RES`` of a kernel queue; one
    pass, or until stable) on ``profile``, compiled (in ``buf`` if given): ``profile`` is
    updated and the new starts returned."""
    buf = buf or Buffers(profile.machine_size)
    m = rows.shape[1]
    prof, meta = buf.load(profile, 2 * m)
    queue = buf.queue
    queue[: K.RES + 1, :m] = rows
    meta[K.M] = m
    K.compress(prof, queue, meta, now, until_stable, True)
    write_back(profile, prof, meta)
    return queue[K.RES, :m].copy()


def plan_ng(profile: Profile, now: int, procs: np.ndarray, est: np.ndarray, limit: np.ndarray,
            complete: Callable[[list[int]], bool], want_profile: bool,
            buf: Buffers | None = None) -> tuple[np.ndarray, Profile | None]:
    """The -NG plan: :func:`plan_in_order` (int64 arrays) on a copy of ``profile`` (the running
    jobs; in ``buf`` if given); when it stops early and ``complete(starts)`` holds, the remaining
    jobs too (with processors free now). Returns the starts in order (as many as planned) and,
    if ``want_profile``, the plan's profile."""
    buf = buf or Buffers(profile.machine_size)
    n = len(procs)
    p, e = procs, est
    prof, meta = buf.load(profile, 2 * n)
    out = np.empty(n, dtype=np.int64)
    k = plan_in_order(prof, meta, p, e, limit, now, out)
    if k < n and prof[K.FREE, 0] > 0 and complete(out[:k].tolist()):
        plan_in_order(prof, meta, p[k:], e[k:], np.zeros(n - k, dtype=np.int64), now, out[k:])
        k = n
    copy = None
    if want_profile:
        copy = Profile(profile.machine_size)
        write_back(copy, prof, meta)
    return out[:k], copy


def compress_greedy(profile: Profile, now: int, res: list[tuple[int, int, int]],
                    alts: list[list[tuple[int, int]]], procs: list[int], until_stable: bool
                    ) -> tuple[list[tuple[int, int, int]], list[bool]]:
    """:func:`replan_greedy` of the reservations ``res`` (start, duration, processors; queue
    order) with the alternatives ``alts`` ((processors, estimate) each) on ``profile``, which is
    updated; ``procs``: the processors each job plans with. Returns the reservations after it and,
    per job, whether a choice changed its processors."""
    n = len(res)
    width = max(len(a) for a in alts)
    alt_procs = np.zeros((n, width), dtype=np.int64)
    alt_est = np.zeros((n, width), dtype=np.int64)
    for i, a in enumerate(alts):
        alt_procs[i, : len(a)] = [w for w, _ in a]
        alt_est[i, : len(a)] = [e for _, e in a]
    new, switched, _ = compress_greedy_arrays(
        profile, now, res, alt_procs, alt_est, np.array([len(a) for a in alts], dtype=np.int64),
        np.array(procs, dtype=np.int64), until_stable)
    return list(zip(*new.tolist(), strict=True)), switched.astype(bool).tolist()


def compress_greedy_arrays(profile: Profile, now: int, res: list[tuple[int, int, int]],
                           alt_procs: np.ndarray, alt_est: np.ndarray, alts: np.ndarray,
                           procs: np.ndarray, until_stable: bool, buf: Buffers | None = None
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`compress_greedy` with the alternatives as :func:`replan_greedy`'s arrays (job
    ``i``'s first ``alts[i]`` of ``alt_procs[i]``, ``alt_est[i]``; ``procs`` is updated), in
    ``buf`` if given. Returns the reservations after it (rows start, duration, processors), the
    switch flags (0 or 1) and the positions whose reservation or width changed."""
    buf = buf or Buffers(profile.machine_size)
    n = len(res)
    before = np.array(res, dtype=np.int64).T
    arr = before.copy()
    prof, meta = buf.load(profile, 2 * n)
    switched = np.zeros(n, dtype=np.int64)
    bad = replan_greedy(prof, meta, now, profile.machine_size, arr, alt_procs, alt_est, alts,
                        procs, switched, until_stable)
    if bad >= 0:
        s, d, p = res[bad]
        raise SimulationError(f"profile over-allocation: {-p:+d} processors during [{s}, "
                              f"{s + d}) (machine {profile.machine_size})")
    write_back(profile, prof, meta)
    return arr, switched, np.flatnonzero((arr != before).any(axis=0) | (switched != 0))


#: :func:`sort_order`'s codes of the Table 4 orders (``D`` sorts by submission, in Python)
ORDER_CODES = {"P": 1, "R": 2, "1/L": 3, "P/L": 4, "R/L": 5}


@njit(cache=True, nogil=True)
def sort_order(code, ks, submit, est, prio, rnd, now, weight):
    """:func:`.queue_orders.sort_queue` of the queued jobs ``ks`` (indices into the per-job
    arrays ``submit``, ``est``, ``prio``; ``rnd[i]``: the ``R`` draw of ``ks[i]``), order
    ``code`` (:data:`ORDER_CODES`): the jobs in backfilling order, criterion + weight x delay
    descending, ties by submission, then position in ``ks`` (two stable sorts)."""
    n = len(ks)
    sub = np.empty(n)
    neg = np.empty(n)
    for i in range(n):
        k = ks[i]
        sub[i] = submit[k]
        if code == 1:
            c = prio[k]
        elif code == 2:
            c = rnd[i]
        else:
            e = max(est[k], 1.0)
            c = 1.0 / e if code == 3 else (prio[k] if code == 4 else rnd[i]) / e
        if weight != 0.0:
            c = c + weight * (now - submit[k])
        neg[i] = -c
    o1 = np.argsort(sub, kind="mergesort")
    o2 = np.argsort(neg[o1], kind="mergesort")
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = ks[o1[o2[i]]]
    return out
