"""Figures of Talby & Feitelson 2005 from the assembled tables (:func:`talby2005.build_tables`).

Each function returns a matplotlib figure (or ``None`` when its data were not run); the Snakemake
script saves them with :func:`schedlab.plotting.save_figure`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..plotting import new_figure

LOG_ORDER = ("BLUE", "SDSP2", "KTH")
METRIC_LABEL = {"resp": "PBAS-Resp", "bsld": "PBAS-BSld", "util": "PBAS-Util"}


def _logs(df: pd.DataFrame) -> list[str]:
    present = set(df["log"])
    return [x for x in LOG_ORDER if x in present] + sorted(present - set(LOG_ORDER))


def _baselines(ax, t2: pd.DataFrame, log: str, col: str) -> None:
    for s, style in (("flex", "--"), ("maui", ":")):
        r = t2[(t2["log"] == log) & (t2["scheduler"] == s)]
        if len(r):
            ax.axhline(float(r[col].iloc[0]), ls=style, color="grey" if s == "flex" else "black",
                       label=s.capitalize())


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


def pbas_by_frame(ad: pd.DataFrame, t2: pd.DataFrame):
    """Figure 2: PBAS (Flex+Maui) wait and bounded slowdown by time frame, per metric and log."""
    d = ad[(ad["kind"] == "pbas") & (ad["candidates"] == "flex+maui")] if len(ad) else ad
    if not len(d):
        return None
    logs = _logs(d)
    fig, axes = new_figure(len(logs), 2, width=5, height=3.2, squeeze=False)
    for i, log in enumerate(logs):
        for j, (col, label) in enumerate((("wait", "wait time (s)"), ("bsld", "bounded slowdown"))):
            ax = axes[i, j]
            for m, g in d[d["log"] == log].groupby("metric", sort=True):
                g = g.sort_values("time_frame_s")
                ax.plot(np.log10(g["time_frame_s"] / 60.0), g[col], marker="o",
                        label=METRIC_LABEL.get(m, m))
            _baselines(ax, t2, log, col)
            ax.set_title(log)
            ax.set_xlabel("time frame, log10(minutes)")
            ax.set_ylabel(label)
    axes[0, 0].legend(fontsize=7)
    return fig


def pbas_candidates(ad: pd.DataFrame, t2: pd.DataFrame):
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
        _baselines(ax, t2, log, "wait")
        ax.set_title(f"{log}, switching metric utilization")
        ax.set_xlabel("time frame, log10(minutes)")
        ax.set_ylabel("wait time (s)")
        ax.legend(fontsize=7)
    return fig


def wbas_sweeps(ad: pd.DataFrame, t2: pd.DataFrame, maf_fixed: float, switch_fixed: int):
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
        _baselines(ax, t2, log, "wait")
        ax.set_title(f"{log}, MAF {maf_fixed:g}")
        ax.set_xlabel("switch time, log10(minutes)")
        ax.set_ylabel("wait time (s)")
        g = d[(d["log"] == log) & (d["time_frame_s"] == int(switch_fixed))].sort_values("maf")
        ax = axes[i, 1]
        ax.plot(np.log10(g["maf"]), g["wait"], marker="o", label="WBAS")
        _baselines(ax, t2, log, "wait")
        ax.set_title(f"{log}, switch every {switch_fixed / 3600:g} h")
        ax.set_xlabel("log10(MAF)")
        ax.set_ylabel("wait time (s)")
    axes[0, 0].legend(fontsize=7)
    return fig
