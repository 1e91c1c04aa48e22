"""Tang et al. 2013, issue 22: attribution of the SP2 Table 3 differences to the readings of "the
first 5000 jobs", the threshold and the fair start time (§4.2), and the Step-5 search cap."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ...sim.schedulers.metric_aware import loss_of_capacity
from .config import BASE, METRICS, LogSpec, Settings, tolerance_of
from .runs import (
    fair_start_options,
    month_average_threshold_min,
    qd_threshold_min,
    run_average_threshold_min,
    run_sweep_point,
    simulate_point,
)

FAIR_READINGS = tuple({"runtime": r, "order": o, "policy": p, "backfill": b}
                      for r in ("estimate", "actual") for o in ("dynamic", "frozen")
                      for p in ("submission", "fcfs") for b in ("policy", "none"))
# The plainest reading of §4.2 (the scheduler's own estimates, priorities recomputed, the policy in
# force, its own backfilling): the function defaults of MetricAwareSimulator.fair_start_times.
PLAIN_FAIR_READING = {"runtime": "estimate", "order": "dynamic", "policy": "submission",
                      "backfill": "policy"}
# Margins (minutes) of the "started later than its fair start by more than m" readings of
# "unfair", reported beside the strict count (§4.2: "Any job started after its fair start time").
UNFAIR_MARGINS_MIN = (1, 10, 30, 60, 120)


def configured_reading(cfg: Settings) -> dict[str, str]:
    """The configured fair-start reading (config ``fair_start`` over :data:`PLAIN_FAIR_READING`)."""
    return {**PLAIN_FAIR_READING, **cfg.fair_start}


def fair_readings(cfg: Settings, selection: str, threshold: str) -> tuple[dict[str, str], ...]:
    """The fair-start readings weighed under one job selection and threshold (config
    ``fair_readings``): ``every`` reading of :data:`FAIR_READINGS` everywhere, or
    ``one_change``: every reading on the main combination (the configured job selection, the
    paper's threshold) and the configured reading elsewhere, the only ones a scorecard row's
    cause can be looked up in (a row's reading changes one of selection, threshold and fair
    start, :func:`.causes.run_readings`)."""
    if cfg.fair_readings == "every" or (selection == cfg.job_selection and threshold == "paper"):
        return FAIR_READINGS
    return tuple(r for r in FAIR_READINGS if r == configured_reading(cfg))


def reading_name(reading: dict[str, str]) -> str:
    """``estimate/dynamic/submission/policy`` style label of a fair-start reading."""
    return f"{reading['runtime']}/{reading['order']}/{reading['policy']}/{reading['backfill']}"


def unfair_counts(start: np.ndarray, fair: np.ndarray, t0: float) -> dict[str, int]:
    """The unfair-job count (start strictly after the fair start) and its variants: later by
    more than each of :data:`UNFAIR_MARGINS_MIN`, and later in whole minutes since ``t0``
    (times rounded down to minutes, as a log with minute resolution would compare them)."""
    ok = ~np.isnan(fair)
    s, f = start[ok], fair[ok]
    out = {"unfair_jobs": int(np.sum(s > f))}
    out.update({f"unfair_gt_{m}min": int(np.sum(s > f + 60.0 * m)) for m in UNFAIR_MARGINS_MIN})
    out["unfair_whole_min"] = int(np.sum(np.floor((s - t0) / 60.0) > np.floor((f - t0) / 60.0)))
    return out


def attribution_rows(jobs: pd.DataFrame, spec: LogSpec, point: str, cfg: Settings,
                     qd_threshold_s: float | None, condition: dict[str, Any]) -> list[dict]:
    """One simulation of ``point``; its average wait and LoC, and its unfair-job count under each
    fair-start reading of :func:`fair_readings` for ``condition`` (job selection, threshold
    variant): one row per reading, ``condition`` copied into each."""
    sim, res = simulate_point(jobs, spec, point, cfg, qd_threshold_s)
    wait = (res.start - sim.submit).mean() / 60.0
    loc = 100.0 * loss_of_capacity(sim.submit, res.start, res.end, sim.procs, spec.machine_size,
                                   bool(cfg.loc_strict))
    rows = []
    for reading in fair_readings(cfg, condition["selection"], condition["threshold"]):
        fair = sim.fair_start_times(res, **fair_start_options(cfg, reading))
        rows.append({**condition, "log": spec.label, "point": point, "jobs": len(jobs),
                     "fair_start": reading_name(reading), "avg_wait_min": float(wait),
                     **unfair_counts(res.start, fair, float(sim.submit[0])),
                     "loc_pct": float(loc),
                     "qd_threshold_min": np.nan if qd_threshold_s is None
                     else qd_threshold_s / 60.0})
    return rows


def attribution_runs(jobs: pd.DataFrame, spec: LogSpec, cfg: Settings, selection: str
                     ) -> list[dict]:
    """The attribution grid of one job selection: every configuration of ``spec.table`` with
    the configured threshold (``threshold = "paper"``), and the BF-tuning schemes again with our
    own whole-month average (``"month_average"``, §4.4.1's reading) and the whole run's average
    (``"run_average"``; the static rows are shared), each under the fair-start readings of
    :func:`fair_readings` (:func:`attribution_rows`)."""
    _, base_series, _ = run_sweep_point(jobs, spec, BASE, cfg)
    ths = {"paper": qd_threshold_min(base_series, cfg, spec.label),
           "month_average": month_average_threshold_min(base_series, cfg),
           "run_average": run_average_threshold_min(base_series, cfg)}
    rows: list[dict] = []
    for name, th in ths.items():
        for point in cfg.configurations.values():
            tuned = point in ("adapt-bf", "adapt-2d")
            if name != "paper" and not tuned:
                continue
            rows += attribution_rows(jobs, spec, point, cfg, th * 60.0 if tuned else None,
                                     {"selection": selection, "threshold": name})
    static = [r for r in rows if r["threshold"] == "paper"
              and r["point"] not in ("adapt-bf", "adapt-2d")]
    for name in ths:
        if name != "paper":
            kept = {reading_name(r) for r in fair_readings(cfg, selection, name)}
            rows += [{**r, "threshold": name} for r in static if r["fair_start"] in kept]
    return rows


def attribution_table(rows: pd.DataFrame, cfg: Settings, table: str = "Table 3"
                      ) -> pd.DataFrame:
    """Per reading (job selection x threshold x fair-start reading): the relative error of each
    configuration's average wait, unfair count and LoC against ``table``, how many of the 21
    values are within the tolerance, and the mean |relative error| per metric. Sorted best
    first (most values within tolerance, then the smallest mean |error|)."""
    pub = cfg.published[table]
    tol = float(tolerance_of(cfg, table))
    inv = {p: c for c, p in cfg.configurations.items()}
    keys = ["selection", "threshold", "fair_start"]
    out = []
    for key, g in rows.groupby(keys, sort=False):
        g = g.set_index("point")
        errs = {m: [] for m in METRICS}
        for point, conf in inv.items():
            if point not in g.index:
                continue
            for m, p in zip(METRICS, pub[conf], strict=True):
                errs[m].append((float(g.loc[point, m]) - p) / p)
        allerr = [e for v in errs.values() for e in v]
        out.append({**dict(zip(keys, key, strict=True)),
                    "within_tolerance": int(sum(abs(e) <= tol for e in allerr)),
                    "values": len(allerr),
                    **{f"mean_abs_err_{m}": float(np.mean(np.abs(v))) for m, v in errs.items()},
                    "mean_abs_err": float(np.mean(np.abs(allerr)))})
    return pd.DataFrame(out).sort_values(["within_tolerance", "mean_abs_err"],
                                         ascending=[False, True], kind="stable"
                                         ).reset_index(drop=True)


def search_cap_rows(jobs: pd.DataFrame, spec: LogSpec, cfg: Settings,
                    qd_threshold_s: float | None, cap: int = 1) -> list[dict]:
    """Issue 22: does capping Step 5's permutation search change results? Every configuration
    of the log's table run with the full search (``search_windows`` None, the default) and with
    only the first ``cap`` windows searched: average wait, unfair jobs (configured fair-start
    reading), LoC, and whether the two schedules are the same."""
    rows = []
    for conf, point in cfg.configurations.items():
        th = qd_threshold_s if point in ("adapt-bf", "adapt-2d") else None
        runs = {}
        for name, sw in (("uncapped", None), ("capped", cap)):
            sim, res = simulate_point(jobs, replace(spec, search_windows=sw), point, cfg, th)
            fair = sim.fair_start_times(res, **fair_start_options(cfg))
            runs[name] = res.start
            rows.append({"log": spec.label, "trace": spec.trace, "jobs": len(jobs),
                         "configuration": conf, "search": name,
                         "search_windows": np.nan if sw is None else sw,
                         "avg_wait_min": float((res.start - sim.submit).mean() / 60.0),
                         "unfair_jobs": int(np.sum(~np.isnan(fair) & (res.start > fair))),
                         "loc_pct": 100.0 * loss_of_capacity(
                             sim.submit, res.start, res.end, sim.procs, spec.machine_size,
                             bool(cfg.loc_strict))})
        same = bool(np.array_equal(runs["uncapped"], runs["capped"]))
        rows[-1]["same_schedule"] = rows[-2]["same_schedule"] = same
    return rows


COUNT_RULES = ("unfair_jobs", *(f"unfair_gt_{m}min" for m in UNFAIR_MARGINS_MIN),
               "unfair_whole_min")


def unfair_table(rows: pd.DataFrame, cfg: Settings, table: str = "Table 3",
                 readings: list[str] | None = None,
                 count_rules: tuple[str, ...] = ("unfair_jobs",)) -> pd.DataFrame:
    """The unfair-job counts of every configuration (columns) per job selection x fair-start
    reading x counting rule (rows; the paper's threshold), the published row first, with the
    number of counts within the tolerance and their mean |relative error|. ``readings``: only
    these fair-start readings (None: all); ``count_rules``: columns of :data:`COUNT_RULES`.
    Sorted best first, like :func:`attribution_table`."""
    pub = cfg.published[table]
    tol = float(tolerance_of(cfg, table))
    confs = list(cfg.configurations)
    r = rows[rows["threshold"] == "paper"]
    if readings is not None:
        r = r[r["fair_start"].isin(readings)]
    out = []
    for (sel, fs), g in r.groupby(["selection", "fair_start"], sort=False):
        g = g.set_index("point")
        for rule in count_rules:
            counts = {c: int(g.loc[p, rule]) for c, p in cfg.configurations.items()
                      if p in g.index}
            err = np.array([(counts[c] - pub[c][1]) / pub[c][1] for c in counts])
            out.append({"selection": sel, "fair_start": fs, "count": rule, **counts,
                        "within_tolerance": int(np.sum(np.abs(err) <= tol)),
                        "mean_abs_err": float(np.mean(np.abs(err)))})
    df = pd.DataFrame(out).sort_values(["within_tolerance", "mean_abs_err"],
                                       ascending=[False, True], kind="stable")
    published = {"selection": "published", "fair_start": table, "count": "unfair_jobs",
                 **{c: int(pub[c][1]) for c in confs}, "within_tolerance": len(confs),
                 "mean_abs_err": 0.0}
    return pd.concat([pd.DataFrame([published]), df], ignore_index=True)


def unfair_margins_table(rows: pd.DataFrame, cfg: Settings) -> pd.DataFrame:
    """:func:`unfair_table` under every counting rule (:data:`COUNT_RULES`) for three
    fair-start readings: the configured one, the same with the run's backfilling in the probe,
    and the plainest (:data:`PLAIN_FAIR_READING`)."""
    configured = configured_reading(cfg)
    readings = {reading_name(r) for r in (configured, {**configured, "backfill": "policy"},
                                          PLAIN_FAIR_READING)}
    return unfair_table(rows, cfg, readings=sorted(readings), count_rules=COUNT_RULES)
