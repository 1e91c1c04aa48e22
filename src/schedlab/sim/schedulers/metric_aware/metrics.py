"""The monitored metrics of Tang et al. 2013 (§4.2, §4.4).

Metrics (§4.2): queue depth = sum of the current waits of queued jobs; utilization instant
and averaged over the past 1 h / 10 h / 24 h (delivered node-seconds / (N x window); windows
reaching before the first submission are cut there); loss of capacity, eq. 4 (see
:func:`loss_of_capacity`).
"""

from __future__ import annotations

import math

import numpy as np

from .policy import CHECK_INTERVAL


def queue_depth(t: float, submit: np.ndarray, start: np.ndarray) -> float:
    """Sum of the waits endured up to ``t`` by jobs queued at ``t`` (submitted, not started)."""
    q = (submit <= t) & (start > t)
    return float(np.sum(t - submit[q]))


def delivered(a: float, b: float, start: np.ndarray, end: np.ndarray, procs: np.ndarray) -> float:
    """Node-seconds delivered during ``[a, b]`` by jobs running on ``[start, end)``."""
    lo = np.maximum(start, a)
    hi = np.minimum(end, b)
    return float(np.sum(np.clip(hi - lo, 0, None) * procs))


def utilization_average(
    t: float, span: float, t0: float, start: np.ndarray, end: np.ndarray, procs: np.ndarray, n: int
) -> float:
    """Utilization over the past ``span`` seconds before ``t`` (window cut at ``t0``)."""
    a = max(t - span, t0)
    if t <= a:
        return float("nan")
    return delivered(a, t, start, end, procs) / (n * (t - a))


def monitor_series(
    submit: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    procs: np.ndarray,
    n: int,
    t0: float,
    t_end: float,
    interval: float = CHECK_INTERVAL,
) -> dict[str, np.ndarray]:
    """The §4.4 monitors every ``interval`` from ``t0``: queue depth (s), instant utilization and
    the 1 h / 10 h / 24 h averages."""
    grid = t0 + interval * np.arange(math.floor((t_end - t0) / interval) + 1)
    out = {"time": grid, "queue_depth": np.empty(len(grid)), "util_instant": np.empty(len(grid))}
    for name in ("util_1h", "util_10h", "util_24h"):
        out[name] = np.empty(len(grid))
    for k, t in enumerate(grid):
        out["queue_depth"][k] = queue_depth(t, submit, start)
        out["util_instant"][k] = float(np.sum(procs[(start <= t) & (end > t)])) / n
        out["util_1h"][k] = utilization_average(t, 3600.0, t0, start, end, procs, n)
        out["util_10h"][k] = utilization_average(t, 36000.0, t0, start, end, procs, n)
        out["util_24h"][k] = utilization_average(t, 86400.0, t0, start, end, procs, n)
    return out


def loss_of_capacity(
    submit: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    procs: np.ndarray,
    n: int,
    strict: bool = False,
) -> float:
    """Eq. 4: ``sum n_i (t_{i+1} - t_i) delta_i / (N (t_m - t_1))``.

    Events ``t_i`` are every instant at which the schedule changes (submissions, starts and
    ends; a refinement of the paper's arrival/termination events that keeps ``n_i`` constant
    between events). ``n_i`` = idle nodes after event ``i``; ``delta_i`` = 1 when a job is
    waiting after event ``i`` whose size is ``<= n_i`` (``< n_i`` with ``strict``, the literal
    "smaller than").
    """
    submit, start, end = (np.asarray(x, dtype=np.float64) for x in (submit, start, end))
    procs = np.asarray(procs, dtype=np.int64)
    events = np.unique(np.concatenate([submit, start, end]))
    if len(events) < 2:
        return 0.0
    # busy nodes after each event: + at start, - at end
    delta_busy = np.zeros(len(events), dtype=np.int64)
    np.add.at(delta_busy, np.searchsorted(events, start), procs)
    np.add.at(delta_busy, np.searchsorted(events, end), -procs)
    idle = n - np.cumsum(delta_busy)
    # smallest waiting job after each event i (a job waits after events arrive_at..leave_at-1):
    # jobs in increasing size paint the intervals not painted yet (next-unpainted pointers)
    arrive_at = np.searchsorted(events, submit).tolist()
    leave_at = np.searchsorted(events, start).tolist()
    smallest = [0] * len(events)  # 0: nobody waits
    nxt = list(range(len(events) + 1))

    def unpainted(i: int) -> int:
        root = i
        while nxt[root] != root:
            root = nxt[root]
        while nxt[i] != root:  # path compression
            nxt[i], i = root, nxt[i]
        return root

    for j in np.argsort(procs, kind="stable").tolist():
        i, stop, size = unpainted(arrive_at[j]), leave_at[j], int(procs[j])
        while i < stop:
            smallest[i] = size
            nxt[i] = i + 1
            i = unpainted(i + 1)
    lost = 0.0
    for i in range(len(events) - 1):
        sm = smallest[i]
        if sm and (sm < idle[i] or (not strict and sm == idle[i])):
            lost += idle[i] * (events[i + 1] - events[i])
    return lost / (n * (events[-1] - events[0]))
