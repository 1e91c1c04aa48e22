"""Queueing formulas behind the analysis of Schroeder & Harchol-Balter (2004), §3.3 and Theorem 1.

* :func:`pk_mean_wait` — M/G/1 FCFS mean waiting time (Pollaczek–Khinchine),
  ``E[W] = λ E[X²] / (2 (1 - ρ))``.
* Theorem 1 also gives ``E[S] = E[W/X] = E[W] E[1/X]`` (waiting is independent of the job's own size
  in FCFS) and ``E[Q] = λ E[W]`` (Little). The paper defines slowdown in §1.2 as *response time over
  service requirement*, i.e. ``(W + X)/X = 1 + W/X``; Theorem 1's ``E[S]`` is the waiting part only.
  We report the §1.2 definition by default (``slowdown="response"``: ``1 + E[W] E[1/X]``, the same
  quantity the simulator measures); ``slowdown="wait"`` gives Theorem 1's ``E[W/X]`` literally.
* :func:`mgh_mean_queue` — the M/G/h approximation used for Least-Work-Left (§3.3):
  ``E[Q_M/G/h] ≈ E[Q_M/M/h] · factor``. The paper prints the factor as ``E[X²]/E[X]²``; the
  standard approximation it cites (Wolff; Nozaki–Ross) is ``E[X²]/(2 E[X]²) = (1 + C²)/2``, which is
  exact for h = 1 (it reduces to P–K). We use ``(1 + C²)/2`` by default (``factor="standard"``) and
  offer the literal form as ``factor="paper"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

SLOWDOWN_DEFINITIONS = ("response", "wait")
MGH_FACTORS = ("standard", "paper")


@dataclass(frozen=True)
class Moments:
    """Sample moments of service times used by Theorem 1: E[X], E[X²], E[1/X] and the job count."""

    n: int
    mean: float
    second: float
    inv_mean: float

    @classmethod
    def of(cls, x: np.ndarray) -> Moments:
        """Moments of a sample of positive service times."""
        x = np.asarray(x, dtype=np.float64)
        if len(x) == 0:
            return cls(0, math.nan, math.nan, math.nan)
        if np.any(x <= 0):
            raise ValueError("service times must be positive (slowdown divides by them)")
        return cls(len(x), float(x.mean()), float(np.mean(x * x)), float(np.mean(1.0 / x)))

    @property
    def scv(self) -> float:
        """Squared coefficient of variation C² = Var[X] / E[X]²."""
        return self.second / self.mean**2 - 1.0


def pk_mean_wait(lam: float, mean: float, second: float) -> float:
    """M/G/1 FCFS mean waiting time in queue (Pollaczek–Khinchine); ``inf`` when ρ = λE[X] ≥ 1."""
    rho = lam * mean
    if rho >= 1.0:
        return math.inf
    return lam * second / (2.0 * (1.0 - rho))


def slowdown_from_wait(mean_wait: float, inv_mean: float, slowdown: str = "response") -> float:
    """Mean slowdown from the mean wait (Theorem 1: E[W/X] = E[W] E[1/X]); see module docstring."""
    if slowdown not in SLOWDOWN_DEFINITIONS:
        raise ValueError(f"slowdown must be one of {SLOWDOWN_DEFINITIONS}, got {slowdown!r}")
    s = mean_wait * inv_mean
    return s + 1.0 if slowdown == "response" else s


def mg1(lam: float, m: Moments, slowdown: str = "response") -> dict[str, float]:
    """Theorem 1 for one M/G/1 FCFS host: utilization, mean wait, slowdown, queue length, response."""
    w = pk_mean_wait(lam, m.mean, m.second)
    return {
        "rho": lam * m.mean,
        "mean_wait": w,
        "mean_slowdown": slowdown_from_wait(w, m.inv_mean, slowdown),
        "mean_queue": lam * w,
        "mean_response": w + m.mean,
    }


def erlang_c(h: int, offered: float) -> float:
    """Probability that an arrival waits in M/M/h with offered load ``offered`` = λE[X] (Erlangs).

    Computed through the stable Erlang-B recursion; 1 when the system is saturated.
    """
    if h < 1:
        raise ValueError("h must be >= 1")
    if offered >= h:
        return 1.0
    b = 1.0
    for k in range(1, h + 1):
        b = offered * b / (k + offered * b)
    rho = offered / h
    return b / (1.0 - rho * (1.0 - b))


def mmh_mean_queue(lam: float, mean: float, h: int) -> float:
    """Mean number waiting in queue in M/M/h: C(h, a) ρ / (1 - ρ), a = λE[X], ρ = a/h."""
    a = lam * mean
    rho = a / h
    if rho >= 1.0:
        return math.inf
    return erlang_c(h, a) * rho / (1.0 - rho)


def mgh_mean_queue(lam: float, m: Moments, h: int, factor: str = "standard") -> float:
    """Approximate M/G/h mean queue length (§3.3): E[Q_M/M/h] times a second-moment factor."""
    if factor not in MGH_FACTORS:
        raise ValueError(f"factor must be one of {MGH_FACTORS}, got {factor!r}")
    ratio = m.second / m.mean**2
    f = ratio / 2.0 if factor == "standard" else ratio
    return mmh_mean_queue(lam, m.mean, h) * f


def random_policy(lam: float, m: Moments, h: int, slowdown: str = "response") -> dict[str, float]:
    """Random (Bernoulli splitting, §3.3): every host is an M/G/1 queue with rate λ/h."""
    return mg1(lam / h, m, slowdown)


def lwl_policy(lam: float, m: Moments, h: int, factor: str = "standard",
               slowdown: str = "response") -> dict[str, float]:
    """Least-Work-Left = M/G/h (§3.3): mean queue by the approximation, wait by Little's law."""
    q = mgh_mean_queue(lam, m, h, factor)
    w = q / lam
    return {"rho": lam * m.mean / h, "mean_wait": w,
            "mean_slowdown": slowdown_from_wait(w, m.inv_mean, slowdown), "mean_queue": q,
            "mean_response": w + m.mean}


def sita_policy(lam: float, x: np.ndarray, cutoffs: np.ndarray | list[float],
                slowdown: str = "response") -> dict[str, float]:
    """SITA with the given cutoffs (§3.3, §4.1): host i is M/G/1 fed by jobs in (c_{i-1}, c_i].

    Overall means weight each host by its fraction of jobs; hosts receiving no job are skipped.
    """
    x = np.asarray(x, dtype=np.float64)
    host = np.searchsorted(np.asarray(cutoffs, dtype=np.float64), x, side="left")
    n = len(x)
    tot = {"mean_wait": 0.0, "mean_slowdown": 0.0, "mean_response": 0.0}
    rhos = []
    for i in range(len(cutoffs) + 1):
        xi = x[host == i]
        if len(xi) == 0:
            rhos.append(0.0)
            continue
        p = len(xi) / n
        r = mg1(lam * p, Moments.of(xi), slowdown)
        rhos.append(r["rho"])
        for k in tot:
            tot[k] += p * r[k]
    return tot | {"host_rho": rhos}
