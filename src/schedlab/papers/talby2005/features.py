"""Talby & Feitelson 2005 §4.1 (Table 7): monthly workload features and their correlation with the
Flex-Maui wait difference.

"Interval" is the inter-quartile range (q75 - q25), the robust spread the paper's reference [2]
recommends; load = sum(run time x processors) / (machine size x seconds of the calendar month);
users/jobs = distinct users / jobs; CPU work = average CPU time x processors (N/A when the log has
no CPU times, as for KTH in the paper); inter-arrival times are between consecutive submits within
the month. Correlations are Pearson. The absolute difference is ``wait_Flex - wait_Maui`` (seconds)
and the relative one ``(wait_Flex - wait_Maui) / wait_Maui``, so that positive correlations mean
"large values favour Maui", as in the paper.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .months import month_seconds

#: Table 7 column order (paper's order).
FEATURES = ("jobs", "load", "users_per_job", "runtime_median", "runtime_interval", "procs_median",
            "procs_interval", "cpu_median", "cpu_interval", "ia_median", "ia_interval")


def _iqr(x: np.ndarray) -> float:
    if len(x) == 0:
        return float("nan")
    q25, q75 = np.percentile(x, [25, 75])
    return float(q75 - q25)


def _median(x: np.ndarray) -> float:
    return float(np.median(x)) if len(x) else float("nan")


def monthly_features(trace_jobs: pd.DataFrame, months: np.ndarray, machine_size: int,
                     tz: str | None, min_jobs: int = 1, min_cpu_coverage: float = 0.5) -> pd.DataFrame:
    """One row per month with the workload variables of Table 7 (module docstring).

    ``trace_jobs`` is a trace table (docs/design.md §3 SWF columns), ``months`` its month labels.
    """
    alloc = trace_jobs["alloc_procs"].to_numpy()
    procs = np.where(alloc > 0, alloc, trace_jobs["req_procs"].to_numpy()).astype(float)
    run = trace_jobs["run_time"].to_numpy().astype(float)
    cpu = trace_jobs["avg_cpu_time"].to_numpy().astype(float)
    submit = trace_jobs["submit_time"].to_numpy().astype(float)
    users = trace_jobs["user_id"].to_numpy()
    rows = []
    for label in sorted(set(months.tolist())):
        m = months == label
        n = int(m.sum())
        if n < min_jobs:
            continue
        r, p, c, s = run[m], procs[m], cpu[m], np.sort(submit[m])
        okr = (r >= 0) & (p > 0)
        work = r[okr] * p[okr]
        okc = (c >= 0) & (p > 0)
        cpu_work = c[okc] * p[okc] if okc.mean() >= min_cpu_coverage else np.empty(0)
        ia = np.diff(s)
        rows.append({
            "month": label, "jobs": float(n),
            "load": float(work.sum()) / (machine_size * month_seconds(label, tz)),
            "users_per_job": len(set(users[m][users[m] >= 0].tolist())) / n,
            "runtime_median": _median(r[r >= 0]), "runtime_interval": _iqr(r[r >= 0]),
            "procs_median": _median(p[p > 0]), "procs_interval": _iqr(p[p > 0]),
            "cpu_median": _median(cpu_work), "cpu_interval": _iqr(cpu_work),
            "ia_median": _median(ia), "ia_interval": _iqr(ia),
        })
    return pd.DataFrame(rows, columns=["month", *FEATURES])


def feature_correlations(features: pd.DataFrame, monthly: pd.DataFrame, a: str = "flex",
                         b: str = "maui") -> dict[str, dict[str, float]]:
    """Table 7: Pearson correlation of each feature with the relative and absolute a-b wait gap."""
    wide = monthly.pivot(index="month", columns="scheduler", values="wait")
    diff = pd.DataFrame({"absolute": wide[a] - wide[b]})
    diff["relative"] = np.where(wide[b] > 0, diff["absolute"] / wide[b].where(wide[b] > 0), np.nan)
    merged = features.set_index("month").join(diff, how="inner")
    out: dict[str, dict[str, float]] = {"relative": {}, "absolute": {}}
    for kind in out:
        for f in FEATURES:
            x, y = merged[f].to_numpy(dtype=float), merged[kind].to_numpy(dtype=float)
            ok = np.isfinite(x) & np.isfinite(y)
            if ok.sum() < 3 or np.std(x[ok]) == 0 or np.std(y[ok]) == 0:
                out[kind][f] = float("nan")
            else:
                out[kind][f] = float(np.corrcoef(x[ok], y[ok])[0, 1])
    return out
