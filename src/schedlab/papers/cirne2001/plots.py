"""Cirne 2001: the figures (the contract's ``figures``): Figures 38-66 from the tables, Figure 57
when the §5.4 NAS validation ran; the thesis' published values drawn on the same axes, labelled
"published". matplotlib is imported when a figure is drawn, not when the workflow is parsed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .config import Settings
from .nas import REQUESTS
from .points import nas_logs

# Figures 39-56: (factor, measure) of the static breakdowns, named after the thesis' figures.
BREAKDOWN_FIGURES = {
    "fig39_tt_by_L": ("L", "tt"), "fig40_te_by_L": ("L", "te"), "fig41_wait_by_L": ("L", "wait"),
    "fig42_tt_by_A": ("A", "tt"), "fig43_te_by_A": ("A", "te"),
    "fig44_tt_by_sigma": ("sigma", "tt"),
    "fig45_tt_by_c_min": ("c_min", "tt"), "fig46_wait_by_c_min": ("c_min", "wait"),
    "fig47_tt_by_c_max": ("c_max", "tt"), "fig48_te_by_c_max": ("c_max", "te"),
    "fig49_tt_by_kind": ("kind", "tt"), "fig50_tt_by_accuracy": ("accuracy", "tt"),
    "fig51_tt_by_nu": ("nu", "tt"),
    "fig52_tt_by_D": ("D", "tt"), "fig53_wait_by_D": ("D", "wait"), "fig54_te_by_D": ("D", "te"),
    "fig55_cr_by_D": ("D", "cr"),
}
EMERGENT_FIGURES = {"fig58_cr_by_D_emergent": "cr", "fig60_tt_by_D_emergent": "tt",
                    "fig61_te_by_D_emergent": "te", "fig62_wait_by_D_emergent": "wait"}
FIGURES = ("fig38_relative_tt_distribution", *BREAKDOWN_FIGURES, "fig56_wait_share_by_D",
           *EMERGENT_FIGURES, "fig59_D_distribution", "fig63_kappa_L", "fig64_sigma_distributions",
           "fig65_offered_load_kappa_sigma", "fig66_kappa_sigma")
NAS_FIGURE = "fig57_nas_by_kind"  # only when the NAS validation runs (execution times configured)
_LABEL = {"tt": "turn-around time [s]", "wait": "wait time [s]", "te": "execution time [s]",
          "cr": "requested computation [proc-s]"}


def _yerr(mid: Any, lo: Any, hi: Any) -> np.ndarray:
    """Error-bar half-lengths from a CI (clipped at 0: a one-workload CI is a point)."""
    mid, lo, hi = (np.asarray(v, float) for v in (mid, lo, hi))
    return np.clip(np.vstack([mid - lo, hi - mid]), 0, None)


def _ecdf(ax: Any, x: np.ndarray, label: str) -> None:
    x = np.sort(np.asarray(x, float))
    if x.size:
        ax.step(x, np.arange(1, x.size + 1) / x.size, where="post", label=label)


FACTOR_UNITS = {"L": "L, sequential execution time [s]", "A": "A, average parallelism [processors]",
                "sigma": "sigma (Downey) [dimensionless]", "c_min": "c_min [processors]",
                "c_max": "c_max [processors]", "kind": "kind of partition size",
                "accuracy": "accuracy a = te/tr [fraction]", "nu": "nu, number of requests",
                "D": "load per processor D [s]"}


def _published_marks(published: dict[str, Any], factor: str) -> list[tuple[float, str]]:
    """What §5.3 prints about the decile figures of ``factor``: (value, text) pairs (config
    ``published.decile_marks`` and, for L, Figure 39's decile edges)."""
    marks = []
    m = (published.get("decile_marks") or {}).get(factor)
    if m:
        marks.append((float(m["at"]), str(m["text"])))
    if factor == "L":
        marks += [(float(e), f"decile edge L = {e:g} s (§5.3.1)")
                  for e in (published.get("generator") or {}).get("L_decile_edges_s", [])]
    return marks


def _breakdown_figure(bd: pd.DataFrame, factor: str, measure: str, title: str,
                      published: dict[str, Any] | None = None):
    from ...report.plotting import new_figure

    fig, axes = new_figure(1, 2, width=5.5)
    g = bd[(bd["factor"] == factor) & (bd["measure"] == measure)]
    order = (g.drop_duplicates("bin").sort_values(["bin_median", "bin"])["bin"].tolist())
    pos = {b: i for i, b in enumerate(order)}
    for req in ("user", "sa", "best"):
        h = g[g["request"] == req].assign(x=lambda d: d["bin"].map(pos)).sort_values("x")
        if h.empty:
            continue
        axes[0].errorbar(h["x"], h["geomean"], yerr=_yerr(h["geomean"], h["ci_low"], h["ci_high"]),
                         marker="o", capsize=2, label=req)
        if req != "user":
            axes[1].errorbar(h["x"], h["relative"], yerr=_yerr(h["relative"], h["rel_ci_low"], h["rel_ci_high"]),
                             marker="o", capsize=2, label=req)
    for ax in axes:
        ax.set_xticks(range(len(order)), order, rotation=60, fontsize=6)
        ax.set_xlabel(f"{FACTOR_UNITS.get(factor, factor)} (decile)")
    if published and measure == "tt":  # the thesis' overall ratios (Table 13) as references
        p13 = published["table13_geomean_tt_s"]
        for req, ls in (("sa", "--"), ("best", ":")):
            axes[1].axhline(p13[req] / p13["user"], color="black", ls=ls, lw=0.9,
                            label=f"published overall {req}/user (Table 13)")
    marks = _published_marks(published or {}, factor)
    medians = g.drop_duplicates("bin").set_index("bin")["bin_median"].reindex(order).to_numpy(float)
    if marks and len(order) > 1 and np.isfinite(medians).all():
        for at, text in marks:  # placed between our bins by their medians
            x = float(np.interp(at, medians, np.arange(len(order))))
            for ax in axes:
                ax.axvline(x, color="black", ls="-.", lw=0.8)
            axes[1].text(x, 0.03, f"published: {text}", fontsize=6, rotation=90, va="bottom",
                         ha="right", transform=axes[1].get_xaxis_transform())
    for ax in axes:
        ax.legend(fontsize=6)
    axes[0].set_yscale("log")
    axes[0].set_ylabel(f"(a) geometric mean {_LABEL[measure]}")
    axes[1].set_ylabel("(b) relative to the user request [ratio]")
    axes[1].axhline(1.0, color="grey", lw=0.8)
    fig.suptitle(title)
    return fig


def figures(s: Settings, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURES` by name, and Figure 57 (NAS validation,
    :data:`NAS_FIGURE`) when §5.4 ran (:func:`~schedlab.papers.cirne2001.points.nas_logs`);
    published values (config ``published``) are drawn on the same axes, labelled "published"."""
    from ...report.plotting import new_figure

    published = s.published
    figs = {}
    exp, bd = tables["experiments"], tables["breakdowns"]
    fig, ax = new_figure()
    for req in ("sa", "best"):
        _ecdf(ax, exp[f"{req}_tt"] / exp["user_tt"], req)
    if published:  # Table 14: SA better in 45.8%, worse in 8.8% -> the ECDF just below / at 1
        sa14 = published["table14_share_pct"]["sa"]
        ax.plot([0.999, 1.0], [sa14["better"] / 100, 1 - sa14["worse"] / 100], "kx", ms=7,
                label="published SA (Table 14)")
        ax.plot([0.999], [published["table14_share_pct"]["best"]["better"] / 100], "k+", ms=9,
                label="published best (Table 14)")
    ax.set_xscale("log")
    ax.set_xlabel("relative turn-around time (adaptive / user request) [ratio]")
    ax.set_ylabel("fraction of experiments")
    ax.legend()
    ax.set_title("Figure 38 - distribution of relative turn-around time")
    figs["fig38_relative_tt_distribution"] = fig
    for name, (factor, measure) in BREAKDOWN_FIGURES.items():
        title = f"Figure {name[3:5]} - {_LABEL[measure].split(' [')[0]} by {factor}"
        figs[name] = _breakdown_figure(bd, factor, measure, title, published)
    fig, ax = new_figure()
    g = bd[(bd["factor"] == "D") & (bd["measure"] == "wait_over_tt")].sort_values("bin_median")
    ax.plot(g["bin_median"], g["geomean"], marker="o", label="user request")
    ax.set_xscale("symlog")
    ax.set_xlabel("load per processor D [s] (decile median)")
    ax.set_ylabel("geometric mean of wait / turn-around")
    ax.set_title("Figure 56 - wait time over turn-around time by D")
    figs["fig56_wait_share_by_D"] = fig
    em = tables["emergent"]
    for name, measure in EMERGENT_FIGURES.items():
        fig, ax = new_figure()
        for scen, h in em[em["measure"] == measure].groupby("scenario", sort=True):
            h = h.sort_values("bin_median")
            ax.errorbar(h["bin_median"], h["geomean"], yerr=_yerr(h["geomean"], h["ci_low"], h["ci_high"]),
                        marker="o", capsize=2, label=scen)
        ax.set_xscale("symlog")
        ax.set_yscale("log")
        ax.set_xlabel("load per processor D [s] (decile median)")
        ax.set_ylabel(f"geometric mean {_LABEL[measure]}")
        ax.legend()
        ax.set_title(f"Figure {name[3:5]} - {_LABEL[measure].split(' [')[0]} by D, Table 17")
        figs[name] = fig
    fig, ax = new_figure()
    _ecdf(ax, exp["D_static"], "static workload")
    _ecdf(ax, exp["D_adaptive"], "adaptive workload")
    if published:
        ax.plot([5e5], [published["fig59_D_below_500k_fraction"]], "ko",
                label="published: 60% below D = 500,000 s")
    ax.set_xscale("symlog")
    ax.set_xlabel("load per processor D at the target's arrival [s]")
    ax.set_ylabel("fraction of experiments")
    ax.legend()
    ax.set_title("Figure 59 - distribution of D")
    figs["fig59_D_distribution"] = fig
    sw = tables["sweep"]
    for name, param, fig_no in (("fig63_kappa_L", "kappa_L", 63),
                                ("fig66_kappa_sigma", "kappa_sigma", 66)):
        fig, axes = new_figure(1, 2, width=5)
        h = sw[sw["param"] == param].sort_values("value") if not sw.empty else sw
        if not h.empty:
            for pol in ("user", "sa"):
                axes[0].errorbar(h["value"], h[f"{pol}_geomean_tt"],
                                 yerr=_yerr(h[f"{pol}_geomean_tt"], h[f"{pol}_ci_low"],
                                            h[f"{pol}_ci_high"]),
                                 marker="o", capsize=2, label=pol)
            axes[1].errorbar(h["value"], h["relative_tt"],
                             yerr=_yerr(h["relative_tt"], h["rel_ci_low"], h["rel_ci_high"]),
                             marker="o", capsize=2,
                             label="SA / user")
            if published and param == "kappa_L":
                axes[1].plot([0.5], [published["fig63_relative_tt_kappa_L_0_5"]], "ks",
                             label="published (§6.2.1: 0.27)")
        axes[0].set_yscale("log")
        axes[0].set_ylabel("(a) geometric mean turn-around time [s]")
        axes[1].set_ylabel("(b) relative turn-around time [ratio]")
        for ax in axes:
            ax.set_xlabel(f"{param} (multiplier) [dimensionless]")
            ax.legend()
        fig.suptitle(f"Figure {fig_no} - all jobs SA vs all jobs user request")
        figs[name] = fig
    fig, ax = new_figure()
    sd = tables["sigma_distribution"]
    for v, h in (sd.groupby("kappa_sigma") if not sd.empty else []):
        ax.plot(h["sigma"], h["quantile"], label=f"kappa_sigma = {v:g}")
    ax.set_xlabel("sigma (Downey) [dimensionless]")
    ax.set_ylabel("cumulative fraction of jobs")
    ax.legend()
    ax.set_title("Figure 64 - distributions of sigma")
    figs["fig64_sigma_distributions"] = fig
    fig, ax = new_figure()
    h = sw[sw["param"] == "kappa_sigma"].sort_values("value") if not sw.empty else sw
    if not h.empty:
        for pol in ("user", "sa"):
            ax.plot(h["value"], h[f"{pol}_offered_load"], marker="o", label=pol)
    ax.set_xlabel("kappa_sigma (multiplier of mu_sigma) [dimensionless]")
    ax.set_ylabel("processor-seconds used / (P x arrival span)")
    ax.legend()
    ax.set_title("Figure 65 - offered load as a function of kappa_sigma")
    figs["fig65_offered_load_kappa_sigma"] = fig
    if nas_logs(s):
        figs[NAS_FIGURE] = figure57(tables["table16_by_kind"])
    return figs


def figure57(by_kind: pd.DataFrame):
    """Figure 57: NAS results by kind of benchmark (geometric mean turn-around, and relative to
    the user request), with bootstrap CIs."""
    from ...report.plotting import new_figure

    fig, axes = new_figure(1, 2, width=5)
    g = by_kind[by_kind["group_by"] == "kind"]
    kinds = sorted(g["group"].unique())
    x = np.arange(len(kinds))
    for j, req in enumerate(REQUESTS):
        h = g[g["request"] == req].set_index("group").reindex(kinds)
        axes[0].bar(x + (j - 1) * 0.27, h["geomean_s"], width=0.27, label=req,
                    yerr=_yerr(h["geomean_s"], h["ci_low"], h["ci_high"]), capsize=2)
        if req != "user":
            axes[1].bar(x + (j - 0.5) * 0.4, h["relative"], width=0.4, label=req,
                        yerr=_yerr(h["relative"], h["rel_ci_low"], h["rel_ci_high"]), capsize=2)
    for ax in axes:
        ax.set_xticks(x, kinds)
        ax.set_xlabel("partition size constraint")
        ax.legend()
    axes[0].set_yscale("log")
    axes[0].set_ylabel("(a) geometric mean turn-around time [s]")
    axes[1].set_ylabel("(b) relative to the user request")
    axes[1].axhline(1.0, color="grey", lw=0.8)
    fig.suptitle("Figure 57 - NAS results by kind of benchmark")
    return fig
