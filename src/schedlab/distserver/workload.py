"""Workload for the distributed-server study (Schroeder & Harchol-Balter 2004, §2.1, §2.2, §6).

* Service requirements are the run times of a selectable job subset of a trace (the paper: CTC SP2
  jobs using exactly 8 processors, Appendix C / note 2). Jobs with unknown (-1) or zero run time are
  dropped (slowdown divides by the service time) and counted, never silently.
* The trace is split in two halves in trace (submit) order: cutoffs are derived on the first half and
  policies evaluated on the second (§4.1). The paper does not say how it halved the data; the
  chronological split is the natural reading (``split="chronological"``); ``split="alternate"``
  (even/odd jobs) is offered as an option.
* Arrivals: a Poisson process with rate λ = ρ h / E[X] giving system load ρ (§2.2), or (§6) the
  trace's own inter-arrival times (of the same jobs, in trace order) multiplied by one common factor
  so that their mean is 1/λ for the same λ.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import ConfigError
from ..traces.lookup import procs_used

SPLITS = ("chronological", "alternate")


@dataclass(frozen=True)
class ServiceTrace:
    """Jobs of the chosen subset in submit order: submit times and service times (seconds)."""

    submit: np.ndarray
    service: np.ndarray
    report: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.service)

    def halves(self, split: str = "chronological") -> tuple[ServiceTrace, ServiceTrace]:
        """(derivation half, evaluation half), §4.1."""
        n = len(self)
        if split == "chronological":
            first = np.arange(n) < n // 2
        elif split == "alternate":
            first = np.arange(n) % 2 == 0
        else:
            raise ConfigError(f"split must be one of {SPLITS}, got {split!r}")
        return (ServiceTrace(self.submit[first], self.service[first]),
                ServiceTrace(self.submit[~first], self.service[~first]))


def select_jobs(jobs: pd.DataFrame, procs: list[int] | None = None, procs_min: int | None = None,
                procs_max: int | None = None, max_run_time: float | None = None) -> ServiceTrace:
    """Service times of a job subset of a trace table (SWF columns).

    ``procs``: keep jobs whose processor count (allocated, else requested) is in the list;
    ``procs_min``/``procs_max``: inclusive bounds; ``max_run_time``: drop longer jobs. ``None`` = no
    filter. The report counts every job each rule removes.
    """
    report = {"trace_jobs": len(jobs)}
    p = procs_used(jobs)
    keep = np.ones(len(jobs), dtype=bool)
    if procs is not None:
        keep &= np.isin(p, np.asarray(procs))
    if procs_min is not None:
        keep &= p >= procs_min
    if procs_max is not None:
        keep &= p <= procs_max
    report["subset_jobs"] = int(keep.sum())
    run = jobs["run_time"].to_numpy().astype(np.float64)
    bad = keep & (run <= 0)
    report["dropped_unknown_or_zero_run_time"] = int(bad.sum())
    keep &= ~bad
    if max_run_time is not None:
        long = keep & (run > max_run_time)
        report["dropped_above_max_run_time"] = int(long.sum())
        keep &= ~long
    submit = jobs["submit_time"].to_numpy().astype(np.float64)[keep]
    service = run[keep]
    order = np.argsort(submit, kind="stable")
    report["jobs"] = int(keep.sum())
    if report["jobs"] < 4:
        raise ConfigError(f"job subset leaves {report['jobs']} jobs with positive run time; "
                          "need at least 4 (check the procs options)")
    return ServiceTrace(submit[order], service[order], report)


def arrival_rate(load: float, h: int, mean_service: float) -> float:
    """λ giving system load ρ = λ E[X] / h."""
    if not load > 0:
        raise ConfigError(f"load must be positive, got {load}")
    return load * h / mean_service


def unit_exponential_gaps(n: int, seed: np.random.SeedSequence) -> np.ndarray:
    """n i.i.d. Exp(1) inter-arrival gaps; scaled by 1/λ they give a Poisson process of rate λ.

    Using the same gaps for every load and policy gives common random numbers across the sweep.
    """
    return np.random.default_rng(seed).exponential(1.0, size=n)


def poisson_arrivals(gaps: np.ndarray, lam: float) -> np.ndarray:
    """Arrival times of a Poisson process of rate λ from unit exponential gaps (first at gap 1)."""
    return np.cumsum(gaps / lam)


def scaled_trace_arrivals(submit: np.ndarray, lam: float) -> np.ndarray:
    """§6: the trace's own inter-arrival times, scaled so that their mean is 1/λ (first job at 0)."""
    gaps = np.diff(submit)
    if len(gaps) == 0 or gaps.mean() <= 0:
        raise ConfigError("scaled arrivals need at least two jobs with distinct submit times")
    factor = (1.0 / lam) / gaps.mean()
    return np.concatenate([[0.0], np.cumsum(gaps * factor)])
