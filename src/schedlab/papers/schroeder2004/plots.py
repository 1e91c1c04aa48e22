"""Figures of Schroeder & Harchol-Balter (2004): 2, 3, 4, 12 (mean and variance of slowdown),
5 (Host-1 load fraction; on CTC the paper's Fig 13), 6 (many hosts), 7 (scaled arrivals), 8, 9
(analysis vs simulation, every service order). Figs 10 and 11 are the paper's J90 results and
cannot be made (log unavailable)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .config import CONFIDENCE, Settings
from .simulations import experiment_rows
from .workload import subset_label

LOAD_AXIS = "System load ρ (fraction of total capacity)"
SLOWDOWN_AXIS = "Mean slowdown (response / service time)"
VARIANCE_AXIS = "Variance of slowdown (dimensionless)"
NO_PUBLISHED = "no published CTC values in the paper's text"


def _lineplot(ax: Any, df: pd.DataFrame, x: str, y: str, policies: Iterable[str],
              logy: bool = False, style: str = "-o") -> None:
    """One line per policy; error bars from the ``<y>_lo``/``<y>_hi`` interval when present."""
    for pol in policies:
        d = df[df["policy"] == pol].sort_values(x)
        if not len(d):
            continue
        if f"{y}_lo" in d and d[f"{y}_lo"].notna().all():
            err = np.vstack([(d[y] - d[f"{y}_lo"]).clip(lower=0),
                             (d[f"{y}_hi"] - d[y]).clip(lower=0)])
            ax.errorbar(d[x], d[y], yerr=err, fmt=style, label=pol, markersize=4, capsize=2)
        else:
            ax.plot(d[x], d[y], style, label=pol, markersize=4)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(LOAD_AXIS if x == "load" else "Number of hosts h (hosts)")
    ax.legend(fontsize="small")


def figure_mean_var(sims: pd.DataFrame, policies: list[str], title: str):
    """Mean slowdown (top) and variance of slowdown (bottom) vs load (Figs 2, 3, 4, 12), with the
    replication intervals as error bars."""
    from ...report.plotting import new_figure

    fig, (top, bottom) = new_figure(2, 1, width=6.0, height=3.6)
    d = sims[sims["cutoff_method"].isin(["", "analytic"])]
    _lineplot(top, d, "load", "mean_slowdown", policies, logy=True)
    top.set_ylabel(SLOWDOWN_AXIS)
    top.set_title(f"{title}\nbars: {CONFIDENCE:.0%} interval over replications; "
                  f"{NO_PUBLISHED}", fontsize="small")
    _lineplot(bottom, d, "load", "var_slowdown", policies, logy=True)
    bottom.set_ylabel(VARIANCE_AXIS)
    return fig


def figure_load_fraction(cuts: pd.DataFrame, title: str):
    """Fraction of the total load on Host 1 under SITA-U-opt/fair and the ρ/2 rule (Figs 5, 13)."""
    from ...report.plotting import new_figure

    fig, ax = new_figure()
    d = cuts[cuts["hosts"] == 2]
    for pol, method, style in (("SITA-U-opt", "analytic", "-o"), ("SITA-U-fair", "analytic", "-s"),
                               ("SITA-U-opt", "simulation", "x"),
                               ("SITA-U-fair", "simulation", "+")):
        s = d[(d["policy"] == pol) & (d["method"] == method)].sort_values("load")
        ax.plot(s["load"], s["load_fraction_host1"], style, label=f"{pol} ({method})")
    loads = np.sort(d["load"].unique())
    ax.plot(loads, loads / 2, "k--", label="published: rule of thumb ρ/2 (§4.4, Fig 13)")
    ax.axhline(0.5, color="grey", lw=0.8, label="SITA-E (equal load)")
    ax.set_xlabel(LOAD_AXIS)
    ax.set_ylabel("Fraction of the total load on Host 1")
    ax.set_title(title, fontsize="small")
    ax.legend(fontsize="small")
    return fig


def figure_many_hosts(sims: pd.DataFrame, title: str):
    """Mean slowdown vs number of hosts at fixed load (Fig 6)."""
    from ...report.plotting import new_figure

    fig, ax = new_figure()
    _lineplot(ax, sims, "hosts", "mean_slowdown",
              ["Least-Work-Left", "SITA-E", "SITA-U-opt", "SITA-U-fair"], logy=True)
    ax.set_ylabel(SLOWDOWN_AXIS)
    ax.set_title(f"{title}\n{NO_PUBLISHED} (Fig 6 is the C90 log)", fontsize="small")
    return fig


def figure_scaled(sims: pd.DataFrame, title: str):
    """Mean slowdown vs load with scaled trace arrivals (Fig 7)."""
    from ...report.plotting import new_figure

    fig, ax = new_figure()
    d = sims[sims["cutoff_method"].isin(["", "analytic"])]
    _lineplot(ax, d, "load", "mean_slowdown", ["Least-Work-Left", "SITA-U-opt", "SITA-U-fair"],
              logy=True)
    ax.set_ylabel(SLOWDOWN_AXIS)
    ax.set_title(f"{title}\n{NO_PUBLISHED} (Fig 7 is the C90 log)", fontsize="small")
    return fig


def figure_analysis(analysis: pd.DataFrame, sims: pd.DataFrame, policies: list[str], title: str):
    """Analytic mean slowdown (lines) with simulation (markers, per service order) (Figs 8, 9)."""
    from ...report.plotting import new_figure

    fig, ax = new_figure()
    colors = {}
    for pol in policies:
        a = analysis[(analysis["policy"] == pol) & (analysis["hosts"] == 2)].sort_values("load")
        a = a[np.isfinite(a["mean_slowdown"])]
        (line,) = ax.plot(a["load"], a["mean_slowdown"], "-", label=f"{pol} (analysis)")
        colors[pol] = line.get_color()
    markers = {"trace": "o", "shuffled": "^"}
    s2 = sims[(sims["hosts"] == 2) & sims["cutoff_method"].isin(["", "analytic"])]
    for (pol, order), d in s2.groupby(["policy", "service_order"], sort=True):
        if pol in colors:
            d = d.sort_values("load")
            ax.plot(d["load"], d["mean_slowdown"], markers.get(order, "x"), color=colors[pol],
                    label=f"{pol} (sim, {order} order)", markersize=4, fillstyle="none")
    ax.set_yscale("log")
    ax.set_xlabel(LOAD_AXIS)
    ax.set_ylabel(SLOWDOWN_AXIS)
    ax.set_title(title, fontsize="small")
    ax.legend(fontsize="x-small")
    return fig



def make_figures(cuts: pd.DataFrame, sims: pd.DataFrame, analysis: pd.DataFrame,
                 cfg: Settings) -> dict[str, Any]:
    """All figures, keyed by file stem (fig2 … fig12; ``_shuffled`` variants for other orders)."""
    where = f"{cfg.trace} ({subset_label(cfg.subset)}, evaluation half)"
    out = {}
    balance = ["Random", "Least-Work-Left", "SITA-E"]
    every = ["Random", "Round-Robin", "Shortest-Queue", "Least-Work-Left", "SITA-E",
             "SITA-U-fair", "SITA-U-opt"]
    # the headline service order only: the other orders are compared in the attribution table
    # and, against the analysis, in Figs 8-9
    for order in cfg.service_orders[:1]:
        sfx = ""
        p = sims[(sims["experiment"] == "poisson") & (sims["service_order"] == order)]
        for stem, h, pols in (("fig2", 2, balance), ("fig3", 4, balance),
                              ("fig4", 2, ["SITA-E", "SITA-U-fair", "SITA-U-opt"]),
                              ("fig12", 2, every)):
            d = p[p["hosts"] == h]
            if len(d):
                out[stem + sfx] = figure_mean_var(
                    d, pols, f"{where}\n{h} hosts, Poisson arrivals, service order {order}")
        m = sims[(sims["experiment"] == "many_hosts") & (sims["service_order"] == order)]
        if len(m):
            out["fig6" + sfx] = figure_many_hosts(
                m, f"{where}\nload {cfg.many_hosts_load}, service order {order}")
    out["fig5"] = figure_load_fraction(cuts[cuts["load"].isin(cfg.loads)],
                                       f"{cfg.trace} ({subset_label(cfg.subset)}, "
                                       "derivation half)\n2 hosts; the paper's Fig 5 (C90) and "
                                       "Fig 13 (CTC)")
    sc = sims[sims["experiment"] == "scaled"]
    if len(sc):
        out["fig7"] = figure_scaled(sc, f"{where}\n2 hosts, trace inter-arrival times scaled")
    ps = sims[sims["experiment"] == "poisson"]
    out["fig8"] = figure_analysis(analysis, ps, balance, f"{where}\n2 hosts: analysis vs simulation")
    out["fig9"] = figure_analysis(analysis, ps, ["SITA-E", "SITA-U-opt", "SITA-U-fair"],
                                  f"{where}\n2 hosts: analysis vs simulation")
    return out


def figure_stems(cfg: Settings) -> list[str]:
    """File stems :func:`make_figures` produces for a configuration (for the Snakemake outputs)."""
    stems = ["fig2", "fig4", "fig12", "fig6"]
    if 4 in [int(h) for h in cfg.hosts]:
        stems.append("fig3")
    return sorted([*stems, "fig5", "fig7", "fig8", "fig9"])


def figures(s: Settings, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Figs 2-9 and 12 (:func:`make_figures`) from the assembled tables."""
    return make_figures(tables["cutoffs"], experiment_rows(s, tables), tables["analysis"], s)
