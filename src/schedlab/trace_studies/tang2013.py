"""Tang, Ren, Lan & Desai 2013 §4–5 applied to any log: metric-aware scheduling and tuning.

What runs, all through :mod:`schedlab.papers.tang2013` (workload slicing, sweep points, Algorithm-1
tuning, the §4.2 metrics, the Table 2/3 layout, Fig. 12's relative gains) and the metric-aware
scheduler (:class:`schedlab.sim.schedulers.metric_aware.MetricAwareSimulator`):

* §4.3 static policies: balance factor BF × allocation window W (``balance_factors`` ×
  ``windows``; default the tables' grid BF ∈ {1, 0.5} × W ∈ {1, 4}, full the paper's Figs. 3–4
  sweep BF ∈ {1, 0.75, 0.5, 0.25, 0} × W ∈ 1..5);
* §4.4 adaptive tuning: BF adaptive (queue-depth threshold Th = the mean queue depth of the
  BF = 1 / W = 1 run, rounded as in the paper config), W adaptive (1 <-> 4 on utilization),
  2D adaptive (``adaptive``, drop them with ``adaptive: []``);
* ``table`` — the paper's Table 2/3 layout: configuration × {average wait (min), unfair jobs,
  loss of capacity (%)}; ``sweep`` — every run with mean bounded slowdown and utilization
  (the data of Figs. 3–4); ``gains`` — Fig. 12's weighted relative gains vs BF = 1 / W = 1.

Readings chosen:

* the log: its first ``max_jobs`` jobs (the paper: "the first 5000 jobs" of SDSC SP2), normalized
  by the engine's counted rules; runtime cut at the estimate;
* the machine: the log's own size (setting ``machine: log``); EASY backfilling with any-node
  (non-contiguous) allocation, as the paper's SP2 setup (§4.1) — a contiguous, conservative BG/P
  setup is selectable with ``backfill: conservative`` and ``allocation: contiguous``;
* tuning constants, metric readings (fair-start probe, loss-of-capacity δ) and the weightings are
  those of ``config/papers/tang2013.yaml`` (``inputs.paper``), shared with the paper target;
* ``max_jobs: null`` runs the whole log.

Cost (HPC2N, shared 2-core machine): default (5,000 jobs, 7 runs) ~16 s CPU; quick (1,000 jobs)
~2 s CPU; full: 20,000 jobs, the 25-point BF × W sweep plus the adaptive schemes.

Reference columns ``Tang SP2 …``: the paper's Table 3 values for its SP2 log (same layout and
scheduler setup), a reference point from another log — not a target. No random numbers are drawn.

Settings: ``max_jobs``, ``machine`` ("log" or int), ``backfill`` (easy | conservative),
``allocation`` (any | contiguous), ``balance_factors``, ``windows``, ``adaptive`` (subset of
adapt-bf, adapt-w, adapt-2d).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError
from ..papers import tang2013 as tg
from . import StudyInputs

TITLE = "Tang et al. 2013 §4–5: metric-aware scheduling (balance factor × window) and adaptive tuning"
NOTES = ("Metric-aware scheduler (EASY, any-node allocation as the paper's SP2 setup) on the first "
         "max_jobs jobs of the log at the log's machine size. Columns 'Tang SP2 …' are the paper's "
         "Table 3 values for SDSC SP2: a reference point from another log, not a target.")
REF = "Tang SP2"
_BASE = {"machine": "log", "backfill": "easy", "allocation": "any",
         "adaptive": ["adapt-bf", "adapt-w", "adapt-2d"]}
DEFAULTS: dict[str, dict[str, Any]] = {
    "default": {**_BASE, "max_jobs": 5000, "balance_factors": [1.0, 0.5], "windows": [1, 4]},
    "quick": {**_BASE, "max_jobs": 1000, "balance_factors": [1.0, 0.5], "windows": [1, 4]},
    "full": {**_BASE, "max_jobs": 20000, "balance_factors": [1.0, 0.75, 0.5, 0.25, 0.0],
             "windows": [1, 2, 3, 4, 5]},
}


def paper_settings(paper: Mapping[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The paper config updated with the study settings (validated)."""
    if "published" not in paper:
        raise ConfigError("trace study tang2013 needs config/papers/tang2013.yaml "
                          "(StudyInputs.paper)")
    cfg = {**paper, **settings}
    bad = [a for a in cfg["adaptive"] if a not in tg.ADAPTIVE]
    if bad:
        raise ConfigError(f"trace study tang2013: adaptive {bad} not in {tg.ADAPTIVE}")
    if cfg["backfill"] not in ("easy", "conservative") or cfg["allocation"] not in (
            "any", "contiguous"):
        raise ConfigError("trace study tang2013: backfill must be easy|conservative and "
                          "allocation any|contiguous")
    if cfg.get("max_jobs") is None:
        cfg["max_jobs"] = 10**12
    return cfg


def log_spec(inputs: StudyInputs, cfg: dict[str, Any]) -> tg.LogSpec:
    """The paper driver's description of this log's run."""
    m = cfg.get("machine", "log")
    machine = int(inputs.machine_size) if m == "log" else int(m)
    if machine < 1:
        raise ConfigError(f"trace study tang2013: machine must be 'log' or >= 1, got {m!r}")
    sw = cfg["search_windows"].get(cfg["backfill"])
    return tg.LogSpec(inputs.trace, inputs.trace, int(cfg["max_jobs"]), machine, 1,
                      cfg["backfill"], cfg["allocation"], "Table 3", {}, False,
                      None if sw is None else int(sw))


def configurations(ps: tg.Settings) -> dict[str, str]:
    """Table rows: the paper's seven configurations whose points are run, then the other static
    points of the grid (named as the paper names them, e.g. ``BF=0.75/W=2``)."""
    pts = tg.sweep_points(ps)
    out = {name: p for name, p in ps.configurations.items() if p in pts}
    for p in pts:
        if p not in out.values():
            bf, w = tg.parse_point(p)
            out[f"BF={bf:g}/W={w}"] = p
    return out


def run(inputs: StudyInputs, settings: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Table 2/3 layout, the sweep and Fig. 12's gains on ``inputs``' log (see module)."""
    cfg = paper_settings(inputs.paper, settings)
    cfg["sim"] = inputs.sim.pinned(cfg.get("sim")).as_dict()
    spec = log_spec(inputs, cfg)
    jobs, report = tg.workload(inputs.jobs, inputs.header, spec)
    if jobs.empty:
        raise ConfigError(f"trace study tang2013: no simulatable job in {inputs.trace}")
    # the paper's options with our BF x W grid and adaptive schemes
    ps = dataclasses.replace(tg.resolve_settings(inputs.paper, "study", {k: cfg[k] for k in (
        "balance_factors", "windows", "adaptive")}), sim=cfg["sim"])
    grid = tg.sweep_points(dataclasses.replace(ps, adaptive=()))  # our BF x W grid as given
    static = [tg.BASE, *[p for p in grid if p != tg.BASE]]
    rows, th = [], None
    for p in static:
        _, series, summary = tg.run_sweep_point(jobs, spec, p, ps)
        rows.append(summary)
        if p == tg.BASE:
            th = tg.qd_threshold_min(series, ps) * 60.0
    for p in cfg["adaptive"]:
        rows.append(tg.run_sweep_point(jobs, spec, p, ps, th)[2])
    sweep = pd.DataFrame(rows)
    # the paper names only the seven configurations of its tables; the grid may run more/fewer
    confs = configurations(dataclasses.replace(ps, configurations={
        k: v for k, v in ps.configurations.items() if v in set(sweep["point"])}))
    table = tg.config_table(sweep, dataclasses.replace(ps, configurations=confs), spec.label)
    pub = cfg["published"]["Table 3"]
    for i, col in enumerate(tg.METRICS):
        table[f"{REF} {col}"] = [float(pub[c][i]) if c in pub else float("nan")
                                 for c in table["configuration"]]
    paper_rows = table[table["configuration"].isin(cfg["configurations"])]
    gains = (tg.relative_gains(paper_rows, cfg["weightings"])
             if len(paper_rows) > 1 and paper_rows["point"].iloc[0] == tg.BASE else pd.DataFrame())
    out = {"table": table, "sweep": sweep.drop(columns=["trace", "substitute"]), "gains": gains}
    for df in out.values():
        if "log" in df:
            del df["log"]
        df.insert(0, "trace", inputs.trace)
        df.insert(1, "machine", spec.machine_size)
        df.insert(2, "log_jobs", len(jobs))
    out["normalization"] = pd.DataFrame([{"rule": k, "count": int(v)} for k, v in report.items()
                                         if isinstance(v, int | np.integer)])
    return out


def figures(tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """``table``: the Table 2/3 layout as bars (one panel per metric, every configuration; the
    paper's SP2 values as markers); ``metrics``: Figs. 3–4's layout (the paper driver's figure:
    wait, slowdown, unfair jobs vs BF per W, loss of capacity vs W per BF)."""
    import seaborn as sns

    from ..report.plotting import new_figure

    t, sw = tables["table"], tables["sweep"]
    trace, jobs, machine = str(t["trace"].iloc[0]), int(t["log_jobs"].iloc[0]), int(t["machine"].iloc[0])
    where = f"{trace}: first {jobs:,} jobs, {machine} processors"
    fig, axes = new_figure(1, 3, width=4.2, height=4.2)
    d = t.assign(kind=np.where(t["point"].isin(tg.ADAPTIVE), "adaptive", "static"))
    for ax, (col, label) in zip(axes, (("avg_wait_min", "average wait (min)"),
                                       ("unfair_jobs", "unfair jobs"),
                                       ("loc_pct", "loss of capacity (%)")), strict=True):
        sns.barplot(data=d, x="configuration", y=col, hue="kind", dodge=False, ax=ax,
                    errorbar=None)
        ax.plot(np.arange(len(d)), d[f"{REF} {col}"], "D", color="k", label=f"{REF} (reference)")
        ax.set_ylabel(label)
        ax.set_xlabel("")
        ax.tick_params(axis="x", rotation=60, labelsize=7)
        ax.set_ylim(0, 1.3 * np.nanmax([d[col].max(), d[f"{REF} {col}"].max()]))
        if ax is axes[0]:
            ax.legend(fontsize=7, ncol=3, loc="upper center")
        else:
            ax.get_legend().remove()
    fig.suptitle(f"Tang et al. Table 2/3 layout on {where}", fontsize=10)
    spec = tg.LogSpec(trace, trace, jobs, machine, 1, "", "", "Table 3", {}, False, None)
    metrics = tg.fig_metrics(sw.assign(log=trace), spec)
    metrics.suptitle(f"Tang et al. Figs. 3–4 layout on {where}", fontsize=10)
    return {"table": fig, "metrics": metrics}
