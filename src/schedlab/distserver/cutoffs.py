"""SITA cutoffs (Schroeder & Harchol-Balter 2004, §1.2, §4.1, §4.4).

A cutoff c splits jobs into short (x ≤ c, Host 1) and long (x > c, Host 2). Candidate cutoffs are
the distinct service times of the derivation half of the trace, so every candidate is a real split
of that data. For a cutoff, the load and E[X²] at each host follow from the data and Theorem 1
gives each host's mean slowdown (§4.1); only *feasible* cutoffs, where neither host's load reaches 1,
are searched.

* SITA-E: the host loads are as equal as the data allow (h-1 cutoffs for h hosts, §1.2).
* SITA-U-opt: the feasible cutoff that minimizes the overall mean slowdown.
* SITA-U-fair: the feasible cutoff that makes the mean slowdown of short jobs equal to that of long
  jobs (the smallest |difference|; among exact ties, the lower mean slowdown).
* Rule of thumb (§4.4): the cutoff whose fraction of the total load on Host 1 is closest to ρ/2.

:func:`sweep_two_hosts` evaluates every candidate analytically in one vectorized pass;
:func:`simulated_sweep` does the same "experimentally" (§4.1): it simulates SITA on the derivation
half for a grid of candidate cutoffs and picks the opt/fair cutoffs from the simulated slowdowns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .queueing import SLOWDOWN_DEFINITIONS
from .simulate import fcfs_hosts, sita_assign


@dataclass(frozen=True)
class Sweep:
    """Analytic 2-host SITA metrics for every candidate cutoff (arrays indexed alike)."""

    cutoff: np.ndarray
    load_fraction_host1: np.ndarray  # share of total work sent to Host 1
    rho1: np.ndarray
    rho2: np.ndarray
    slowdown_short: np.ndarray
    slowdown_long: np.ndarray
    slowdown: np.ndarray  # overall mean, weighted by job fractions
    jobs_fraction_host1: np.ndarray

    @property
    def feasible(self) -> np.ndarray:
        return (self.rho1 < 1.0) & (self.rho2 < 1.0)

    def at(self, i: int) -> dict[str, float]:
        return {k: float(getattr(self, k)[i]) for k in (
            "cutoff", "load_fraction_host1", "rho1", "rho2", "slowdown_short", "slowdown_long",
            "slowdown", "jobs_fraction_host1")}


def sweep_two_hosts(x: np.ndarray, load: float, slowdown: str = "response") -> Sweep:
    """Theorem 1 at both hosts for every split of the sample ``x`` at a distinct value.

    The arrival rate is λ = 2ρ / E[X] (system load ρ on 2 hosts); Host 1 gets rate λ·(jobs ≤ c)/n.
    """
    if slowdown not in SLOWDOWN_DEFINITIONS:
        raise ValueError(f"slowdown must be one of {SLOWDOWN_DEFINITIONS}")
    xs = np.sort(np.asarray(x, dtype=np.float64))
    n = len(xs)
    lam = 2.0 * load / xs.mean()
    c1, c2, ci = np.cumsum(xs), np.cumsum(xs * xs), np.cumsum(1.0 / xs)
    # split after position k-1 (k short jobs) only where the value changes
    k = np.flatnonzero(xs[:-1] < xs[1:]) + 1
    n1, n2 = k.astype(np.float64), (n - k).astype(np.float64)
    s1, s2 = c1[k - 1], c1[-1] - c1[k - 1]
    q1, q2 = c2[k - 1], c2[-1] - c2[k - 1]
    i1, i2 = ci[k - 1], ci[-1] - ci[k - 1]
    rho1, rho2 = lam * s1 / n, lam * s2 / n
    with np.errstate(divide="ignore", invalid="ignore"):
        w1 = np.where(rho1 < 1, (lam * q1 / n) / (2 * (1 - rho1)), np.inf)
        w2 = np.where(rho2 < 1, (lam * q2 / n) / (2 * (1 - rho2)), np.inf)
        add = 1.0 if slowdown == "response" else 0.0
        sd1 = add + w1 * (i1 / n1)
        sd2 = add + w2 * (i2 / n2)
    overall = (n1 * sd1 + n2 * sd2) / n
    return Sweep(cutoff=xs[k - 1], load_fraction_host1=s1 / c1[-1], rho1=rho1, rho2=rho2,
                 slowdown_short=sd1, slowdown_long=sd2, slowdown=overall,
                 jobs_fraction_host1=n1 / n)


def sita_e_cutoffs(x: np.ndarray, h: int) -> list[float]:
    """SITA-E: h-1 cutoffs giving each host a share of the total work as close to 1/h as possible."""
    xs = np.sort(np.asarray(x, dtype=np.float64))
    cum = np.cumsum(xs) / xs.sum()
    k = np.flatnonzero(xs[:-1] < xs[1:])  # valid split after index k
    out = []
    for i in range(1, h):
        j = k[np.argmin(np.abs(cum[k] - i / h))]
        out.append(float(xs[j]))
    return sorted(set(out))


def _argmin_feasible(values: np.ndarray, feasible: np.ndarray, tiebreak: np.ndarray) -> int:
    if not feasible.any():
        raise ValueError("no feasible cutoff: the load is too high for a 2-host SITA split")
    idx = np.flatnonzero(feasible)
    order = np.lexsort((tiebreak[idx], values[idx]))
    return int(idx[order[0]])


def sita_u_opt(sw: Sweep) -> int:
    """Index of the feasible cutoff minimizing the overall mean slowdown (SITA-U-opt)."""
    return _argmin_feasible(sw.slowdown, sw.feasible, sw.cutoff)


def sita_u_fair(sw: Sweep) -> int:
    """Index of the feasible cutoff equalizing short and long mean slowdown (SITA-U-fair)."""
    return _argmin_feasible(np.abs(sw.slowdown_short - sw.slowdown_long), sw.feasible, sw.slowdown)


def sita_e_index(sw: Sweep) -> int:
    """Index of the 2-host equal-load cutoff in a sweep."""
    return int(np.argmin(np.abs(sw.load_fraction_host1 - 0.5)))


def rule_of_thumb(sw: Sweep, load: float) -> int:
    """Index of the cutoff whose Host-1 load fraction is closest to ρ/2 (§4.4)."""
    return int(np.argmin(np.abs(sw.load_fraction_host1 - load / 2.0)))


def simulated_sweep(arrivals: list[np.ndarray], service: np.ndarray | list[np.ndarray],
                    cutoffs: np.ndarray) -> pd.DataFrame:
    """Simulate 2-host SITA for each candidate cutoff over the given arrival streams (§4.1).

    ``service``: one service sequence for every stream, or one per stream (e.g. a fresh
    permutation per replication for i.i.d. service order).
    Returns one row per cutoff: pooled mean slowdown overall, of short and of long jobs.
    """
    services = service if isinstance(service, list) else [service] * len(arrivals)
    if len(services) != len(arrivals):
        raise ValueError("simulated_sweep: one service sequence per arrival stream needed")
    rows = []
    for c in cutoffs:
        tot = np.zeros(3)
        cnt = np.zeros(3)
        for a, x in zip(arrivals, services, strict=True):
            host = sita_assign(x, [c])
            short = host == 0
            _, end = fcfs_hosts(a, x, host, 2)
            sd = (end - a) / x
            tot += [sd.sum(), sd[short].sum(), sd[~short].sum()]
            cnt += [len(sd), short.sum(), (~short).sum()]
        with np.errstate(invalid="ignore"):
            m = tot / cnt
        rows.append({"cutoff": float(c), "slowdown": m[0], "slowdown_short": m[1],
                     "slowdown_long": m[2]})
    return pd.DataFrame(rows)


def pick_simulated(df: pd.DataFrame) -> tuple[int, int]:
    """(opt row, fair row) of a :func:`simulated_sweep` frame."""
    opt = int(np.lexsort((df["cutoff"].to_numpy(), df["slowdown"].to_numpy()))[0])
    diff = np.abs(df["slowdown_short"].to_numpy() - df["slowdown_long"].to_numpy())
    diff = np.where(np.isnan(diff), np.inf, diff)
    fair = int(np.lexsort((df["slowdown"].to_numpy(), diff))[0])
    return opt, fair


def candidate_grid(sw: Sweep, size: int) -> np.ndarray:
    """About ``size`` feasible cutoffs evenly spread in Host-1 load fraction (for simulation)."""
    idx = np.flatnonzero(sw.feasible)
    if len(idx) == 0:
        return np.array([])
    targets = np.linspace(sw.load_fraction_host1[idx].min(), sw.load_fraction_host1[idx].max(),
                          size)
    pos = np.searchsorted(sw.load_fraction_host1[idx], targets).clip(0, len(idx) - 1)
    return np.unique(sw.cutoff[idx[pos]])
