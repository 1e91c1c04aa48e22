"""Figures of Talby & Feitelson 2005 from the assembled tables (:func:`.tabulate.build_tables`,
:func:`.attribution.build`).

Each plotting function returns a matplotlib figure (or ``None`` when its data were not run);
:func:`paper_figures` gives every figure of the paper by name (a placeholder where not run), which
the contract's runner saves with :func:`schedlab.report.plotting.save_figure`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...report.plotting import new_figure
from .config import Settings

LOG_ORDER = ("BLUE", "SDSP2", "KTH")
METRIC_LABEL = {"resp": "PBAS-Resp", "bsld": "PBAS-BSld", "util": "PBAS-Util"}


def _logs(df: pd.DataFrame) -> list[str]:
    present = set(df["log"])
    return [x for x in LOG_ORDER if x in present] + sorted(present - set(LOG_ORDER))


def _baselines(ax, t2: pd.DataFrame, log: str, col: str,
               published: dict | None = None) -> None:
    """Our Flex and Maui (horizontal lines) and, when given, the paper's Table 2 values for them
    (``published[col][log][scheduler]``, dashed red, legend "published")."""
    for s, style in (("flex", "-."), ("maui", ":")):
        r = t2[(t2["log"] == log) & (t2["scheduler"] == s)]
        if len(r):
            ax.axhline(float(r[col].iloc[0]), ls=style, color="grey" if s == "flex" else "black",
                       label=s.capitalize())
        if published is not None:
            v = published.get(col, {}).get(log, {}).get(s)
            if v is not None:
                ax.axhline(float(v), ls="--", lw=1, color="tab:red" if s == "flex" else "darkred",
                           label=f"published {s.capitalize()} (Table 2)")


def monthly_wait(monthly: pd.DataFrame):
    """Mean wait per calendar month, one line per scheduler, one panel per log (§2.3)."""
    if not len(monthly):
        return None
    logs = _logs(monthly)
    fig, axes = new_figure(len(logs), 1, width=9, height=3, squeeze=False)
    for ax, log in zip(axes[:, 0], logs, strict=True):
        d = monthly[monthly["log"] == log]
        for k, (s, g) in enumerate(d.groupby("scheduler", sort=True)):
            # distinct line styles: identical schedules (our EASY and Maui) stay visible
            ax.plot(g["month"], g["wait"] / 3600.0, marker="o", ms=3, label=s,
                    ls=("-", "--", "-.", ":")[k % 4])
        ax.set_title(log)
        ax.set_ylabel("mean wait (h)")
        ax.tick_params(axis="x", rotation=90, labelsize=7)
    axes[0, 0].legend(ncol=4, fontsize=8)
    return fig


def pbas_by_frame(ad: pd.DataFrame, t2: pd.DataFrame, published: dict | None = None):
    """Figure 2: PBAS (Flex+Maui) wait and bounded slowdown by time frame, per metric and log."""
    d = ad[(ad["kind"] == "pbas") & (ad["candidates"] == "flex+maui")] if len(ad) else ad
    if not len(d):
        return None
    logs = _logs(d)
    fig, axes = new_figure(len(logs), 2, width=5, height=3.2, squeeze=False)
    for i, log in enumerate(logs):
        for j, (col, label) in enumerate((("wait", "wait time (s)"),
                                          ("bsld", "bounded slowdown (-)"))):
            ax = axes[i, j]
            for m, g in d[d["log"] == log].groupby("metric", sort=True):
                g = g.sort_values("time_frame_s")
                ax.plot(np.log10(g["time_frame_s"] / 60.0), g[col], marker="o",
                        label=METRIC_LABEL.get(m, m))
            _baselines(ax, t2, log, col, published)
            ax.set_title(log)
            ax.set_xlabel("time frame, log10(minutes)")
            ax.set_ylabel(label)
    axes[0, 0].legend(fontsize=7)
    return fig


def pbas_candidates(ad: pd.DataFrame, t2: pd.DataFrame, published: dict | None = None):
    """Figure 3: 4-scheduler vs 2-scheduler PBAS (utilization), wait by time frame."""
    d = ad[(ad["kind"] == "pbas") & (ad["metric"] == "util")] if len(ad) else ad
    if not len(d) or not (d["candidates"].str.count(r"\+") == 3).any():
        return None
    logs = [x for x in _logs(d) if (d[d["log"] == x]["candidates"].str.count(r"\+") == 3).any()]
    fig, axes = new_figure(1, len(logs), width=5, height=3.5, squeeze=False)
    for ax, log in zip(axes[0], logs, strict=True):
        for c, g in d[d["log"] == log].groupby("candidates", sort=True):
            g = g.sort_values("time_frame_s")
            n = c.count("+") + 1
            ax.plot(np.log10(g["time_frame_s"] / 60.0), g["wait"], marker="o",
                    label=f"{n}-scheduler PBAS")
        _baselines(ax, t2, log, "wait", published)
        ax.set_title(f"{log}, switching metric utilization")
        ax.set_xlabel("time frame, log10(minutes)")
        ax.set_ylabel("wait time (s)")
        ax.legend(fontsize=7)
    return fig


def wbas_sweeps(ad: pd.DataFrame, t2: pd.DataFrame, maf_fixed: float, switch_fixed: int,
                published: dict | None = None):
    """Figure 5: WBAS wait by switch time (MAF fixed) and by MAF (switch time fixed), per log."""
    d = ad[ad["kind"] == "wbas"] if len(ad) else ad
    if not len(d):
        return None
    logs = _logs(d)
    fig, axes = new_figure(len(logs), 2, width=5, height=3.2, squeeze=False)
    for i, log in enumerate(logs):
        g = d[(d["log"] == log) & (d["maf"] == float(maf_fixed))].sort_values("time_frame_s")
        ax = axes[i, 0]
        ax.plot(np.log10(g["time_frame_s"] / 60.0), g["wait"], marker="o", label="WBAS")
        _baselines(ax, t2, log, "wait", published)
        ax.set_title(f"{log}, MAF {maf_fixed:g}")
        ax.set_xlabel("switch time, log10(minutes)")
        ax.set_ylabel("wait time (s)")
        g = d[(d["log"] == log) & (d["time_frame_s"] == int(switch_fixed))].sort_values("maf")
        ax = axes[i, 1]
        ax.plot(np.log10(g["maf"]), g["wait"], marker="o", label="WBAS")
        _baselines(ax, t2, log, "wait", published)
        ax.set_title(f"{log}, switch every {switch_fixed / 3600:g} h")
        ax.set_xlabel("log10(MAF) (MAF: jobs)")
        ax.set_ylabel("wait time (s)")
    axes[0, 0].legend(fontsize=7)
    return fig


def attr_easy_maui(detail: pd.DataFrame):
    """Attribution: mean wait and bounded slowdown of every EASY and Maui reading, per log, with
    the published Table 2 values of EASY and Maui as dashed lines ("published")."""
    if not len(detail):
        return None
    logs = _logs(detail)
    fig, axes = new_figure(2, len(logs), width=4.5, height=3.4, squeeze=False)
    for j, log in enumerate(logs):
        d = detail[detail["log"] == log]
        bars = {}
        for s in ("easy", "maui"):
            for r, g in d.groupby(f"{s}_reading", sort=True):
                bars[r] = (s, g.iloc[0])
        names = list(bars)
        for i, (metric, label) in enumerate((("wait", "mean wait (s)"),
                                             ("bsld", "mean bounded slowdown (-)"))):
            ax = axes[i, j]
            vals = [float(bars[n][1][f"{bars[n][0]}_{metric}"]) for n in names]
            ax.bar(range(len(names)), vals,
                   color=["tab:blue" if bars[n][0] == "easy" else "tab:orange" for n in names])
            for s, color in (("easy", "tab:blue"), ("maui", "tab:orange")):
                r = next((bars[n][1] for n in names if bars[n][0] == s), None)
                if r is not None:
                    pub = float(r[f"{s}_{metric}"]) / (1.0 + float(r[f"{s}_{metric}_err"]))
                    ax.axhline(pub, ls="--", color=color, label=f"published {s.upper()}")
            ax.set_yscale("log")
            ax.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=7)
            ax.set_title(log)
            ax.set_ylabel(label)
            if j == 0:
                ax.legend(fontsize=7)
    return fig


def attr_cancelled_slack(runs: pd.DataFrame, cancelled: str):
    """Attribution: mean wait (s) per cancelled-job rule (Conservative, EASY, Flex), and Flex's
    mean wait by slack factor, per log; published Table 2 values dashed ("published")."""
    if not len(runs):
        return None
    logs = _logs(runs)
    fig, axes = new_figure(2, len(logs), width=4.5, height=3.4, squeeze=False)
    rules = sorted(set(runs["cancelled"]))
    for j, log in enumerate(logs):
        ax = axes[0, j]
        d = runs[(runs["log"] == log)
                 & runs["reading"].isin(["conservative", "easy_every_event", "flex"])]
        for k, (reading, g) in enumerate(d.groupby("reading", sort=True)):
            g = g.set_index("cancelled").reindex(rules)
            ax.plot(range(len(rules)), g["wait"], marker="o", label=reading, color=f"C{k}")
            pub = g["published_wait"].dropna()
            if len(pub):
                ax.axhline(float(pub.iloc[0]), ls="--", color=f"C{k}",
                           label=f"published {g['role'].dropna().iloc[0]}")
        ax.set_xticks(range(len(rules)), rules, rotation=30, ha="right", fontsize=7)
        ax.set_xlabel("cancelled jobs (+ trace/run variant)")
        ax.set_ylabel("mean wait (s)")
        ax.set_title(log)
        ax.legend(fontsize=6)
        ax = axes[1, j]
        s = runs[(runs["log"] == log) & runs["reading"].str.startswith("flex_slack")
                 & (runs["cancelled"] == cancelled)]
        if len(s):
            f = s["reading"].str.removeprefix("flex_slack").astype(float)
            order = np.argsort(f.to_numpy())
            ax.plot(f.to_numpy()[order], s["wait"].to_numpy()[order], marker="o", label="Flex")
            ax.axhline(float(s["published_wait"].iloc[0]), ls="--", color="grey",
                       label="published Flex")
            ax.legend(fontsize=7)
        ax.set_xlabel("slack factor (x mean wait)")
        ax.set_ylabel("mean wait (s)")
        ax.set_title(f"{log}, cancelled: {cancelled}")
    return fig


#: The paper's figures, in report order.
FIGURES = ("monthly_wait", "fig2_pbas", "fig3_pbas_candidates", "fig5_wbas", "attr_easy_maui",
           "attr_cancelled_slack")


def paper_figures(cfg: Settings, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURES` from the tables, published values overlaid; a figure whose
    data were not run in this configuration says so."""
    t2, ad = tables["table2"], tables["adaptive"]
    t2 = t2[t2["version"] == cfg.main_version] if len(t2) else t2
    pub2 = cfg.published["table2"]
    figs = {
        "monthly_wait": monthly_wait(tables["monthly"]),
        "fig2_pbas": pbas_by_frame(ad, t2, pub2),
        "fig3_pbas_candidates": pbas_candidates(ad, t2, pub2),
        "fig5_wbas": wbas_sweeps(ad, t2, cfg.wbas["maf_fixed"], cfg.wbas["switch_fixed_s"],
                                 pub2),
        "attr_easy_maui": attr_easy_maui(tables["attr_easy_maui"]),
        "attr_cancelled_slack": attr_cancelled_slack(tables["attr_runs"], cfg.cancelled),
    }
    return {name: fig if fig is not None else _not_run() for name, fig in figs.items()}


def _not_run():
    fig, ax = new_figure()
    ax.text(0.5, 0.5, "not run in this configuration", ha="center", va="center")
    ax.set_axis_off()
    return fig


def figures(s: Settings, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure (:func:`paper_figures`)."""
    return paper_figures(s, tables)
