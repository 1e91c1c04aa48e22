"""Tang et al. 2013 Figs. 3-12 (matplotlib figures; published values overlaid).

:mod:`schedlab.report.plotting` (matplotlib, seaborn: ~1.2 CPU-s to import) is imported inside
each figure function, not here: the package imports this module, and a point job draws nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .config import BASE, METRICS, LogSpec, Settings, parse_point
from .gains import published_table, scores
from .tabulate import monitored_series, table_name


def _title(spec: LogSpec) -> str:
    return f"{spec.label} ({spec.trace}{', substitute for Intrepid BG/P' if spec.substitute else ''})"


def published_label(spec: LogSpec) -> str:
    """Legend label of the published values on ``spec``'s panels: on the substitute log they are
    the paper's BG/P values drawn beside a different log's results, and say so."""
    return "published (BG/P; our panel: substitute log)" if spec.substitute else "published"


def fig_metrics(summary: pd.DataFrame, spec: LogSpec, published: pd.DataFrame | None = None):
    """Figs. 3-4: (a) wait, (b) slowdown, (c) unfair jobs vs BF (a line per W); (d) LoC vs W.
    ``published`` (the paper's Table 2/3 in :func:`published_table` layout): its static points
    (BF = 1, 0.5 x W = 1, 4) overlaid as open markers, legend :func:`published_label`."""
    from ...report.plotting import new_figure

    plab = published_label(spec)

    s = summary[(summary["log"] == spec.label) & summary["bf"].notna()]
    fig, axes = new_figure(2, 2, width=5.0, height=3.6)
    panels = [("mean_wait_min", "avg_wait_min", "(a) average wait (min)"),
              ("mean_bsld", None, "(b) average bounded slowdown (ratio)"),
              ("unfair_jobs", "unfair_jobs", "(c) unfair jobs (count)")]
    pub = None
    if published is not None:
        pub = published.copy()
        parsed = pub["point"].map(parse_point)
        pub["bf"] = [b for b, _ in parsed]
        pub["window"] = [w for _, w in parsed]
        pub = pub[pub["bf"].notna()]
    for ax, (col, pcol, lab) in zip(axes.flat[:3], panels, strict=True):
        for w, g in s.groupby("window"):
            g = g.sort_values("bf", ascending=False)
            ax.plot(g["bf"], g[col], marker="o", label=f"W={int(w)}")
        if pub is not None and pcol is not None:
            for i, (w, g) in enumerate(pub.groupby("window")):
                ax.plot(g["bf"], g[pcol], "s^dv"[i % 4] + "--", mfc="none", color="black",
                        lw=0.8, label=f"{plab} W={int(w)}")
        ax.set_xlabel("balance factor BF (dimensionless)")
        ax.set_ylabel(lab)
        ax.invert_xaxis()
    ax = axes.flat[3]
    for bf, g in s.groupby("bf"):
        g = g.sort_values("window")
        ax.plot(g["window"], g["loc_pct"], marker="o", label=f"BF={bf:g}")
    if pub is not None:
        for i, (bf, g) in enumerate(pub.groupby("bf")):
            g = g.sort_values("window")
            ax.plot(g["window"], g["loc_pct"], "s^dv"[i % 4] + "--", mfc="none", color="black",
                    lw=0.8, label=f"{plab} BF={bf:g}")
    ax.set_xlabel("window size W (jobs)")
    ax.set_ylabel("(d) loss of capacity (%)")
    axes.flat[0].legend(fontsize=7)
    ax.legend(fontsize=7)
    note = "" if published is not None else " (no published overlay)"
    fig.suptitle(f"Metrics balancing: {_title(spec)}{note}", fontsize=10)
    return fig


_QD_LINES = {"bf1_w1": "BF = 1", "bf0.75_w1": "BF = 0.75", "bf0.5_w1": "BF = 0.5",
             "adapt-bf": "BF Adaptive", "adapt-2d": "2D Adaptive"}


def _clip(series: pd.DataFrame, hours: float) -> pd.DataFrame:
    return series[series["hours"] <= hours]


def fig_queue_depth(series: dict[str, pd.DataFrame], points: list[str], spec: LogSpec,
                    hours: float, what: str, cfg: Settings | None = None,
                    threshold_min: float | None = None):
    """Figs. 5-6 (and 9a/10a): queue depth every 30 min, first ``hours``, linear and log.
    Published values on the same axes (dashed, legend "published"): the paper's threshold Th
    of this machine, and for BG/P (Fig. 5) the stated maxima "1/4" (BF = 0.75) and "less than
    1/8" (BF = 0.5) of FCFS's maximum, drawn at our FCFS maximum. ``threshold_min``: the Th our
    adaptive run used (dotted)."""
    from ...report.plotting import new_figure

    fig, axes = new_figure(1, 2, width=5.5, height=3.6)
    pub_lines: list[tuple[float, str]] = []
    if cfg is not None:
        key = "BGP" if spec.table == "Table 2" else "SP2"
        pub_lines.append((float(cfg.published["qd_threshold_min"][key]),
                          f"published Th ({key})"))
        if key == "BGP" and "bf1_w1" in series:
            q1 = float(_clip(series["bf1_w1"], hours)["queue_depth_min"].max())
            for k, frac in cfg.published["fig5_max_qd_ratio"].items():
                pub_lines.append((q1 * float(frac), f"published max {k} = {frac:g} x FCFS max"))
    for ax, log in zip(axes, (False, True), strict=True):
        for p in points:
            if p not in series:
                continue
            d = _clip(series[p], hours)
            ls = "-" if p.startswith("adapt") else "--"
            ax.plot(d["hours"], d["queue_depth_min"], ls, lw=1.0, label=_QD_LINES.get(p, p))
        for i, (y, lab) in enumerate(pub_lines):
            ax.axhline(y, color="black", ls="--", lw=0.8, alpha=0.4 + 0.2 * (i == 0),
                       label=lab)
        if threshold_min is not None:
            ax.axhline(threshold_min, color="grey", ls=":", lw=0.8, label="Th used here")
        ax.set_xlabel("elapsed hours (h)")
        ax.set_ylabel("queue depth (min)" + (", log scale" if log else ""))
        if log:
            ax.set_yscale("symlog", linthresh=1.0)
            ax.set_ylim(bottom=0)
    axes[0].legend(fontsize=6)
    fig.suptitle(f"{what}: {_title(spec)}", fontsize=10)
    return fig


def _util_panel(ax, d: pd.DataFrame, title: str) -> None:
    for col, lab in (("util_instant", "instant"), ("util_1h", "1H"), ("util_10h", "10H"),
                     ("util_24h", "24H")):
        ax.plot(d["hours"], d[col], lw=1.0 if col != "util_instant" else 0.6, label=lab)
    ax.set_xlabel("elapsed hours")
    ax.set_ylabel("utilization")
    ax.set_ylim(0, 1.05)
    ax.set_title(title, fontsize=9)


def fig_utilization(series: dict[str, pd.DataFrame], spec: LogSpec, hours: float):
    """Figs. 7-8: utilization monitors, (a) no tuning (BF = 1, W = 1), (b) W adaptive."""
    from ...report.plotting import new_figure

    fig, axes = new_figure(1, 2, width=5.5, height=3.6)
    _util_panel(axes[0], _clip(series[BASE], hours), "(a) without tuning (W = 1)")
    _util_panel(axes[1], _clip(series["adapt-w"], hours), "(b) W adaptive (1 <-> 4)")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Monitoring of system utilization: {_title(spec)}", fontsize=10)
    return fig


def fig_twod(series: dict[str, pd.DataFrame], spec: LogSpec, hours: float):
    """Figs. 9-10: (a) queue depth under 2D tuning vs the others, (b) utilization under 2D."""
    from ...report.plotting import new_figure

    fig, axes = new_figure(1, 2, width=5.5, height=3.6)
    for p in ("bf1_w1", "bf0.5_w1", "adapt-bf", "adapt-2d"):
        d = _clip(series[p], hours)
        axes[0].plot(d["hours"], d["queue_depth_min"], "-" if p.startswith("adapt") else "--",
                     lw=1.0, label=_QD_LINES[p])
    axes[0].set_yscale("symlog", linthresh=1.0)
    axes[0].set_xlabel("elapsed hours")
    axes[0].set_ylabel("queue depth (min), log scale")
    axes[0].set_title("(a) queue depth", fontsize=9)
    axes[0].legend(fontsize=8)
    _util_panel(axes[1], _clip(series["adapt-2d"], hours), "(b) system utilization, 2D adaptive")
    axes[1].legend(fontsize=8)
    fig.suptitle(f"2D policy tuning: {_title(spec)}", fontsize=10)
    return fig


def fig_radar(tables: dict[str, pd.DataFrame], specs: list[LogSpec]):
    """Fig. 11: radar charts of the normalized scores (solid: adaptive, dashed: static)."""
    from ...report.plotting import new_figure

    fig, axes = new_figure(1, len(specs), width=4.6, height=4.4,
                           subplot_kw={"projection": "polar"})
    axes = np.atleast_1d(axes)
    angles = np.linspace(0, 2 * np.pi, 3, endpoint=False)
    for ax, spec in zip(axes, specs, strict=True):
        sc = scores(tables[spec.label])
        for _, r in sc.iterrows():
            v = [r[m] for m in METRICS]
            ls = "-" if "Adapt" in r["configuration"] else "--"
            ax.plot(np.append(angles, angles[0]), np.append(v, v[0]), ls, lw=1.2,
                    label=r["configuration"])
        ax.set_xticks(angles)
        ax.set_xticklabels(["avg wait", "unfair", "LoC"])
        ax.set_ylim(0, 100)
        ax.set_title(spec.label, fontsize=9)
    axes[-1].legend(fontsize=7, loc="upper right", bbox_to_anchor=(1.45, 1.1))
    return fig


def fig_gains(gains: pd.DataFrame, specs: list[LogSpec], cfg: Settings | None = None,
              published: pd.DataFrame | None = None):
    """Fig. 12: relative gains vs BF = 1 / W = 1 per weighting (and their average), reading
    ``cfg.gain_reading``. Published on the same axes (legend "published"): black markers =
    the same gains computed from the paper's own Table 2/3 (``published``; only on the log the
    table belongs to; on the substitute log the BG/P values, labelled so by
    :func:`published_label`), dashed line = the gain the text states (BG/P 2D: "nearly 35%";
    SP2 W-/2D-adapt: "up to 15%")."""
    from ...report.plotting import new_figure

    reading = cfg.gain_reading if cfg is not None else "score_points"
    if "reading" in gains:
        gains = gains[gains["reading"] == reading]
    if published is not None and "reading" in published:
        published = published[published["reading"] == reading]
    fig, axes = new_figure(1, len(specs), width=6.0, height=3.8)
    axes = np.atleast_1d(axes)
    for ax, spec in zip(axes, specs, strict=True):
        g = gains[gains["log"] == spec.label]
        confs = list(dict.fromkeys(g["configuration"]))
        ws = list(dict.fromkeys(g["weighting"]))
        width = 0.8 / len(ws)
        for i, wname in enumerate(ws):
            vals = [float(g[(g["configuration"] == c) & (g["weighting"] == wname)]["gain"].iloc[0])
                    for c in confs]
            x = np.arange(len(confs)) + i * width
            ax.bar(x, 100 * np.asarray(vals), width, label=wname)
            if published is not None:
                pg = published[(published["log"] == spec.label) & (published["weighting"] == wname)]
                pv = [float(pg[pg["configuration"] == c]["gain"].iloc[0]) for c in confs]
                ax.plot(x, 100 * np.asarray(pv), "k_", ms=7, mew=1.5,
                        label=f"{published_label(spec)} (from the paper's table)"
                        if i == 0 else None)
        if cfg is not None:
            key = "BGP" if spec.table == "Table 2" else "SP2"
            ax.axhline(100 * float(cfg.published["fig12_2d_average_gain"][key]), color="black",
                       ls="--", lw=0.8, label=f"{published_label(spec)}: stated average gain")
        ax.set_xticks(np.arange(len(confs)) + 0.4 - width / 2)
        ax.set_xticklabels(confs, rotation=30, ha="right", fontsize=8)
        ax.axhline(0, color="black", lw=0.6)
        ax.set_ylabel("relative gain (%)")
        ax.set_title(f"{_title(spec)} [{reading}]", fontsize=8)
        ax.legend(fontsize=6)
    return fig


def figures(s: Settings, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """The contract's figures from the paper's tables: per log Figs. 3-4 (metrics), 5-6 (BF
    adaptive queue depth, with the threshold used), 7-8 (utilization), 9-10 (2D tuning); then
    Figs. 11 (radar) and 12 (gains, reading config ``gain_reading``)."""
    cfg, specs = s, list(s.log_specs)
    hours = float(cfg.plot_hours)
    used = tables["thresholds"].set_index("log")["threshold_used_min"]
    out = {}
    for spec in specs:
        lab, f = spec.label, spec.figures
        series = monitored_series(tables["monitors"], lab)
        out[f"{f['metrics']}_{lab}"] = fig_metrics(tables["sweep"], spec,
                                                   published_table(cfg, spec.table, lab))
        out[f"{f['bf_adapt']}_{lab}"] = fig_queue_depth(
            series, ["bf1_w1", "bf0.75_w1", "bf0.5_w1", "adapt-bf"], spec, hours,
            "Adaptive tuning of the balance factor", cfg, float(used[lab]))
        out[f"{f['util']}_{lab}"] = fig_utilization(series, spec, hours)
        out[f"{f['twod']}_{lab}"] = fig_twod(series, spec, hours)
    out["fig11_radar"] = fig_radar({spec.label: tables[table_name(spec)] for spec in specs}, specs)
    out["fig12_gains"] = fig_gains(tables["gains"], specs, cfg, tables["gains_published"])
    return out
