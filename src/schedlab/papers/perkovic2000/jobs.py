"""Perković & Keleher 2000: the simulation jobs (the normalized CTC log) and the shape groups of
Table 2.

Shape groups (Table 2): "Jobs are grouped by median job parallelism and median job overestimation
factor". The names say Short/Long, so by default "long" means an estimate above the median estimate
(``shape_length: estimate``); ``shape_length: overestimation`` follows the caption literally (above
the median overestimation factor). Narrow = parallelism <= the median. Table 2 reports both groupings.
Overestimation factor = estimate / actual runtime over jobs with a positive runtime in the log.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...traces.normalize import normalize
from ...traces.swf import SWFHeader


def prepare_jobs(trace_jobs: pd.DataFrame, header: SWFHeader | None, machine: int,
                 max_jobs: int | None, source: str = "<trace>"
                 ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Normalized simulation jobs (engine rules), the first ``max_jobs`` by submission, with the
    log's own runtime (for overestimation) and the shape groups of both readings."""
    norm = normalize(trace_jobs, header, machine_size=machine, source=source)
    table = norm.table.sort_values(["submit", "job_id"], kind="stable").reset_index(drop=True)
    report = dict(norm.report)
    if max_jobs is not None and len(table) > max_jobs:
        report["dropped_subset"] = len(table) - int(max_jobs)
        table = table.iloc[: int(max_jobs)].reset_index(drop=True)
    else:
        report["dropped_subset"] = 0
    log_rt = trace_jobs.set_index("job_id")["run_time"]
    table["log_runtime"] = log_rt.reindex(table["job_id"]).to_numpy()
    table["overestimation"] = overestimation(table["estimate"], table["log_runtime"])
    table["group"] = shape_groups(table, "estimate")
    table["group_overest"] = shape_groups(table, "overestimation")
    return table, report


def overestimation(estimate: pd.Series, runtime: pd.Series) -> np.ndarray:
    """Estimate / actual runtime; NaN where the runtime is not positive."""
    rt = np.asarray(runtime, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rt > 0, est / rt, np.nan)


def shape_groups(table: pd.DataFrame, length: str = "estimate") -> np.ndarray:
    """SN/SW/LN/LW labels: narrow = procs <= median procs; long = above the median ``length``
    (``estimate`` or ``overestimation``; a job without an overestimation factor counts as short)."""
    procs = table["procs"].to_numpy()
    wide = procs > np.median(procs)
    if length == "estimate":
        x = table["estimate"].to_numpy(dtype=np.float64)
    elif length == "overestimation":
        x = np.asarray(table["overestimation"], dtype=np.float64)
    else:
        raise ValueError(f"shape_length must be 'estimate' or 'overestimation', got {length!r}")
    med = np.nanmedian(x)
    long_ = np.nan_to_num(x, nan=-np.inf) > med
    return np.where(long_, np.where(wide, "LW", "LN"), np.where(wide, "SW", "SN")).astype(object)


def implied_missing(published: Mapping[str, float], table: pd.DataFrame) -> dict[str, float]:
    """What the paper's Table 1 implies for the jobs it has and our cleaned log lacks (the raw CTC
    log's 79,302 jobs include the 2,080-job flurry of user 135 that the archive's cleaning removed):
    ``count``, ``mean_runtime`` (log runtimes), ``mean_estimate`` and ``narrow`` (how many of them
    must use <= 2 nodes for the median parallelism to be 2). Empty when nothing is missing."""
    n_pub, n = float(published["Number of jobs"]), float(len(table))
    k = n_pub - n
    if k <= 0:
        return {}
    rt = table["log_runtime"].clip(lower=0) if "log_runtime" in table else table["runtime"]
    return {"count": k,
            "mean_runtime": (float(published["Average running time"]) * n_pub - float(rt.sum())) / k,
            "mean_estimate": (float(published["Average estimated running time"]) * n_pub
                              - float(table["estimate"].sum())) / k,
            "narrow": max(0.0, math.ceil(n_pub / 2) - float((table["procs"] <= 2).sum()))}
