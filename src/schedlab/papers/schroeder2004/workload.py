"""The workload of Schroeder & Harchol-Balter (2004) [§2.1, Table 1]: the configured job subset
of a log, its Table 1 row, and the two halves (cutoffs are derived on the first, policies
evaluated on the second)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...distserver import queueing as q
from ...distserver.workload import ServiceTrace, select_jobs
from ...traces.swf import SWFHeader
from .config import Settings, Table1Entry


def subset_label(subset: dict[str, Any]) -> str:
    """Human-readable job subset, e.g. 'jobs using 8 processors'."""
    parts = []
    if subset.get("procs") is not None:
        parts.append(f"jobs using {'/'.join(str(p) for p in subset['procs'])} processors")
    if subset.get("procs_min") is not None or subset.get("procs_max") is not None:
        parts.append(f"processors in [{subset.get('procs_min') or 1}, "
                     f"{subset.get('procs_max') or 'max'}]")
    if subset.get("max_run_time") is not None:
        parts.append(f"run time <= {subset['max_run_time']} s")
    return ", ".join(parts) or "all jobs"


def service_trace(jobs: pd.DataFrame, subset: dict[str, Any]) -> ServiceTrace:
    """The configured job subset of a trace table."""
    return select_jobs(jobs, procs=subset.get("procs"), procs_min=subset.get("procs_min"),
                       procs_max=subset.get("procs_max"), max_run_time=subset.get("max_run_time"))


def table1_row(system: str, st: ServiceTrace, subset: dict[str, Any],
               unix_start_time: int | None = None, time_zone: str | None = None
               ) -> dict[str, Any]:
    """Table 1 columns for one log: duration, jobs, mean/min/max service time, C² (§2.1).

    With the log's ``UnixStartTime`` (and ``TimeZoneString``) the duration is given as months.
    """
    x = st.service
    m = q.Moments.of(x)
    duration = ""
    if unix_start_time is not None:
        ends = pd.to_datetime(unix_start_time + np.array([st.submit.min(), st.submit.max()]),
                              unit="s", utc=True).tz_convert(time_zone or "UTC")
        duration = f"{ends[0]:%B %Y} - {ends[1]:%B %Y}"
    return {"system": system, "subset": subset_label(subset), "duration": duration,
            "jobs": len(x), "first_submit": float(st.submit.min()),
            "last_submit": float(st.submit.max()),
            "duration_days": float(st.submit.max() - st.submit.min()) / 86400.0,
            "mean_service": m.mean, "min_service": float(x.min()), "max_service": float(x.max()),
            "scv": m.scv, "lag1_autocorr_log_service": lag1_autocorrelation(np.log(x)),
            "selection": selection_steps(st.report, subset)}


def table1(entries: Mapping[str, Table1Entry],
           trace: Callable[[str], tuple[pd.DataFrame, dict[str, Any]]],
           sha256: Mapping[str, str | None]) -> pd.DataFrame:
    """Table 1 [§2.1]: one row per configured entry (label -> ``trace`` and job ``subset``).

    ``trace(name)`` gives a parsed log's job table and metadata (its SWF header dates the rows);
    ``sha256`` the registry's expected hash of each log.
    """
    rows = []
    for label, entry in entries.items():
        jobs, meta = trace(entry.trace)
        header = SWFHeader.from_dict(meta["swf_header"])
        subset = entry.subset
        st = service_trace(jobs, subset)
        row = table1_row(label, st, subset, header.unix_start_time, header.time_zone_string)
        rows.append({"trace": entry.trace, "trace_sha256": sha256.get(entry.trace)} | row
                    | {"dropped_unknown_or_zero_run_time":
                       st.report["dropped_unknown_or_zero_run_time"]})
    return pd.DataFrame(rows)


def selection_steps(report: dict[str, int], subset: dict[str, Any]) -> str:
    """The job selection of a Table 1 row, step by step with the jobs left after each step."""
    if "trace_jobs" not in report:
        return ""
    steps = [f"{report['trace_jobs']} jobs in the log"]
    kind = subset_label({k: v for k, v in subset.items() if k != "max_run_time"})
    steps.append(f"{report['subset_jobs']} {kind}")
    left = report["subset_jobs"] - report.get("dropped_unknown_or_zero_run_time", 0)
    steps.append(f"{left} after dropping {report.get('dropped_unknown_or_zero_run_time', 0)} "
                 "with unknown or zero run time")
    if "dropped_above_max_run_time" in report:
        left -= report["dropped_above_max_run_time"]
        steps.append(f"{left} after dropping {report['dropped_above_max_run_time']} running "
                     f"longer than {subset['max_run_time']:g} s")
    return " -> ".join(steps)


def lag1_autocorrelation(v: np.ndarray) -> float:
    """Correlation of consecutive values (not in the paper: shows how far trace order is from
    the i.i.d. service times that the M/G/1 analysis assumes)."""
    if len(v) < 3 or np.std(v[:-1]) == 0 or np.std(v[1:]) == 0:
        return math.nan
    return float(np.corrcoef(v[:-1], v[1:])[0, 1])



def workload_halves(jobs: pd.DataFrame, cfg: Settings
                    ) -> tuple[ServiceTrace, ServiceTrace, dict[str, int]]:
    """(derivation half, evaluation half, normalization report) of the configured job subset."""
    st = service_trace(jobs, cfg.subset)
    d, e = st.halves(cfg.split)
    return d, e, st.report | {"derivation_jobs": len(d), "evaluation_jobs": len(e)}

