"""Schroeder & Harchol-Balter 2004 on any log: task assignment policies for a distributed server.

Applies the paper's trace-driven experiment (§2.1 Table 1, §2.2 setup, §3.2 Figures 2-3 and
§4.2 Figure 4, §4.1 cutoffs / Figure 5, §3.3 and Appendix A analysis) to one registered log, through
:mod:`schedlab.papers.schroeder2004` and :mod:`schedlab.distserver` (the paper module's readings
hold here: slowdown = response / service, chronological halves, cutoffs derived on the first half
and policies evaluated on the second, common random numbers across loads and policies, pooled
metrics over replications):

* **Service times**: the run times of the jobs using ``procs`` processors, as the paper took the
  CTC SP2 jobs using exactly 8 processors (Appendix C, note 2): each such job needs one whole
  8-processor host. When the log has fewer than ``min_jobs`` such jobs and ``fallback_to_mode`` is
  set, the most frequent processor count of the log is used instead (table1's ``subset`` column says
  which). At most ``max_jobs`` jobs of the subset, the first ones in submit order (``null`` = all).
* **Arrivals**: Poisson at each load ρ in ``loads`` (λ = ρh/E[X]), ``replications`` streams,
  ``hosts`` hosts (the paper's main case: 2). **Service order** (``service_orders``): ``trace``
  keeps the jobs in trace order, so the serial correlation of run times stays (table1's
  ``lag1_autocorr_log_service``); ``shuffled`` draws a fresh permutation per replication, the
  i.i.d. service times that Theorem 1 assumes. The first order listed gives ``fig2``/``fig4``,
  the others ``fig2_<order>``/``fig4_<order>``.
* **Analysis**: Theorem 1 with the evaluation half's service times and the cutoffs derived on the
  first half; when those cutoffs put a load of 1 or more on one host the analytic value is
  infinite (shown as ``inf``), although the finite simulation still ends.
* **Policies**: Random, Round-Robin, Shortest-Queue, Least-Work-Left, Central-Queue, SITA-E and
  (2 hosts) SITA-U-opt, SITA-U-fair and the ρ/2 rule, with cutoffs from Theorem 1 (``analytic``)
  and, for SITA-U-opt/fair, also from simulation (``simulation``, §4.1).
* **Reference rows** (table1): the paper's Table 1 service-time characteristics of its own logs
  (PSC C90, PSC J90, CTC IBM-SP2), labelled by log, for orientation, not targets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..distserver.workload import ServiceTrace
from ..errors import ConfigError
from ..papers.schroeder2004.analysis import analyze
from ..papers.schroeder2004.config import Settings, resolve_config
from ..papers.schroeder2004.cutoffs import derive_cutoffs
from ..papers.schroeder2004.plots import figure_load_fraction, figure_mean_var
from ..papers.schroeder2004.simulations import run_poisson
from ..papers.schroeder2004.workload import service_trace, table1_row
from ..traces.lookup import procs_used
from . import StudyInputs

TITLE = ("Schroeder & Harchol-Balter 2004 §2-4 (Table 1, Figures 2-5): task assignment "
         "policies on a distributed server fed by this log's run times")
NOTES = ("The run times of one processor-count class of this log (table1 'subset') are the "
         "service times of h identical hosts (one job at a time, FCFS, run to completion); "
         "Poisson arrivals at each load; cutoffs of the SITA policies derived on the first half "
         "of these jobs, policies evaluated on the second half; service times in trace order "
         "(serial correlation kept) and, where listed, shuffled (i.i.d., as the analysis "
         "assumes). 'mean_slowdown': mean slowdown (response/service) per policy (rows) and "
         "load (columns), the data of Figures 2-4. 'slowdown': every simulated point with the "
         "variance of slowdown, mean response and wait, and Theorem 1's analytic mean slowdown "
         "where the paper gives one (inf: the first-half cutoffs overload a host on the second "
         "half). Table 1 "
         "rows 'Schroeder 2004 Table 1 (<log>)' are the paper's own logs, for orientation.")

_COMMON = {"procs": [8], "fallback_to_mode": True, "min_jobs": 1000, "split": "chronological",
           "service_orders": ["trace", "shuffled"],
           "slowdown": "response", "mgh_factor": "standard", "seed": 20040607, "hosts": [2],
           "many_hosts_load": 0.7}
DEFAULTS: dict[str, dict[str, Any]] = {
    "default": _COMMON | {"max_jobs": None, "hosts": [2, 4],
                          "loads": [0.1, 0.3, 0.5, 0.7, 0.8, 0.9], "replications": 10,
                          "cutoff_candidates": 30, "cutoff_replications": 5},
    "quick": _COMMON | {"max_jobs": 2000, "service_orders": ["trace"],
                        "loads": [0.5, 0.7, 0.9], "replications": 2,
                        "cutoff_candidates": 10, "cutoff_replications": 1},
    "full": _COMMON | {"max_jobs": None, "hosts": [2, 4],
                       "loads": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
                       "replications": 20, "cutoff_candidates": 40, "cutoff_replications": 10},
}


def choose_procs(jobs: pd.DataFrame, settings: Mapping[str, Any]) -> list[int]:
    """The processor counts whose jobs are the service times (module docstring)."""
    p = procs_used(jobs)
    ok = jobs["run_time"].to_numpy() > 0
    wanted = [int(v) for v in settings["procs"]]
    if int(np.isin(p[ok], wanted).sum()) >= int(settings["min_jobs"]) or not settings[
            "fallback_to_mode"]:
        return wanted
    counts = pd.Series(p[ok & (p > 0)]).value_counts(sort=False).sort_index()
    if counts.empty:
        raise ConfigError("schroeder2004 study: no job with known processors and run time")
    return [int(counts.idxmax())]  # most jobs; ties -> the smallest processor count


def paper_config(trace: str, procs: list[int], settings: Mapping[str, Any]) -> Settings:
    """The paper driver's configuration (validated by the paper's ``resolve_config``)."""
    raw = {k: settings[k] for k in ("split", "slowdown", "mgh_factor", "seed", "hosts", "loads",
                                    "replications", "cutoff_candidates", "cutoff_replications",
                                    "many_hosts_load")}
    raw |= {"trace": trace, "subset": {"procs": procs},
            "service_orders": list(settings["service_orders"]),
            "many_hosts": [], "scaled_loads": [settings["many_hosts_load"]]}
    return resolve_config(raw, "default", source="config trace_studies.schroeder2004")


def run(inputs: StudyInputs, settings: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """Tables ``table1``, ``mean_slowdown`` (policy x load, the data of Figures 2-4),
    ``cutoffs`` and ``slowdown`` (every simulated point); module docstring."""
    procs = choose_procs(inputs.jobs, settings)
    cfg = paper_config(inputs.trace, procs, settings)
    st = service_trace(inputs.jobs, cfg.subset)
    if settings["max_jobs"] is not None:
        n = int(settings["max_jobs"])
        st = ServiceTrace(st.submit[:n], st.service[:n], st.report | {"jobs": min(n, len(st))})
    derivation, evaluation = st.halves(cfg.split)
    h = inputs.header
    t1 = pd.DataFrame([{"source": "this log"} | table1_row(
        inputs.trace, st, cfg.subset, h.unix_start_time, h.time_zone_string)])
    cuts = derive_cutoffs(derivation, cfg)
    sims = pd.concat([run_poisson(evaluation, cuts, cfg, order)
                      for order in cfg.service_orders], ignore_index=True)
    analysis = analyze(evaluation, cuts, cfg)
    sd = slowdown_table(sims, analysis)
    return {"table1": table1(t1, inputs.paper.get("published", {}).get("table1", {})),
            "mean_slowdown": mean_slowdown_by_load(sd),
            "cutoffs": cuts[cuts["load"].isin(cfg.loads)].drop(columns=["cutoffs"])
            .reset_index(drop=True),
            "slowdown": sd}


def table1(ours: pd.DataFrame, published: Mapping[str, Any]) -> pd.DataFrame:
    """Paper's Table 1 layout (jobs, mean/min/max service time, C²), our row first, then the
    paper's logs as reference rows."""
    cols = ["jobs", "mean_service", "min_service", "max_service", "scv"]
    rows = [{"source": f"Schroeder 2004 Table 1 ({log})", "system": log, "subset": "",
             "duration": ""} | {c: float(v[c]) for c in cols}
            for log, v in published.items()]
    keep = ["source", "system", "subset", "duration", *cols, "lag1_autocorr_log_service"]
    return pd.concat([ours[keep], pd.DataFrame(rows)], ignore_index=True)


def slowdown_table(sims: pd.DataFrame, analysis: pd.DataFrame) -> pd.DataFrame:
    """One row per (service order, hosts, load, policy, cutoff method): simulated mean/variance
    of slowdown,
    mean response and wait, Host-1 load share, and the analytic mean slowdown (Theorem 1) for the
    policies with analytic cutoffs (or none)."""
    cols = ["service_order", "hosts", "load", "policy", "cutoff_method", "mean_slowdown", "var_slowdown",
            "mean_response", "mean_wait", "load_fraction_host1", "replications", "jobs"]
    out = sims[cols].copy()
    a = analysis[["hosts", "load", "policy", "mean_slowdown"]].rename(
        columns={"mean_slowdown": "analysis_mean_slowdown"})
    out = out.merge(a, on=["hosts", "load", "policy"], how="left")
    out.loc[~out["cutoff_method"].isin(["", "analytic"]), "analysis_mean_slowdown"] = np.nan
    rank = {o: i for i, o in enumerate(pd.unique(out["service_order"]))}  # orders as configured
    out = out.sort_values(["hosts", "load", "policy", "cutoff_method"], kind="stable")
    return out.sort_values("service_order", key=lambda c: c.map(rank), kind="stable"
                           ).reset_index(drop=True)


def mean_slowdown_by_load(sd: pd.DataFrame) -> pd.DataFrame:
    """The numbers behind Figures 2-4 in one compact table: one row per (service order, hosts,
    policy), one column per load (``rho=<load>``); SITA policies with their analytic cutoffs."""
    d = sd[sd["cutoff_method"].isin(["", "analytic"])]
    wide = d.pivot_table(index=["service_order", "hosts", "policy"], columns="load",
                         values="mean_slowdown", sort=False)
    wide.columns = [f"rho={load:g}" for load in wide.columns]
    return wide.reset_index()


def figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Figures 2 and 3 (load-balancing policies, 2 and 4 hosts) and Figure 4 (SITA variants, 2
    hosts): mean and variance of slowdown vs load, per service order (the first without suffix);
    Figure 5: Host-1 load share of the SITA-U cutoffs."""
    sd = tables["slowdown"]
    sub = tables["table1"]["subset"].iloc[0]
    out = {}
    for i, order in enumerate(pd.unique(sd["service_order"])):
        sfx = "" if i == 0 else f"_{order}"
        balance = ["Random", "Least-Work-Left", "SITA-E"]
        for stem, h, pols in (("fig2", 2, balance), ("fig3", 4, balance),
                              ("fig4", 2, ["SITA-E", "SITA-U-fair", "SITA-U-opt"])):
            d = sd[(sd["hosts"] == h) & (sd["service_order"] == order)]
            if len(d):
                out[stem + sfx] = figure_mean_var(
                    d, pols, f"{sub}, {h} hosts, Poisson arrivals, {order} order "
                    f"(cf. paper Fig. {stem[-1]})")
    out["fig5"] = figure_load_fraction(tables["cutoffs"], f"{sub}: load on Host 1 "
                                             "(cf. paper Fig. 5)")
    return out
