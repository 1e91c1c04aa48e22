"""One pass of the metric-aware scheduler (Tang et al. 2013 §3.3, Steps 1-6): the priorities of
eqs. 1-3, the priority order (Step 4), the windows (Step 5, :mod:`.window`) and backfilling
(Step 6).

Scheduler (§3.3, Steps 1-6), at every scheduling pass:

1. ``S_w = 100 * wait_i / wait_max`` (eq. 1); 0 for every job when ``wait_max`` is 0.
2. ``S_r = 100 * (wt_max - wt_i) / (wt_max - wt_min)`` (eq. 2) on the requested wall time
   (the estimate); 0 when one job is queued or ``wt_max == wt_min``.
3. ``S_p = BF * S_w + (1 - BF) * S_r`` (eq. 3).
4. Sort by ``S_p`` descending. Tie rule (not in the paper): earlier submission first, then input order.
5. Cut the sorted queue into windows of ``W`` jobs. For a window, every permutation is allocated
   greedily on the availability profile (a job starts now if it fits, else it is reserved at the
   earliest time it fits) and the permutation with the least makespan (latest estimated end of
   the window's jobs) is kept. Ties: the permutation that comes first in priority order (so a
   window whose permutations all tie keeps the plain priority order). The search is a
   depth-first branch-and-bound over prefixes (a partial makespan already >= the best is cut),
   which visits far fewer than ``W! * W`` placements.
6. Backfilling. EASY (``backfill="easy"``): windows are allocated from the head until one window
   holds a job that cannot start now; that window's reservations are protected and every later
   job (priority order) starts now if it fits without delaying them. Conservative
   (``backfill="conservative"``): every window of the queue is allocated in turn on the profile
   holding all earlier reservations, so no reservation can be delayed *within the pass*; jobs
   planned at ``now`` start. Reservations are recomputed from scratch at every pass (the
   priorities change with time; Cobalt re-plans each iteration), so unlike conservative
   backfilling with compression (:mod:`~schedlab.sim.schedulers.conservative`) a job's start is
   not bounded by its first reservation: an earlier job moved up by an early end can take its
   slot (measured on a random 150-job workload, BF = 1, W = 1: 3 jobs any-node, 6 contiguous
   start after their first reservation, by up to 3.3 h / 11.9 h).


Not in the paper (cost cap, off by default): ``search_windows`` limits the permutation search to
the first windows of the queue; the rest is allocated one job at a time (see
:func:`schedule_pass`).

Readings of Steps 5-6 (issue 22, off by default; :class:`~.policy.Policy` says where each comes
from): ``window_makespan="machine"`` (Step 5's makespan over the machine's whole planned
schedule), ``backfill_rule="drain"`` (Step 6: a backfilled job must end before the blocked
window's earliest reserved start, Cobalt's drain rule) and ``backfill_order="sjf"`` (Step 6's
candidates shortest estimate first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .policy import INF
from .window import fits_now, new_profile, take, window_allocation

# ---------------------------------------------------------------- eqs. 1-3 (Steps 1-3)


def waiting_score(waits: np.ndarray) -> np.ndarray:
    """Eq. 1: ``S_w = 100 * wait_i / wait_max``; all 0 when ``wait_max`` is 0."""
    waits = np.asarray(waits, dtype=np.float64)
    if waits.size == 0:
        return waits
    wmax = waits.max()
    if wmax <= 0:
        return np.zeros_like(waits)
    return 100.0 * waits / wmax


def walltime_score(walltimes: np.ndarray) -> np.ndarray:
    """Eq. 2: ``S_r = 100 * (wt_max - wt_i) / (wt_max - wt_min)``; 0 for one job or equal times."""
    wt = np.asarray(walltimes, dtype=np.float64)
    if wt.size <= 1:
        return np.zeros_like(wt)
    lo, hi = wt.min(), wt.max()
    if hi == lo:
        return np.zeros_like(wt)
    return 100.0 * (hi - wt) / (hi - lo)


def balanced_priority(waits: np.ndarray, walltimes: np.ndarray, bf: float) -> np.ndarray:
    """Eq. 3: ``S_p = BF * S_w + (1 - BF) * S_r``."""
    return bf * waiting_score(waits) + (1.0 - bf) * walltime_score(walltimes)


def priority_order(now: float, submits: np.ndarray, walltimes: np.ndarray, bf: float) -> np.ndarray:
    """Step 4: indices sorted by ``S_p`` descending; ties by earlier submission, then position."""
    submits = np.asarray(submits, dtype=np.float64)
    sp = balanced_priority(now - submits, walltimes, bf)
    pos = np.arange(len(submits))
    return np.lexsort((pos, submits, -sp))


# ---------------------------------------------------------------- Steps 4-6: one pass

def schedule_pass(now: float, queue: Sequence, submit, procs, est,
                  running: Sequence[tuple[float, int, int]], n: int, bf: float, w: int,
                  backfill: str, allocation: str, search_windows: int | None = None,
                  counter: list[int] | None = None, backfill_rule: str = "reservations",
                  backfill_order: str = "priority", window_makespan: str = "window"
                  ) -> list[tuple[Any, int]]:
    """One scheduling pass (Steps 1-6) at ``now``.

    ``backfill``: ``"easy"``, ``"conservative"``, ``"greedy"`` (no reservations: every window
    is planned on the profile of the running jobs and the jobs started so far, and its jobs
    that can start now start — the first-fit loop of Cobalt's cluster queue simulator, an
    attribution reading of the base schedule) or ``"none"`` (Steps 4-5 only: windows are
    allocated from the head until one holds a job that cannot start now; no Step 6 — the
    fair-start probe's ``probe_backfill="none"`` reading).

    ``search_windows``: only the first that many windows get the permutation search; later jobs
    are allocated one by one in priority order (None: every window, the paper's Step 5). A cost
    cap for deep queues under conservative backfilling, where every window is planned each pass.

    ``backfill_rule`` / ``backfill_order`` (Step 6 under EASY) and ``window_makespan`` (Step 5):
    the readings of :class:`~.policy.Policy` of the same names.

    ``queue``: queued job keys in arrival order; ``submit``/``procs``/``est``: indexable by key;
    ``running``: (estimated end, nodes, first node) of running jobs. Returns (key, first node)
    of the jobs to start now (first node -1 under any-node allocation).
    """
    if not queue:
        return []
    if bf == 1.0:  # S_p = S_w orders by submission (ties as documented): skip the arithmetic
        order = list(queue)
    else:
        idx = priority_order(now, np.array([submit[j] for j in queue], dtype=np.float64),
                             np.array([est[j] for j in queue], dtype=np.float64), bf)
        order = [queue[i] for i in idx]
    prof = new_profile(allocation, n, now, running)
    starts: list[tuple[Any, int]] = []
    conservative = backfill == "conservative"
    free_now = n - sum(r[1] for r in running)
    pos = k = 0
    greedy = backfill == "greedy"
    machine = window_makespan == "machine"
    # the latest planned end on the machine (the "machine" makespan's floor)
    last_end = max((r[0] for r in running), default=-INF) if machine else -INF
    shadow = INF  # the blocked window's earliest reserved start (the drain rule's limit)
    while pos < len(order):
        if greedy and free_now <= 0:
            break
        win = order[pos:pos + (w if search_windows is None or k < search_windows else 1)]
        pos += len(win)
        k += 1
        plan = window_allocation(prof.copy() if greedy else prof, now,
                                 [procs[j] for j in win], [est[j] for j in win], counter,
                                 last_end)
        for i, t, lo in plan:
            if t == now:
                starts.append((win[i], lo))
                free_now -= procs[win[i]]
                if greedy:  # only the jobs that start bind the later windows
                    take(prof, now, est[win[i]], procs[win[i]], lo)
            else:
                shadow = min(shadow, t)
            if machine and (t == now or not greedy):
                last_end = max(last_end, t + est[win[i]])
        if shadow < INF and not (conservative or greedy):
            break
    if backfill == "easy":  # Step 6, EASY: the blocked window's reservations are protected
        cands = order[pos:]
        if backfill_order == "sjf":  # stable: equal estimates keep the priority order
            cands = sorted(cands, key=lambda j: est[j])
        drain = backfill_rule == "drain"
        for j in cands:
            if procs[j] > free_now or (drain and now + est[j] >= shadow):
                continue
            if counter is not None:
                counter[0] += 1
            lo = fits_now(prof, now, procs[j], est[j])
            if lo is not None:
                take(prof, now, est[j], procs[j], lo)
                starts.append((j, lo))
                free_now -= procs[j]
    return starts
