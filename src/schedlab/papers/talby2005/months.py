"""Talby & Feitelson 2005 §2.3: calendar months, monthly means, months won (Table 3) and gaps (Table 4).

* **Months** (§2.3): a job belongs to the calendar month of its *submit* time in the log's time zone
  (header ``UnixStartTime``/``TimeZoneString``). Months with fewer than ``min_jobs`` jobs are dropped.
* **Months won** (Table 3): the scheduler with the strictly lowest monthly mean wins. A month in
  which several share the best value is nobody's win and is counted in a ``tie`` row; shares are
  over all months, so the schedulers' shares plus the tie share add up to 100%.
* **Gap** (Table 4): in a month won by scheduler A over B (A's mean wait strictly lower), the gap is
  ``(wait_B - wait_A) / wait_A`` in percent, i.e. relative to the winner. Months whose winner has a
  zero mean wait have an unbounded gap and are left out (counted in ``zero_winner_months``).
* **Monthly sums** (:func:`month_sums`): per month the job count and the sums of wait and bounded
  slowdown, from which every mean of Tables 2-3 is exact (the attribution runs keep only these).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...sim.metrics import RELATIVE_MONTH_S, relative_month_labels

MONTH_SUM_COLUMNS = ("month", "jobs", "wait_sum", "bsld_sum")


def month_labels(times: np.ndarray, unix_start_time: int | None, tz: str | None) -> np.ndarray:
    """Calendar month ``YYYY-MM`` (log time zone) of log-relative times (seconds); without
    ``UnixStartTime`` the relative months ``M01``, ``M02``, ... (:data:`RELATIVE_MONTHS_NOTE`)."""
    if unix_start_time is None:
        return relative_month_labels(times)
    ts = pd.to_datetime(np.asarray(times, dtype=np.int64) + int(unix_start_time), unit="s",
                        utc=True)
    if tz:
        ts = ts.tz_convert(tz)
    return np.asarray(ts.strftime("%Y-%m"), dtype=object)


def month_seconds(label: str, tz: str | None) -> float:
    """Length of calendar month ``YYYY-MM`` in seconds (DST-aware in the log's zone); a relative
    month ``Mnn`` is :data:`RELATIVE_MONTH_S` long."""
    if label.startswith("M"):
        return RELATIVE_MONTH_S
    start = pd.Timestamp(f"{label}-01", tz=tz or "UTC")
    return float((start + pd.offsets.MonthBegin(1) - start).total_seconds())


def monthly_means(jobs: pd.DataFrame, months: np.ndarray, min_jobs: int = 1) -> pd.DataFrame:
    """Per month: jobs, mean wait, mean bounded slowdown (months with < ``min_jobs`` dropped)."""
    df = pd.DataFrame({"month": months, "wait": jobs["wait"].to_numpy(dtype=float),
                       "bsld": jobs["bounded_slowdown"].to_numpy(dtype=float)})
    g = df.groupby("month", sort=True)
    out = pd.DataFrame({"jobs": g.size(), "wait": g["wait"].mean(), "bsld": g["bsld"].mean()})
    out = out[out["jobs"] >= min_jobs].reset_index()
    out["month"] = out["month"].astype(str)
    return out


def months_won(monthly: pd.DataFrame, metric: str, schedulers: Sequence[str]) -> dict[str, int]:
    """Table 3: how many months each scheduler had the strictly lowest ``metric``.

    A tie for the best value is nobody's win: the month is counted only in ``tie`` (so the
    schedulers' counts plus ``tie`` add up to the number of months). ``monthly`` is long: one row
    per (month, scheduler) with a column ``metric``.
    """
    wide = monthly.pivot(index="month", columns="scheduler", values=metric)[list(schedulers)]
    counts = dict.fromkeys(schedulers, 0) | {"tie": 0}
    vals = wide.to_numpy(dtype=float)
    for row in vals:
        best = np.nanmin(row)
        winners = np.flatnonzero(row == best)
        if len(winners) == 1:
            counts[schedulers[winners[0]]] += 1
        else:
            counts["tie"] += 1
    return counts


def gap_stats(monthly: pd.DataFrame, a: str = "flex", b: str = "maui",
              metric: str = "wait") -> dict[str, float]:
    """Table 4: mean and max monthly gap (percent) in the months won by ``a`` and by ``b``."""
    wide = monthly.pivot(index="month", columns="scheduler", values=metric)
    wa, wb = wide[a].to_numpy(dtype=float), wide[b].to_numpy(dtype=float)
    out: dict[str, float] = {}
    zero = 0
    for name, win, lose in ((a, wa, wb), (b, wb, wa)):
        won = win < lose
        ok = won & (win > 0)
        zero += int(np.sum(won & (win <= 0)))
        gaps = (lose[ok] - win[ok]) / win[ok] * 100.0
        out[f"{name}_months"] = float(np.sum(won))
        out[f"{name}_avg"] = float(gaps.mean()) if len(gaps) else float("nan")
        out[f"{name}_max"] = float(gaps.max()) if len(gaps) else float("nan")
    out["zero_winner_months"] = float(zero)
    return out


def month_sums(jobs: pd.DataFrame) -> pd.DataFrame:
    """Per calendar month (column ``month`` of per-job results): jobs, sum of waits (s), sum of
    bounded slowdowns."""
    g = pd.DataFrame({"month": jobs["month"].astype(str),
                      "wait": jobs["wait"].to_numpy(dtype=float),
                      "bsld": jobs["bounded_slowdown"].to_numpy(dtype=float)}).groupby(
                          "month", sort=True)
    out = pd.DataFrame({"jobs": g.size(), "wait_sum": g["wait"].sum(), "bsld_sum": g["bsld"].sum()})
    return out.reset_index()[list(MONTH_SUM_COLUMNS)]
