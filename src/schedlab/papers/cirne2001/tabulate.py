"""Cirne 2001: the tables (tidy frames) from the points' frames — Tables 13, 14, 18; the §5.3 and
§6.1 breakdowns (Figures 39-62); the §6.2 sweeps (Figures 63-66); §5.4's Tables 15-16; the
generator check; the attribution tables (the contract's ``tables``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...report.attribution import TABLE
from .. import Outputs
from .attribution import attribution_table
from .config import PAPER, Settings
from .generator import generator_check
from .load import load_table
from .nas import nas_tables
from .plots import FIGURES, NAS_FIGURE
from .points import (
    attribution_id,
    attribution_runs,
    load_id,
    load_readings,
    nas_id,
    nas_logs,
    single_id,
    sweep_id,
)
from .runs import SWEEP_PARAMS
from .stats import FLOOR_S, geomean, geomean_ci, shares


def _gm_rows(df: pd.DataFrame, cols: dict[str, str], rng: np.random.Generator, resamples: int,
             confidence: float, **extra: Any) -> list[dict[str, Any]]:
    out = []
    for label, col in cols.items():
        gm, lo, hi = geomean_ci(np.maximum(df[col].to_numpy(float), FLOOR_S), df["workload"], rng,
                                resamples, confidence)
        out.append({**extra, "request": label, "geomean_s": gm, "ci_low": lo, "ci_high": hi,
                    "n": len(df)})
    return out


def table13(df: pd.DataFrame, rng: np.random.Generator, resamples: int = 1000,
            confidence: float = 0.95) -> pd.DataFrame:
    """Table 13: geometric mean of the target's turn-around time, best / SA / user request, and
    the ratios SA/user, best/user, SA/best: the geometric mean of per-experiment ratios (equal to
    the ratio of the geometric means, the experiments being paired), with a bootstrap CI that
    resamples whole workloads."""
    rows = _gm_rows(df, {"best": "best_tt", "sa": "sa_tt", "user": "user_tt"}, rng, resamples,
                    confidence)
    for label, (a, b) in RATIOS.items():
        r = np.maximum(df[f"{a}_tt"].to_numpy(float), FLOOR_S) / np.maximum(
            df[f"{b}_tt"].to_numpy(float), FLOOR_S)
        gm, lo, hi = geomean_ci(r, df["workload"], rng, resamples, confidence)
        rows.append({"request": label, "geomean_s": gm, "ci_low": lo, "ci_high": hi,
                     "n": len(df)})
    out = pd.DataFrame(rows)
    out["unit"] = np.where(out["request"].str.contains("/"), "ratio", "s")
    return out


RATIOS = {"sa/user": ("sa", "user"), "best/user": ("best", "user"), "sa/best": ("sa", "best")}


def table14(df: pd.DataFrame) -> pd.DataFrame:
    """Table 14: how often the adaptive requests beat / equal / lose to the user request."""
    rows = []
    for req in ("best", "sa"):
        s = shares(df[f"{req}_tt"], df["user_tt"])
        rows += [{"request": req, "outcome": k, "percent": v} for k, v in s.items()]
    expected = float((1.0 / df["nu"]).mean())  # §5.2: fraction where adaptive == user by chance
    rows.append({"request": "expected", "outcome": "same_by_nu", "percent": 100 * expected})
    return pd.DataFrame(rows)


def table18(df: pd.DataFrame, rng: np.random.Generator, resamples: int = 1000,
            confidence: float = 0.95) -> pd.DataFrame:
    """Table 18: SA / user request for the target in static and adaptive workloads."""
    cols = {"sa_static": "sa_tt", "sa_adaptive": "sa_adaptive_tt", "user_static": "user_tt",
            "user_adaptive": "user_adaptive_tt"}
    return pd.DataFrame(_gm_rows(df, cols, rng, resamples, confidence))


def _bins(x: pd.Series, deciles: int) -> pd.Series:
    if not pd.api.types.is_numeric_dtype(x) or x.nunique() <= 2:
        return x.astype(str)
    q = pd.qcut(x, deciles, duplicates="drop")
    return q.map(lambda iv: f"[{iv.left:.4g}, {iv.right:.4g}]").astype(str)


BREAKDOWN_MEASURES = {"tt": "tt", "wait": "wait", "te": "te", "cr": "cr"}


def breakdowns(df: pd.DataFrame, factors: list[str], deciles: int, rng: np.random.Generator,
               resamples: int = 200, confidence: float = 0.95, static: bool = True
               ) -> pd.DataFrame:
    """§5.3 (static: user / SA / best, Figures 39-56) or §6.1 (four scenarios by D_static,
    Figures 58-62): per bin of each factor, the geometric mean of each measure and the relative
    value (adaptive / user, geometric mean of per-experiment ratios), with bootstrap CIs."""
    reqs = ("user", "sa", "best") if static else ("user", "sa", "sa_adaptive", "user_adaptive")
    rows = []
    for factor in factors:
        col = "D_static" if factor == "D" else factor
        if col not in df or df[col].isna().all():
            continue
        bins = _bins(df[col], deciles)
        numeric = pd.api.types.is_numeric_dtype(df[col])
        order = df.groupby(bins, sort=False)[col].median() if numeric else None
        for b, g in df.groupby(bins, sort=False):
            mid = float(order[b]) if order is not None and b in order else math.nan
            for measure in BREAKDOWN_MEASURES:
                for req in reqs:
                    v = np.maximum(g[f"{req}_{measure}"].to_numpy(float), FLOOR_S)
                    gm, lo, hi = geomean_ci(v, g["workload"], rng, resamples, confidence)
                    base = "user_adaptive" if req == "sa_adaptive" else "user"
                    ratio = v / np.maximum(g[f"{base}_{measure}"].to_numpy(float), FLOOR_S)
                    rgm, rlo, rhi = geomean_ci(ratio, g["workload"], rng, resamples, confidence)
                    rows.append({"factor": factor, "bin": str(b), "bin_median": mid,
                                 "n": len(g), "measure": measure, "request": req,
                                 "geomean": gm, "ci_low": lo, "ci_high": hi,
                                 "relative": rgm, "rel_ci_low": rlo, "rel_ci_high": rhi})
            if static:
                share = np.maximum(g["user_wait"], FLOOR_S) / np.maximum(g["user_tt"], FLOOR_S)
                rows.append({"factor": factor, "bin": str(b), "bin_median": mid, "n": len(g),
                             "measure": "wait_over_tt", "request": "user",
                             "geomean": geomean(share), "ci_low": math.nan,
                             "ci_high": math.nan, "relative": math.nan, "rel_ci_low": math.nan,
                             "rel_ci_high": math.nan})
    return pd.DataFrame(rows)


def sweep_table(runs: pd.DataFrame, rng: np.random.Generator, resamples: int = 1000,
                confidence: float = 0.95) -> pd.DataFrame:
    """§6.2 (Figures 63, 65, 66): per parameter value, geometric mean turn-around of all completed
    jobs with SA and with user requests, their ratio, and the offered load (processor-seconds used
    per processor-second of the arrival span)."""
    rows = []
    for (param, value), g in runs.groupby(["param", "value"], sort=True):
        rec: dict[str, Any] = {"param": param, "value": float(value)}
        for pol in ("sa", "user"):
            h = g[(g["policy"] == pol) & g["completed"]]
            gm, lo, hi = geomean_ci(np.maximum(h["tt"], FLOOR_S), h["workload"], rng, resamples,
                                    confidence)
            rec.update({f"{pol}_geomean_tt": gm, f"{pol}_ci_low": lo, f"{pol}_ci_high": hi,
                        f"{pol}_n": len(h)})
            a = g[g["policy"] == pol]
            rec[f"{pol}_offered_load"] = float(a["used"].sum() / a["capacity"].iloc[0]
                                               if len(a) else math.nan)
        both = g[g["completed"]].pivot_table(index=["workload", "job_id"], columns="policy",
                                             values="tt").dropna()
        ratio = np.maximum(both["sa"], FLOOR_S) / np.maximum(both["user"], FLOOR_S)
        grp = both.index.get_level_values("workload")
        rec["relative_tt"], rec["rel_ci_low"], rec["rel_ci_high"] = geomean_ci(
            ratio, grp, rng, resamples, confidence)
        rows.append(rec)
    return pd.DataFrame(rows)


TABLES = ("experiments", "table13", "table14", "table18", "breakdowns", "emergent", "sweep",
          "sigma_distribution", "nas_experiments", "table15", "table16", "table16_by_kind",
          "generator_check")
SCENARIOS = {"sa_static": ("sa", "D_static"), "sa_adaptive": ("sa_adaptive", "D_adaptive"),
             "user_static": ("user", "D_static"), "user_adaptive": ("user_adaptive", "D_adaptive")}


def emergent_by_load(df: pd.DataFrame, deciles: int, rng: np.random.Generator,
                     resamples: int = 200, confidence: float = 0.95) -> pd.DataFrame:
    """Figures 58, 60-62: the four scenarios of Table 17 by load per processor D, each scenario
    binned by the D its target met (static or adaptive workload) on common decile edges."""
    pooled = np.concatenate([df["D_static"].to_numpy(float), df["D_adaptive"].to_numpy(float)])
    edges = np.unique(np.quantile(pooled, np.linspace(0, 1, deciles + 1)))
    rows = []
    for scen, (req, dcol) in SCENARIOS.items():
        b = pd.cut(df[dcol], edges, include_lowest=True, duplicates="drop")
        for iv, g in df.groupby(b, observed=True, sort=True):
            for measure in BREAKDOWN_MEASURES:
                v = np.maximum(g[f"{req}_{measure}"].to_numpy(float), FLOOR_S)
                gm, lo, hi = geomean_ci(v, g["workload"], rng, resamples, confidence)
                rows.append({"scenario": scen, "bin_low": float(iv.left), "bin_high": float(iv.right),
                             "bin_median": float(g[dcol].median()), "n": len(g),
                             "measure": measure, "geomean": gm, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def sigma_distribution(sweep: pd.DataFrame) -> pd.DataFrame:
    """Figure 64: quantiles of the sigma of the generated jobs for each kappa_sigma."""
    rows = []
    s = sweep[(sweep["param"] == "kappa_sigma") & (sweep["policy"] == "user")]
    qs = np.linspace(0, 1, 101)
    for value, g in s.groupby("value", sort=True):
        x = g["sigma"].dropna().to_numpy(float)
        if x.size:
            rows += [{"kappa_sigma": float(value), "quantile": float(q), "sigma": float(v)}
                     for q, v in zip(qs, np.quantile(x, qs), strict=True)]
    return pd.DataFrame(rows, columns=["kappa_sigma", "quantile", "sigma"])


def build_tables(single: list[pd.DataFrame], sweep: list[pd.DataFrame], s: Settings,
                 nas: list[pd.DataFrame] | None = None, model: dict[str, Any] | None = None
                 ) -> dict[str, pd.DataFrame]:
    """All tables of the reproduction from the per-workload run frames (and the per-log NAS
    validation frames of :mod:`schedlab.papers.cirne2001.nas`)."""
    exp = pd.concat(single, ignore_index=True).sort_values(["workload", "job_id"],
                                                            kind="stable").reset_index(drop=True)
    if exp.empty:
        raise ConfigError(f"{PAPER}: no single-target experiment results")
    bs = s.bootstrap
    B, conf = int(bs.get("resamples", 1000)), float(bs.get("confidence", 0.95))
    rng = np.random.default_rng(np.random.SeedSequence(int(s.seed), spawn_key=(3,)))
    bd = s.breakdowns
    deciles = int(bd.get("deciles", 10))
    factors = list(bd.get("factors", ["L", "A", "sigma", "c_min", "c_max", "kind", "accuracy",
                                      "nu", "D"]))
    sw = pd.concat(sweep, ignore_index=True) if sweep else pd.DataFrame()
    return {
        "experiments": exp,
        "table13": table13(exp, rng, B, conf),
        "table14": table14(exp),
        "table18": table18(exp, rng, B, conf),
        "breakdowns": breakdowns(exp, factors, deciles, rng, max(100, B // 5), conf),
        "emergent": emergent_by_load(exp, deciles, rng, max(100, B // 5), conf),
        "sweep": sweep_table(sw, rng, B, conf) if not sw.empty else pd.DataFrame(),
        "sigma_distribution": sigma_distribution(sw) if not sw.empty else pd.DataFrame(),
        **nas_tables(nas or [], s, np.random.default_rng(
            np.random.SeedSequence(int(s.seed), spawn_key=(5,)))),
        "generator_check": generator_check(s.published["generator"], s.machine_procs,
                                           int(s.generator_check_jobs),
                                           int(s.seed), model),
    }


def tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]], inputs: Any = None
           ) -> dict[str, pd.DataFrame]:
    """Every table from the points' frames (by point id, :mod:`schedlab.papers.cirne2001.points`):
    single-target workloads in workload order, sweeps parameter by parameter, NAS logs in config
    order (the bootstrap draws depend on that order); the attribution tables when they ran."""
    wpp = int(s.offered_load["workloads_per_point"])
    out = build_tables([runs[single_id(w)]["experiments"] for w in range(s.n_workloads)],
                       [runs[sweep_id(p, w)]["runs"] for p in SWEEP_PARAMS for w in range(wpp)],
                       s, [runs[nas_id(log)]["experiments"] for log in nas_logs(s)],
                       s.model)
    by_reading: dict[str, list[pd.DataFrame]] = {}
    for reading, w in attribution_runs(s):
        by_reading.setdefault(reading, []).append(runs[attribution_id(reading, w)]["experiments"])
    if by_reading:
        out["attribution"] = attribution_table(
            {r: pd.concat(v, ignore_index=True) for r, v in by_reading.items()}, s.published)
    if load_readings(s):
        bs = s.bootstrap
        out["attribution_load"] = load_table(
            {r: runs[load_id(r)]["workloads"] for r in load_readings(s)}, s.published,
            s.machine_procs, np.random.default_rng(np.random.SeedSequence(
                int(s.seed), spawn_key=(9,))),
            int(bs.get("resamples", 1000)), float(bs.get("confidence", 0.95)))
    return out


def outputs(s: Settings) -> Outputs:
    """Every table of :data:`TABLES` (``attribution`` and ``attribution_load`` when their readings
    run; the readings of the scorecard rows, :data:`~schedlab.report.attribution.TABLE`), every
    figure of :data:`.plots.FIGURES` (and Figure 57 when §5.4 runs)."""
    return Outputs(tables=(*TABLES, *(("attribution",) if attribution_runs(s) else ()),
                           *(("attribution_load",) if load_readings(s) else ()), TABLE),
                   figures=(*FIGURES, *((NAS_FIGURE,) if nas_logs(s) else ())))
