"""Talby & Feitelson 2005 §2.3: calendar months, monthly means, months won (Table 3) and gaps (Table 4).

* **Months** (§2.3): a job belongs to the calendar month of its *submit* time in the log's time zone
  (header ``UnixStartTime``/``TimeZoneString``). Months with fewer than ``min_jobs`` jobs are dropped.
* **Months won** (Table 3): the scheduler with the strictly lowest monthly mean wins. A month in
  which several share the best value is nobody's win and is counted in a ``tie`` row; shares are
  over all months, so the schedulers' shares plus the tie share add up to 100%.
* **Gap** (Table 4): in a month won by scheduler A over B (A's mean wait strictly lower), the gap is
  ``(wait_B - wait_A) / wait_A`` in percent, i.e. relative to the winner. Months whose winner has a
  zero mean wait have an unbounded gap and are left out (counted in ``zero_winner_months``).
* **Catastrophic months** (§2.3, :func:`worst_month`) and the **oracle** that runs each month's
  winner (§3.1, :func:`oracle_gain`), both from the monthly means.
* **Monthly sums** (:func:`month_sums`): per month the job count and the sums of wait and bounded
  slowdown, from which every mean of Tables 2-3 is exact (the attribution runs keep only these).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...sim.metrics import RELATIVE_MONTH_S, relative_month_labels
from .checks import catastrophic_month, oracle_gain_in_range, worst_month_times_yearly

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


def yearly_mean(monthly: pd.DataFrame, scheduler: str, metric: str = "wait") -> float:
    """A scheduler's mean over its run from its monthly means (weighted by each month's jobs)."""
    m = monthly[monthly["scheduler"] == scheduler]
    jobs = m["jobs"].to_numpy(dtype=float)
    return float(np.sum(jobs * m[metric].to_numpy(dtype=float)) / jobs.sum()) if jobs.sum() \
        else float("nan")


def worst_month(monthly: pd.DataFrame, a: str = "maui", b: str = "flex") -> dict[str, Any]:
    """§2.3's catastrophic months of ``a`` against ``b`` in one log's monthly means (``monthly``):
    the gaps ``a`` minus ``b`` per month in hours (``gaps_h``), the number of years the months
    cover (``years``, months / 12), and the month of the largest gap with ``a``'s mean wait then
    (``month``, ``wait``) beside ``a``'s yearly mean (``yearly``)."""
    wide = monthly.pivot(index="month", columns="scheduler", values="wait")
    gaps = ((wide[a] - wide[b]) / 3600.0).dropna()
    worst = str(gaps.idxmax()) if len(gaps) else ""
    return {"gaps_h": gaps.to_numpy(dtype=float), "years": len(wide) / 12.0, "month": worst,
            "wait": float(wide.loc[worst, a]) if worst else float("nan"),
            "yearly": yearly_mean(monthly, a)}


def oracle_gain(monthly: pd.DataFrame, schedulers: Sequence[str]) -> float:
    """§3.1's "if we could predict in advance which scheduler will win each month": the gain
    (percent) of running each month's winner (the lowest monthly mean wait of ``schedulers``)
    over the best single scheduler of the run, both as means over the run weighted by each
    month's jobs. The months are read as they ran: each scheduler's month starts from its own
    queue, as in the paper's monthly table (an oracle switching schedulers would inherit
    another's)."""
    wide = monthly.pivot(index="month", columns="scheduler", values="wait")[list(schedulers)]
    jobs = monthly.pivot(index="month", columns="scheduler", values="jobs")[list(schedulers)]
    wide = wide.dropna()
    if not len(wide):
        return float("nan")
    n = jobs.loc[wide.index].max(axis=1).to_numpy(dtype=float)
    oracle = float(np.sum(n * wide.min(axis=1).to_numpy(dtype=float)) / n.sum())
    best = min(yearly_mean(monthly, s) for s in schedulers)
    return (best - oracle) / best * 100.0 if best else float("nan")


#: The scorecard quantities of §2.3's catastrophic months and §3.1's oracle (rows and readings).
CATASTROPHIC = "about one month per year, Maui's mean wait 2-4 hours longer than Flex's"
WORST_TIMES = "Maui's worst month against Flex: its mean wait about three times its yearly mean"
ORACLE = "each month's winner predicted in advance improves performance by 30-40%"


def monthly_claims(monthly: pd.DataFrame, logs: Sequence[str], claims: Mapping[str, Any]
                   ) -> dict[tuple[str, str], tuple[float | None, Any]]:
    """§2.3's and §3.1's claims on the monthly means of every log (``monthly``: long, columns
    log, scheduler, month, jobs, wait), by (quantity, condition): (reproduced value, check) —
    :data:`CATASTROPHIC` per log of ``logs``, :data:`WORST_TIMES` and :data:`ORACLE` over every
    log (None and None when a log is missing). ``claims``: the paper's numbers
    (``published.claims``)."""
    per_log = {log: monthly[monthly["log"] == log] for log in logs
               if len(monthly) and (monthly["log"] == log).any()}
    worst = {log: worst_month(d) for log, d in per_log.items()}
    hours = claims["catastrophic_gap_hours"]
    out: dict[tuple[str, str], tuple[float | None, Any]] = {}
    for log in logs:
        w = worst.get(log)
        out[(CATASTROPHIC, log)] = (
            (float(np.sum(w["gaps_h"] >= hours[0]) / w["years"]),
             catastrophic_month(w["gaps_h"], w["years"], claims["catastrophic_months_per_year"],
                                hours)) if w else (None, None))
    every = set(logs) <= set(worst)
    out[(WORST_TIMES, "every log")] = (
        (float(np.mean([w["wait"] / w["yearly"] for w in worst.values()])),
         worst_month_times_yearly({k: w["wait"] for k, w in worst.items()},
                                  {k: w["yearly"] for k, w in worst.items()},
                                  claims["catastrophic_times_yearly"])) if every else (None, None))
    scheds = sorted(set(monthly["scheduler"])) if len(monthly) else []
    gains = {log: oracle_gain(d, scheds) for log, d in per_log.items()}
    low, high = claims["oracle_gain_percent"]
    out[(ORACLE, "every log")] = ((float(np.mean(list(gains.values()))),
                                   oracle_gain_in_range(gains, low, high)) if every
                                  else (None, None))
    return out
