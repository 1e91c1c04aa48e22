"""Perković & Keleher 2000, "Randomization, Speculation, and Adaptation in Batch Schedulers".

Experiment driver (issue 8): the run grid, job preparation, the trace characterization (Tables 1–2),
the guarantee accuracy (Table 3), per-run summaries overall and per shape group, the frames behind
Figures 3–9 and the scorecard. Pure functions; file I/O lives in ``scripts/perkovic2000_*.py``.

Experiments (one simulation each, per machine size × algorithm of Table 4 × guarantees or -NG):

==================  ====================================================  ========
experiment          what runs                                             figure
==================  ====================================================  ========
``base``            queue order, regular backfilling only                 3, 4
``spec``            + speculative backfilling at percentage x             5
``spectest``        + speculative backfilling and test runs (§6.1)        6
``half``            half-size alternatives always (§7.1)                  7, 9
``quarter``         quarter-size (> 4 nodes) / half-size alternatives     7
``greedy``          greedy choice among regular, half, double             8
``half_widen``      half-size + start-time widening                       9
``half_spec``       half-size + speculative backfilling (+ test runs)     9
``half_widen_spec`` half-size + widening + speculative backfilling        9
==================  ====================================================  ========

Shape groups (Table 2): "Jobs are grouped by median job parallelism and median job overestimation
factor". The names say Short/Long, so by default "long" means an estimate above the median estimate
(``shape_length: estimate``); ``shape_length: overestimation`` follows the caption literally (above
the median overestimation factor). Narrow = parallelism <= the median. Table 2 reports both groupings.
Overestimation factor = estimate / actual runtime over jobs with a positive runtime in the log.
"""

from __future__ import annotations

import itertools
import math
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..normalize import normalize
from ..scorecard import claim_row, scorecard_frame, value_row
from ..sim.schedulers.pk_backfill import BOUND_S, PKConfig, simulate_pk
from ..sim.schedulers.queue_orders import ORDERS, QueueOrder, default_weight, label, slug
from ..sim.schedulers.speculative import Speculation
from ..swf import SWFHeader

PAPER = "perkovic2000"
GROUPS = ("SN", "SW", "LN", "LW")
#: experiment -> (adaptation, widening, speculation, test runs)
EXPERIMENTS: dict[str, tuple[str, bool, bool, bool]] = {
    "base": ("none", False, False, False),
    "spec": ("none", False, True, False),
    "spectest": ("none", False, True, True),
    "half": ("half", False, False, False),
    "quarter": ("quarter", False, False, False),
    "greedy": ("greedy", False, False, False),
    "half_widen": ("half", True, False, False),
    "half_spec": ("half", False, True, None),  # test runs: config fig9_test_runs
    "half_widen_spec": ("half", True, True, None),
}
SWEPT = ("spec", "spectest")  # experiments run at every speculation percentage


@dataclass(frozen=True)
class RunPoint:
    """One simulation: machine size, experiment, queue order, guarantees, speculation percentage."""

    machine: int
    experiment: str
    order: str
    guarantees: bool
    percentage: float | None = None

    @property
    def algorithm(self) -> str:
        return label(self.order, self.guarantees)

    @property
    def variant(self) -> str:
        """Experiment name with its percentage, e.g. ``spec50``."""
        if self.percentage is None:
            return self.experiment
        return f"{self.experiment}{round(self.percentage * 100):d}"

    @property
    def path(self) -> str:
        return f"{self.machine}/{self.variant}/{slug(self.order, self.guarantees)}"


def _settings(cfg: dict[str, Any], quick: bool, full: bool) -> dict[str, Any]:
    s = dict(cfg)
    if quick:
        s.update(cfg.get("quick_settings", {}))
    elif full:
        s.update(cfg.get("full_settings", {}))
    return s


def settings(cfg: dict[str, Any], quick: bool = False, full: bool = False) -> dict[str, Any]:
    """The paper config with the quick or full (paper-scale) overrides applied."""
    return _settings(cfg, quick, full)


def grid(cfg: dict[str, Any], quick: bool = False, full: bool = False) -> list[RunPoint]:
    """Every sweep point of the configuration (see module docstring)."""
    s = _settings(cfg, quick, full)
    orders = list(s["orders"])
    for o in orders:
        if o not in ORDERS:
            raise ValueError(f"config/papers/perkovic2000.yaml: unknown order {o!r}")
    algos = [(o, g) for o in orders for g in (True, False)]
    points: list[RunPoint] = []
    m0 = int(s["machine"])
    for exp in s["experiments"]:
        if exp not in EXPERIMENTS:
            raise ValueError(f"config/papers/perkovic2000.yaml: unknown experiment {exp!r}")
        pcts = s["spec_percentages"] if exp in SWEPT else (
            [s["fig9_percentage"]] if EXPERIMENTS[exp][2] else [None])
        for pct in pcts:
            points += [RunPoint(m0, exp, o, g, pct) for o, g in algos]
    for m in s.get("extra_machines", []):
        points += [RunPoint(int(m), "base", o, g) for o, g in algos]
    return points


def pk_config(point: RunPoint, s: dict[str, Any], median_estimate: float) -> PKConfig:
    """The scheduler configuration of a sweep point."""
    adaptation, widening, spec, tests = EXPERIMENTS[point.experiment]
    if tests is None:
        tests = bool(s["fig9_test_runs"])
    weight = 0.0 if point.guarantees else default_weight(
        point.order, median_estimate, float(s["starvation_horizon_s"]))
    speculation = None
    if spec:
        t = s["test_runs"]
        speculation = Speculation(percentage=float(point.percentage), test_runs=bool(tests),
                                  min_estimate_s=float(t["min_estimate_s"]),
                                  length_s=float(t["length_s"]),
                                  max_length_s=float(t["max_length_s"]),
                                  max_test_runs=int(t["max_test_runs"]))
    return PKConfig(order=QueueOrder(point.order, point.guarantees, weight),
                    speculation=speculation, adaptation=adaptation, widening=widening,
                    widen_factors=tuple(int(f) for f in s["widen_factors"]))


def seed_for(entropy: int, point: RunPoint) -> np.random.SeedSequence:
    """Seed of a run: the experiment entropy and the algorithm (common random numbers across
    experiments and percentages for the same algorithm and machine)."""
    key = zlib.crc32(f"{point.machine}|{point.order}|{point.guarantees}".encode())
    return np.random.SeedSequence(int(entropy), spawn_key=(key,))


# ------------------------------------------------------------------------------------- jobs
def prepare_jobs(trace_jobs: pd.DataFrame, header: SWFHeader | None, machine: int,
                 max_jobs: int | None, source: str = "<trace>"
                 ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Normalized simulation jobs (engine rules), the first ``max_jobs`` by submission, with the
    log's own runtime (for overestimation) and the shape groups of both readings."""
    norm = normalize(trace_jobs, header, machine_size=machine, source=source)
    table = norm.table.sort_values(["submit", "job_id"], kind="stable").reset_index(drop=True)
    report = dict(norm.report)
    if max_jobs is not None and len(table) > max_jobs:
        report["dropped_subset"] = len(table) - int(max_jobs)
        table = table.iloc[: int(max_jobs)].reset_index(drop=True)
    else:
        report["dropped_subset"] = 0
    log_rt = trace_jobs.set_index("job_id")["run_time"]
    table["log_runtime"] = log_rt.reindex(table["job_id"]).to_numpy()
    table["overestimation"] = overestimation(table["estimate"], table["log_runtime"])
    table["group"] = shape_groups(table, "estimate")
    table["group_overest"] = shape_groups(table, "overestimation")
    return table, report


def overestimation(estimate: pd.Series, runtime: pd.Series) -> np.ndarray:
    """Estimate / actual runtime; NaN where the runtime is not positive."""
    rt = np.asarray(runtime, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rt > 0, est / rt, np.nan)


def shape_groups(table: pd.DataFrame, length: str = "estimate") -> np.ndarray:
    """SN/SW/LN/LW labels: narrow = procs <= median procs; long = above the median ``length``
    (``estimate`` or ``overestimation``; a job without an overestimation factor counts as short)."""
    procs = table["procs"].to_numpy()
    wide = procs > np.median(procs)
    if length == "estimate":
        x = table["estimate"].to_numpy(dtype=np.float64)
    elif length == "overestimation":
        x = np.asarray(table["overestimation"], dtype=np.float64)
    else:
        raise ValueError(f"shape_length must be 'estimate' or 'overestimation', got {length!r}")
    med = np.nanmedian(x)
    long_ = np.nan_to_num(x, nan=-np.inf) > med
    return np.where(long_, np.where(wide, "LW", "LN"), np.where(wide, "SW", "SN")).astype(object)


def run_point(table: pd.DataFrame, point: RunPoint, s: dict[str, Any], entropy: int
              ) -> pd.DataFrame:
    """Simulate one sweep point; per-job result frame (DESIGN §3 columns + flags + group)."""
    cfg = pk_config(point, s, float(table["estimate"].median()))
    res = simulate_pk(table["submit"].to_numpy(), table["runtime"].to_numpy(),
                      table["estimate"].to_numpy(), table["procs"].to_numpy(), point.machine, cfg,
                      seed_for(entropy, point))
    out = table[["job_id", "submit", "procs", "runtime", "estimate", "group", "group_overest"]].copy()
    for k, v in res.items():
        out[k] = v
    return add_metrics(out)


def add_metrics(df: pd.DataFrame) -> pd.DataFrame:
    """wait (= delay), response and bounded slowdown (10 s bound, original runtime)."""
    df["wait"] = df["start"] - df["submit"]
    df["response"] = df["end"] - df["submit"]
    df["bounded_slowdown"] = df["response"] / np.maximum(df["runtime"].to_numpy(dtype=float),
                                                         BOUND_S)
    return df


# ------------------------------------------------------------------------------------ tables
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
    return pd.DataFrame(rows)


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


# --------------------------------------------------------------------------------- summaries
def queue_length_max(jobs: pd.DataFrame) -> int:
    """Largest number of jobs waiting at once (submission to final start)."""
    t = np.concatenate([jobs["submit"].to_numpy(float), jobs["start"].to_numpy(float)])
    d = np.concatenate([np.ones(len(jobs)), -np.ones(len(jobs))])
    o = np.lexsort((d, t))  # starts (-1) before arrivals (+1) at equal times
    return int(np.max(np.cumsum(d[o]), initial=0))


def summarize(jobs: pd.DataFrame, point: RunPoint, group_col: str = "group") -> list[dict]:
    """Per-run rows: overall and per shape group."""
    rows = []
    for g in ("all", *GROUPS):
        sub = jobs if g == "all" else jobs[jobs[group_col] == g]
        rows.append({
            "machine": point.machine, "experiment": point.experiment, "variant": point.variant,
            "percentage": math.nan if point.percentage is None else float(point.percentage),
            "order": point.order, "guarantees": point.guarantees, "algorithm": point.algorithm,
            "group": g, "jobs": len(sub),
            "bounded_slowdown": float(sub["bounded_slowdown"].mean()),
            "delay": float(sub["wait"].mean()), "response": float(sub["response"].mean()),
            "started_immediately": float((sub["wait"] <= 0).mean()),
            "jobs_delayed": int((sub["wait"] > 0).sum()),
            "kills": int(sub["kills"].sum()), "spec_starts": int(sub["spec_starts"].sum()),
            "test_runs": int(sub["test_runs"].sum()),
            "speculative_successes": int(sub["speculative"].sum()),
            "widened": int(sub["widened"].sum()), "wasted_proc_s": float(sub["wasted_proc_s"].sum()),
            "max_queue_length": queue_length_max(sub) if g == "all" else -1,
        })
    return rows


def relative(summary: pd.DataFrame, ref: pd.DataFrame, keys: list[str],
             metrics: tuple[str, ...] = ("bounded_slowdown", "delay", "response")) -> pd.DataFrame:
    """Add ``<metric>_ratio`` = ours / reference (matched on ``keys``) and ``_improvement`` = 1 - ratio."""
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


# --------------------------------------------------------------------------------- scorecard
def _get(df: pd.DataFrame, **eq: Any) -> pd.DataFrame:
    m = np.ones(len(df), dtype=bool)
    for k, v in eq.items():
        m &= (df[k] == v).to_numpy()
    return df[m]


def _val(df: pd.DataFrame, col: str, **eq: Any) -> float:
    sub = _get(df, **eq)
    return float(sub[col].iloc[0]) if len(sub) else math.nan


def scorecard(t1: pd.DataFrame, t2: pd.DataFrame, t3: pd.DataFrame, frames: dict[str, pd.DataFrame],
              pub: dict[str, Any], note_run: str) -> pd.DataFrame:
    """Every published claim of the issue beside ours (DESIGN §3 rows)."""
    rows: list[dict] = []
    tol = float(pub.get("tolerance", 0.10))
    for _, r in t1[t1["published"].notna()].iterrows():
        rows.append(value_row(PAPER, "Table 1", r["quantity"], "CTC-SP2 log", r["published"],
                              r["reproduced"], tolerance=tol,
                              note=(r["note"] + "; " if r["note"] else "") +
                              "cleaned archive log vs the paper's 79,302-job trace"))
    t2e = t2[t2["grouping"] == "estimate"]
    for g, vals in pub["table2"].items():
        for q, key in (("jobs", "jobs"), ("avg_overestimation", "avg_overestimation"),
                       ("zero_runtime_jobs", "zero_runtime_jobs")):
            rows.append(value_row(PAPER, "Table 2", f"{g} {q}", "grouping by estimate (default)",
                                  vals[key], _val(t2e, q, group=g), tolerance=tol,
                                  note="grouping rule ambiguous in the paper; see Table 2 parquet "
                                       "for the overestimation-based reading"))
    rows += table3_rows(t3, pub, note_run, tol)
    f3 = frames["fig3"]
    rows += fig3_rows(f3, pub, note_run, tol)
    bsd = {a: _val(f3, "bounded_slowdown", algorithm=a) for a in f3["algorithm"]}
    rows += _claims(frames, bsd, note_run)
    f9 = frames["fig9"]
    best = f9[f9["experiment"] == "half_widen_spec"]
    rows.append(value_row(PAPER, "§7.1 / Figure 9", "best bounded slowdown relative to BF",
                          "half-size + widening + speculation, best algorithm",
                          pub["combined_bsd_ratio"],
                          float(best["bounded_slowdown_ratio"].min()) if len(best) else math.nan,
                          unit="ratio", tolerance=0.5, note=note_run))
    rows.append(value_row(PAPER, "§7.1 / Figure 9", "R/L-NG delay relative to BF",
                          "half-size + widening + speculation", pub["rl_ng_delay_ratio"],
                          _val(best, "delay_ratio", algorithm="R/L-NG"), unit="ratio",
                          tolerance=0.5, note=note_run))
    return scorecard_frame(rows)


def table3_rows(t3: pd.DataFrame, pub: dict[str, Any], note_run: str, tol: float = 0.10,
                condition: str = "conservative BF, jobs that did not start immediately"
                ) -> list[dict]:
    """Table 3: the guaranteed/actual delay ratio statistics beside the published ones."""
    stats = dict(zip(t3["statistic"], t3["reproduced"], strict=True))
    return [value_row(PAPER, "Table 3", f"guaranteed/actual delay ratio: {k}", condition, v,
                      stats.get(k), tolerance=tol, note=note_run)
            for k, v in pub["table3"].items()]


def paper_setting_points(s: dict[str, Any]) -> list[RunPoint]:
    """Base experiment (Figure 3, Table 3) in the paper's own setting (``paper_setting`` in the
    config: e.g. the whole log on 430 nodes), run beside the default grid; [] when not configured."""
    ps = s.get("paper_setting")
    if not ps:
        return []
    return [RunPoint(int(ps["machine"]), "base", o, g) for o in s["orders"] for g in (True, False)]


def fig3_rows(f3: pd.DataFrame, pub: dict[str, Any], note_run: str, tol: float = 0.10
              ) -> list[dict]:
    """§4 fraction started immediately and the §5 reductions of P/L-NG and R/L-NG (Figure 3)."""
    rows = [value_row(PAPER, "§4", "fraction of jobs starting immediately", "conservative BF",
                      pub["started_immediately"], _val(f3, "started_immediately", algorithm="BF"),
                      tolerance=tol, note=note_run)]
    bsd = {a: _val(f3, "bounded_slowdown", algorithm=a) for a in f3["algorithm"]}
    dly = {a: _val(f3, "delay", algorithm=a) for a in f3["algorithm"]}
    for metric, vals, key in (("bounded slowdown", bsd, "bsd_reduction"),
                              ("delay", dly, "delay_reduction")):
        for algo in ("P/L-NG", "R/L-NG"):
            for ref_name, ref in (("conservative (BF)", "BF"), ("shortest-first (1/L)", "1/L")):
                published = pub[key][algo][ref]
                ours = 1.0 - vals.get(algo, math.nan) / vals.get(ref, math.nan)
                rows.append(value_row(PAPER, "§5 / Figure 3", f"{metric} reduction of {algo}",
                                      f"vs {ref_name}", published, ours, unit="fraction",
                                      tolerance=0.25, note=note_run))
        chain = [vals.get(a, math.nan) for a in ("R/L-NG", "P/L-NG", "1/L", "BF")]
        ok = None if any(math.isnan(v) for v in chain) else all(
            a < b for a, b in itertools.pairwise(chain))
        rows.append(claim_row(PAPER, "§5 / Figure 3", f"{metric}: R/L-NG < P/L-NG < 1/L < BF",
                              "ordering of the published reductions", ok, note=note_run))
    return rows


def _claims(frames: dict[str, pd.DataFrame], bsd: dict[str, float], note: str) -> list[dict]:
    rows = []

    def claim(item: str, q: str, cond: str, holds: bool | None, pub: float | None = None,
              rep: float | None = None) -> None:
        rows.append(claim_row(PAPER, item, q, cond, holds, pub, rep, note=note))

    def lt(a: str, b: str) -> bool | None:
        if a not in bsd or b not in bsd:
            return None
        return bsd[a] < bsd[b]

    claim("§5 / Figure 3", "R has lower bounded slowdown than P", "with guarantees", lt("R", "P"))
    claim("§5 / Figure 3", "R-NG has lower bounded slowdown than P-NG", "no guarantees",
          lt("R-NG", "P-NG"))
    claim("§5 / Figure 3", "1/L has lower bounded slowdown than BF", "with guarantees",
          lt("1/L", "BF"))
    ng_better = [lt(f"{o}-NG", o) for o in ("P", "R", "1/L", "P/L", "R/L")]
    claim("§5 / Figure 3", "-NG beats the guarantee version for every order except arrival (D)",
          "bounded slowdown", None if None in ng_better else all(ng_better))
    claim("§5 / Figure 3", "BF-NG (arrival order, no guarantees) is not better than BF",
          "bounded slowdown", None if lt("BF", "BF-NG") is None else not lt("BF-NG", "BF"))
    f4 = frames["fig4"]
    if len(f4):
        imp = f4[f4["algorithm"] != "BF"].groupby("group")["bounded_slowdown_improvement"].max()
        claim("§5 / Figure 4", "some algorithm improves on BF in every shape group",
              "best algorithm per group", bool((imp > 0).all()) if len(imp) == 4 else None)
        claim("§5 / Figure 4", "long-wide jobs improve least", "best improvement per group",
              bool(imp.idxmin() == "LW") if len(imp) == 4 else None,
              rep=float(imp.get("LW", math.nan)))
    f5 = frames["fig5"]
    if f5["percentage"].nunique() > 1:
        m = f5.groupby("percentage")["bounded_slowdown"].mean()
        claim("§6.2 / Figure 5", "bounded slowdown smaller with smaller speculation percentage",
              "mean over algorithms, lowest vs highest percentage",
              bool(m.iloc[0] < m.iloc[-1]), rep=float(m.iloc[0] / m.iloc[-1]))
    if len(f5):
        claim("§6.2 / Figure 5", "speculative backfilling improves on the same algorithm without",
              "mean improvement over algorithms and percentages",
              bool(f5["bounded_slowdown_improvement"].mean() > 0),
              rep=float(f5["bounded_slowdown_improvement"].mean()))
    f6 = frames["fig6"]
    if len(f6):
        claim("§6.2 / Figure 6", "test runs improve speculative backfilling",
              "mean improvement over algorithms and percentages",
              bool(f6["bounded_slowdown_improvement"].mean() > 0),
              rep=float(f6["bounded_slowdown_improvement"].mean()))
        if f6["percentage"].nunique() > 1:
            g = f6.groupby("percentage")["bounded_slowdown_improvement"].mean()
            claim("§6.2 / Figure 6", "test runs help most at large speculation percentages",
                  "mean improvement, highest vs lowest percentage", bool(g.iloc[-1] > g.iloc[0]))
            m = f6.groupby("percentage")["bounded_slowdown"].mean()
            claim("§6.2 / Figure 6", "with test runs bounded slowdown slightly decreases with "
                  "higher speculation percentage", "mean over algorithms",
                  bool(m.iloc[-1] < m.iloc[0]), rep=float(m.iloc[-1] / m.iloc[0]))
    f7 = frames["fig7"]
    for exp in ("half", "quarter"):
        sub = f7[f7["experiment"] == exp]
        if len(sub):
            claim("§7.1 / Figure 7", f"{exp}-size: bounded slowdown and delay improve vs BF",
                  "mean ratio over algorithms",
                  bool(sub["bounded_slowdown_ratio"].mean() < 1 and sub["delay_ratio"].mean() < 1),
                  rep=float(sub["bounded_slowdown_ratio"].mean()))
            claim("§7.1 / Figure 7", f"{exp}-size: average response time increases vs BF",
                  "mean ratio over algorithms", bool(sub["response_ratio"].mean() > 1),
                  rep=float(sub["response_ratio"].mean()))
    f8, f9 = frames["fig8"], frames["fig9"]
    if len(f8) and len(f7):
        half = f7[f7["experiment"] == "half"]["bounded_slowdown"].min()
        claim("§7.1 / Figure 8", "greedy adaptation does not beat half-size always",
              "best algorithm of each", bool(f8["bounded_slowdown"].min() >= half),
              rep=float(f8["bounded_slowdown"].min() / half))
    if len(f9):
        h = f9[f9["experiment"] == "half"].set_index("algorithm")["bounded_slowdown"]
        w = f9[f9["experiment"] == "half_widen"].set_index("algorithm")["bounded_slowdown"]
        common = h.index.intersection(w.index)
        if len(common):
            frac = float((w[common] < h[common]).mean())
            claim("§7.1 / Figure 9", "start-time widening improves half-sizing for most algorithms",
                  "fraction of algorithms improved", frac > 0.5, rep=frac)
    return rows


# ----------------------------------------------------------------------------------- figures
METRICS = ("bounded_slowdown", "delay", "response")
FIGURE_TITLES = {
    "fig3": "Figure 3: algorithm mixes",
    "fig4": "Figure 4: bounded slowdown per shape group",
    "fig5": "Figure 5: speculative backfilling",
    "fig6": "Figure 6: speculative backfilling with test runs",
    "fig7": "Figure 7: half-sized and quarter-sized jobs",
    "fig8": "Figure 8: greedy adaptation",
    "fig9": "Figure 9: half-sizing, start-time widening, speculation",
}


def _axis_frame(df: pd.DataFrame) -> pd.DataFrame:
    d = df.copy()
    d["queue order"] = d["order"].map(lambda o: "BF/D" if o == "D" else o)
    d["variant "] = np.where(d["guarantees"], "guarantees", "no guarantees (-NG)")
    return d


def make_figure(name: str, frame: pd.DataFrame):
    """The matplotlib figure for one of Figures 3–9 from its frame (see :func:`figure_frames`)."""
    import seaborn as sns

    from ..plotting import new_figure

    d = _axis_frame(frame)
    xorder = [("BF/D" if o == "D" else o) for o in ORDERS if o in set(d["order"])]
    hue = "variant "
    if name in ("fig3", "fig7", "fig8", "fig9"):
        fig, axes = new_figure(2, 3, width=4.2, height=3.2, squeeze=False)
        extra = {"fig7": "experiment", "fig9": "experiment"}.get(name)
        for c, m in enumerate(METRICS):
            for r, col in enumerate((m, f"{m}_ratio")):
                ax = axes[r][c]
                dd = d if extra is None else d.assign(**{hue: d[extra] + " / " + d[hue]})
                sns.barplot(data=dd, x="queue order", y=col, hue=hue, order=xorder, ax=ax,
                            errorbar=None)
                ax.set_ylabel(col.replace("_", " ") + (" (vs BF)" if r else ""))
                if r:
                    ax.axhline(1.0, color="k", lw=0.8)
                if (r, c) != (0, 0) and ax.get_legend() is not None:
                    ax.get_legend().remove()
                elif ax.get_legend() is not None:
                    ax.legend(fontsize=6)
    elif name == "fig4":
        fig, axes = new_figure(2, 4, width=3.4, height=3.0, squeeze=False)
        for c, g in enumerate(GROUPS):
            for r, col in enumerate(("bounded_slowdown", "bounded_slowdown_ratio")):
                ax = axes[r][c]
                sns.barplot(data=d[d["group"] == g], x="queue order", y=col, hue=hue,
                            order=xorder, ax=ax, errorbar=None)
                ax.set_title(g if r == 0 else "")
                if (r, c) != (0, 0) and ax.get_legend() is not None:
                    ax.get_legend().remove()
    else:  # fig5, fig6: sweep over the speculation percentage
        fig, axes = new_figure(1, 2, width=5.0, height=3.6, squeeze=False)
        d["algorithm "] = d["algorithm"]
        for c, col in enumerate(("bounded_slowdown", "bounded_slowdown_improvement")):
            ax = axes[0][c]
            sns.lineplot(data=d, x="percentage", y=col, hue="algorithm ", marker="o", ax=ax)
            ax.set_xlabel("speculation percentage")
            if c and ax.get_legend() is not None:
                ax.get_legend().remove()
            elif ax.get_legend() is not None:
                ax.legend(fontsize=6, ncol=2)
    fig.suptitle(FIGURE_TITLES[name])
    return fig


def section8_rows(summary: pd.DataFrame, machine: int, pub: dict[str, Any], note: str
                  ) -> pd.DataFrame:
    """§8 overhead observations: maximum queue length and number of delayed jobs (conservative BF)."""
    bf = summary[(summary["machine"] == machine) & (summary["experiment"] == "base")
                 & (summary["algorithm"] == "BF") & (summary["group"] == "all")]
    qmax = float(bf["max_queue_length"].iloc[0]) if len(bf) else math.nan
    delayed = float(bf["jobs_delayed"].iloc[0]) if len(bf) else math.nan
    rows = [
        value_row(PAPER, "§8", "maximum queue length", "conservative BF", pub["max_queue_length"],
                  qmax, unit="jobs", tolerance=0.5, note=note),
        claim_row(PAPER, "§8", "fewer than 20,000 jobs delayed in the queue", "conservative BF",
                  None if math.isnan(delayed) else delayed < pub["jobs_delayed_max"],
                  pub["jobs_delayed_max"], delayed, unit="jobs", note=note),
    ]
    return scorecard_frame(rows)
