"""Perković & Keleher 2000: one run (a simulation of one sweep point) and its summary rows,
overall and per shape group, with the §8 quantities under each reading."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...sim.options import BSLD_BOUND, SimOptions
from ...sim.schedulers.perkovic_runs import simulate_pk
from .config import Settings
from .sweep import GROUPS, RunPoint, pk_config, seed_for


def simulate(table: pd.DataFrame, point: RunPoint, s: Settings, entropy: int
             ) -> pd.DataFrame:
    """Simulate one sweep point under the engine options ``s.sim``; per-job result frame
    (docs/design.md §3 columns + flags + group)."""
    cfg = pk_config(point, s, float(table["estimate"].median()))
    res = simulate_pk(table["submit"].to_numpy(), table["runtime"].to_numpy(),
                      table["estimate"].to_numpy(), table["procs"].to_numpy(), point.machine, cfg,
                      seed_for(entropy, point), options=SimOptions.from_mapping(s.sim))
    out = table[["job_id", "submit", "procs", "runtime", "estimate", "group", "group_overest"]].copy()
    for k, v in res.items():
        out[k] = v
    return add_metrics(out)


def add_metrics(df: pd.DataFrame) -> pd.DataFrame:
    """wait (= delay), response and bounded slowdown (10 s bound, original runtime)."""
    df["wait"] = df["start"] - df["submit"]
    df["response"] = df["end"] - df["submit"]
    df["bounded_slowdown"] = df["response"] / np.maximum(df["runtime"].to_numpy(dtype=float),
                                                         BSLD_BOUND)
    return df


def queue_length_max(jobs: pd.DataFrame, until: str = "start") -> int:
    """Largest number of jobs waiting at once (submission to final start); ``until="end"``: jobs in
    the schedule, i.e. submitted and not yet finished (waiting + running)."""
    t = np.concatenate([jobs["submit"].to_numpy(float), jobs[until].to_numpy(float)])
    d = np.concatenate([np.ones(len(jobs)), -np.ones(len(jobs))])
    o = np.lexsort((d, t))  # starts (-1) before arrivals (+1) at equal times
    return int(np.max(np.cumsum(d[o]), initial=0))


#: §8 readings of "delayed" (issue 24): a job counts as delayed when its wait exceeds this many
#: seconds (0: the literal reading; 10: the bounded slowdown's bound time; 60, 600: margins).
DELAY_THRESHOLDS_S = (10, 60, 600)
SECTION8_COLUMNS = ("max_queue_length", "max_queue_with_running", "jobs_delayed",
                    *(f"jobs_delayed_over_{th}s" for th in DELAY_THRESHOLDS_S))


def section8_metrics(jobs: pd.DataFrame) -> dict[str, int]:
    """The §8 quantities under each reading: maximum queue of waiting jobs (the queue the orders
    sort; default) and of waiting + running jobs (the §2 "schedule of all jobs that have been
    submitted, but not yet finished"), jobs delayed (wait > 0, default) and delayed by more than
    each of :data:`DELAY_THRESHOLDS_S`. A maximum sampled at events (e.g. arrivals) cannot exceed
    the continuous one computed here."""
    wait = jobs["wait"].to_numpy(dtype=float)
    out = {"max_queue_length": queue_length_max(jobs),
           "max_queue_with_running": queue_length_max(jobs, "end"),
           "jobs_delayed": int((wait > 0).sum())}
    out.update({f"jobs_delayed_over_{th}s": int((wait > th).sum()) for th in DELAY_THRESHOLDS_S})
    return out


def summarize(jobs: pd.DataFrame, point: RunPoint, group_col: str = "group") -> list[dict]:
    """Per-run rows: overall and per shape group."""
    rows = []
    for g in ("all", *GROUPS):
        sub = jobs if g == "all" else jobs[jobs[group_col] == g]
        rows.append({
            "machine": point.machine, "experiment": point.experiment, "variant": point.variant,
            "percentage": math.nan if point.percentage is None else float(point.percentage),
            "order": point.order, "guarantees": point.guarantees, "algorithm": point.algorithm,
            "replicate": int(point.replicate), "group": g, "jobs": len(sub),
            "bounded_slowdown": float(sub["bounded_slowdown"].mean()),
            "delay": float(sub["wait"].mean()), "response": float(sub["response"].mean()),
            "started_immediately": float((sub["wait"] <= 0).mean()),
            "kills": int(sub["kills"].sum()), "spec_starts": int(sub["spec_starts"].sum()),
            "test_runs": int(sub["test_runs"].sum()),
            "speculative_successes": int(sub["speculative"].sum()),
            "widened": int(sub["widened"].sum()), "wasted_proc_s": float(sub["wasted_proc_s"].sum()),
            **(section8_metrics(sub) if g == "all" else
               {**dict.fromkeys(SECTION8_COLUMNS, -1), "jobs_delayed": int((sub["wait"] > 0).sum())}),
        })
    return rows

