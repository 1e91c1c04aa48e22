"""Talby & Feitelson 2005 on any log: the four backfilling schedulers, overall and by month.

Applies the paper's §2.2 (Table 2: mean wait and mean bounded slowdown of Conservative, EASY, Flex
and Maui over the whole log), §2.3 (Table 3: months "won" by each scheduler; Table 4: the
monthly wait gap between Flex and Maui) and §4.1 (Table 7: correlation of monthly workload
features with the Flex-Maui wait difference) to one registered log. The adaptive schedulers of
§3-4 (PBAS, WBAS; Tables 5, 6, 8) are not applied here (each point costs several times a plain
scheduler run); the paper target ``talby2005`` runs them on the paper's logs. The simulations are
:func:`schedlab.papers.talby2005.runs.simulate_point` (the engine with the paper's schedulers and the
options of ``config/papers/talby2005.yaml``, e.g. Flex's slack) and the tables are
:func:`schedlab.papers.talby2005.tabulate.build_tables`, so every reading documented there holds here
too (months by submit time in the log's time zone, a tie for the best is nobody's win and is counted in
a ``tie`` row, gap relative to the winner).

Readings chosen for a log the paper did not use:

* **Slice**: the jobs submitted in the first ``months`` calendar months of the log (counted from
  the month of its first job, which may be partial), then at most ``max_jobs`` jobs; ``null``
  means no limit (the ``full`` variant runs the whole log, as the paper did).
* **Log**: the cleaned log (``clean.parquet``); the paper's Tables 2-3 used the raw logs.
* **Machine size**: the registry's ``machine_size`` (else the header's).
* **Reference columns**: the paper's values for its own logs (``reference_logs``, default KTH,
  the machine closest in size) are shown beside ours, labelled "Talby <log> (raw log)". They are
  for orientation only: a different machine and workload are not expected to give the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError
from ..papers.talby2005.months import month_labels
from ..papers.talby2005.plots import monthly_wait
from ..papers.talby2005.runs import sim_jobs_from_trace, simulate_point
from ..papers.talby2005.tabulate import build_tables
from . import StudyInputs

TITLE = ("Talby & Feitelson 2005 §2.2-2.3, §4.1 (Tables 2-4, 7): Conservative, EASY, Flex and "
         "Maui backfilling, overall and month by month")
NOTES = ("Four schedulers simulated on a slice of this log (see settings: months from the log "
         "start, job cap) with the paper's scheduler options (config/papers/talby2005.yaml). "
         "Table 2 layout: mean wait (s) and mean bounded slowdown (10 s bound) per scheduler. "
         "Table 3: months won (strictly lowest monthly mean; a shared best is nobody's win and "
         "is counted under 'tie'; 'maui_vs_flex' = months Maui beats Flex). Table 4: average and "
         "maximum monthly wait gap between Flex and Maui, percent of the winner's wait. Table 7: "
         "Pearson correlation over the months of each workload feature with the Flex-Maui wait "
         "difference (few months: weak evidence). Columns or rows "
         "'Talby <log> (raw log)' are the paper's published values for its own log, for "
         "orientation, not targets.")
SCHEDULERS = ("conservative", "easy", "flex", "maui")

DEFAULTS: dict[str, dict[str, Any]] = {
    "default": {"months": 12, "max_jobs": None, "reference_logs": ["KTH"], "min_month_jobs": 1,
                "scheduler_options": None},
    "quick": {"months": None, "max_jobs": 5000, "reference_logs": ["KTH"], "min_month_jobs": 1,
              "scheduler_options": None},
    "full": {"months": None, "max_jobs": None, "reference_logs": ["BLUE", "SDSP2", "KTH"],
             "min_month_jobs": 1, "scheduler_options": None},
}


def run_notes(inputs: StudyInputs) -> str:
    """What the report must say about this log's months (relative without UnixStartTime)."""
    from ..sim.metrics import RELATIVE_MONTHS_NOTE

    return RELATIVE_MONTHS_NOTE if inputs.header.unix_start_time is None else ""


def log_slice(jobs: pd.DataFrame, months: np.ndarray, n_months: int | None,
              max_jobs: int | None) -> pd.DataFrame:
    """Jobs of the first ``n_months`` calendar months (in submit order), then the first
    ``max_jobs`` of them; ``None`` = no limit."""
    order = np.argsort(jobs["submit_time"].to_numpy(), kind="stable")
    keep = np.ones(len(jobs), dtype=bool)
    if n_months is not None:
        first = sorted(set(months.tolist()))[: int(n_months)]
        keep &= np.isin(months, first)
    idx = order[keep[order]]
    if max_jobs is not None:
        idx = idx[: int(max_jobs)]
    return jobs.iloc[np.sort(idx)].reset_index(drop=True)


def _options(settings: Mapping[str, Any], paper: Mapping[str, Any]) -> dict[str, Any]:
    opts = settings.get("scheduler_options") or paper.get("scheduler_options")
    if not opts:
        raise ConfigError("talby2005 study: no scheduler_options (neither in the settings nor in "
                          "config/papers/talby2005.yaml)")
    return dict(opts)


def run(inputs: StudyInputs, settings: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """Tables ``table2``, ``table3``, ``table4``, ``table7`` and ``monthly`` (per-month means of each
    scheduler, the data behind Table 3); module docstring."""
    h = inputs.header
    months = month_labels(inputs.jobs["submit_time"].to_numpy(), h.unix_start_time,
                          h.time_zone_string)
    trace = log_slice(inputs.jobs, months, settings["months"], settings["max_jobs"])
    if len(trace) == 0:
        raise ConfigError(f"talby2005 study: the slice of {inputs.trace} is empty")
    jobs, _report = sim_jobs_from_trace(trace, h, inputs.machine_size, inputs.trace,
                                        inputs.paper.get("cancelled", "keep"))
    options = _options(settings, inputs.paper)
    runs, stats = {}, {}
    for s in SCHEDULERS:
        key = (inputs.trace, "clean", "sched", s)
        runs[key], stats[key] = simulate_point(jobs, inputs.machine_size, "sched", s, options,
                                               h.unix_start_time, h.time_zone_string,
                                               sim=inputs.sim.pinned(inputs.paper.get("sim")))
    traces = {(inputs.trace, "clean"): (trace, inputs.machine_size, h.time_zone_string,
                                        h.unix_start_time)}
    t = build_tables(runs, stats, traces, list(SCHEDULERS), "clean", {"best": [], "four": {}},
                     {"best": []}, int(settings["min_month_jobs"]))
    published = inputs.paper.get("published", {})
    refs = [r for r in settings["reference_logs"] if r in published.get("table2", {}).get("wait", {})]
    return {"table2": table2(t["table2"], published, refs),
            "table3": table3(t["table3"], published, refs),
            "table4": t["table4"].drop(columns=["log", "version"]),
            "table7": table7(t["table7"], published, refs),
            "monthly": monthly_wide(t["monthly"])}


def monthly_wide(monthly: pd.DataFrame) -> pd.DataFrame:
    """One row per month: jobs, then mean wait and mean bounded slowdown of each scheduler
    (columns ``wait_<scheduler>``, ``bsld_<scheduler>``)."""
    wide = monthly.pivot(index="month", columns="scheduler", values=["wait", "bsld"])
    out = monthly.groupby("month", sort=True)["jobs"].first().to_frame()
    for metric in ("wait", "bsld"):
        for s in SCHEDULERS:
            out[f"{metric}_{s}"] = wide[(metric, s)]
    return out.reset_index()


def table2(t2: pd.DataFrame, published: Mapping[str, Any], refs: list[str]) -> pd.DataFrame:
    """Paper's Table 2 layout: one row per scheduler, mean wait and mean bounded slowdown."""
    out = pd.DataFrame({"scheduler": t2["scheduler"], "jobs": t2["jobs"],
                        "mean_wait_s": t2["wait"], "mean_bsld": t2["bsld"]})
    out["wait_rank"] = out["mean_wait_s"].rank(method="min").astype(int)
    out["bsld_rank"] = out["mean_bsld"].rank(method="min").astype(int)
    for log in refs:
        for metric, col in (("wait", "mean_wait_s"), ("bsld", "mean_bsld")):
            vals = published["table2"][metric][log]
            out[f"{col} (Talby {log}, raw log)"] = [float(vals[s]) for s in out["scheduler"]]
    return out.reset_index(drop=True)


def table7(t7: pd.DataFrame, published: Mapping[str, Any], refs: list[str]) -> pd.DataFrame:
    """Paper's Table 7 layout: correlation of each monthly workload feature with the Flex-Maui
    wait difference (relative and absolute), our rows first, then the paper's for its logs."""
    ours = t7.drop(columns=["log", "version"]).assign(source="this log")
    pub = published.get("table7", {})
    rows = [{"source": f"Talby {log} (raw log)", "kind": kind}
            | dict(zip(pub["columns"], [float("nan") if v is None else float(v) for v in vals],
                       strict=True))
            for kind in ("relative", "absolute") for log in refs
            if (vals := pub.get(kind, {}).get(log)) is not None]
    out = pd.concat([ours, pd.DataFrame(rows)], ignore_index=True) if rows else ours
    return out[["source", *[c for c in out.columns if c != "source"]]]


def table3(t3: pd.DataFrame, published: Mapping[str, Any], refs: list[str]) -> pd.DataFrame:
    """Paper's Table 3 layout: months won (count and share) per scheduler, wait and slowdown."""
    rows = []
    for s in [*SCHEDULERS, "tie", "maui_vs_flex"]:
        row: dict[str, Any] = {"scheduler": s}
        for metric in ("wait", "bsld"):
            r = t3[(t3["metric"] == metric) & (t3["scheduler"] == s)]
            row[f"{metric}_months"] = int(r["months"].iloc[0]) if len(r) else 0
            row[f"{metric}_share_pct"] = float(r["share"].iloc[0]) if len(r) else float("nan")
        for log in refs:
            for metric in ("wait", "bsld"):
                pub = published.get("table3", {}).get(metric, {}).get(log, {}).get(s)
                row[f"{metric}_share_pct (Talby {log}, raw log)"] = (
                    float(pub[1]) if pub is not None else float("nan"))
        rows.append(row)
    return pd.DataFrame(rows)


def figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """The monthly mean wait of each scheduler (the data behind Table 3)."""
    m = tables["monthly"]
    monthly = pd.concat([pd.DataFrame({"log": "mean wait per month", "month": m["month"],
                                       "scheduler": s,
                                       "wait": m[f"wait_{s}"]}) for s in SCHEDULERS],
                        ignore_index=True)
    fig = monthly_wait(monthly)
    return {"monthly_wait": fig} if fig is not None else {}
