"""The simulation experiments of Schroeder & Harchol-Balter (2004) on the evaluation half:
Poisson arrivals at every load for 2 and 4 hosts [§2.2, §3.2, §4.2], many hosts in short/long
groups [§5, Fig 6] and the trace's own arrivals scaled to the load [§6, Fig 7]."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...distserver.simulate import simulate
from ...distserver.workload import (
    ServiceTrace,
    arrival_rate,
    poisson_arrivals,
    scaled_trace_arrivals,
    unit_exponential_gaps,
)
from ...errors import ConfigError
from .config import (
    CONFIDENCE,
    STREAM_ARRIVALS,
    STREAM_RANDOM,
    STREAM_SHUFFLE,
    Settings,
    milli,
    stream_seed,
)
from .cutoffs import SITA_2HOST, lookup_cutoffs
from .intervals import t_interval

#: The dynamic policies (simulator name -> the paper's name); SITA policies need cutoffs.
DYNAMIC = {"random": "Random", "round_robin": "Round-Robin", "shortest_queue": "Shortest-Queue",
           "lwl": "Least-Work-Left", "central_queue": "Central-Queue"}


def _summary(slowdowns: list[np.ndarray], responses: list[np.ndarray], waits: list[np.ndarray],
             short: list[np.ndarray] | None, host1_share: list[float],
             confidence: float = CONFIDENCE) -> dict[str, Any]:
    """Metrics over replications; ``short``: per-replication short-job masks (SITA).

    Means and variances are pooled over all jobs of all replications (every replication has the
    same jobs, so the pooled mean is the mean of the replication means); ``*_lo``/``*_hi`` give
    the t-interval over the independent replications and ``rep_*`` the per-replication values.
    """
    sd = np.concatenate(slowdowns)
    rt = np.concatenate(responses)
    reps = np.array([s.mean() for s in slowdowns])
    rep_var = np.array([s.var() for s in slowdowns])
    rep_rt = np.array([r.mean() for r in responses])
    out = {"jobs": len(slowdowns[0]), "replications": len(slowdowns),
           "mean_slowdown": float(sd.mean()), "var_slowdown": float(sd.var()),
           "mean_response": float(rt.mean()), "var_response": float(rt.var()),
           "mean_wait": float(np.concatenate(waits).mean()),
           "rep_sd_mean_slowdown": float(reps.std(ddof=1)) if len(reps) > 1 else math.nan,
           "load_fraction_host1": float(np.mean(host1_share)),
           "mean_slowdown_short": math.nan, "mean_slowdown_long": math.nan}
    for name, v in (("mean_slowdown", reps), ("var_slowdown", rep_var),
                    ("mean_response", rep_rt)):
        _, lo, hi = t_interval(v, confidence)
        out |= {f"{name}_lo": lo, f"{name}_hi": hi, f"rep_{name}": [float(a) for a in v]}
    out["rep_mean_slowdown_short"] = []
    out["rep_mean_slowdown_long"] = []
    if short is not None:
        m = np.concatenate(short)
        if m.any():
            out["mean_slowdown_short"] = float(sd[m].mean())
        if (~m).any():
            out["mean_slowdown_long"] = float(sd[~m].mean())
        if all(k.any() and (~k).any() for k in short):
            out["rep_mean_slowdown_short"] = [float(s[k].mean()) for s, k in
                                              zip(slowdowns, short, strict=True)]
            out["rep_mean_slowdown_long"] = [float(s[~k].mean()) for s, k in
                                             zip(slowdowns, short, strict=True)]
    return out


def _policy_specs(h: int, load: float, cuts: pd.DataFrame) -> list[tuple[str, str, str, dict]]:
    """(label, simulator policy, cutoff method, kwargs) of every policy run at (h, load)."""
    specs = [(label, pol, "", {}) for pol, label in DYNAMIC.items()]
    c = lookup_cutoffs(cuts, h, load, "SITA-E", "analytic")
    if c is not None:
        specs.append(("SITA-E", "sita", "analytic", {"cutoffs": c}))
    if h == 2:
        for method in ("analytic", "simulation"):
            for pol in SITA_2HOST:
                c = lookup_cutoffs(cuts, 2, load, pol, method)
                if c is not None:
                    specs.append((pol, "sita", method, {"cutoffs": c}))
    return specs


def _run_specs(arrival_sets: list[np.ndarray], services: list[np.ndarray], h: int,
               specs: list[tuple[str, str, str, dict]], cfg: Settings, seed_key: tuple
               ) -> list[dict[str, Any]]:
    """Simulate each policy spec over all replications; one summary row per spec."""
    rows = []
    for label, pol, method, kw in specs:
        sds, rts, wts, share = [], [], [], []
        for r, (a, x) in enumerate(zip(arrival_sets, services, strict=True)):
            rng = np.random.default_rng(stream_seed(cfg, STREAM_RANDOM, *seed_key, r))
            s = simulate(a, x, h, pol, rng=rng, **kw)
            sds.append(s.slowdown)
            rts.append(s.response)
            wts.append(s.wait)
            share.append(float(x[s.host == 0].sum() / x.sum()))
        two_class = pol == "sita_groups" or (pol == "sita" and h == 2)
        short = [x <= kw["cutoffs"][0] for x in services] if two_class else None
        rows.append({"policy": label, "cutoff_method": method,
                     "cutoffs": [float(c) for c in kw.get("cutoffs", [])]}
                    | _summary(sds, rts, wts, short, share, cfg.confidence))
    return rows


def _replications(x: np.ndarray, cfg: Settings, order: str
                  ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Unit exponential gaps and service sequences of every replication (common random numbers)."""
    reps = cfg.replications
    gaps = [unit_exponential_gaps(len(x), stream_seed(cfg, STREAM_ARRIVALS, r)) for r in range(reps)]
    if order == "trace":
        return gaps, [x] * reps
    if order == "shuffled":
        return gaps, [np.random.default_rng(stream_seed(cfg, STREAM_SHUFFLE, r)).permutation(x)
                      for r in range(reps)]
    raise ConfigError(f"unknown service order {order!r} (trace or shuffled)")


def run_poisson(evaluation: ServiceTrace, cuts: pd.DataFrame, cfg: Settings, order: str
                ) -> pd.DataFrame:
    """§3.2/§4.2: every policy at every load, Poisson arrivals, for each configured host count.

    ``order``: ``trace`` (service times in trace order) or ``shuffled`` (a fresh permutation per
    replication). Replication r uses the same arrival gaps for every load, host count and policy.
    """
    x = evaluation.service
    gaps, services = _replications(x, cfg, order)
    rows = []
    for h in sorted(int(v) for v in cfg.hosts):
        for load in cfg.loads:
            lam = arrival_rate(load, h, x.mean())
            arrivals = [poisson_arrivals(g, lam) for g in gaps]
            for row in _run_specs(arrivals, services, h, _policy_specs(h, load, cuts), cfg,
                                  (h, milli(load))):
                rows.append({"experiment": "poisson", "arrivals": "poisson",
                             "service_order": order, "hosts": h, "load": load} | row)
    return pd.DataFrame(rows)


def run_many_hosts(evaluation: ServiceTrace, cuts: pd.DataFrame, cfg: Settings, order: str
                   ) -> pd.DataFrame:
    """§5, Fig 6: LWL vs SITA policies with short/long host groups (half the hosts each)."""
    x = evaluation.service
    load = cfg.many_hosts_load
    gaps, services = _replications(x, cfg, order)
    rows = []
    for h in sorted(int(v) for v in cfg.many_hosts):
        lam = arrival_rate(load, h, x.mean())
        arrivals = [poisson_arrivals(g, lam) for g in gaps]
        specs = [("Least-Work-Left", "lwl", "", {})]
        for pol in ("SITA-E", "SITA-U-opt", "SITA-U-fair"):
            c = lookup_cutoffs(cuts, 2, load, pol, "analytic")
            if c is not None:
                specs.append((pol, "sita_groups", "analytic", {"cutoffs": c, "short_hosts": h // 2}))
        for row in _run_specs(arrivals, services, h, specs, cfg, (h, milli(load), 5)):
            rows.append({"experiment": "many_hosts", "arrivals": "poisson", "service_order": order,
                         "hosts": h, "load": load} | row)
    return pd.DataFrame(rows)


def run_scaled(evaluation: ServiceTrace, cuts: pd.DataFrame, cfg: Settings) -> pd.DataFrame:
    """§6, Fig 7: the trace's inter-arrival times scaled to each load.

    SITA policies use the analytic (Poisson) cutoffs, as in the paper, and also the cutoffs found by
    simulation with scaled arrivals on the derivation half (``cutoff_method="simulation-scaled"``).
    """
    x = evaluation.service
    rows = []
    for load in cfg.scaled_loads:
        a = scaled_trace_arrivals(evaluation.submit, arrival_rate(load, 2, x.mean()))
        specs = [s for s in _policy_specs(2, load, cuts)
                 if s[2] in ("", "analytic") and s[1] != "central_queue"]
        for pol in ("SITA-U-opt", "SITA-U-fair"):
            c = lookup_cutoffs(cuts, 2, load, pol, "simulation-scaled")
            if c is not None:
                specs.append((pol, "sita", "simulation-scaled", {"cutoffs": c}))
        for row in _run_specs([a], [x], 2, specs, cfg, (2, milli(load), 6)):
            rows.append({"experiment": "scaled", "arrivals": "scaled_trace",
                         "service_order": "trace", "hosts": 2, "load": load} | row)
    return pd.DataFrame(rows)


#: The simulation experiments by kind (an experiment is ``<kind>-<service order>`` or ``scaled``).
KINDS: dict[str, Callable[..., pd.DataFrame]] = {
    "poisson": run_poisson, "many_hosts": run_many_hosts, "scaled": run_scaled}


def run_experiment(name: str, evaluation: ServiceTrace, cuts: pd.DataFrame, cfg: Settings
                   ) -> pd.DataFrame:
    """The experiment ``poisson-<order>``, ``many_hosts-<order>`` or ``scaled``."""
    kind, _, order = name.partition("-")
    if kind not in KINDS or (kind == "scaled") != (not order):
        raise ConfigError(f"unknown schroeder2004 experiment {name!r}")
    return KINDS[kind](evaluation, cuts, cfg, *((order,) if order else ()))


def experiments(cfg: Settings) -> list[str]:
    """Names of the simulation experiments the settings ask for."""
    orders = cfg.service_orders
    return [f"poisson-{o}" for o in orders] + [f"many_hosts-{o}" for o in orders] + ["scaled"]


def experiment_rows(cfg: Settings, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every simulation experiment's table (``sim_<experiment>``), concatenated in
    :func:`experiments` order."""
    return pd.concat([tables[f"sim_{e}"] for e in experiments(cfg)], ignore_index=True)
