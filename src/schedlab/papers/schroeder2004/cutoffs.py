"""SITA cutoffs of Schroeder & Harchol-Balter (2004) [§4.1, §4.4, §6]: SITA-E, SITA-U-opt,
SITA-U-fair and the ρ/2 rule of thumb, analytically (Theorem 1 over every feasible cutoff) and by
simulation, on the derivation half of the jobs."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ...distserver import cutoffs as co
from ...distserver.workload import (
    ServiceTrace,
    arrival_rate,
    poisson_arrivals,
    scaled_trace_arrivals,
    unit_exponential_gaps,
)
from .config import STREAM_CUTOFF, STREAM_SHUFFLE, Settings, stream_seed

#: The 2-host SITA policies beside SITA-E (cutoffs by Theorem 1 or by simulation).
SITA_2HOST = ("SITA-U-opt", "SITA-U-fair", "SITA-U-rule")


def cutoff_loads(cfg: Settings) -> list[float]:
    """Every load at which some experiment needs SITA cutoffs."""
    return sorted(set(cfg.loads) | set(cfg.scaled_loads) | {cfg.many_hosts_load})


def derive_cutoffs(derivation: ServiceTrace, cfg: Settings) -> pd.DataFrame:
    """SITA cutoffs at every needed load, analytically and by simulation, on the derivation half.

    One row per (hosts, load, policy, method) with the cutoffs (list) and the Host-1 load fraction
    and slowdown estimates they give on the derivation half.
    """
    x = derivation.service
    # the simulated search (§4.1) uses the headline service order (first of service_orders)
    order = cfg.service_orders[0]
    cut_services: np.ndarray | list[np.ndarray] = x if order == "trace" else [
        np.random.default_rng(stream_seed(cfg, STREAM_SHUFFLE, STREAM_CUTOFF, r)).permutation(x)
        for r in range(cfg.cutoff_replications)]
    rows: list[dict[str, Any]] = []
    for h in sorted({int(v) for v in cfg.hosts} - {2}):
        c = co.sita_e_cutoffs(x, h)
        rows += [_cut_row(h, load, "SITA-E", "analytic", c, x) for load in cutoff_loads(cfg)]
    n_cand = cfg.cutoff_candidates
    for load in cutoff_loads(cfg):
        sw = co.sweep_two_hosts(x, load, cfg.slowdown)
        picks = {"SITA-E": co.sita_e_index(sw), "SITA-U-rule": co.rule_of_thumb(sw, load)}
        if sw.feasible.any():
            picks |= {"SITA-U-opt": co.sita_u_opt(sw), "SITA-U-fair": co.sita_u_fair(sw)}
        for pol, i in picks.items():
            rows.append(_cut_row(2, load, pol, "analytic", [float(sw.cutoff[i])], x)
                        | {k: float(v) for k, v in sw.at(i).items() if k.startswith("slowdown")})
        lam = arrival_rate(load, 2, x.mean())
        arrivals = [poisson_arrivals(unit_exponential_gaps(len(x), stream_seed(cfg, STREAM_CUTOFF, r)),
                                     lam) for r in range(cfg.cutoff_replications)]
        rows += _simulated_cut_rows(cut_services, arrivals, sw, n_cand, load, "simulation", x)
        if load in cfg.scaled_loads:  # §6: "we also determined the cutoffs via experiments"
            scaled = [scaled_trace_arrivals(derivation.submit, lam)]
            rows += _simulated_cut_rows(x, scaled, sw, n_cand, load, "simulation-scaled", x)
    df = pd.DataFrame(rows)
    return df.sort_values(["hosts", "load", "policy", "method"], kind="stable").reset_index(
        drop=True)


def _simulated_cut_rows(services: np.ndarray | list[np.ndarray], arrivals: list[np.ndarray],
                        sw: co.Sweep, n_cand: int, load: float, method: str, x: np.ndarray
                        ) -> list[dict[str, Any]]:
    """SITA-U-opt/fair cutoffs picked by simulating a grid of feasible candidates (§4.1, §6).

    ``services``: the service sequence(s) simulated; ``x``: the derivation half (load fractions).
    """
    grid = co.candidate_grid(sw, n_cand)
    if len(grid) == 0:
        return []
    df = co.simulated_sweep(arrivals, services, grid)
    i_opt, i_fair = co.pick_simulated(df)
    rows = []
    for pol, i in (("SITA-U-opt", i_opt), ("SITA-U-fair", i_fair)):
        r = df.iloc[i]
        rows.append(_cut_row(2, load, pol, method, [float(r["cutoff"])], x)
                    | {"slowdown": float(r["slowdown"]),
                       "slowdown_short": float(r["slowdown_short"]),
                       "slowdown_long": float(r["slowdown_long"])})
    return rows


def _cut_row(h: int, load: float, policy: str, method: str, cutoffs: list[float], x: np.ndarray
             ) -> dict[str, Any]:
    short = x <= cutoffs[0]
    return {"hosts": h, "load": load, "policy": policy, "method": method, "cutoffs": cutoffs,
            "cutoff": cutoffs[0], "load_fraction_host1": float(x[short].sum() / x.sum()),
            "jobs_fraction_host1": float(short.mean()), "slowdown": math.nan,
            "slowdown_short": math.nan, "slowdown_long": math.nan}


def lookup_cutoffs(cuts: pd.DataFrame, h: int, load: float, policy: str, method: str
            ) -> list[float] | None:
    sel = cuts[(cuts["hosts"] == h) & (cuts["load"].sub(load).abs() < 1e-9)
               & (cuts["policy"] == policy) & (cuts["method"] == method)]
    if sel.empty:
        return None
    return [float(c) for c in sel["cutoffs"].iloc[0]]

