"""Perković & Keleher 2000: Tables 1-3, the frames behind Figures 3-9 and the §8 readings; the
contract's ``tables`` (from the points' frames) and :func:`views` (what the figures and the
scorecard read back from the tables).

Figures 3-4, Table 3 and the §4/§5/§8 rows come from the paper setting (the whole log on 430 nodes,
with seed replicates) when it is configured, Figures 5-9 from the default sweep scale; the
``summary`` table holds both (the paper setting's rows with ``setting == "paper"``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...report.attribution import TABLE
from .. import Inputs, Outputs, trace_jobs
from .attribution import attribution_row, published_attribution_row
from .config import Settings, readings
from .jobs import implied_missing
from .runs import DELAY_THRESHOLDS_S, summarize
from .sweep import GROUPS, RunPoint, experiment_id, run_sets


def table1(trace_jobs: pd.DataFrame, table: pd.DataFrame, machines: list[int],
           published: dict[str, float], machine_paper: int) -> pd.DataFrame:
    """Table 1: trace characterization (the whole normalized log), published beside ours."""
    ov = table["overestimation"].to_numpy(dtype=float)
    ours = {
        "Number of nodes": float(machines[0]),
        "Number of jobs": float(len(table)),
        "Average job parallelism": float(table["procs"].mean()),
        "Median job parallelism": float(table["procs"].median()),
        "Average running time": float(table["runtime"].mean()),
        "Average estimated running time": float(table["estimate"].mean()),
        "Median estimated running time": float(table["estimate"].median()),
        "Average overestimation factor": float(np.nanmean(ov)),
        "Median overestimation factor": float(np.nanmedian(ov)),
    }
    rows = [{"quantity": k, "published": float(published[k]), "reproduced": v,
             "note": ""} for k, v in ours.items()]
    rows[0]["note"] = (f"paper: {machine_paper} nodes; cleaned log header: {machines[0]} batch "
                       f"nodes (runs also at: {', '.join(str(m) for m in machines[1:]) or 'none'})")
    rows[1]["note"] = f"log file lines: {len(trace_jobs)}"
    span = float(table["submit"].max() - table["submit"].min())
    work = float((table["runtime"] * table["procs"]).sum())
    for m in dict.fromkeys([*machines, machine_paper]):
        rows.append({"quantity": f"Offered load on {m} nodes", "published": math.nan,
                     "reproduced": work / (m * span) if span > 0 else math.nan,
                     "note": "not in the paper: sum(runtime x procs) / (nodes x submit span)"})
    rows += missing_jobs(published, table)
    return pd.DataFrame(rows)


def missing_jobs(published: Mapping[str, float], table: pd.DataFrame) -> list[dict]:
    """:func:`implied_missing` as Table 1 rows with ``published`` NaN (derived, not checked)."""
    m = implied_missing(published, table)
    if not m:
        return []
    why = "implied by Table 1 for the jobs missing from the cleaned log (flurry removed by cleaning)"
    return [{"quantity": "Missing jobs: count", "published": math.nan, "reproduced": m["count"],
             "note": why},
            {"quantity": "Missing jobs: mean runtime (s)", "published": math.nan,
             "reproduced": m["mean_runtime"], "note": why + "; Table 1 rounding moves it by ~±20 s"},
            {"quantity": "Missing jobs: mean estimate (s)", "published": math.nan,
             "reproduced": m["mean_estimate"], "note": why},
            {"quantity": "Missing jobs: at least this many use <= 2 nodes", "published": math.nan,
             "reproduced": m["narrow"], "note": why + " (median parallelism 2 vs our 3)"}]


def table2(table: pd.DataFrame) -> pd.DataFrame:
    """Table 2: jobs, average overestimation and zero-runtime jobs per shape group, both readings."""
    rows = []
    for reading, col in (("estimate", "group"), ("overestimation", "group_overest")):
        for g in GROUPS:
            sub = table[table[col] == g]
            rows.append({"grouping": reading, "group": g, "jobs": len(sub),
                         "avg_overestimation": float(np.nanmean(sub["overestimation"]))
                         if len(sub) else math.nan,
                         "zero_runtime_jobs": int((sub["log_runtime"] == 0).sum())})
    return pd.DataFrame(rows)


def guarantee_ratios(jobs: pd.DataFrame) -> np.ndarray:
    """Initial guaranteed delay / actual delay for jobs that did not start immediately (§4)."""
    d = jobs[jobs["wait"] > 0]
    return ((d["guaranteed_start"] - d["submit"]) / d["wait"]).to_numpy(dtype=float)


def table3(jobs: pd.DataFrame) -> pd.DataFrame:
    """Table 3: average, median, 15th and 85th percentile of the guarantee ratio (conservative BF)."""
    r = guarantee_ratios(jobs)
    vals = [float(np.mean(r)), float(np.median(r)), float(np.percentile(r, 15)),
            float(np.percentile(r, 85))] if len(r) else [math.nan] * 4
    return pd.DataFrame({"statistic": ["Average", "Median", "15% of jobs", "85% of jobs"],
                         "reproduced": vals, "jobs": len(r)})


def relative(summary: pd.DataFrame, ref: pd.DataFrame, keys: list[str],
             metrics: tuple[str, ...] = ("bounded_slowdown", "delay", "response")) -> pd.DataFrame:
    """Add ``<metric>_ratio`` = ours / reference (matched on ``keys``) and ``_improvement`` = 1 - ratio.

    When the reference has seed replicates, replicate r is compared with the reference's replicate r
    (the same random stream: :func:`seed_for` does not depend on the experiment)."""
    if "replicate" in ref and "replicate" in summary and (ref["replicate"] > 0).any():
        keys = [*keys, "replicate"]
    r = ref[[*keys, *metrics]].rename(columns={m: f"{m}_ref" for m in metrics})
    out = summary.merge(r, on=keys, how="left")
    for m in metrics:
        out[f"{m}_ratio"] = out[m] / out[f"{m}_ref"]
        out[f"{m}_improvement"] = 1.0 - out[f"{m}_ratio"]
    return out


def figure_frames(summary: pd.DataFrame, machine: int) -> dict[str, pd.DataFrame]:
    """The tidy frames behind Figures 3–9 (relative to conservative BF or the stated reference)."""
    s = summary[summary["machine"] == machine]
    bf = s[(s["experiment"] == "base") & (s["algorithm"] == "BF")][
        ["group", "bounded_slowdown", "delay", "response"]]
    base = s[s["experiment"] == "base"]
    frames = {
        "fig3": relative(base[base["group"] == "all"], bf, ["group"]),
        "fig4": relative(base[base["group"] != "all"], bf, ["group"]),
    }
    algo_keys = ["group", "order", "guarantees"]
    spec = s[s["experiment"] == "spec"]
    frames["fig5"] = relative(spec, base, algo_keys)
    spec_ref = spec.drop(columns=["experiment"])
    frames["fig6"] = relative(s[s["experiment"] == "spectest"], spec_ref, [*algo_keys, "percentage"])
    for name, exps in (("fig7", ("half", "quarter")), ("fig8", ("greedy",)),
                       ("fig9", ("half", "half_widen", "half_spec", "half_widen_spec"))):
        frames[name] = relative(s[s["experiment"].isin(exps)], bf, ["group"])
    frames = {k: v[v["group"] == "all"] if k not in ("fig4",) else v for k, v in frames.items()}
    return {k: v.reset_index(drop=True) for k, v in frames.items()}


#: §8 readings compared in ``tables/section8`` (column of :func:`section8_metrics`, what it counts).
SECTION8_READINGS = (
    ("maximum queue length", "max_queue_length", "waiting jobs (default)"),
    ("maximum queue length", "max_queue_with_running", "waiting + running jobs"),
    ("jobs delayed", "jobs_delayed", "wait > 0 s (default)"),
    *(("jobs delayed", f"jobs_delayed_over_{th}s", f"wait > {th} s") for th in DELAY_THRESHOLDS_S),
)


def section8_table(summary: pd.DataFrame, machine: int, pub: Mapping[str, Any],
                   algorithms: Sequence[str] = ("BF", "1/L", "P/L-NG", "R/L-NG")) -> pd.DataFrame:
    """§8's two observations under each reading of "queue length" and "delayed"
    (:data:`SECTION8_READINGS`), per algorithm of the base experiment (means over seeds), with the
    smallest and largest over every run (each seed), beside the published ~1,000 / < 20,000."""
    base = summary[(summary["machine"] == machine) & (summary["experiment"] == "base")
                   & (summary["group"] == "all")]
    per = base.groupby("algorithm")[[c for _, c, _ in SECTION8_READINGS]].mean()
    rows = []
    for quantity, col, reading in SECTION8_READINGS:
        v = per[col]
        queue = quantity.startswith("maximum")
        published = pub["max_queue_length"] if queue else pub["jobs_delayed_max"]
        row = {"quantity": quantity, "reading": reading,
               "published": ("~" if queue else "< ") + f"{published:,}"}
        row.update({a: float(v.get(a, math.nan)) for a in algorithms})
        runs = base.set_index("algorithm")[col]
        row.update({"smallest": float(runs.min()), "smallest by": str(runs.idxmin()),
                    "largest": float(runs.max()), "largest by": str(runs.idxmax())})
        rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------- the assembled tables
def _summaries(runs: Mapping[str, Mapping[str, pd.DataFrame]], scale_name: str,
               points: list[RunPoint]) -> tuple[pd.DataFrame, dict[int, pd.DataFrame]]:
    """The summary rows of ``points`` and the per-job results of each machine's BF base run."""
    rows, bf = [], {}
    for point in points:
        df = runs[experiment_id(scale_name, point)][point.name]
        rows += summarize(df, point)
        if point.experiment == "base" and point.algorithm == "BF" and not point.replicate:
            bf[point.machine] = df
    return pd.DataFrame(rows), bf


def machines(s: Settings) -> list[int]:
    """The machine sizes of the sweep: ``machine``, then ``extra_machines`` (Figure 3 only)."""
    return [int(s.machine), *[int(m) for m in s.extra_machines]]


#: The figures (:mod:`.plots`): Figures 3-9, then Figure 3 on each extra machine size.
FIGURES = ("fig3", "fig4", "fig5", "fig6", "fig7", "fig8", "fig9")


def figure_names(s: Settings) -> tuple[str, ...]:
    """The figures of the settings."""
    return (*FIGURES, *(f"fig3_{int(m)}" for m in s.extra_machines))


def outputs(s: Settings) -> Outputs:
    """Tables (``attribution`` when readings run; the readings of the scorecard rows, empty
    without it), figures, and the trace (Table 1 reads its lines)."""
    return Outputs(tables=("summary", "table1", "table2", "table3", "section8",
                           *(("attribution",) if readings(s) else ()), TABLE),
                   figures=figure_names(s), inputs=(trace_jobs(s.trace),))


def tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]],
           inputs: Inputs) -> dict[str, pd.DataFrame]:
    """``summary`` (every run, per shape group), ``table1``-``table3``, ``section8`` and, unless
    no readings run, ``attribution`` (the published row, then one row per reading)."""
    pub = s.published
    (scale_name, _, points), (paper_scale, _, paper_points) = run_sets(s)
    jobs_all = runs[f"jobs/{scale_name}"]["all"]
    trace, _ = inputs.trace(s.trace)
    summary, bf = _summaries(runs, scale_name, points)
    ms = machines(s)
    t3s = [table3(bf[m]).assign(machine=m, setting="default") for m in ms if m in bf]
    base_summary, base_machine = summary, ms[0]
    if paper_points:
        psum, pbf = _summaries(runs, paper_scale, paper_points)
        pm = paper_points[0].machine
        t3s.append(table3(pbf[pm]).assign(machine=pm, setting="paper"))
        base_summary, base_machine = psum, pm
        summary = pd.concat([summary, psum.assign(setting="paper")], ignore_index=True)
    out = {"summary": summary,
           "table1": table1(trace, jobs_all, ms, pub["table1"], int(s.machine_paper)),
           "table2": table2(jobs_all),
           "table3": pd.concat(t3s, ignore_index=True),
           "section8": section8_table(base_summary, base_machine, pub)}
    if readings(s):
        out["attribution"] = pd.DataFrame(
            [published_attribution_row(pub),
             *(attribution_row(name, reading, runs[f"attribution/{name}"]["summary"])
               for name, reading in readings(s).items())])
    return out


@dataclass(frozen=True)
class Views:
    """What the figures and the scorecard read from the tables (:func:`views`)."""

    frames: dict[str, pd.DataFrame]  #: Figures 3-9 (3-4 from the paper setting when configured)
    default: pd.DataFrame  #: the summary of the sweep (Figures 5-9, extra machines)
    base: pd.DataFrame  #: the summary behind Figures 3-4 and §8
    base_machine: int
    machines: list[int]
    table3: pd.DataFrame  #: Table 3 of the base setting
    note_base: str  #: where Figures 3-4, Table 3 and §8 were run
    whole_log: bool  #: whether they ran on the whole log
    simulated: int  #: jobs of the sweep
    max_jobs: int | None  #: the sweep's subset (None: the whole log)

    def note(self, machine: int) -> str:
        """Where the sweep ran, on ``machine`` nodes."""
        return (f"{machine} nodes, first {self.simulated} jobs of the cleaned log" if self.max_jobs
                else f"{machine} nodes, whole cleaned log")


def views(s: Settings, tables: Mapping[str, pd.DataFrame]) -> Views:
    """The Figure 3-9 frames and the notes, from the ``summary`` and ``table3`` tables."""
    summary, t3 = tables["summary"], tables["table3"]
    paper = (summary["setting"] == "paper").to_numpy() if "setting" in summary else None
    default = summary if paper is None else summary[~paper].drop(columns="setting")
    ms = machines(s)
    v = Views(frames=figure_frames(default, ms[0]), default=default, base=default,
              base_machine=ms[0], machines=ms,
              table3=t3[(t3["setting"] == "default") & (t3["machine"] == ms[0])], note_base="",
              whole_log=not s.max_jobs, max_jobs=s.max_jobs,
              simulated=int(default.loc[default["group"] == "all", "jobs"].max()))
    if paper is None:
        return dataclasses.replace(v, note_base=v.note(ms[0]))
    ps = s.paper_setting
    psum = summary[paper].drop(columns="setting")
    pm, pmax = int(ps.machine), ps.max_jobs
    reps = int(psum["replicate"].max()) + 1
    where = (f"{pm} nodes, " + (f"first {pmax} jobs" if pmax else "whole cleaned log")
             + (f", {reps} seeds of {', '.join(ps.seed_algorithms)}" if reps > 1 else ""))
    pframes = figure_frames(psum, pm)
    frames = {**v.frames, "fig3": pframes["fig3"], "fig4": pframes["fig4"]}
    return dataclasses.replace(v, frames=frames, base=psum, base_machine=pm, whole_log=not pmax,
                               table3=t3[t3["setting"] == "paper"], note_base=where)
