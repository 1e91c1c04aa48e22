"""The analysis of Schroeder & Harchol-Balter (2004) [§3.3, Appendix A]: Theorem 1 / M/G/h mean
slowdown of each policy on the evaluation half (Round-Robin and Shortest-Queue have no closed form
in the paper and are simulated only)."""

from __future__ import annotations

import pandas as pd

from ...distserver import queueing as q
from ...distserver.workload import ServiceTrace, arrival_rate
from .config import Settings
from .cutoffs import SITA_2HOST, lookup_cutoffs


def analyze(evaluation: ServiceTrace, cuts: pd.DataFrame, cfg: Settings) -> pd.DataFrame:
    """Theorem 1 / M/G/h mean wait, slowdown, response of each policy on the evaluation half."""
    x = evaluation.service
    m = q.Moments.of(x)
    rows = []
    for h in sorted(int(v) for v in cfg.hosts):
        for load in cfg.loads:
            lam = arrival_rate(load, h, m.mean)
            res = {"Random": q.random_policy(lam, m, h, cfg.slowdown),
                   "Least-Work-Left": q.lwl_policy(lam, m, h, cfg.mgh_factor, cfg.slowdown)}
            for pol in ("SITA-E", *SITA_2HOST):
                c = lookup_cutoffs(cuts, h, load, pol, "analytic")
                if c is not None:
                    res[pol] = q.sita_policy(lam, x, c, cfg.slowdown)
            for pol, r in res.items():
                rows.append({"hosts": h, "load": load, "policy": pol,
                             "mean_wait": r["mean_wait"], "mean_slowdown": r["mean_slowdown"],
                             "mean_response": r["mean_response"]})
    return pd.DataFrame(rows)

