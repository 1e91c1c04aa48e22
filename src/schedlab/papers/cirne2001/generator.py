"""Cirne 2001: the workload generator checked against the thesis (chapter 3's published statistics
beside the same statistics of :mod:`schedlab.models.synth`).

:func:`generator_check`: jobs per day of each arrival polynomial (Table 3) against the thesis logs'
own counts (Table 1 jobs / Table 2 days), the cancelled fraction and lag (Table 11), uniform-log
fits of partition size and requested time (Table 11), the accuracy (Table 11), and the moldability
statistics chapter 5 reports of its experiments (c_min = 1: 62.6%, §5.3.1; nu = 2: 37.1%, §5.3.2;
sum(1/nu)/J = 0.448, §5.2), each under the readings it depends on.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ...models.arrival import MINUTES_PER_DAY
from ...models.distributions import fit_gamma, fit_uniform_log
from ...models.synth import arrival_instants, moldable_workload, params_from_dict


def generator_check(published: dict[str, Any], machine_procs: int = 500, n_jobs: int = 20000,
                    seed: int = 20010601, model: dict[str, Any] | None = None) -> pd.DataFrame:
    """One row per (statistic, reading): ``statistic, reading, generated, published, unit, source,
    note``. ``published`` is config ``published.generator`` (see config/papers/cirne2001_sa.yaml).

    Arrivals are generated per polynomial (the generator picks one per workload), the other
    statistics from one ``n_jobs`` workload per reading (seed ``seed``)."""
    base = dict(model or {})
    rows: list[dict[str, Any]] = []
    p0 = params_from_dict({**base, "machine_size": machine_procs})
    logs = published["log_jobs_per_day"]
    for factor in (1.0, 0.5):
        for poly in p0.rigid.arrival:
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(7, poly.procs)))
            t = arrival_instants(poly, machine_procs / poly.procs * factor, n_jobs, rng)
            days = float(t[-1] - t[0]) / 86400.0
            per_day_origin = (n_jobs - 1) / days * poly.procs / machine_procs
            jobs, days_log = logs[poly.name]
            rows.append({"statistic": f"{poly.name}: arrivals per day on its own machine "
                                      f"({poly.procs} processors)",
                         "reading": f"arrival_factor {factor:g}", "generated": per_day_origin,
                         "published": jobs / days_log, "unit": "jobs/day",
                         "source": "Table 3 polynomial vs Table 1 jobs / Table 2 days",
                         "note": f"polynomial integral {poly.rate_per_minute(np.arange(MINUTES_PER_DAY)).sum() * factor:.0f}/day"})
    for cond in (True, False):
        d = {**base, "machine_size": machine_procs,
             "moldability": {**(base.get("moldability") or {}), "condition_on_request": cond}}
        p = params_from_dict(d)
        jobs, alts = moldable_workload(p, n_jobs, np.random.SeedSequence(seed))
        reading = f"condition_on_request {cond}"
        targets = jobs[jobs["cancel_time"].isna()]
        nu = alts.groupby("job_id").size().reindex(targets["job_id"]).to_numpy(float)
        pow2 = (targets["procs"] & (targets["procs"] - 1)) == 0
        nu_p2 = alts.groupby("job_id").size().reindex(targets.loc[pow2, "job_id"])
        mold = [("fraction of targets with c_min = 1", float((targets["c_min"] == 1).mean()),
                 published["c_min_1_fraction"], "fraction", "§5.3.1 (62.6% of experiments)"),
                ("fraction of targets with nu = 2", float(np.mean(nu == 2)),
                 published["nu_2_fraction"], "fraction", "§5.3.2 (37.1% of experiments)"),
                ("sum(1/nu)/J", float(np.mean(1.0 / nu)), published["expected_same_fraction"],
                 "fraction", "§5.2 (0.448)"),
                ("largest nu of a power-of-2 target", float(nu_p2.max()),
                 published["max_nu_power_of_2"], "requests", "§5.3.2 (9 on 500 processors)")]
        edges = published.get("L_decile_edges_s") or []
        gen_edges = np.quantile(targets["L"].to_numpy(float), np.arange(1, len(edges) + 1) / 10)
        mold += [(f"L: upper edge of decile {i + 1} of the targets", float(g), float(e), "s",
                  "§5.3.1, Figure 39 (L in [0, 92), [92, 348), ...)")
                 for i, (g, e) in enumerate(zip(gen_edges, edges, strict=True))]
        for stat, gen, pub, unit, src in mold:
            rows.append({"statistic": stat, "reading": reading, "generated": gen,
                         "published": float(pub), "unit": unit, "source": src, "note": ""})
        if not cond:
            continue
        r = p.rigid
        rigid = [("fraction of jobs cancelled (pc)", float(jobs["cancel_time"].notna().mean()),
                  r.pc, "fraction", "Table 11"),
                 ("fraction of power-of-2 partition sizes",
                  float(((jobs["procs"] & (jobs["procs"] - 1)) == 0).mean()), r.pb, "fraction",
                  "Table 11 pb (Table 6 logs: 0.70-0.84)")]
        lag = (jobs["cancel_time"] - jobs["submit"]).dropna().to_numpy(float)
        fl = fit_uniform_log(lag, "cancellation lag").params
        rigid += [("cancellation lag chi_lc (uniform-log fit)", fl["chi"], r.lc.chi, "", "Table 11"),
                  ("cancellation lag rho_lc (uniform-log fit)", fl["rho"], r.lc.rho, "", "Table 11"),
                  ("fraction of cancellation lags < 10 min", float(np.mean(lag < 600)),
                   float(r.lc.cdf(600.0)), "fraction", "Table 11 model (logs: CTC 0.247, "
                   "SDSC 0.547, §3.3.2)")]
        fn = fit_uniform_log(jobs["procs"].to_numpy(float), "partition size", discrete=True).params
        rigid += [("partition size chi_n (uniform-log fit, after power-of-2 rounding)",
                   fn["chi"], r.n.chi, "", "Table 11"),
                  ("partition size rho_n (uniform-log fit, after power-of-2 rounding)",
                   fn["rho"], r.n.rho, "", "Table 11")]
        ft = fit_uniform_log(jobs["tr"].to_numpy(float), "requested time").params
        rigid += [("requested time chi_tr (uniform-log fit)", ft["chi"], r.tr.chi, "", "Table 11"),
                  ("requested time rho_tr (uniform-log fit)", ft["rho"], r.tr.rho, "", "Table 11")]
        fa = fit_gamma(jobs["accuracy"].to_numpy(float), "accuracy").params
        rigid += [("accuracy alpha_a (gamma MLE)", fa["alpha"], r.alpha_a, "", "Table 11"),
                  ("accuracy beta_a (gamma MLE)", fa["beta"], r.beta_a, "", "Table 11"),
                  ("mean execution time te", float(jobs["te"].mean()), math.nan, "s", "-"),
                  ("offered load sum(te n) / (P span), cancellations ignored",
                   float((jobs["te"] * jobs["procs"]).sum()
                         / (machine_procs * (jobs["submit"].max() - jobs["submit"].min()))),
                   math.nan, "", "-")]
        for stat, gen, pub, unit, src in rigid:
            rows.append({"statistic": stat, "reading": reading, "generated": float(gen),
                         "published": float(pub), "unit": unit, "source": src,
                         "note": "truncation to (0, 1] shifts the fit" if "accuracy" in stat
                         else ""})
    return pd.DataFrame(rows)
