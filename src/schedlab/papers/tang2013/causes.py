"""Tang et al. 2013: the attribution tables as one row per (reading, scorecard quantity), the long
frame of :mod:`schedlab.report.attribution` (docs/scorecard.md, "How a paper attributes its
rows"), so that every deviating Table 3 row (SP2) gets its cause and evidence by lookup.

Sources, each changing one reading against the scorecard's run:

* ``attribution_runs``: "the first 5000 jobs" (job selection), the adaptive threshold (the
  paper's 400 min, our own whole-month average or the whole run's), the fair start time's reading (§4.2), and the
  readings of "unfair" (later than the fair start by more than m minutes, whole minutes);
* ``attribution_base``: the base schedule's readings (Steps 5-6, the scheduling interval, the
  running jobs' ends, the loss-of-capacity readings).

Each reading gives Table 3's cells and its claims (the paper's checks on the reading's table). A
reading whose run does not start from the row's own value is left out (it changed more).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ...report.attribution import attribution_frame, starting_from
from .attribution import reading_name
from .base_readings import EASY_READING
from .checks import (
    adaptive_fairer_than_bf05_w4,
    best_by_average_gain,
    bf05_w4_extreme,
    enhanced_lower_wait,
    enhanced_raise_unfair,
    lower_than_base,
)
from .config import METRICS, PAPER, Settings
from .gains import relative_gains
from .points import ATTRIBUTION_LOG
from .runs import fair_start_options

SRC = "tang2013/tables/"
QUANTITY = {"avg_wait_min": "average wait", "unfair_jobs": "unfair jobs",
            "loc_pct": "loss of capacity"}
CAUSES = {
    "selection": "the job set: the paper's 'first 5000 jobs' may count records or runnable jobs",
    "threshold": "the adaptive threshold: the paper's stated 400 min, the whole month's average "
                 "it was 'rounded by', or the whole run's",
    "fair_start": "the fair start time (§4.2): the paper does not say which runtimes, order, "
                  "policy and backfilling its probe uses",
    "unfair": "what counts as unfair: the paper's 'started after its fair start time' at the "
              "log's time resolution",
    "base": "the base schedule: what Steps 5-6 and Cobalt's simulator leave open",
}
#: The base-schedule reading the scorecard uses, and rows that are not readings.
BASE_MAIN = "paper defaults (EASY, a pass at every event)"
NOT_READINGS = (BASE_MAIN, EASY_READING)
ADAPTIVE = ("BF Adapt.", "W Adapt.", "2D Adapt.")


def table_claims(tab: pd.DataFrame) -> dict[str, bool | None]:
    """Tables 2-3's claims (:mod:`.scoring`) on one configuration table (index configuration;
    columns avg_wait_min, unfair_jobs, loc_pct), by scorecard quantity."""
    base, enh = tab.iloc[0], tab.iloc[1:]
    loc = tab["loc_pct"].astype(float)
    return {
        "every enhanced configuration lowers the average wait":
            enhanced_lower_wait(float(base["avg_wait_min"]), list(enh["avg_wait_min"])),
        "every enhanced configuration raises unfair jobs":
            enhanced_raise_unfair(float(base["unfair_jobs"]), list(enh["unfair_jobs"])),
        "BF=0.5/W=4 has the lowest wait and the most unfair jobs": bf05_w4_extreme(tab),
        "adaptive tuning keeps unfair jobs below BF=0.5/W=4": adaptive_fairer_than_bf05_w4(
            float(tab.loc["BF=0.5/W=4", "unfair_jobs"]),
            [float(tab.loc[c, "unfair_jobs"]) for c in ADAPTIVE]),
        "enhanced configurations mostly lower loss of capacity": lower_than_base(
            float(base["loc_pct"]), loc.iloc[1:].to_dict(), True).holds,
        "every adaptive scheme lowers loss of capacity": lower_than_base(
            float(base["loc_pct"]), loc[list(ADAPTIVE)].to_dict(), False).holds,
    }


def fig12(tab: pd.DataFrame, cfg: Settings) -> dict[str, tuple[float, bool | None]]:
    """Fig. 12's SP2 rows (:mod:`.scoring`) on one configuration table: the larger of W and 2D
    Adapt.'s average gains ("up to 15%") and whether they are the best two."""
    t = tab.reset_index(names="configuration").assign(log=ATTRIBUTION_LOG)
    g = relative_gains(t, cfg.weightings, cfg.gain_reading)
    avg = g[g["weighting"] == "average"].set_index("configuration")["gain"].astype(float).to_dict()
    best = ["W Adapt.", "2D Adapt."]
    return {"W-/2D-adapt average gain (\"up to 15%\")": (max(avg[c] for c in best), None),
            "best schemes by average gain: W Adapt. and 2D Adapt.":
                (math.nan, best_by_average_gain(avg, best))}


def _rows(tab: pd.DataFrame, base: pd.DataFrame, reading: str, cause: str, source: str,
          cfg: Settings, metrics: Sequence[str] = METRICS) -> list[dict[str, Any]]:
    """One reading's Table 3 cells (``metrics``) and claims, and Fig. 12's SP2 rows, against the
    ``base`` table."""
    key = {"paper": PAPER, "item": "Table 3", "reading": reading, "cause": cause,
           "source": source}
    out = [key | {"quantity": QUANTITY[m], "condition": f"{ATTRIBUTION_LOG} {conf}",
                  "value": float(tab.loc[conf, m]), "baseline": float(base.loc[conf, m]),
                  "holds": None}
           for conf in tab.index.intersection(base.index) for m in metrics
           if not math.isnan(float(tab.loc[conf, m]))]
    if set(base.index) <= set(tab.index) and not tab[list(METRICS)].isna().to_numpy().any():
        full = tab.loc[base.index, list(METRICS)]
        out += [key | {"quantity": q, "condition": ATTRIBUTION_LOG, "value": math.nan,
                       "baseline": math.nan, "holds": h}
                for q, h in table_claims(full).items() if h is not None]
        ours = fig12(base[list(METRICS)], cfg)
        out += [key | {"item": "Fig. 12", "quantity": q, "condition": ATTRIBUTION_LOG,
                       "value": v, "baseline": ours[q][0], "holds": h}
                for q, (v, h) in fig12(full, cfg).items()]
    return out


def run_readings(runs: pd.DataFrame, cfg: Settings) -> list[dict[str, Any]]:
    """``attribution_runs``: every combination changing one of job selection, threshold and
    fair-start reading, and the readings of 'unfair' on the main combination."""
    if not len(runs):
        return []
    inv = {p: c for c, p in cfg.configurations.items()}
    fs = fair_start_options(cfg)
    main = (cfg.job_selection, "paper",
            reading_name({"runtime": fs["probe_runtime"], "order": fs["probe_order"],
                          "policy": fs["probe_policy"], "backfill": fs["probe_backfill"]}))
    keys = ["selection", "threshold", "fair_start"]

    def table(g: pd.DataFrame) -> pd.DataFrame:
        t = g.assign(configuration=g["point"].map(inv)).dropna(subset=["configuration"])
        return t.set_index("configuration").reindex(list(cfg.configurations)).dropna(
            how="all", subset=list(METRICS))

    groups = {k: table(g) for k, g in runs.groupby(keys, sort=True)}
    if main not in groups:
        return []
    base = groups[main]
    out = []
    for k, tab in groups.items():
        diff = [i for i in range(3) if k[i] != main[i]]
        if len(diff) != 1:
            continue
        what = keys[diff[0]]
        text = {"selection": f"job selection {k[0]}", "threshold": f"threshold {k[1]}",
                "fair_start": f"fair start {k[2]}"}[what]
        metrics = ("unfair_jobs",) if what == "fair_start" else METRICS
        full = base.copy()
        full.loc[tab.index, list(metrics)] = tab[list(metrics)]
        out += _rows(full, base, text, CAUSES[what], SRC + "attribution_runs", cfg, metrics)
    for col in [c for c in base.columns if str(c).startswith("unfair_") and c != "unfair_jobs"]:
        tab = base.assign(unfair_jobs=base[col])
        text = ("unfair: later in whole minutes" if col == "unfair_whole_min" else
                f"unfair: later by more than {col.removeprefix('unfair_gt_').removesuffix('min')}"
                " min")
        out += _rows(tab, base, text, CAUSES["unfair"], SRC + "attribution_runs", cfg,
                     ("unfair_jobs",))
    return out


def base_readings(table: pd.DataFrame, cfg: Settings) -> list[dict[str, Any]]:
    """``attribution_base``: every base-schedule reading's Table 3 (the scorecard's reading is
    :data:`BASE_MAIN`)."""
    if not len(table) or BASE_MAIN not in set(table["reading"]):
        return []
    short = {"avg_wait_min": "wait", "unfair_jobs": "unfair", "loc_pct": "LoC"}

    def tab(r: pd.Series) -> pd.DataFrame:
        return pd.DataFrame({m: [r.get(f"{c} {short[m]}", math.nan)
                                 for c in cfg.configurations] for m in METRICS},
                            index=list(cfg.configurations), dtype=float)

    rows = table.set_index("reading")
    base = tab(rows.loc[BASE_MAIN])
    out = []
    for name, r in rows.iterrows():
        if name in NOT_READINGS or str(name).startswith("published"):
            continue
        out += _rows(tab(r).dropna(how="all"), base, str(name), CAUSES["base"],
                     SRC + "attribution_base", cfg)
    return out


def attribution_rows(tables: Mapping[str, pd.DataFrame], cfg: Settings,
                     rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The long frame of every reading for the scorecard ``rows``, keeping only readings whose
    baseline is the row's own reproduced value (module docstring)."""
    found = (run_readings(tables.get("attribution_runs", pd.DataFrame()), cfg)
             + base_readings(tables.get("attribution_base", pd.DataFrame()), cfg))
    return attribution_frame(starting_from(found, rows))
