"""Perković & Keleher 2000: the attribution table (``tables/attribution``, one row per reading of
the paper's setup, :mod:`.attribution`) as readings of the scorecard rows it bears on, in the long
format of :mod:`schedlab.report.attribution`, so that each deviating row's cause is filled by
lookup (:func:`schedlab.report.attribution.attribute_rows`).

The attribution runs are BF, 1/L, P/L-NG and R/L-NG on the whole log, one seed; the scorecard's
rows are the paper setting's means over seeds (and, for §8's maximum queue, over every algorithm).
So a reading's value for a row is the row's own value plus the change the reading makes in the
attribution runs (reading minus the ``paper`` reading, the scorecard's defaults): changing only the
reading, measured where it was run. Value rows: Table 1-2 inputs, §4, §5's reductions, §8's
maximum queue. Claim rows: whether the claim holds under the reading, from the reading's own
numbers (§5's orderings, 1/L against BF, §8's < 20,000 delayed: it fails when BF or even the
fewest-delayed algorithm delays 20,000 or more; otherwise the table cannot tell).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from ...report.attribution import attribution_frame, data_gap, needs_run
from ...report.scorecard import NOT_ATTRIBUTED
from .config import PAPER
from .sweep import GROUPS

SOURCE = f"{PAPER}/tables/attribution"
#: The reading the scorecard uses (config ``attribution.readings.paper``).
BASELINE = "paper"

#: reading name -> (the reading in words, the cause it tests).
READINGS = {
    "no_runtime_cut": ("runtimes kept past the estimate",
                       "jobs that ran past their estimate are cut at it (§2: 'killed'), the "
                       "paper's log may keep them"),
    "failed_dropped": ("failed (status 0) jobs dropped",
                       "the log's failed jobs are simulated; the paper's trace may lack them"),
    "ng_horizon_1d": ("-NG anti-starvation weight, 1-day horizon",
                      "the -NG orders' weight on delay (§4: 'a small constant') is 0 here"),
    "ng_horizon_10d": ("-NG anti-starvation weight, 10-day horizon",
                       "the -NG orders' weight on delay (§4: 'a small constant') is 0 here"),
    "flurry_burst": ("the 2,080-job flurry modelled back in (burst)",
                     "the archive's cleaning removed a 2,080-job flurry (user 135) that the "
                     "paper's 79,302-job trace has"),
    "flurry_spread": ("the 2,080 flurry jobs spread over its 120 h",
                      "the flurry's job count, without its burst, is missing from our input"),
    "compress_every": ("compression at every termination (pyss)",
                       "conservative backfilling's compression: §2's 'finishes earlier than "
                       "estimated', one pass, read otherwise"),
    "compress_until_stable": ("compression passes until stable (Cirne)",
                              "conservative backfilling's compression: §2's one pass read as "
                              "passes until no job moves"),
    "machine_338": ("338 nodes (the cleaned log's header)",
                    "the machine size: 430 nodes (§2) against the log header's 338"),
}


def _value_columns() -> dict[tuple[str, str], str]:
    """(item, quantity) of a value row -> the attribution table's column with its quantity."""
    cols = {("Table 1", "Number of jobs"): "jobs",
            ("Table 1", "Average job parallelism"): "input average parallelism",
            ("Table 1", "Median job parallelism"): "input median parallelism",
            ("Table 1", "Average running time"): "input average running time",
            ("Table 1", "Median estimated running time"): "input median estimate",
            ("Table 1", "Average overestimation factor"): "input average overestimation",
            ("Table 1", "Median overestimation factor"): "input median overestimation",
            ("§4", "fraction of jobs starting immediately"): "started_immediately_BF",
            ("§8", "maximum queue length"): "max_queue_length"}
    cols |= {("Table 2", f"{g} jobs"): f"input {g} jobs (Table 2)" for g in GROUPS}
    for metric, key in (("bounded slowdown", "bsd"), ("delay", "delay")):
        for algo in ("P/L-NG", "R/L-NG"):
            cols[("§5 / Figure 3", f"{metric} reduction of {algo}")] = f"{key}_reduction {algo}"
    return cols


def _ordering(key: str) -> Callable[[Mapping[str, Any]], bool | None]:
    """§5's R/L-NG < P/L-NG < 1/L < BF from a reading's reductions (``key`` bsd or delay):
    x / BF = 1 - r(x vs BF) and 1/L / BF = (1 - r(P/L-NG vs BF)) / (1 - r(P/L-NG vs 1/L))."""
    def holds(a: Mapping[str, Any]) -> bool | None:
        rl, pl = a[f"{key}_reduction R/L-NG vs BF"], a[f"{key}_reduction P/L-NG vs BF"]
        pl_sf = a[f"{key}_reduction P/L-NG vs 1/L"]
        if any(math.isnan(float(v)) for v in (rl, pl, pl_sf)) or pl_sf >= 1:
            return None
        sf = (1 - pl) / (1 - pl_sf)
        return bool(1 - rl < 1 - pl < sf < 1)
    return holds


def _fewer_than_20000(a: Mapping[str, Any]) -> bool | None:
    worst_known = max(float(a["jobs_delayed_BF"]), float(a["jobs_delayed_fewest"]))
    return False if worst_known >= 20_000 else None


CLAIMS: dict[tuple[str, str], Callable[[Mapping[str, Any]], bool | None]] = {
    ("§5 / Figure 3", "1/L has lower bounded slowdown than BF"):
        lambda a: bool(a["1/L better than BF"]),
    ("§5 / Figure 3", "bounded slowdown: R/L-NG < P/L-NG < 1/L < BF"): _ordering("bsd"),
    ("§5 / Figure 3", "delay: R/L-NG < P/L-NG < 1/L < BF"): _ordering("delay"),
    ("§8", "fewer than 20,000 jobs delayed in the queue"): _fewer_than_20000,
}


def _column(row: Mapping[str, Any], cols: Mapping[tuple[str, str], str]) -> str | None:
    col = cols.get((row["item"], row["quantity"]))
    if col and row["item"] == "§5 / Figure 3":  # the reference is in the condition
        ref = "BF" if "(BF)" in row["condition"] else "1/L"
        col = f"{col} vs {ref}"
    return col


def reading_rows(att: pd.DataFrame, rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """The attribution table ``att`` as the long frame of readings for the scorecard ``rows`` it
    bears on (the main machine's rows; nothing when the table has no ``paper`` reading)."""
    by = att.set_index("reading") if len(att) else att
    if BASELINE not in getattr(by, "index", []):
        return attribution_frame([])
    base = by.loc[BASELINE]
    cols = _value_columns()
    out = []
    for row in rows:
        if row["condition"].endswith(" nodes)"):
            continue  # an extra machine's rows: the attribution runs are on the main one
        col, claim = _column(row, cols), CLAIMS.get((row["item"], row["quantity"]))
        if col is None and claim is None:
            continue
        for name, (words, cause) in READINGS.items():
            if name not in by.index:
                continue
            a = by.loc[name]
            if claim is not None:
                holds = claim(a)
                if holds is None:
                    continue
                value = math.nan
            else:
                if col not in a or pd.isna(a[col]) or pd.isna(base[col]):
                    continue
                value, holds = row["reproduced"] + float(a[col]) - float(base[col]), None
            out.append({"paper": row["paper"], "item": row["item"], "quantity": row["quantity"],
                        "condition": row["condition"], "reading": words, "cause": cause,
                        "value": value, "baseline": row["reproduced"], "holds": holds,
                        "source": SOURCE})
    return attribution_frame(out)


#: Items of the sweep (Figures 5-9, the Abstract's combined techniques): run on the first 5,000 jobs.
SWEEP_ITEMS = ("§6.2 / Figure 5", "§6.2 / Figure 6", "§7.1 / Figure 7", "§7.1 / Figure 9",
               "Abstract / Figure 9")
SWEEP_CAUSE = "Figures 5-9 run on the first 5,000 jobs of the log, the paper's on the whole year"
SWEEP_RUN = "the sweep on the whole log (--config full=True)"
SWEEP_COST = "3,495 CPU-s, 1 h 19 min on 2 cores"
LOG_CAUSE = ("the log version: the cleaned archive log (77,222 jobs) against the paper's "
             "79,302-job trace")
SETUP_CAUSE = ("untested here: the attribution table records neither Table 3 nor the shape "
               "groups under its setup readings")


def untried(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deviating rows no reading reached: the sweep's rows name the whole-log run that would
    test them, Table 2's counts the log version they need (``data``), the rest the readings not
    recorded for them."""
    out = []
    for r in rows:
        if r["verdict"] in ("close", "differs", "fails") and r["cause"] == NOT_ATTRIBUTED["cause"]:
            if r["item"] in SWEEP_ITEMS:
                r = needs_run(r, SWEEP_CAUSE, SWEEP_RUN, SWEEP_COST)
            elif r["item"] in ("Table 1", "Table 2"):
                r = data_gap(r, LOG_CAUSE, "the paper's version of the CTC log")
            else:
                r = needs_run(r, SETUP_CAUSE, "the attribution readings with Table 3 and Figure "
                              "4 tabulated", "about 100 CPU-s per reading")
        out.append(r)
    return out
