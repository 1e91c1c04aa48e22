"""Performance metrics of a simulated schedule (docs/design.md §4; the papers' definitions).

Per job (already in :attr:`SimResult.jobs`): ``wait = start - submit``, ``response = end - submit``
(turnaround), ``bounded_slowdown = max(1, response / max(runtime, 10 s))`` (Perković §2, Tang §4.2;
the outer ``max(1, ·)`` is Feitelson's usual form and only matters for jobs shorter than 10 s).

Per run (:func:`summarize`): means over the jobs that ran (cancelled-while-waiting jobs excluded),
geometric mean of turnaround (Cirne), utilization (Tang §4.2: delivered processor-seconds over the
available ones from the first arrival to the last end; killed speculative attempts count as busy and
are reported separately), loss of capacity (Tang eq. 4, :func:`loss_of_capacity`), queue depth over
time (Tang §4.2: sum of the waits endured so far by all queued jobs; time-weighted mean and maximum).

Breakdowns: :func:`per_month` (calendar month of submission in the log's own time zone, from the
header's UnixStartTime/TimeZoneString — Talby & Feitelson's per-month comparison) and
:func:`per_shape` (Perković Table 2 / Figure 4 job-shape groups).
"""

from __future__ import annotations

from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pandas as pd

from .errors import SimulationError
from .result import SimResult

SHAPES = ("SN", "SW", "LN", "LW")


def _ran(jobs: pd.DataFrame) -> pd.DataFrame:
    return jobs[(jobs["start"] >= 0) & (jobs["end"] >= 0)]


def job_means(jobs: pd.DataFrame) -> dict[str, float]:
    """Mean wait / response / bounded slowdown and geometric-mean turnaround of the jobs that ran."""
    ran = _ran(jobs)
    if ran.empty:
        nan = float("nan")
        return dict.fromkeys(
            ("mean_wait", "mean_response", "mean_bounded_slowdown", "geomean_turnaround"), nan
        )
    resp = ran["response"].to_numpy(dtype=float)
    return {
        "mean_wait": float(ran["wait"].mean()),
        "mean_response": float(resp.mean()),
        "mean_bounded_slowdown": float(ran["bounded_slowdown"].mean()),
        "geomean_turnaround": float(np.exp(np.log(np.maximum(resp, 1.0)).mean())),
    }


def utilization(jobs: pd.DataFrame, machine_size: int) -> tuple[float, float]:
    """(utilization, wasted fraction) over [first submit, last end].

    Busy processor-seconds = sum(procs x runtime) of the final attempts + wasted processor-seconds
    of killed attempts.
    """
    ran = _ran(jobs)
    if ran.empty:
        return 0.0, 0.0
    span = int(ran["end"].max()) - int(jobs["submit"].min())
    if span <= 0:
        return 0.0, 0.0
    cap = machine_size * span
    wasted = float(jobs["wasted_proc_seconds"].sum())
    useful = float((ran["procs"] * ran["runtime"]).sum())
    return (useful + wasted) / cap, wasted / cap


def loss_of_capacity(timeline: pd.DataFrame, machine_size: int, strict: bool = False) -> float:
    """Tang et al. (2013) eq. 4 over the scheduling events of a run.

    ``LoC = sum_{i<m} n_i (t_{i+1} - t_i) delta_i / (N (t_m - t_1))`` with ``n_i`` the idle
    processors after event ``i`` and ``delta_i = 1`` if jobs are waiting and at least one of them
    would fit in the idle processors. The paper's preamble says "sufficient idle nodes" (``<=``,
    the default) while the formula's gloss says "smaller than" (``strict=True`` uses ``<``).
    """
    t = timeline["time"].to_numpy(dtype=np.int64)
    if len(t) < 2 or t[-1] == t[0]:
        return 0.0
    n = timeline["free"].to_numpy(dtype=np.int64)
    mw = timeline["min_waiting_procs"].to_numpy(dtype=np.int64)
    waiting = timeline["waiting"].to_numpy(dtype=np.int64) > 0
    fits = (mw < n) if strict else (mw <= n)
    delta = waiting & fits
    dt = np.diff(t)
    lost = float((n[:-1] * dt * delta[:-1]).sum())
    return lost / (machine_size * float(t[-1] - t[0]))


def queue_depth_stats(timeline: pd.DataFrame) -> dict[str, float]:
    """Time-weighted mean and maximum of Tang's queue depth (s) and of the number queued.

    The depth grows linearly between events (every queued job keeps waiting), so the time-weighted
    mean integrates it exactly: over ``[t_i, t_{i+1})`` the depth is ``QD_i + q_i (t - t_i)``.
    """
    t = timeline["time"].to_numpy(dtype=float)
    if len(t) < 2 or t[-1] == t[0]:
        return {"mean_queue_depth": 0.0, "max_queue_depth": 0.0, "mean_queued_jobs": 0.0}
    qd = timeline["queue_depth"].to_numpy(dtype=float)
    q = timeline["waiting"].to_numpy(dtype=float)
    dt = np.diff(t)
    area = (qd[:-1] * dt + 0.5 * q[:-1] * dt * dt).sum()
    span = t[-1] - t[0]
    peak = np.maximum(qd[1:], qd[:-1] + q[:-1] * dt).max()
    return {
        "mean_queue_depth": float(area / span),
        "max_queue_depth": float(max(peak, qd.max())),
        "mean_queued_jobs": float((q[:-1] * dt).sum() / span),
    }


def summarize(result: SimResult, strict_loc: bool = False) -> dict[str, Any]:
    """One flat record of the run's metrics (JSON-able)."""
    jobs = result.jobs
    ran = _ran(jobs)
    util, wasted = utilization(jobs, result.machine_size)
    out: dict[str, Any] = {
        "scheduler": result.scheduler,
        "machine_size": result.machine_size,
        "jobs": len(jobs),
        "jobs_ran": len(ran),
        "jobs_cancelled": int(jobs["cancelled"].sum()),
        "jobs_killed_at_estimate": int(jobs["killed"].sum()),
        "restarts": int((jobs["attempts"] - 1).clip(lower=0).sum()),
        **job_means(jobs),
        "max_wait": float(ran["wait"].max()) if len(ran) else float("nan"),
        "utilization": util,
        "wasted_fraction": wasted,
        "makespan": int(ran["end"].max() - jobs["submit"].min()) if len(ran) else 0,
    }
    if result.timeline is not None:
        out["loss_of_capacity"] = loss_of_capacity(result.timeline, result.machine_size, strict_loc)
        out.update(queue_depth_stats(result.timeline))
    out.update(
        events=result.events,
        passes=result.passes,
        wall_time_s=result.wall_time,
        params=result.params,
        settings=result.settings,
    )
    return out


#: Length of a relative month (a log without ``UnixStartTime``): a twelfth of a Julian year.
RELATIVE_MONTH_S = 365.25 / 12 * 86400
#: Why a log's months are relative (report note).
RELATIVE_MONTHS_NOTE = ("This log's header has no UnixStartTime, so it has no calendar: its months "
                        "are labelled M01, M02, ... (periods of 30.44 days from the log's start) "
                        "instead of YYYY-MM.")


def relative_month_labels(times: np.ndarray) -> np.ndarray:
    """``M01``, ``M02``, ... of log-relative times: 30.44-day periods from the log's start."""
    k = np.maximum(np.asarray(times, dtype=np.int64), 0) // int(RELATIVE_MONTH_S) + 1
    width = max(2, len(str(int(k.max())))) if len(k) else 2
    return np.asarray([f"M{int(i):0{width}d}" for i in k], dtype=object)


def month_labels(
    submit: pd.Series | np.ndarray,
    unix_start_time: int | None,
    time_zone: str | None,
    submit_shift: int = 0,
) -> pd.Series:
    """``YYYY-MM`` of each submit time in the log's local time zone.

    ``submit`` is seconds since the log start (plus ``submit_shift`` if normalization rebased it).
    Without UnixStartTime there is no calendar: the months are relative, ``M01``, ``M02``, ...
    (30.44-day periods from the log's start). An unknown or missing time zone falls back to UTC
    (recorded by the caller).
    """
    if unix_start_time is None:
        secs = np.asarray(submit, dtype=np.int64) + int(submit_shift)
        return pd.Series(relative_month_labels(secs), index=getattr(submit, "index", None),
                         dtype="string")
    try:
        tz = ZoneInfo(time_zone) if time_zone else UTC
    except (ZoneInfoNotFoundError, ValueError):
        tz = UTC
    secs = np.asarray(submit, dtype=np.int64) + int(unix_start_time) + int(submit_shift)
    ts = pd.to_datetime(secs, unit="s", utc=True).tz_convert(tz)
    return pd.Series(ts.strftime("%Y-%m"), index=getattr(submit, "index", None), dtype="string")


def _group_means(jobs: pd.DataFrame, key: pd.Series, name: str) -> pd.DataFrame:
    ran = _ran(jobs)
    k = key.loc[ran.index]
    g = ran.assign(**{name: k}).groupby(name, sort=True, observed=True)
    out = g.agg(
        jobs=("job_id", "size"),
        mean_wait=("wait", "mean"),
        mean_response=("response", "mean"),
        mean_bounded_slowdown=("bounded_slowdown", "mean"),
        proc_seconds=("runtime", lambda s: float((s * ran.loc[s.index, "procs"]).sum())),
    )
    return out.reset_index()


def per_month(
    jobs: pd.DataFrame,
    unix_start_time: int | None,
    time_zone: str | None,
    submit_shift: int = 0,
) -> pd.DataFrame:
    """Per calendar month of submission: jobs, mean wait/response/bounded slowdown, work."""
    months = month_labels(jobs["submit"], unix_start_time, time_zone, submit_shift)
    return _group_means(jobs, months, "month")


def shape_labels(
    jobs: pd.DataFrame,
    length: str = "estimate",
    length_cut: float | None = None,
    width_cut: float | None = None,
) -> pd.Series:
    """Perković Table 2 shape group of each job: S/L (short/long) + N/W (narrow/wide).

    Long = ``length`` column (``"estimate"`` or ``"runtime"``) above ``length_cut``; wide =
    processors above ``width_cut``; both cuts default to the medians over ``jobs`` ("jobs are
    grouped by median job parallelism and median ..." — the paper's caption).
    """
    if length not in ("estimate", "runtime"):
        raise SimulationError(f"shape length must be 'estimate' or 'runtime', got {length!r}")
    lc = float(jobs[length].median()) if length_cut is None else length_cut
    wc = float(jobs["procs"].median()) if width_cut is None else width_cut
    long_ = np.where(jobs[length].to_numpy() > lc, "L", "S")
    wide = np.where(jobs["procs"].to_numpy() > wc, "W", "N")
    return pd.Series(np.char.add(long_.astype(str), wide.astype(str)), index=jobs.index,
                     dtype="string")  # fmt: skip


def per_shape(jobs: pd.DataFrame, **kw: Any) -> pd.DataFrame:
    """Per job-shape group (SN, SW, LN, LW): jobs and mean wait/response/bounded slowdown."""
    return _group_means(jobs, shape_labels(jobs, **kw), "shape")
