"""Cirne 2001: attribution of the synthetic machine's load — the readings of the arrival rate and of
accuracies above 1 (:class:`schedlab.models.synth.RigidParams`) side by side, each measured by the
offered load, Figure 59's load per processor D at a target's arrival and Table 13's user-request
turn-around (docs/papers/cirne2001.md, "Load").

Figure 59 (§6.1) plots "the distribution of the load per processor D at the moment the target job
j arrives in the system", D (§5.3.3) = sum_j n_j (tr_j - (i_now - i_j)) / P over the jobs in the
system; "for approximately 60% of the experiments ... job j found the supercomputer to be less
loaded (D < 500,000)". Each of the thesis' experiments draws a 10,000-job workload (§5.1), whose
arrival polynomial is "randomly chosen" among the four (§3.5), and one target among its jobs.

Design: for each reading, each polynomial (forced, so that the four are weighted equally, as the
random choice is in expectation) and each of ``workloads_per_polynomial`` seeds (the same seeds
for every reading and polynomial), one workload is run with every job's user request (the static
workload: conservative backfilling, the experiments' same-time order), paused just before every
job that is never cancelled (the possible targets) to read D, then run to its end for that job's
turn-around (Table 13's user request). A workload is one row: the fractions of its targets below
the thresholds of D, the mean log turn-around, over all targets and over the targets among its
first 1,000 jobs (the default's workload size: D at job k's arrival depends on jobs 1..k-1 only;
its turn-around can also depend on later arrivals, through the compression of the queue).
The thesis draws one target per workload, so the reading's value is the mean over its workloads
(the geometric mean for the turn-around).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...models.arrival import ORIGIN_PROCS
from ...models.synth import params_from_dict
from ...sim.options import SimOptions
from ..settings import deep_merge
from .config import PAPER, Settings
from .machine import TIE_RULE, load_at, machine_run, sim_jobs
from .workload import synthetic_workload

#: thresholds of D (s): §6.1's 110,000 (Figure 60), §5.3.3's 200,000 (Figure 52b), Figure 59's
#: 500,000
D_THRESHOLDS = (110_000, 200_000, 500_000)
FIRST = 1000  # the default's workload size
SEED_KEY = 8  # SeedSequence spawn key (8, w) of workload seed w (runs.py uses 0-5, generator 7)


def _settings(s: Settings) -> Mapping[str, Any]:
    la = s.load_attribution
    for key in ("jobs_per_workload", "workloads_per_polynomial"):
        if not isinstance(la.get(key), int) or la[key] < 1:
            raise ConfigError(f"{PAPER}: load_attribution.{key} must be a positive integer")
    return la


def workload_loads(wl: Any, machine_procs: int,
                   sim: SimOptions = SimOptions(tie_rule=TIE_RULE)) -> dict[str, float]:
    """One workload's row (module docstring): D before every never-cancelled job's arrival and
    its turn-around with the user request, in the static workload, under the engine options
    ``sim`` (the single-target experiments': ``single_target.sim``)."""
    jobs = sim_jobs(wl)
    base = machine_run(jobs, machine_procs, "user", sim=sim)
    targets = np.flatnonzero(np.isinf(wl.cancel))
    d_at = np.empty(len(targets))
    for i, k in enumerate(targets):
        base.run(stop_before=jobs[k].job_id)
        d_at[i] = load_at(base)
    base.run()
    res = base.result().jobs.set_index("job_id")
    end = res["end"].to_numpy(float)[res.index.get_indexer(wl.job_id[targets])]
    log_tt = np.log(np.maximum(end - wl.submit[targets], 1.0))
    first = targets < FIRST
    u = wl.user_alt
    span = float(wl.submit[-1] - wl.submit[0])
    row: dict[str, float] = {
        "jobs": float(wl.n_jobs), "targets": float(len(targets)),
        "days": span / 86400.0, "jobs_per_day": (wl.n_jobs - 1) / span * 86400.0,
        "offered_load": float((wl.alt_run[u] * wl.alt_procs[u]).sum()) / (machine_procs * span),
        "D_median": float(np.median(d_at)), "D_last": float(d_at[-1]),
        "mean_log_user_tt": float(log_tt.mean()),
        "mean_log_user_tt_first_1000": float(log_tt[first].mean()),
    }
    for thr in D_THRESHOLDS:
        row[f"D_below_{thr // 1000}k"] = float(np.mean(d_at < thr))
        row[f"D_below_{thr // 1000}k_first_1000"] = float(np.mean(d_at[first] < thr))
    return row


def run_load_reading(s: Settings, reading: str, model: dict[str, Any] | None = None
                     ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Every workload of one reading of config ``load_attribution.readings`` (module docstring):
    one row per (polynomial, seed), the reading's overrides applied on top of ``model``."""
    la = _settings(s)
    readings = la.get("readings") or {}
    if reading not in readings:
        raise ConfigError(f"{PAPER}: load_attribution.readings has no reading {reading!r}")
    over = deep_merge(model or {}, readings[reading] or {})
    polys = params_from_dict(over).rigid.arrival
    names = [p.name for p in polys]
    sim = SimOptions.from_mapping(s.single_target.get("sim"))
    rows = []
    for poly in polys:
        forced = deep_merge(over, {"rigid": {"arrival": [poly.to_dict()]}})
        for w in range(la["workloads_per_polynomial"]):
            wl, info = synthetic_workload(np.random.SeedSequence(int(s.seed),
                                                                 spawn_key=(SEED_KEY, w)),
                                          la["jobs_per_workload"], s.machine_procs,
                                          model=forced)
            rows.append({"reading": reading, "polynomial": poly.name, "workload": w,
                         "arrival_scale": float(info["arrival_scale"]),
                         **workload_loads(wl, s.machine_procs, sim)})
    meta = {"paper": PAPER, "reading": reading, "overrides": readings[reading],
            "seed_entropy": int(s.seed), "spawn_key": [SEED_KEY, "w"],
            "jobs": la["jobs_per_workload"], "polynomials": names}
    return pd.DataFrame(rows), meta


def _stratified_ci(df: pd.DataFrame, col: str, rng: np.random.Generator, resamples: int,
                   confidence: float) -> tuple[float, float]:
    """Percentile bootstrap of the mean over polynomials of the per-polynomial mean of ``col``,
    resampling workloads within each polynomial."""
    boot = np.zeros(resamples)
    groups = [g[col].to_numpy(float) for _, g in df.groupby("polynomial", sort=False)]
    for x in groups:
        boot += x[rng.integers(0, len(x), size=(resamples, len(x)))].mean(axis=1)
    boot /= len(groups)
    a = (1 - confidence) / 2
    lo, hi = np.quantile(boot, [a, 1 - a])
    return float(lo), float(hi)


def load_table(frames: dict[str, pd.DataFrame], published: dict[str, Any], machine_procs: int,
               rng: np.random.Generator, resamples: int = 1000, confidence: float = 0.95
               ) -> pd.DataFrame:
    """One row per reading (the mean over its workloads, each polynomial weighted equally; the
    per-polynomial offered loads and fractions below 500,000 s as columns; bootstrap CIs
    resampling workloads within each polynomial) and the thesis' row: Figure 59's fraction (§6.1),
    Table 13's user geometric mean, the logs' jobs per day (Table 1 jobs / Table 2 days) times P/O
    on the simulated machine."""
    rows = []
    for reading, df in frames.items():
        if df.empty:
            continue
        per = df.groupby("polynomial", sort=False).mean(numeric_only=True)
        row: dict[str, Any] = {
            "reading": reading, "workloads": len(df), "jobs_per_workload": int(df["jobs"].iloc[0]),
            "jobs_per_day": float(per["jobs_per_day"].mean()),
            "offered_load": float(per["offered_load"].mean()),
        }
        for d in D_THRESHOLDS:
            for suffix in ("", "_first_1000"):
                col = f"D_below_{d // 1000}k{suffix}"
                row[col] = float(per[col].mean())
        row["D_below_500k_ci_low"], row["D_below_500k_ci_high"] = _stratified_ci(
            df, "D_below_500k", rng, resamples, confidence)
        for suffix in ("", "_first_1000"):
            row[f"user_gm_tt{suffix}_s"] = math.exp(float(per[f"mean_log_user_tt{suffix}"].mean()))
        lo, hi = _stratified_ci(df, "mean_log_user_tt", rng, resamples, confidence)
        row["user_gm_tt_ci_low"], row["user_gm_tt_ci_high"] = math.exp(lo), math.exp(hi)
        for name in per.index:
            row[f"offered_load_{name}"] = float(per.loc[name, "offered_load"])
            row[f"D_below_500k_{name}"] = float(per.loc[name, "D_below_500k"])
        rows.append(row)
    logs = published["generator"]["log_jobs_per_day"]
    rows.append({"reading": "thesis", "workloads": 360000, "jobs_per_workload": 10000,
                 "jobs_per_day": float(np.mean([j / d * machine_procs / ORIGIN_PROCS[k]
                                                for k, (j, d) in logs.items()])),
                 "D_below_500k": float(published["fig59_D_below_500k_fraction"]),
                 "user_gm_tt_s": float(published["table13_geomean_tt_s"]["user"])})
    return pd.DataFrame(rows)
