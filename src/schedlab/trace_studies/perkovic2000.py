"""Perković & Keleher 2000 §4–6 applied to any log: queue orders, guarantees, speculation.

What runs (one simulation per row of the paper's Table 4 × {guarantees, -NG} × experiment), all
through :mod:`schedlab.papers.perkovic2000` (job preparation, sweep points, per-run summaries,
the frames behind Figures 3–6, Table 3) and the pk-* schedulers
(:func:`schedlab.sim.schedulers.perkovic_runs.simulate_pk`, on the shared engine):

* §5 / Figure 3 (``figure3``): the queue orders D (= conservative backfilling, "BF"), P, R, 1/L,
  P/L, R/L with start-time guarantees and without (-NG, §4's weighted-delay anti-starvation term):
  mean bounded slowdown (10 s bound), mean delay (wait) and mean response time, each also relative
  to conservative backfilling (``*_ratio``), and the share of jobs that start immediately (§4);
* §5 text (``reductions``): the decrease of bounded slowdown and delay of P/L-NG and R/L-NG
  relative to conservative (BF) and to shortest-first (1/L) backfilling, the numbers the paper
  quotes for Figure 3;
* §5 / Figure 4 (``figure4``): bounded slowdown per shape group (SN/SW/LN/LW, relative to BF);
* §4 / Table 3 (``table3``): initial guaranteed delay / actual delay under BF, for the jobs that
  did not start immediately;
* §6 / Figures 5–6 (``speculation``): speculative backfilling at each speculation percentage,
  relative to the same algorithm without speculation (``spec``), and with §6.1 test runs,
  relative to speculation without test runs (``spectest``).

Readings chosen (see also the paper driver's docstring):

* the log: the first ``max_jobs`` records of the cleaned log (``null`` = all of it; the archive's
  logs are in submission order), normalized by the engine's counted rules
  (:func:`schedlab.traces.normalize.normalize`; the ``normalization`` table counts each rule), as the
  Tang study slices its log;
* the machine: the log's own size (registry ``machine_size``; setting ``machine: log``) — the paper
  ran its CTC log on 430 nodes; an integer overrides it;
* shape groups: "long" = estimate above the median estimate (the paper driver's default reading);
* scheduler constants the paper gives (test-run lengths, §4's starvation horizon, widening) and
  the seed entropy (unless ``seed_entropy`` is set) are those of
  ``config/papers/perkovic2000.yaml`` (``inputs.paper``), so this panel and the paper target share
  them.

Cost (measured on the shared 2-core machine, HPC2N): default (6,000 jobs, 36 runs) ~17 s CPU;
quick (1,000 jobs) ~5 s CPU; full runs the whole log (202,871 jobs: ~85 s CPU per conservative run,
84 runs at three speculation percentages, so 1–2 CPU-hours in one job, meant for a cluster).

Reference columns: where the paper printed a number for its own log (CTC SP2, 430 nodes: §4's 61%
of jobs starting immediately, §5's reductions of P/L-NG and R/L-NG relative to BF, Table 3), it is
shown in a column labelled ``Perković CTC …`` — a reference point from another log, not a target.

Settings (``DEFAULTS[variant]``, overridable from config ``trace_studies: {perkovic2000: ...}``):
``max_jobs`` (int or null), ``machine`` ("log" or int), ``orders`` (subset of D, P, R, 1/L, P/L,
R/L), ``experiments`` (subset of base, spec, spectest; base is always run), ``spec_percentages``
(speculated / estimated running time, §6.2), ``seed_entropy`` (null = the paper config's).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError
from ..papers.perkovic2000.config import resolve_settings
from ..papers.perkovic2000.jobs import prepare_jobs
from ..papers.perkovic2000.plots import make_figure
from ..papers.perkovic2000.runs import simulate, summarize
from ..papers.perkovic2000.sweep import SWEPT, RunPoint
from ..papers.perkovic2000.tabulate import figure_frames, table3
from ..sim.schedulers.queue_orders import ORDERS
from . import StudyInputs

TITLE = ("Perković & Keleher 2000 §4–6: queue orders with and without guarantees, "
         "speculative backfilling")
NOTES = ("Queue orders of Table 4 with start-time guarantees and without (-NG), on the first "
         "max_jobs jobs of the log at the log's machine size; metrics relative to conservative "
         "backfilling (BF) as in Figure 3. Columns 'Perković CTC …' are the paper's values for its "
         "own log (CTC SP2, 430 nodes): a reference point, not a target.")
REF = "Perković CTC"
_BASE = {"orders": ["D", "P", "R", "1/L", "P/L", "R/L"], "machine": "log", "seed_entropy": None}
DEFAULTS: dict[str, dict[str, Any]] = {
    "default": {**_BASE, "max_jobs": 6000, "experiments": ["base", "spec", "spectest"],
                "spec_percentages": [0.5]},
    "quick": {**_BASE, "max_jobs": 1000, "experiments": ["base", "spec", "spectest"],
              "spec_percentages": [0.5]},
    "full": {**_BASE, "max_jobs": None, "experiments": ["base", "spec", "spectest"],
             "spec_percentages": [0.2, 0.5, 0.8]},
}
EXPERIMENTS = ("base", "spec", "spectest")


def run_settings(paper: Mapping[str, Any], settings: dict[str, Any], machine_size: int
                 ) -> tuple[dict[str, Any], int]:
    """The paper driver's settings dict (paper config updated with ours) and the machine size."""
    if "published" not in paper:
        raise ConfigError("trace study perkovic2000 needs config/papers/perkovic2000.yaml "
                          "(StudyInputs.paper)")
    cfg = dict(paper)
    s = {k: v for k, v in cfg.items() if k not in ("scales", "published")}
    s.update(settings)
    if s.get("seed_entropy") is None:
        s["seed_entropy"] = cfg["seed_entropy"]
    bad = [e for e in s["experiments"] if e not in EXPERIMENTS]
    if bad:
        raise ConfigError(f"trace study perkovic2000: experiments {bad} not in {EXPERIMENTS}")
    m = settings.get("machine", "log")
    machine = int(machine_size) if m == "log" else int(m)
    if machine < 1:
        raise ConfigError(f"trace study perkovic2000: machine must be 'log' or >= 1, got {m!r}")
    return s, machine


def points(s: dict[str, Any], machine: int) -> list[RunPoint]:
    """Every simulation: base always, then spec / spectest at each speculation percentage."""
    exps = ["base", *[e for e in s["experiments"] if e != "base"]]
    out = []
    for exp in exps:
        for pct in (s["spec_percentages"] if exp in SWEPT else [None]):
            out += [RunPoint(machine, exp, o, g, None if pct is None else float(pct))
                    for o in s["orders"] for g in (True, False)]
    return out


def _references(pub: dict[str, Any]) -> dict[str, dict[str, float]]:
    """{algorithm: {column: published value}} of Figure 3 (§4, §5) on the paper's CTC log."""
    ref: dict[str, dict[str, float]] = {"BF": {"started_immediately": pub["started_immediately"],
                                               "bounded_slowdown_ratio": 1.0, "delay_ratio": 1.0}}
    for algo in ("P/L-NG", "R/L-NG"):
        ref[algo] = {"bounded_slowdown_ratio": round(1.0 - pub["bsd_reduction"][algo]["BF"], 6),
                     "delay_ratio": round(1.0 - pub["delay_reduction"][algo]["BF"], 6)}
    return ref


def reductions(fig3: pd.DataFrame, pub: Mapping[str, Any]) -> pd.DataFrame:
    """§5: 1 - metric(algorithm) / metric(reference) for P/L-NG and R/L-NG vs BF and vs 1/L, beside
    the paper's CTC values (``bsd_reduction`` / ``delay_reduction`` of the paper config)."""
    f = fig3.set_index("algorithm")
    rows = []
    for metric, col, key in (("bounded slowdown", "bounded_slowdown", "bsd_reduction"),
                             ("delay", "delay", "delay_reduction")):
        for algo in ("P/L-NG", "R/L-NG"):
            for ref in ("BF", "1/L"):
                ours = (1.0 - f.loc[algo, col] / f.loc[ref, col]
                        if algo in f.index and ref in f.index else math.nan)
                rows.append({"metric": metric, "algorithm": algo, "relative_to": ref,
                             "reduction": float(ours), REF: float(pub[key][algo][ref])})
    return pd.DataFrame(rows)


FIG3_COLUMNS = ["algorithm", "order", "guarantees", "jobs", "bounded_slowdown", "delay", "response",
                "bounded_slowdown_ratio", "delay_ratio", "response_ratio", "started_immediately"]


def run(inputs: StudyInputs, settings: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Figure 3/4 frames, Table 3 and the speculation frames on ``inputs``' log (see module)."""
    s, machine = run_settings(inputs.paper, settings, inputs.machine_size)
    s["sim"] = inputs.sim.pinned(s.get("sim")).as_dict()
    entropy = int(s["seed_entropy"])
    n = s.get("max_jobs")
    raw = inputs.jobs if n is None else inputs.jobs.head(int(n))
    table, report = prepare_jobs(raw, inputs.header, machine, None, source=inputs.trace)
    if table.empty:
        raise ConfigError(f"trace study perkovic2000: no simulatable job in {inputs.trace}")
    rows: list[dict] = []
    bf_jobs = None
    # the paper's scheduler options (test runs, ...) under the study's engine options
    run_options = dataclasses.replace(resolve_settings(inputs.paper), sim=s["sim"])
    for point in points(s, machine):
        jobs = simulate(table, point, run_options, entropy)
        rows += summarize(jobs, point)
        if point.experiment == "base" and point.algorithm == "BF":
            bf_jobs = jobs
    frames = figure_frames(pd.DataFrame(rows), machine)
    pub = inputs.paper["published"]
    fig3 = frames["fig3"][FIG3_COLUMNS].copy()
    refs = _references(pub)
    for col in ("started_immediately", "bounded_slowdown_ratio", "delay_ratio"):
        fig3[f"{REF} {col}"] = [refs.get(a, {}).get(col, math.nan) for a in fig3["algorithm"]]
    t3 = table3(bf_jobs) if bf_jobs is not None else pd.DataFrame()
    if len(t3):
        t3[REF] = [float(pub["table3"][k]) for k in t3["statistic"]]
    spec = pd.concat([frames["fig5"].assign(reference="same algorithm without speculation"),
                      frames["fig6"].assign(reference="speculation without test runs")],
                     ignore_index=True)
    spec_cols = ["experiment", "percentage", "algorithm", "order", "guarantees",
                 "bounded_slowdown", "bounded_slowdown_improvement", "delay", "delay_improvement",
                 "kills", "spec_starts", "test_runs", "speculative_successes", "reference"]
    fig4_cols = ["group", "algorithm", "order", "guarantees", "jobs", "bounded_slowdown",
                 "bounded_slowdown_ratio", "delay", "delay_ratio"]
    out = {"figure3": fig3, "reductions": reductions(fig3, pub),
           "figure4": frames["fig4"][fig4_cols], "table3": t3,
           "speculation": spec.reindex(columns=spec_cols)}
    for df in out.values():
        df.insert(0, "trace", inputs.trace)
        df.insert(1, "machine", machine)
        df.insert(2, "log_jobs", len(table))
    out["normalization"] = pd.DataFrame(
        [{"rule": k, "count": int(v)} for k, v in report.items() if isinstance(v, int | np.integer)])
    return {k: v.reset_index(drop=True) for k, v in out.items()}


def figures(tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """Figure 3's layout (the paper driver's figure): metrics and their ratio to BF per order,
    the paper's CTC ratios (§5) as black markers on the ratio panels."""
    f3 = tables["figure3"]
    fig = make_figure("fig3", f3)
    fig.suptitle(f"Perković & Keleher Figure 3 layout on {f3['trace'].iloc[0]}: first "
                 f"{int(f3['log_jobs'].iloc[0]):,} jobs, {int(f3['machine'].iloc[0])} processors")
    xorder = [o for o in ORDERS if o in set(f3["order"])]
    # bars: x = position of the order, guarantees left (-0.2) and -NG right (+0.2) of it
    x = [xorder.index(o) + (-0.2 if g else 0.2) for o, g in zip(f3["order"], f3["guarantees"],
                                                                 strict=True)]
    axes = fig.axes
    for ax, col in ((axes[3], "bounded_slowdown_ratio"), (axes[4], "delay_ratio")):
        ref = f3[f"{REF} {col}"].to_numpy(dtype=float)
        ok = ~np.isnan(ref)
        ax.plot(np.asarray(x)[ok], ref[ok], "D", color="k", ms=5, label=f"{REF} (reference)")
        ax.set_ylim(0, max(1.45, ax.get_ylim()[1] * 1.3))  # room for the legend above the bars
        ax.legend(fontsize=6, ncol=2, loc="upper center")
    return {"figure3": fig}
