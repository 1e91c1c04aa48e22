"""Cirne 2001: a moldable workload as flat arrays (docs/design.md §3 job and alternative tables),
the chapter-3 synthetic workloads (:mod:`schedlab.models.synth`) and the choice of target jobs.

Targets (§5.1) are drawn uniformly among the jobs that are not cancelled (the thesis is silent; a
cancelled job has no turn-around).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...models.synth import moldable_workload, params_from_dict
from ...sim.schedulers.sa import INF
from .config import PAPER


@dataclass(frozen=True)
class Workload:
    """A moldable workload as flat arrays, jobs in submission order (ties: job table order).

    Job ``k``'s requests are ``alt_*[alt_ptr[k]:alt_ptr[k+1]]``; ``user_alt[k]`` is the global index
    of its user request. ``cancel[k]`` is the absolute cancellation time (inf if never cancelled).
    ``info`` holds per-job model parameters for the breakdowns (L, A, sigma, c_min, ...)."""

    job_id: np.ndarray
    submit: np.ndarray
    cancel: np.ndarray
    alt_ptr: np.ndarray
    alt_procs: np.ndarray
    alt_est: np.ndarray
    alt_run: np.ndarray
    user_alt: np.ndarray
    info: pd.DataFrame

    @property
    def n_jobs(self) -> int:
        return len(self.submit)

    def alts(self, k: int) -> range:
        return range(int(self.alt_ptr[k]), int(self.alt_ptr[k + 1]))


def workload_from_tables(jobs: pd.DataFrame, alternatives: pd.DataFrame, machine_procs: int
                         ) -> Workload:
    """Flatten the (jobs, alternatives) tables of docs/design.md §3 into a :class:`Workload`.

    ``jobs``: job_id, submit, runtime, estimate, procs (+ optional cancel_time and model columns);
    ``alternatives``: job_id, procs, runtime, estimate. A job's own request is added to its
    alternatives when missing (the user request is one of the nu requests, §5.1); alternatives wider
    than the machine are dropped; runtimes are cut at the estimate (the job is killed there)."""
    need = {"job_id", "submit", "runtime", "estimate", "procs"}
    if missing := need - set(jobs.columns):
        raise ConfigError(f"{PAPER}: jobs table lacks columns {sorted(missing)}")
    if missing := {"job_id", "procs", "runtime", "estimate"} - set(alternatives.columns):
        raise ConfigError(f"{PAPER}: alternatives table lacks columns {sorted(missing)}")
    jobs = jobs[jobs["procs"] <= machine_procs].sort_values(["submit", "job_id"], kind="stable")
    jobs = jobs.reset_index(drop=True)
    alts = alternatives[alternatives["procs"] <= machine_procs]
    own = jobs[["job_id", "procs", "runtime", "estimate"]]
    alts = pd.concat([own, alts[["job_id", "procs", "runtime", "estimate"]]], ignore_index=True)
    alts = alts.drop_duplicates(["job_id", "procs"], keep="first")
    order = pd.Series(np.arange(len(jobs)), index=jobs["job_id"].to_numpy())
    alts = alts.assign(_k=order.reindex(alts["job_id"].to_numpy()).to_numpy())
    alts = alts.dropna(subset=["_k"]).sort_values(["_k", "procs"], kind="stable")
    k = alts["_k"].to_numpy(dtype=np.int64)
    ptr = np.searchsorted(k, np.arange(len(jobs) + 1), side="left")
    procs = alts["procs"].to_numpy(dtype=np.int64)
    est = np.ceil(alts["estimate"].to_numpy(dtype=float))
    run = np.minimum(np.ceil(alts["runtime"].to_numpy(dtype=float)), est)
    user = np.empty(len(jobs), dtype=np.int64)
    own_procs = jobs["procs"].to_numpy(dtype=np.int64)
    for j in range(len(jobs)):
        seg = procs[ptr[j]:ptr[j + 1]]
        user[j] = ptr[j] + int(np.flatnonzero(seg == own_procs[j])[0])
    cancel = (jobs["cancel_time"].to_numpy(dtype=float) if "cancel_time" in jobs
              else np.full(len(jobs), np.nan))
    # whole seconds (the engine's convention) keep every profile sum exact in float64
    cancel = np.where(np.isnan(cancel), INF, np.ceil(cancel))
    info = jobs.drop(columns=[c for c in ("submit", "runtime", "estimate", "cancel_time")
                              if c in jobs])
    submit = np.floor(jobs["submit"].to_numpy(float))
    return Workload(jobs["job_id"].to_numpy(np.int64), submit, cancel, ptr,
                    procs, est, run, user, info)


def synthetic_workload(seed: np.random.SeedSequence, n_jobs: int, machine_procs: int,
                       kappa_L: float = 1.0, kappa_sigma: float = 1.0,
                       model: dict[str, Any] | None = None) -> tuple[Workload, dict[str, Any]]:
    """A chapter-3 moldable workload (:func:`schedlab.models.synth.moldable_workload`) as a
    :class:`Workload`, with the load multiplier kappa_L and the sigma multiplier kappa_sigma."""
    d = {k: dict(v) if isinstance(v, dict) else v for k, v in (model or {}).items()}
    d["machine_size"] = machine_procs
    d.setdefault("rigid", {})["kappa_L"] = float(kappa_L)
    d.setdefault("moldability", {})["kappa_sigma"] = float(kappa_sigma)
    jobs, alts = moldable_workload(params_from_dict(d), n_jobs, seed)
    return workload_from_tables(jobs, alts, machine_procs), dict(jobs.attrs.get("info", {}))


def pick_targets(wl: Workload, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` target jobs drawn uniformly, without replacement, among the jobs never cancelled."""
    pool = np.flatnonzero(np.isinf(wl.cancel))
    if len(pool) == 0:
        raise ConfigError(f"{PAPER}: no uncancelled job to target")
    return np.sort(rng.choice(pool, size=min(n, len(pool)), replace=False))
