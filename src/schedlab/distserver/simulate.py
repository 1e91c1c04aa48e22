"""Trace-driven simulation of a distributed server (Schroeder & Harchol-Balter 2004, §1.1, §2.2).

h identical hosts; each runs one job at a time, first-come-first-served, to completion. Every job is
dispatched on arrival by a task assignment policy (§1.2):

* ``random`` — host chosen uniformly at random (needs ``rng``).
* ``round_robin`` — the i-th job (0-based) goes to host ``i mod h``.
* ``shortest_queue`` — the host with the fewest jobs (queued + running) at the arrival instant.
* ``lwl`` (Least-Work-Left) — the host with the least remaining work at the arrival instant.
* ``central_queue`` — jobs wait in one FCFS queue at the dispatcher; a host takes the head job when it
  becomes free. Simulated by a separate event loop so that the LWL ≡ Central-Queue theorem (§3.1,
  [11]) is a test, not an assumption.
* ``sita`` — Size-Interval Task Assignment: with cutoffs c_1 < … < c_{h-1} a job of size x goes to
  host i when c_{i-1} < x ≤ c_i (SITA-E / SITA-U-opt / SITA-U-fair differ only in the cutoffs).
* ``sita_groups`` — the §5 variant for many hosts: one 2-host cutoff splits jobs into short and long;
  the first ``short_hosts`` hosts serve short jobs and the rest long jobs, each group by LWL.

Tie rules (explicit, shared by LWL and Central-Queue so that they agree job for job): a host that
finishes exactly at an arrival instant is idle for that arrival; among equally good hosts (several
idle hosts, equal work left, equal queue length) the lowest-numbered host wins; jobs that arrive at
the same instant are dispatched in input order.

Once jobs are assigned, every host is an FCFS queue, computed in vectorized form by the Lindley
recursion written as ``end_n = C_n + max_{k≤n}(a_k - C_{k-1})`` with ``C`` the running sum of
service times on that host.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError

POLICIES = ("random", "round_robin", "shortest_queue", "lwl", "central_queue", "sita",
            "sita_groups")


@dataclass(frozen=True)
class Schedule:
    """Per-job outcome of one simulation, in input (arrival) order."""

    arrival: np.ndarray
    service: np.ndarray
    host: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @property
    def wait(self) -> np.ndarray:
        return self.start - self.arrival

    @property
    def response(self) -> np.ndarray:
        return self.end - self.arrival

    @property
    def slowdown(self) -> np.ndarray:
        """Response time / service requirement (§1.2)."""
        return self.response / self.service


def fcfs_hosts(arrival: np.ndarray, service: np.ndarray, host: np.ndarray, h: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Start and end times of jobs already assigned to hosts, each host FCFS (vectorized Lindley).

    ``arrival`` must be non-decreasing; jobs on the same host are served in input order.
    """
    start = np.empty(len(arrival), dtype=np.float64)
    end = np.empty(len(arrival), dtype=np.float64)
    for k in range(h):
        idx = np.flatnonzero(host == k)
        if len(idx) == 0:
            continue
        a = arrival[idx]
        x = service[idx]
        c = np.cumsum(x)
        c_prev = c - x
        e = c + np.maximum.accumulate(a - c_prev)
        end[idx] = e
        s = np.empty_like(e)
        s[0] = a[0]
        s[1:] = np.maximum(a[1:], e[:-1])
        start[idx] = s
    return start, end


def lwl_schedule(arrival: np.ndarray, service: np.ndarray, h: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Least-Work-Left (host, start, end) of every job: per-arrival loop, O(log h) per job.

    Start and end come from the same additions as the Central-Queue event loop (start = arrival or
    the moment the host frees, end = start + service), so the two agree bit for bit.
    """
    idle = list(range(h))  # heap of idle host numbers
    busy: list[tuple[float, int]] = []  # heap of (time the host becomes free, host)
    n = len(arrival)
    host = np.empty(n, dtype=np.int64)
    start = np.empty(n, dtype=np.float64)
    push, pop = heapq.heappush, heapq.heappop
    for i, (t, x) in enumerate(zip(arrival.tolist(), service.tolist(), strict=True)):
        while busy and busy[0][0] <= t:
            push(idle, pop(busy)[1])
        if idle:
            k = pop(idle)
            s = t
        else:
            s, k = pop(busy)
        push(busy, (s + x, k))
        host[i] = k
        start[i] = s
    return host, start, start + service


def shortest_queue_assign(arrival: np.ndarray, service: np.ndarray, h: int) -> np.ndarray:
    """Shortest-Queue host choice: fewest jobs present (queued or running) at the arrival."""
    ends: list[deque[float]] = [deque() for _ in range(h)]
    free = [0.0] * h
    out = np.empty(len(arrival), dtype=np.int64)
    for i, (t, x) in enumerate(zip(arrival.tolist(), service.tolist(), strict=True)):
        best, best_n = 0, -1
        for k in range(h):
            q = ends[k]
            while q and q[0] <= t:
                q.popleft()
            if best_n < 0 or len(q) < best_n:
                best, best_n = k, len(q)
        f = max(t, free[best]) + x
        free[best] = f
        ends[best].append(f)
        out[i] = best
    return out


def central_queue(arrival: np.ndarray, service: np.ndarray, h: int) -> Schedule:
    """Central-Queue by an explicit event loop: one FCFS queue, the first free host takes its head.

    Events at equal times: completions before arrivals; freed hosts are taken lowest-number first.
    """
    n = len(arrival)
    host = np.empty(n, dtype=np.int64)
    start = np.empty(n, dtype=np.float64)
    end = np.empty(n, dtype=np.float64)
    idle = list(range(h))
    running: list[tuple[float, int]] = []
    queue: deque[int] = deque()
    a = arrival.tolist()
    x = service.tolist()
    i = 0
    while i < n or queue or running:
        t_arr = a[i] if i < n else np.inf
        if running and running[0][0] <= t_arr:
            t = running[0][0]
            while running and running[0][0] == t:
                heapq.heappush(idle, heapq.heappop(running)[1])
        else:
            t = t_arr
            queue.append(i)
            i += 1
        while queue and idle:
            j = queue.popleft()
            k = heapq.heappop(idle)
            host[j], start[j], end[j] = k, t, t + x[j]
            heapq.heappush(running, (t + x[j], k))
    return Schedule(arrival, service, host, start, end)


def sita_assign(service: np.ndarray, cutoffs: np.ndarray | list[float]) -> np.ndarray:
    """Host of each job under SITA: host i gets sizes in (c_{i-1}, c_i] (cutoffs increasing)."""
    c = np.asarray(cutoffs, dtype=np.float64)
    if np.any(np.diff(c) <= 0):
        raise ConfigError(f"SITA cutoffs must be strictly increasing, got {c.tolist()}")
    return np.searchsorted(c, service, side="left").astype(np.int64)


def simulate(arrival: np.ndarray, service: np.ndarray, h: int, policy: str, *,
             cutoffs: np.ndarray | list[float] | None = None, short_hosts: int | None = None,
             rng: np.random.Generator | None = None) -> Schedule:
    """Simulate one policy on jobs given by (non-decreasing) arrival times and service times."""
    arrival = np.asarray(arrival, dtype=np.float64)
    service = np.asarray(service, dtype=np.float64)
    if arrival.shape != service.shape:
        raise ValueError("arrival and service must have the same length")
    if len(arrival) and np.any(np.diff(arrival) < 0):
        raise ValueError("arrival times must be non-decreasing")
    if h < 1:
        raise ConfigError(f"number of hosts must be >= 1, got {h}")
    n = len(arrival)
    if policy == "central_queue":
        return central_queue(arrival, service, h)
    if policy == "random":
        if rng is None:
            raise ConfigError("policy random needs an rng")
        host = rng.integers(0, h, size=n).astype(np.int64)
    elif policy == "round_robin":
        host = np.arange(n, dtype=np.int64) % h
    elif policy == "shortest_queue":
        host = shortest_queue_assign(arrival, service, h)
    elif policy == "lwl":
        return Schedule(arrival, service, *lwl_schedule(arrival, service, h))
    elif policy == "sita":
        if cutoffs is None or len(cutoffs) != h - 1:
            raise ConfigError(f"policy sita with {h} hosts needs {h - 1} cutoffs, got {cutoffs}")
        host = sita_assign(service, cutoffs)
    elif policy == "sita_groups":
        if cutoffs is None or len(cutoffs) != 1 or short_hosts is None or not 0 < short_hosts < h:
            raise ConfigError("policy sita_groups needs one cutoff and 0 < short_hosts < h")
        host = np.empty(n, dtype=np.int64)
        start = np.empty(n, dtype=np.float64)
        end = np.empty(n, dtype=np.float64)
        for group, first, size in ((service <= cutoffs[0], 0, short_hosts),
                                   (service > cutoffs[0], short_hosts, h - short_hosts)):
            g_host, start[group], end[group] = lwl_schedule(arrival[group], service[group], size)
            host[group] = first + g_host
        return Schedule(arrival, service, host, start, end)
    else:
        raise ConfigError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    start, end = fcfs_hosts(arrival, service, host, h)
    return Schedule(arrival, service, host, start, end)
