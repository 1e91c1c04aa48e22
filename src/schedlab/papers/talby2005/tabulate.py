"""Talby & Feitelson 2005: Tables 1-8 from the per-job results of the sweep points.

* **Gains** (Tables 5 and 8): performance gain = ``(W_base - W) / W_base`` of the mean wait over all
  jobs; stability gain = the same on the standard deviation (ddof 0) of the monthly mean waits.
* Tables 3, 4 and 7 follow :mod:`.months` and :mod:`.features`; every table carries the log
  version its numbers come from (``version``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...report.attribution import TABLE
from ...traces.swf import SWFHeader
from .. import Inputs, Outputs, trace_jobs
from . import attribution
from .config import Settings
from .features import feature_correlations, monthly_features
from .grid import attr_point, attribution_keys, grid, parse_name, run_logs
from .months import gap_stats, month_labels, month_sums, monthly_means, months_won
from .plots import FIGURES
from .points import sweep_key, trace_of
from .runs import stats_from_frame


def gain(base: float, value: float) -> float:
    """Improvement of ``value`` over ``base`` in percent (positive = lower is better achieved)."""
    return (base - value) / base * 100.0 if base else float("nan")


def run_summary(jobs: pd.DataFrame, months: np.ndarray, min_jobs: int = 1) -> dict[str, float]:
    """Mean wait, mean bounded slowdown and std. dev. of monthly mean waits of one run."""
    m = monthly_means(jobs, months, min_jobs)
    return {"wait": float(jobs["wait"].mean()), "bsld": float(jobs["bounded_slowdown"].mean()),
            "monthly_wait_std": float(np.std(m["wait"].to_numpy(dtype=float))),
            "months": float(len(m))}


def gains_vs(run: Mapping[str, float], base: Mapping[str, float]) -> dict[str, float]:
    """Performance and stability gains (percent) of an adaptive run over a base scheduler run."""
    return {"performance": gain(base["wait"], run["wait"]),
            "stability": gain(base["monthly_wait_std"], run["monthly_wait_std"])}


def build_tables(runs: Mapping[tuple[str, str, str, str], pd.DataFrame],
                 run_stats: Mapping[tuple[str, str, str, str], Mapping[str, Any]],
                 traces: Mapping[tuple[str, str], tuple[pd.DataFrame, int, str | None, int | None]],
                 schedulers: Sequence[str], main_version: str, pbas: Mapping[str, Any],
                 wbas: Mapping[str, Any], min_jobs: int = 1) -> dict[str, pd.DataFrame]:
    """All tables of the paper from the per-job results.

    ``runs[(log, version, kind, name)]`` = per-job results with a ``month`` column;
    ``run_stats`` the matching statistics (params, shares); ``traces[(log, version)]`` =
    (trace table, machine size, time zone, unix start time); ``pbas``/``wbas``: the settings'
    sections (Table 5's and 8's ``best``, Table 6's ``four``).
    """
    scheds = list(schedulers)
    t1, t2, mon, t3, t4, t7 = [], [], [], [], [], []
    summaries: dict[tuple[str, str, str, str], dict[str, float]] = {}
    for key, jobs in runs.items():
        if key[2] in ("sched", "pbas", "wbas"):
            summaries[key] = run_summary(jobs, jobs["month"].to_numpy(), min_jobs)
    for (log, version), (trace, size, tz, _start) in traces.items():
        sub = trace["submit_time"].to_numpy()
        t1.append({"log": log, "version": version, "nodes": size, "jobs": len(trace),
                   "weeks": float(sub.max() - sub.min()) / (7 * 86400) if len(sub) else 0.0})
        monthly = []
        for s in scheds:
            key = (log, version, "sched", s)
            if key not in runs:
                continue
            j = runs[key]
            t2.append({"log": log, "version": version, "scheduler": s,
                       "wait": float(j["wait"].mean()), "bsld": float(j["bounded_slowdown"].mean()),
                       "jobs": len(j)})
            m = monthly_means(j, j["month"].to_numpy(), min_jobs).assign(scheduler=s)
            monthly.append(m)
        if len(monthly) != len(scheds):
            continue
        mm = pd.concat(monthly, ignore_index=True)
        mon.append(mm.assign(log=log, version=version))
        for metric in ("wait", "bsld"):
            won = months_won(mm, metric, scheds)
            n = len(mm["month"].unique())
            for s, c in won.items():
                t3.append({"log": log, "version": version, "metric": metric, "scheduler": s,
                           "months": c, "share": 100.0 * c / n if n else float("nan")})
            pair = months_won(mm[mm["scheduler"].isin(["flex", "maui"])], metric, ["flex", "maui"])
            t3.append({"log": log, "version": version, "metric": metric,
                       "scheduler": "maui_vs_flex", "months": pair["maui"],
                       "share": 100.0 * pair["maui"] / n if n else float("nan")})
        t4.append({"log": log, "version": version} | gap_stats(mm))
        months = month_labels(trace["submit_time"].to_numpy(), _start, tz)
        feats = monthly_features(trace, months, size, tz, min_jobs)
        corr = feature_correlations(feats, mm)
        for kind, vals in corr.items():
            t7.append({"log": log, "version": version, "kind": kind} | vals)
    adaptive = []
    for key, st in run_stats.items():
        log, version, kind, name = key
        if kind not in ("pbas", "wbas"):
            continue
        p = st["params"]
        row = {"log": log, "version": version, "kind": kind, "name": name,
               "metric": p.get("metric", ""), "candidates": "+".join(p.get("candidates", [])),
               "time_frame_s": int(p["time_frame"]), "maf": float(p.get("maf", float("nan"))),
               "switches": int(st.get("switches", 0))} | summaries[key]
        for s, v in st.get("shares", {}).items():
            row[f"share_{s}"] = 100.0 * v
        adaptive.append(row)
    ad = pd.DataFrame(adaptive)
    t5 = _gain_table(ad, summaries, pbas["best"], "pbas", main_version)
    t8 = _gain_table(ad, summaries, wbas["best"], "wbas", main_version)
    t6 = []
    four = pbas["four"]
    if len(ad):
        sel = ad[(ad["kind"] == "pbas") & (ad["log"] == four["log"])
                 & (ad["candidates"] == "+".join(four["candidates"]))
                 & (ad["metric"] == four["metric"])]
        for _, r in sel.iterrows():
            for s in four["candidates"]:
                t6.append({"log": r["log"], "time_frame_s": int(r["time_frame_s"]), "scheduler": s,
                           "share": float(r[f"share_{s}"])})
    return {"table1": pd.DataFrame(t1), "table2": pd.DataFrame(t2),
            "monthly": pd.concat(mon, ignore_index=True) if mon else pd.DataFrame(),
            "table3": pd.DataFrame(t3), "table4": pd.DataFrame(t4), "adaptive": ad,
            "table5": t5, "table6": pd.DataFrame(t6), "table7": pd.DataFrame(t7), "table8": t8}


def _gain_table(ad: pd.DataFrame, summaries: Mapping[tuple[str, str, str, str], dict[str, float]],
                best: Sequence[Mapping[str, Any]], kind: str, version: str) -> pd.DataFrame:
    rows = []
    if not len(ad):
        return pd.DataFrame(rows)
    for b in best:
        if kind == "pbas":
            sel = ad[(ad["kind"] == "pbas") & (ad["candidates"] == "flex+maui")
                     & (ad["metric"] == b["metric"]) & (ad["time_frame_s"] == b["time_frame_s"])]
        else:
            sel = ad[(ad["kind"] == "wbas") & (ad["maf"] == float(b["maf"]))
                     & (ad["time_frame_s"] == b["switch_s"])]
        for _, r in sel[sel["version"] == version].iterrows():
            for base in ("maui", "flex"):
                bk = (r["log"], version, "sched", base)
                if bk not in summaries:
                    continue
                g = gains_vs(r, summaries[bk])
                rows.append({"config": b["label"], "versus": base, "log": r["log"]} | g)
    return pd.DataFrame(rows)


#: Every table the assembly writes (``results/talby2005/tables/<name>.parquet``).
TABLES = ("table1", "table2", "monthly", "table3", "table4", "adaptive", "table5", "table6",
          "table7", "table8", "attr_runs", "attr_easy_maui", "attr_easy_maui_fit",
          "attr_cancelled", "attr_slack", "attr_slack_fit", "attr_log_version", "attr_table3",
          "attr_table3_fit", "attr_monthly")


def outputs(s: Settings) -> Outputs:
    """Every table and figure; the assembly also reads the parsed trace of every (log, version)
    run (Table 1, Table 7's workload features)."""
    traces = sorted({trace_jobs(trace_of(s, p.log, p.version)) for p in grid(s)})
    return Outputs(tables=(*TABLES, TABLE), figures=FIGURES, inputs=tuple(traces))


def tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]],
           inputs: Inputs) -> dict[str, pd.DataFrame]:
    """Tables 1-8 (:func:`build_tables`) and the attribution tables (:func:`.attribution.build`)
    from the points' frames (by point id)."""
    pts = grid(s)
    jobs = {sweep_key(p): runs[p.path]["jobs"] for p in pts if p.kind != "attr"}
    stats = {sweep_key(p): stats_from_frame(runs[p.path]["stats"]) | {
        "params": parse_name(p.kind, p.name)} for p in pts if p.kind != "attr"}
    traces = {}
    for log, version in sorted({(p.log, p.version) for p in pts}):
        trace, meta = inputs.trace(trace_of(s, log, version))
        header = SWFHeader.from_dict(meta["swf_header"])
        size = s.machine_sizes[trace_of(s, log, version)] or header.machine_size
        traces[(log, version)] = (trace, size, header.time_zone_string, header.unix_start_time)
    out = build_tables(jobs, stats, traces, s.schedulers, s.main_version, s.pbas, s.wbas,
                       s.min_month_jobs)
    attr_runs = {}
    for log, r, c in attribution_keys(s, run_logs(s)):
        p = attr_point(s, log, r, c)
        d = runs[p.path]["jobs" if p.kind == "sched" else "sums"]
        attr_runs[(log, r, c)] = (month_sums(d) if p.kind == "sched" else
                                  d[(d["reading"] == r) & (d["cancelled"] == c)])
    return out | attribution.build(attr_runs, s, s.min_month_jobs)
