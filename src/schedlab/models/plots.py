"""Fit plots: observed data against the fitted model (and the thesis' published model where it
has one), one figure per fitted quantity of a trace (cf. thesis Figures 11, 13, 14, 24, 25)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ..plotting import new_figure
from ..traces import procs_used
from .arrival import MINUTES_PER_DAY, ArrivalPolynomial
from .distributions import UniformLog, ecdf_points
from .fit import accuracy_sample


def _ecdf_vs_uniform_log(ax, x: np.ndarray, chi: float, rho: float, label: str,
                         published: tuple[float, float] | None = None) -> None:
    x = x[x > 0]
    v, F = ecdf_points(np.sort(x))
    ax.step(v, F, where="post", label="observed", lw=1.2)
    grid = np.geomspace(max(v.min(), 1e-3), v.max(), 200)
    ax.plot(grid, UniformLog(chi, rho).cdf(grid), label=f"uniform-log fit (chi={chi:.4f}, "
            f"rho={rho:.4f})", lw=1.2)
    if published:
        ax.plot(grid, UniformLog(*published).cdf(grid), ls="--",
                label=f"thesis (chi={published[0]}, rho={published[1]})")
    ax.set_xscale("log", base=2)
    ax.set_xlabel(label)
    ax.set_ylabel("CDF")
    ax.legend(fontsize=8)


def fit_figures(jobs: pd.DataFrame, fits: dict[str, dict[str, Any]], trace: str,
                published: dict[str, Any] | None = None,
                published_poly: ArrivalPolynomial | None = None) -> dict[str, Any]:
    """{figure name: matplotlib figure}. ``published`` = this workload's thesis values by key."""
    pub = published or {}
    figs: dict[str, Any] = {}

    a = fits["arrival"]
    fig, ax = new_figure()
    m = np.arange(MINUTES_PER_DAY)
    ax.plot(m / 60, a["observed"]["rate_per_minute"], lw=0.8, label="observed (10-min average)")
    poly = ArrivalPolynomial("fit", tuple(a["params"]["coef_ascending"]), 1)
    ax.plot(m / 60, poly.rate_per_minute(m), lw=1.5,
            label=f"fitted polynomial, degree {a['params']['degree']}")
    if published_poly is not None:
        ax.plot(m / 60, published_poly.rate_per_minute(m), ls="--", lw=1.2,
                label=f"thesis Table 3 ({published_poly.name})")
    ax.set_xlabel("hour of day (local time)")
    ax.set_ylabel("arrivals per minute")
    ax.set_title(f"{trace}: arrival rate ({len(a['params']['days_removed'])} outlier days removed)")
    ax.legend(fontsize=8)
    figs["arrival"] = fig

    c = fits["cancellation"]["params"]
    if c.get("pc") is not None:
        status = jobs["status"].to_numpy() == 5
        lag = (np.maximum(jobs["wait_time"].to_numpy(), 0)
               + np.maximum(jobs["run_time"].to_numpy(), 0))[status].astype(float)
        fig, ax = new_figure()
        lp = pub.get("cancellation_lag")
        _ecdf_vs_uniform_log(ax, lag, c["chi_lc"], c["rho_lc"], "cancellation lag [s]",
                             (lp["chi_lc"], lp["rho_lc"]) if lp else None)
        ax.set_title(f"{trace}: cancellation lag (pc = {c['pc']:.3f})")
        figs["cancellation_lag"] = fig

    p = fits["partition_size"]["params"]
    fig, ax = new_figure()
    t5 = pub.get("table5")
    _ecdf_vs_uniform_log(ax, procs_used(jobs).astype(float), p["chi_n"], p["rho_n"],
                         "partition size n", (t5["chi_n"], t5["rho_n"]) if t5 else None)
    ax.set_title(f"{trace}: partition size ({100 * p['pb']:.1f}% powers of two)")
    figs["partition_size"] = fig

    q = fits["accuracy"]["params"]
    te, tr, _ = accuracy_sample(jobs)
    acc = np.minimum(te / tr, 1.0)
    fig, ax = new_figure()
    ax.hist(acc, bins=100, range=(0, 1), density=True, alpha=0.6, label="observed")
    g = np.linspace(0.005, 1, 200)
    ax.plot(g, stats.gamma(q["alpha_a"], scale=q["beta_a"]).pdf(g),
            label=f"gamma MLE (alpha={q['alpha_a']:.3f}, beta={q['beta_a']:.3f})")
    t9 = pub.get("table9")
    if t9:
        ax.plot(g, stats.gamma(t9["alpha_a"], scale=t9["beta_a"]).pdf(g), ls="--",
                label=f"thesis Table 9 ({t9['alpha_a']}, {t9['beta_a']})")
    ax.set_ylim(0, 6)
    ax.set_xlabel("accuracy a = te / tr")
    ax.set_ylabel("density")
    ax.set_title(f"{trace}: accuracy (r(a,te)={q['r_a_te']:.2f}, r(a,tr)={q['r_a_tr']:.2f})")
    ax.legend(fontsize=8)
    figs["accuracy"] = fig

    r = fits["requested_time"]["params"]
    fig, ax = new_figure()
    t10 = pub.get("table10")
    _ecdf_vs_uniform_log(ax, jobs["req_time"].to_numpy(float), r["chi_tr"], r["rho_tr"],
                         "requested time tr [s]", (t10["chi_tr"], t10["rho_tr"]) if t10 else None)
    ax.set_title(f"{trace}: requested time")
    figs["requested_time"] = fig

    d = fits["downey"]["params"]
    fig, ax = new_figure()
    _ecdf_vs_uniform_log(ax, jobs["run_time"].to_numpy(float), d["chi_runtime"],
                         d["rho_runtime"], "runtime te [s]")
    ax.set_title(f"{trace}: runtime (Downey uniform-log)")
    figs["downey_runtime"] = fig
    return figs
