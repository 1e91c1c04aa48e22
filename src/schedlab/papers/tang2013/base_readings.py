"""Tang et al. 2013, issue 22: readings of the SP2 base schedule itself (§3.3, §4.1, §4.2) and of
the loss of capacity (eq. 4), each on every Table 3 configuration."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...sim.engine import simulate
from ...sim.options import SimOptions
from ...sim.schedulers import make_scheduler
from ...sim.schedulers.metric_aware import (
    MetricAwareSimulator,
    Policy,
    loss_of_capacity,
)
from ...traces.swf import SWFHeader
from .config import BASE, METRICS, LogSpec, Settings, tolerance_of
from .runs import fair_start_options, simulate_point
from .workload import workload

# Readings of what §3.3 / §4.1 / §4.2 leave open about the base schedule itself, each run on every
# Table 3 configuration (SP2) with the configured fair-start reading; `cost`: "default" readings run
# in the paper target, "full" ones only with `full=True` (about 5-15 CPU-s each). Keys besides
# `cost`: Policy fields (POLICY_READINGS), the job set (`selection`, `cancelled`, `estimates`,
# `overrun_grace`), or `scheduler`: an engine scheduler run on BF = 1 / W = 1 only.
#: The row of the engine's ``easy`` scheduler (the check of §3.3's "FCFS plus backfilling").
EASY_READING = "engine's easy scheduler (BF=1/W=1 only, no fair-start probe)"
BASE_READINGS: dict[str, dict[str, Any]] = {
    "paper defaults (EASY, a pass at every event)": {"cost": "default"},
    "scheduling interval 10 s (Cobalt, §4.5)": {"cost": "default", "sched_interval": 10.0},
    "scheduling interval 30 s": {"cost": "full", "sched_interval": 30.0},
    "scheduling interval 60 s": {"cost": "full", "sched_interval": 60.0},
    "conservative backfilling": {"cost": "full", "backfill": "conservative"},
    "no reservations (Cobalt cluster qsim first fit)": {"cost": "full", "backfill": "greedy"},
    "estimates = actual runtimes": {"cost": "full", "estimates": "actual"},
    "overruns kept (<= 1.1 x estimate; 5-min grace, Cobalt qsim)": {"cost": "full",
                                                                    "overrun_grace": 300.0},
    "records selection, cancelled jobs withdrawn": {"cost": "full", "selection": "records",
                                                      "cancelled": "withdraw"},
    "runnable selection + cancelled jobs withdrawn": {"cost": "full", "cancelled": "withdraw"},
    "records selection (cancelled jobs dropped)": {"cost": "full", "selection": "records"},
    # issue 22, "the base-schedule gap" (docs/papers/tang2013.md): Steps 5-6 readings (Policy),
    # 5-6 CPU-s each on SP2 (the engine's easy 0.1 CPU-s), so in the default target
    "Step 6 drain rule: backfilled jobs end before the reserved start (Cobalt)":
        {"cost": "default", "backfill_rule": "drain"},
    "Step 5 makespan of the whole machine's schedule": {"cost": "default",
                                                        "window_makespan": "machine"},
    "Step 6 candidates shortest first (SJF, Cobalt bqsim)": {"cost": "default",
                                                             "backfill_order": "sjf"},
    "running jobs' actual ends known to the scheduler": {"cost": "default",
                                                         "running_ends": "actual"},
    # the engine's own EASY on the same jobs: the textbook-EASY cross-check of BF = 1 / W = 1
    EASY_READING: {"cost": "default", "scheduler": "easy"},
}
#: The Policy fields a base reading may set (:class:`~schedlab.sim.schedulers.metric_aware.Policy`).
POLICY_READINGS = ("sched_interval", "backfill", "overrun_grace", "backfill_rule",
                   "backfill_order", "window_makespan", "running_ends")
#: The W = 4 effects of Table 3 (change of the average wait from W = 1 to W = 4 at one BF):
#: column -> (W = 1 configuration, W = 4 configuration).
W4_EFFECTS = {"W=4 effect BF=1 %": ("BF=1/W=1", "BF=1/W=4"),
              "W=4 effect BF=0.5 %": ("BF=0.5/W=1", "BF=0.5/W=4")}
# Loss-of-capacity readings (§4.2, eq. 4), computed on the schedule of the configured reading.
LOC_READINGS = {
    "LoC: waiting job <= idle nodes (default)": "eq4",
    "LoC: waiting job < idle nodes (strict)": "strict",
    "LoC: idle nodes while any job waits": "any_waiting",
    "LoC: idle nodes at arrivals/terminations, before the pass": "before_pass",
}


def base_reading_jobs(trace_jobs: pd.DataFrame, header: SWFHeader | None, spec: LogSpec,
                      cfg: Settings, reading: dict[str, Any]) -> pd.DataFrame:
    """The SP2 jobs of one base-schedule reading (job selection, cancelled jobs, estimates,
    overruns). Overruns: Cobalt's qsim keeps a run time up to 1.1 x the request (longer ones
    are cut to the request); our normalization cuts every overrun."""
    jobs, _ = workload(trace_jobs, header, spec,
                       reading.get("selection", cfg.job_selection),
                       reading.get("cancelled", "keep"))
    if reading.get("estimates") == "actual":
        jobs = jobs.assign(estimate=jobs["runtime"])
    if reading.get("overrun_grace") is not None:
        raw = trace_jobs.set_index("job_id")["run_time"].reindex(jobs["job_id"]).to_numpy(float)
        est = jobs["estimate"].to_numpy(float)
        keep = (raw > est) & (raw <= 1.1 * est)
        jobs = jobs.assign(runtime=np.where(keep, raw, jobs["runtime"].to_numpy(float)))
    return jobs


def base_reading_rows(trace_jobs: pd.DataFrame, header: SWFHeader | None, spec: LogSpec,
                      cfg: Settings, name: str, qd_threshold_s: float) -> list[dict]:
    """Every configuration of ``spec.table`` under the base-schedule reading ``name``
    (:data:`BASE_READINGS`): average wait, unfair jobs (configured fair-start reading) and LoC
    (eq. 4) of the jobs that ran."""
    reading = BASE_READINGS[name]
    jobs = base_reading_jobs(trace_jobs, header, spec, cfg, reading)
    if "scheduler" in reading:
        return [engine_scheduler_row(jobs, spec, cfg, name, reading["scheduler"])]
    changes = {k: reading[k] for k in POLICY_READINGS if k in reading}
    rows = []
    for conf, point in cfg.configurations.items():
        th = qd_threshold_s if point in ("adapt-bf", "adapt-2d") else None
        sim, res = simulate_point(jobs, spec, point, cfg, th, **changes)
        fair = sim.fair_start_times(res, **fair_start_options(cfg))
        ran = ~res.withdrawn
        rows.append({"reading": name, "configuration": conf, "jobs": int(ran.sum()),
                     "avg_wait_min": float((res.start - sim.submit)[ran].mean() / 60.0),
                     "unfair_jobs": int(np.sum(~np.isnan(fair) & (res.start > fair))),
                     "loc_pct": 100.0 * loss_of_capacity(
                         sim.submit[ran], res.start[ran], res.end[ran], sim.procs[ran],
                         spec.machine_size, bool(cfg.loc_strict))})
    return rows


def engine_scheduler_row(jobs: pd.DataFrame, spec: LogSpec, cfg: Settings, name: str,
                         scheduler: str) -> dict:
    """The BF = 1 / W = 1 row of the engine's own ``scheduler`` (e.g. ``easy``, tested against
    pyss's schedules) on the same jobs, machine, allocation and same-time event order as the
    metric-aware runs: average wait and LoC (eq. 4); no unfair count (the fair-start probe is
    the metric-aware scheduler's). §3.3 calls BF = 1, W = 1 "FCFS plus backfilling"."""
    conf = next(c for c, p in cfg.configurations.items() if p == BASE)
    sim = MetricAwareSimulator(jobs["submit"], jobs["runtime"], jobs["estimate"], jobs["procs"],
                               spec.machine_size, Policy())
    out = simulate(sim.jobs, spec.machine_size, make_scheduler(scheduler),
                   options=SimOptions.from_mapping(cfg.sim), allocation=spec.allocation,
                   record_timeline=False).jobs
    start, end = out["start"].to_numpy(np.float64), out["end"].to_numpy(np.float64)
    return {"reading": name, "configuration": conf, "jobs": len(jobs),
            "avg_wait_min": float((start - sim.submit).mean() / 60.0), "unfair_jobs": np.nan,
            "loc_pct": 100.0 * loss_of_capacity(sim.submit, start, end, sim.procs,
                                                spec.machine_size, bool(cfg.loc_strict))}


def loss_of_capacity_reading(submit: np.ndarray, start: np.ndarray, end: np.ndarray,
                             procs: np.ndarray, n: int, reading: str) -> float:
    """Eq. 4 under a reading of §4.2 (:data:`LOC_READINGS`): ``eq4`` / ``strict`` (see
    :func:`loss_of_capacity`); ``any_waiting``: every idle node counts while any job waits;
    ``before_pass``: the events are the arrivals and terminations only and ``n_i`` the nodes
    idle at the event before the jobs it lets start have started ("between the scheduling
    event i and i + 1" read as a clock that advances before the scheduler runs)."""
    if reading in ("eq4", "strict"):
        return loss_of_capacity(submit, start, end, procs, n, reading == "strict")
    if reading == "any_waiting":
        ev = np.unique(np.concatenate([submit, start, end]))
        d_busy = np.zeros(len(ev))
        np.add.at(d_busy, np.searchsorted(ev, start), procs)
        np.add.at(d_busy, np.searchsorted(ev, end), -procs)
        d_wait = np.zeros(len(ev))
        np.add.at(d_wait, np.searchsorted(ev, submit), 1)
        np.add.at(d_wait, np.searchsorted(ev, start), -1)
        idle, waiting = n - np.cumsum(d_busy), np.cumsum(d_wait)
        lost = np.sum((idle * (waiting > 0))[:-1] * np.diff(ev))
        return float(lost / (n * (ev[-1] - ev[0])))
    if reading == "before_pass":
        ev = np.unique(np.concatenate([submit, end]))
        lost = 0.0
        for a, b in pairwise(ev):
            idle = n - procs[(start < a) & (end > a)].sum()
            w = (submit <= a) & (start >= a)
            if w.any() and procs[w].min() <= idle:
                lost += idle * (b - a)
        return float(lost / (n * (ev[-1] - ev[0])))
    raise ConfigError(f"tang2013: unknown loss-of-capacity reading {reading!r}")


def loc_reading_rows(per_job: dict[str, pd.DataFrame], spec: LogSpec, cfg: Settings,
                     base: pd.DataFrame) -> list[dict]:
    """The configured schedule's rows of ``base`` (reading = the first of
    :data:`BASE_READINGS`) again under each loss-of-capacity reading (:data:`LOC_READINGS`);
    ``per_job``: configuration -> the run's per-job table (``runs/SP2/{point}/jobs``)."""
    first = next(iter(BASE_READINGS))
    b = base[base["reading"] == first].set_index("configuration")
    rows = []
    for name, reading in LOC_READINGS.items():
        if reading == ("strict" if cfg.loc_strict else "eq4"):
            continue  # the configured reading is the base row itself
        for conf, j in per_job.items():
            loc = loss_of_capacity_reading(j["submit"].to_numpy(), j["start"].to_numpy(),
                                           j["end"].to_numpy(), j["procs"].to_numpy(),
                                           spec.machine_size, reading)
            rows.append({"reading": name, "configuration": conf, "jobs": len(j),
                         "avg_wait_min": float(b.loc[conf, "avg_wait_min"]),
                         "unfair_jobs": int(b.loc[conf, "unfair_jobs"]), "loc_pct": 100.0 * loc})
    return rows


def base_attribution_rows(trace_jobs: pd.DataFrame, header: SWFHeader | None, spec: LogSpec,
                          cfg: Settings, readings: list[str], qd_threshold_s: float,
                          per_job: dict[str, pd.DataFrame]) -> list[dict]:
    """The rows of :func:`base_attribution_table`: the configured reading (the first of
    :data:`BASE_READINGS`) from the runs themselves (``per_job``: configuration -> the run's
    per-job table), every other reading in ``readings`` simulated here
    (:func:`base_reading_rows`), and the loss-of-capacity readings recomputed on the configured
    schedules (:func:`loc_reading_rows`)."""
    first = next(iter(BASE_READINGS))
    rows = [{"reading": first, "configuration": conf, "jobs": len(j),
             "avg_wait_min": float(j["wait"].mean() / 60.0),
             "unfair_jobs": int(j["unfair"].sum()),
             "loc_pct": 100.0 * loss_of_capacity(j["submit"].to_numpy(), j["start"].to_numpy(),
                                                 j["end"].to_numpy(), j["procs"].to_numpy(),
                                                 spec.machine_size, bool(cfg.loc_strict))}
            for conf, j in per_job.items()]
    for name in readings:
        if name != first:
            rows += base_reading_rows(trace_jobs, header, spec, cfg, name, qd_threshold_s)
    base = pd.DataFrame(rows)
    return rows + loc_reading_rows(per_job, spec, cfg, base)


def base_attribution_table(rows: pd.DataFrame, cfg: Settings, table: str = "Table 3"
                           ) -> pd.DataFrame:
    """One row per reading: each configuration's average wait / unfair jobs / LoC, the W = 4
    effects (:data:`W4_EFFECTS`, % change of the wait), how many of the ``values`` compared
    (21, fewer for a reading that has only some cells, e.g. the engine's ``easy``) are within
    the tolerance of ``table`` and their mean |relative error|; the published row first, then
    the readings best first (most within, then smallest error). Missing cells are NaN."""
    pub = cfg.published[table]
    tol = float(tolerance_of(cfg, table))
    short = {"avg_wait_min": "wait", "unfair_jobs": "unfair", "loc_pct": "LoC"}
    out = []
    for name, g in rows.groupby("reading", sort=False):
        g = g.set_index("configuration")
        rec: dict[str, Any] = {"reading": name, "jobs": int(g["jobs"].iloc[0])}
        errs = []
        for conf in cfg.configurations:
            for m, p in zip(METRICS, pub[conf], strict=True):
                v = float(g.loc[conf, m]) if conf in g.index else np.nan
                rec[f"{conf} {short[m]}"] = v
                if not np.isnan(v):
                    errs.append((v - p) / p)
        rec |= w4_effects(rec)
        rec["values"] = len(errs)
        rec["within_tolerance"] = int(np.sum(np.abs(errs) <= tol))
        rec["mean_abs_err"] = float(np.mean(np.abs(errs)))
        out.append(rec)
    df = pd.DataFrame(out).sort_values(["within_tolerance", "mean_abs_err"],
                                       ascending=[False, True], kind="stable")
    cells = {f"{c} {short[m]}": float(v) for c in cfg.configurations
             for m, v in zip(METRICS, pub[c], strict=True)}
    n = 3 * len(cfg.configurations)
    published = {"reading": f"published ({table})", "jobs": 5000, **cells, **w4_effects(cells),
                 "values": n, "within_tolerance": n, "mean_abs_err": 0.0}
    return pd.concat([pd.DataFrame([published]), df], ignore_index=True)


def w4_effects(cells: dict[str, Any]) -> dict[str, float]:
    """The W = 4 effects (:data:`W4_EFFECTS`) of one row's ``"<configuration> wait"`` cells:
    ``100 * (wait(W = 4) / wait(W = 1) - 1)``; NaN when a cell is missing."""
    out = {}
    for col, (w1, w4) in W4_EFFECTS.items():
        a, b = cells.get(f"{w1} wait", np.nan), cells.get(f"{w4} wait", np.nan)
        out[col] = np.nan if np.isnan(a) or np.isnan(b) else float(100.0 * (b / a - 1.0))
    return out
