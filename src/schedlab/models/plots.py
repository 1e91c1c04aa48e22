"""Fit plots: observed data against the fitted model (and the thesis' published model where it
has one), one figure per fitted quantity of a trace (cf. thesis Figures 11, 13, 14, 24, 25)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ..report.plotting import new_figure
from ..traces.lookup import procs_used
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


def _arrival(jobs, f, trace, pub, poly):
    fig, ax = new_figure()
    m = np.arange(MINUTES_PER_DAY)
    ax.plot(m / 60, f["observed"]["rate_per_minute"], lw=0.8, label="observed (10-min average)")
    fitted = ArrivalPolynomial("fit", tuple(f["params"]["coef_ascending"]), 1)
    ax.plot(m / 60, fitted.rate_per_minute(m), lw=1.5,
            label=f"fitted polynomial, degree {f['params']['degree']}")
    if poly is not None:
        ax.plot(m / 60, poly.rate_per_minute(m), ls="--", lw=1.2,
                label=f"thesis Table 3 ({poly.name})")
    ax.set_xlabel("hour of day (local time)")
    ax.set_ylabel("arrivals per minute")
    ax.set_title(f"{trace}: arrival rate ({len(f['params']['days_removed'])} outlier days removed)")
    ax.legend(fontsize=8)
    return fig


def _cancellation_lag(jobs, f, trace, pub, poly):
    c = f["params"]
    if c.get("pc") is None:
        return None
    status = jobs["status"].to_numpy() == 5
    lag = (np.maximum(jobs["wait_time"].to_numpy(), 0)
           + np.maximum(jobs["run_time"].to_numpy(), 0))[status].astype(float)
    fig, ax = new_figure()
    lp = pub.get("cancellation_lag")
    _ecdf_vs_uniform_log(ax, lag, c["chi_lc"], c["rho_lc"], "cancellation lag [s]",
                         (lp["chi_lc"], lp["rho_lc"]) if lp else None)
    ax.set_title(f"{trace}: cancellation lag (pc = {c['pc']:.3f})")
    return fig


def _partition_size(jobs, f, trace, pub, poly):
    p = f["params"]
    fig, ax = new_figure()
    t5 = pub.get("table5")
    _ecdf_vs_uniform_log(ax, procs_used(jobs).astype(float), p["chi_n"], p["rho_n"],
                         "partition size n", (t5["chi_n"], t5["rho_n"]) if t5 else None)
    ax.set_title(f"{trace}: partition size ({100 * p['pb']:.1f}% powers of two)")
    return fig


def _accuracy(jobs, f, trace, pub, poly):
    q = f["params"]
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
    return fig


def _requested_time(jobs, f, trace, pub, poly):
    r = f["params"]
    fig, ax = new_figure()
    t10 = pub.get("table10")
    _ecdf_vs_uniform_log(ax, jobs["req_time"].to_numpy(float), r["chi_tr"], r["rho_tr"],
                         "requested time tr [s]", (t10["chi_tr"], t10["rho_tr"]) if t10 else None)
    ax.set_title(f"{trace}: requested time")
    return fig


def _downey_runtime(jobs, f, trace, pub, poly):
    d = f["params"]
    fig, ax = new_figure()
    _ecdf_vs_uniform_log(ax, jobs["run_time"].to_numpy(float), d["chi_runtime"],
                         d["rho_runtime"], "runtime te [s]")
    ax.set_title(f"{trace}: runtime (Downey uniform-log)")
    return fig


FIGURES = {"arrival": ("arrival", _arrival), "cancellation_lag": ("cancellation", _cancellation_lag),
           "partition_size": ("partition_size", _partition_size),
           "accuracy": ("accuracy", _accuracy), "requested_time": ("requested_time", _requested_time),
           "downey_runtime": ("downey", _downey_runtime)}


def fit_figures(jobs: pd.DataFrame, fits: dict[str, dict[str, Any]], trace: str,
                published: dict[str, Any] | None = None,
                published_poly: ArrivalPolynomial | None = None) -> dict[str, Any]:
    """{figure name: matplotlib figure} for every fitted model (models with ``fitted: false``
    get no figure). ``published`` = this workload's thesis values by table key."""
    figs: dict[str, Any] = {}
    for name, (model, draw) in FIGURES.items():
        f = fits.get(model)
        if f is None or not f.get("fitted", True):
            continue
        fig = draw(jobs, f, trace, published or {}, published_poly)
        if fig is not None:
            figs[name] = fig
    return figs
