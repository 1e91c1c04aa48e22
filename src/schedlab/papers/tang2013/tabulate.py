"""Tang et al. 2013: every table of the paper target from the points' frames (the contract's
``outputs`` and ``tables``).

Per log: Table 2 (BG/P) or 3 (SP2) as ``table<n>_<log>``; for all logs: ``sweep`` (every sweep
point's summary, Figs. 3-4), ``scores`` (Fig. 11), ``gains`` / ``gains_published`` (Fig. 12, both
gain readings; the latter from the paper's own Tables 2-3), ``table4``, ``thresholds`` (§4.4.1),
``monitors`` (the 30-min queue-depth and utilization series of :data:`MONITORED` over the first
``plot_hours``: Figs. 5-10 and their scorecard rows), and the issue-22 attribution tables
``attribution_runs`` / ``attribution_table3`` / ``attribution_unfair`` /
``attribution_unfair_margins`` / ``search_cap`` / ``attribution_base``.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...report.attribution import TABLE
from .. import Inputs, Outputs
from .attribution import attribution_table, unfair_margins_table, unfair_table
from .base_readings import base_attribution_table
from .config import BASE, MONITORED, LogSpec, Settings, log_of
from .gains import all_gains, config_table, published_table, scores
from .points import ATTRIBUTION_LOG, attribution_id, sweep_id
from .runs import month_average_threshold_min, qd_threshold_min, run_average_threshold_min
from .workload import JOB_SELECTIONS

#: The attribution tables (issue 22; also the target ``tang2013_attribution``).
ATTRIBUTION_TABLES = ("attribution_runs", "attribution_table3", "attribution_unfair",
                      "attribution_unfair_margins", "search_cap", "attribution_base")
#: The tables of every run besides the per-log Tables 2-3.
COMMON_TABLES = ("sweep", "scores", "gains", "gains_published", "table4", "thresholds",
                 "monitors")
#: Figs. 3-10, one per log: the key in config ``logs.<log>.figures``.
LOG_FIGURES = ("metrics", "bf_adapt", "util", "twod")


def table_name(spec: LogSpec) -> str:
    """``table2_BGP-substitute`` / ``table3_SP2``: the paper's table of the log."""
    return f"table{spec.table.split()[-1]}_{spec.label}"


def outputs(s: Settings) -> Outputs:
    """The tables and figures of settings ``s``; the assembly reads only the points."""
    specs = list(s.log_specs)
    return Outputs(
        tables=(*[table_name(spec) for spec in specs], *COMMON_TABLES, *ATTRIBUTION_TABLES,
                TABLE),
        figures=(*[f"{spec.figures[k]}_{spec.label}" for spec in specs for k in LOG_FIGURES],
                 "fig11_radar", "fig12_gains"))


def monitors(label: str, series: Mapping[str, pd.DataFrame], hours: float) -> pd.DataFrame:
    """The series of the :data:`MONITORED` points run on log ``label``, first ``hours`` hours."""
    parts = []
    for p in MONITORED:
        if p in series:
            d = series[p][series[p]["hours"] <= hours].copy()
            d.insert(0, "point", p)
            d.insert(0, "log", label)
            parts.append(d)
    return pd.concat(parts, ignore_index=True)


def monitored_series(table: pd.DataFrame, label: str) -> dict[str, pd.DataFrame]:
    """The inverse of :func:`monitors`: point -> series of log ``label``."""
    return {p: g.drop(columns=["log", "point"]).reset_index(drop=True)
            for p, g in table[table["log"] == label].groupby("point", sort=False)}


def tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]],
           inputs: Inputs) -> dict[str, pd.DataFrame]:
    """The contract's tables (module docstring) from the points' frames."""
    cfg, specs = s, list(s.log_specs)
    hours = float(cfg.plot_hours)
    summary = pd.concat([runs[sweep_id(spec.label, p)]["summary"] for spec in specs
                         for p in s.sweep_points], ignore_index=True)
    out: dict[str, pd.DataFrame] = {}
    th_rows, mon = [], []
    gains, gains_pub, score = [], [], []
    for spec in specs:
        lab = spec.label
        table = out[table_name(spec)] = config_table(summary, cfg, lab)
        published = published_table(cfg, spec.table, lab)
        gains.append(all_gains(table, cfg.weightings))
        gains_pub.append(all_gains(published, cfg.weightings).assign(
            source=f"published {spec.table}"))
        score.append(scores(table))
        series = {p: runs[sweep_id(lab, p)]["series"] for p in s.sweep_points}
        base = series[BASE]
        pkey = "BGP" if spec.table == "Table 2" else "SP2"
        th_rows.append({"log": lab, "threshold_used_min": qd_threshold_min(base, cfg, lab),
                        "paper_threshold_min": cfg.published["qd_threshold_min"][pkey],
                        "our_run_average_min": run_average_threshold_min(base, cfg),
                        "our_whole_month_average_min": month_average_threshold_min(base, cfg),
                        "mean_queue_depth_bf1_w1_min": float(base["queue_depth_min"].mean())})
        mon.append(monitors(lab, series, hours))
    out["sweep"] = summary
    out["scores"] = pd.concat(score, ignore_index=True)
    out["gains"] = pd.concat(gains, ignore_index=True)
    out["gains_published"] = pd.concat(gains_pub, ignore_index=True)
    out["table4"] = pd.concat([runs[f"{spec.label}/table4"]["table4"] for spec in specs],
                              ignore_index=True)
    out["thresholds"] = pd.DataFrame(th_rows)
    out["monitors"] = pd.concat(mon, ignore_index=True)
    return out | attribution_tables(s, runs)


def attribution_tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]]
                       ) -> dict[str, pd.DataFrame]:
    """The issue-22 tables (:data:`ATTRIBUTION_TABLES`); without the job-selection runs
    (``selection_attribution`` false: a study) their four tables are empty."""
    cfg = s
    if s.selection_attribution:
        rows = pd.concat([runs[attribution_id(sel)]["rows"] for sel in JOB_SELECTIONS],
                         ignore_index=True)
        selection = {"attribution_runs": rows,
                     "attribution_table3": attribution_table(rows, cfg),
                     "attribution_unfair": unfair_table(rows, cfg),
                     "attribution_unfair_margins": unfair_margins_table(rows, cfg)}
    else:
        selection = {name: pd.DataFrame() for name in ATTRIBUTION_TABLES[:4]}
    return {
        **selection,
        "search_cap": pd.concat([runs[f"{spec.label}/search_cap"]["rows"] for spec in list(s.log_specs)],
                                ignore_index=True),
        "attribution_base": base_attribution_table(
            runs[f"{ATTRIBUTION_LOG}/attribution_base"]["rows"], cfg,
            log_of(s, ATTRIBUTION_LOG).table),
    }
