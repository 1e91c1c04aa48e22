"""Talby & Feitelson 2005: the attribution tables as one row per (reading, scorecard quantity), the
long frame of :mod:`schedlab.report.attribution` (docs/scorecard.md, "How a paper attributes its
rows"), so that every deviating row of Tables 2-4 gets its cause and evidence by lookup.

Sources, each changing one reading against the main run (the scorecard's):

* ``attr_runs`` -> Table 2 (mean wait, mean bounded slowdown of each scheduler): another reading
  of the same scheduler (Maui's priority, EASY's backfilling events, Conservative's compression,
  Flex's slack factor), the cancelled-jobs rule, the log version (removed flurries modelled back
  in: the paper's raw log), exact runtime estimates, every month simulated on its own;
* ``attr_table3`` -> Table 3 (months won by Flex and Maui, Maui against Flex, the 70% / 75%
  claims): the month cut, Flex's slack factor, Maui's reading;
* ``attr_slack_fit`` -> Table 4 (monthly Flex-Maui gaps, the "consistently very high" claim):
  Flex's slack factor;
* ``attr_monthly`` -> §2.3's catastrophic months and §3.1's oracle: every one-change reading of
  ``attr_runs``, from its monthly means.

A reading whose experiment does not start from the row's own value (its main run differs from the
scorecard's) is left out: it changed more than the one reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...report.attribution import attribution_frame, needs_run, starting_from
from ...report.scorecard import DEVIATING, NOT_ATTRIBUTED
from .attribution import SCHEDULERS, main_reading, reading_role, slack_of
from .checks import PAPER, gaps_consistently_high, pooled_share_about, shares_about
from .config import Settings
from .grid import split_rule
from .months import ORACLE, monthly_claims

SRC = "talby2005/tables/"
#: The cause each kind of reading tests (becomes the row's cause when it explains it).
CAUSES = {
    "cancelled": "cancelled jobs: the paper does not say whether it kept, dropped or withdrew them",
    "flurries": "log version: the paper ran the raw logs, ours are the archive's cleaned logs "
                "(flurries removed)",
    "exact_estimates": "runtime estimates: the paper's runs may not have used the users' estimates",
    "separate_months": "month cut: the paper may have simulated every month on its own",
    "maui": "Maui's priority: the paper names only 'the default and recommended configuration'",
    "easy": "EASY's backfilling events: the paper does not say when EASY backfills",
    "conservative": "Conservative's compression: the paper does not say when the queue is "
                    "compressed",
    "flex": "Flex's slack factor: the 2005 paper gives none",
}
MOD_TEXT = {"flurries": "flurries modelled back in (the raw log)",
            "exact_estimates": "exact runtime estimates",
            "separate_months": "every month simulated on its own"}


def _one_change(reading: str, rule: str, main: str | None, cfg: Settings
                ) -> tuple[str, str] | None:
    """(reading text, cause) when ``(reading, rule)`` changes exactly one thing against the main
    run of its scheduler; None for the main run itself or two changes."""
    base, mods = split_rule(rule)
    same_reading = reading == main or (
        main is not None and reading.startswith("flex_slack") and main.startswith("flex")
        and slack_of(reading, cfg) == slack_of(main, cfg))
    changes = (not same_reading) + (base != cfg.cancelled) + len(mods)
    if changes != 1:
        return None
    if base != cfg.cancelled:
        return f"cancelled jobs: {base}", CAUSES["cancelled"]
    if mods:
        return MOD_TEXT.get(mods[0], mods[0]), CAUSES.get(mods[0], mods[0])
    role = reading_role(reading, cfg.attribution["readings"])
    text = (f"Flex slack factor {slack_of(reading, cfg):g}" if role == "flex"
            else f"{role} reading {reading}")
    return text, CAUSES[role]


def table2_readings(runs: pd.DataFrame, cfg: Settings) -> list[dict[str, Any]]:
    """Table 2's mean wait and bounded slowdown under every one-change reading of ``attr_runs``."""
    if not len(runs):
        return []
    readings = cfg.attribution["readings"]
    out = []
    for (log, role), g in runs.groupby(["log", "role"], sort=True):
        main = main_reading(readings, cfg, role)
        base = g[(g["reading"] == main) & (g["cancelled"] == cfg.cancelled)]
        if not len(base):
            continue
        for r in g.itertuples(index=False):
            change = _one_change(r.reading, r.cancelled, main, cfg)
            if change is None:
                continue
            for metric in ("wait", "bsld"):
                out.append({"paper": PAPER, "item": "Table 2", "quantity": f"mean {metric}",
                            "condition": f"{log} {role}", "reading": change[0],
                            "cause": change[1], "value": float(getattr(r, metric)),
                            "baseline": float(base[metric].iloc[0]), "holds": None,
                            "source": SRC + "attr_runs"})
    return out


def table3_readings(t3: pd.DataFrame, cfg: Settings) -> list[dict[str, Any]]:
    """Table 3's Flex and Maui cells and its two claims under every one-change combination of
    ``attr_table3`` (month cut, Flex slack factor, Maui reading)."""
    if not len(t3):
        return []
    readings, pub = cfg.attribution["readings"], cfg.published
    main = ("one_run", slack_of(main_reading(readings, cfg, "flex") or "flex", cfg),
            main_reading(readings, cfg, "maui"))
    combo = ["cut", "slack_factor", "maui_reading"]
    logs = list(pub["table3"]["wait"])
    base = t3[(t3["cut"] == main[0]) & (t3["slack_factor"] == main[1])
              & (t3["maui_reading"] == main[2])].set_index("log")
    out = []
    for key, g in t3.groupby(combo, sort=True):
        diff = [i for i in range(3) if key[i] != main[i]]
        if len(diff) != 1:
            continue
        i = diff[0]
        text = (f"month cut {key[0]}" if i == 0 else f"Flex slack factor {key[1]:g}" if i == 1
                else f"maui reading {key[2]}")
        cause = (CAUSES["separate_months"] if key[0] == "separate" else CAUSES["flurries"]) \
            if i == 0 else CAUSES["flex" if i == 1 else "maui"]
        g = g.set_index("log")
        for log in g.index.intersection(base.index):
            for metric in ("wait", "bsld"):
                for sched in ("flex", "maui"):
                    count = pub["table3"][metric][log][sched][0]
                    out.append({"paper": PAPER, "item": "Table 3",
                                "quantity": f"% months won ({metric})",
                                "condition": f"{log} {sched} ({count} months)", "reading": text,
                                "cause": cause, "value": float(g.loc[log, f"{metric}_{sched}"]),
                                "baseline": float(base.loc[log, f"{metric}_{sched}"]),
                                "holds": None, "source": SRC + "attr_table3"})
        if set(logs) <= set(g.index) and set(logs) <= set(base.index):
            out.extend(_table3_claims(g, base, logs, pub, text, cause))
    return out


def _table3_claims(g: pd.DataFrame, base: pd.DataFrame, logs: Sequence[str],
                   pub: Mapping[str, Any], text: str, cause: str) -> list[dict[str, Any]]:
    """The 70% (every log and metric) and pooled 75% claims under one reading."""
    def maui(d: pd.DataFrame) -> dict[str, float]:
        return {f"{lg} {m}": float(d.loc[lg, f"{m}_maui"]) for lg in logs for m in ("wait", "bsld")}

    def pooled(d: pd.DataFrame) -> float:
        won = sum(float(d.loc[lg, f"{m}_maui_vs_flex"]) * float(d.loc[lg, "months"])
                  for lg in logs for m in ("wait", "bsld"))
        return won / (2 * sum(float(d.loc[lg, "months"]) for lg in logs))

    n70, n75 = pub["claims"]["maui_month_share"], pub["table3"]["maui_vs_flex_share"]
    src = SRC + "attr_table3"
    return [
        {"paper": PAPER, "item": "Table 3", "quantity": "Maui wins about 70% of the months",
         "condition": "every log and metric", "reading": text, "cause": cause,
         "value": float(np.mean(list(maui(g).values()))),
         "baseline": float(np.mean(list(maui(base).values()))),
         "holds": shares_about(maui(g), n70).holds, "source": src},
        {"paper": PAPER, "item": "Table 3",
         "quantity": "Maui wins about 75% of the months against Flex alone",
         "condition": "all months of every log and metric, pooled", "reading": text,
         "cause": cause, "value": pooled(g), "baseline": pooled(base),
         "holds": pooled_share_about(pooled(g), 100.0, n75).holds, "source": src}]


def table4_readings(fit: pd.DataFrame, cfg: Settings) -> list[dict[str, Any]]:
    """Table 4's cleaned-log gaps and the 'consistently very high' claim under every Flex slack
    factor of ``attr_slack_fit`` (the main Maui)."""
    if not len(fit):
        return []
    pub = cfg.published["table4"]
    fit = fit[fit["log"] != "all"]
    main = slack_of(main_reading(cfg.attribution["readings"], cfg, "flex") or "flex", cfg)
    base = fit[fit["slack_factor"] == main].set_index("log")
    qs = ("flex_avg", "flex_max", "maui_avg", "maui_max")
    floor = float(min(p for v in ("raw", "clean") for vals in pub[v].values()
                      for q, p in vals.items() if q.endswith("avg")))
    out = []
    for sf, g in fit.groupby("slack_factor", sort=True):
        if sf == main:
            continue
        g = g.set_index("log")
        text, cause = f"Flex slack factor {sf:g}", CAUSES["flex"]
        avgs: dict[str, dict[str, float]] = {"value": {}, "baseline": {}}
        for log in g.index.intersection(base.index):
            cond = f"{log} clean" if log in pub["clean"] else f"{log} clean (paper: raw)"
            for q in qs:
                v, b = float(g.loc[log, f"t4_{q}"]), float(base.loc[log, f"t4_{q}"])
                if q.endswith("avg"):
                    avgs["value"][f"{log} {q}"], avgs["baseline"][f"{log} {q}"] = v, b
                out.append({"paper": PAPER, "item": "Table 4", "quantity": f"monthly wait gap {q}",
                            "condition": cond, "reading": text, "cause": cause, "value": v,
                            "baseline": b, "holds": None, "source": SRC + "attr_slack_fit"})
        if set(base.index) <= set(g.index) and len(base.index) == len(pub["raw"]):
            vals = [v for v in avgs["value"].values() if math.isfinite(v)]
            bases = [v for v in avgs["baseline"].values() if math.isfinite(v)]
            out.append({"paper": PAPER, "item": "Table 4",
                        "quantity": "monthly Flex-Maui gaps are consistently very high",
                        "condition": "every log, average gaps", "reading": text, "cause": cause,
                        "value": float(np.mean(vals)) if vals else math.nan,
                        "baseline": float(np.mean(bases)) if bases else math.nan,
                        "holds": gaps_consistently_high(avgs["value"], floor).holds,
                        "source": SRC + "attr_slack_fit"})
    return out


GENERIC = (CAUSES["cancelled"], CAUSES["flurries"], CAUSES["exact_estimates"],
           CAUSES["separate_months"])


def monthly_readings(monthly: pd.DataFrame, cfg: Settings) -> list[dict[str, Any]]:
    """§2.3's catastrophic months and §3.1's oracle (:func:`.months.monthly_claims`) under every
    one-change reading of ``attr_monthly``: a scheduler's reading replaces that scheduler's months;
    a reading of the log or the jobs (cancelled jobs, flurries, estimates, month cut) replaces
    every scheduler's, and counts only where all four ran under it."""
    if not len(monthly):
        return []
    pub, readings = cfg.published, cfg.attribution["readings"]
    logs = list(pub["table1"])
    mains = {role: main_reading(readings, cfg, role) for role in SCHEDULERS}
    frames: dict[tuple[str, str], pd.DataFrame] = {}
    changes: dict[tuple[str, str], dict[str, dict[str, pd.DataFrame]]] = {}
    for (log, reading, cancelled, role), g in monthly.groupby(
            ["log", "reading", "cancelled", "role"], sort=True):
        if role not in mains:
            continue
        g = g.assign(scheduler=role)
        if reading == mains[role] and cancelled == cfg.cancelled:
            frames[(log, role)] = g
            continue
        change = _one_change(reading, cancelled, mains[role], cfg)
        if change is not None:
            changes.setdefault(change, {}).setdefault(log, {})[role] = g
    main_logs = [lg for lg in logs if all((lg, r) in frames for r in SCHEDULERS)]
    if not main_logs:
        return []

    def long(replace: Mapping[str, Mapping[str, pd.DataFrame]]) -> pd.DataFrame:
        return pd.concat([replace.get(lg, {}).get(r, frames[(lg, r)])
                          for lg in main_logs for r in SCHEDULERS], ignore_index=True)

    claims = pub["claims"]
    base = monthly_claims(long({}), logs, claims)
    out = []
    for (text, cause), by_log in changes.items():
        if cause in GENERIC:
            by_log = {lg: rs for lg, rs in by_log.items() if set(rs) == set(SCHEDULERS)}
        if not by_log:
            continue
        found = monthly_claims(long(by_log), logs, claims)
        roles = {r for rs in by_log.values() for r in rs}
        for (quantity, cond), (value, check) in found.items():
            changed = cond in by_log or (cond == "every log" and set(main_logs) <= set(by_log))
            if quantity != ORACLE and not roles & {"maui", "flex"}:
                changed = False  # another scheduler's reading: Maui against Flex unchanged
            if value is None or not changed or base[(quantity, cond)][0] is None:
                continue
            out.append({"paper": PAPER, "item": "§3.1" if quantity == ORACLE else "§2.3",
                        "quantity": quantity, "condition": cond, "reading": text,
                        "cause": cause, "value": value, "baseline": base[(quantity, cond)][0],
                        "holds": check.holds, "source": SRC + "attr_monthly"})
    return out


BUILDERS: Mapping[str, Callable[[pd.DataFrame, Mapping[str, Any]], list[dict[str, Any]]]] = {
    "attr_runs": table2_readings, "attr_table3": table3_readings,
    "attr_slack_fit": table4_readings, "attr_monthly": monthly_readings}


def attribution_rows(tables: Mapping[str, pd.DataFrame], cfg: Settings,
                     rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The long frame of every reading for the scorecard ``rows``, keeping only readings whose
    baseline is the row's own reproduced value (module docstring)."""
    found = [r for name, build in BUILDERS.items() for r in build(tables.get(name, pd.DataFrame()),
                                                                   cfg)]
    return attribution_frame(starting_from(found, rows))


#: The logs whose attribution runs only at the paper scale, with their measured cost
#: (config ``scales.default.attribution.logs``; make reproduce-paper runs them).
ATTRIBUTION_COST = {"BLUE": "about 230 CPU-s; 304 measured with the slack sweep, which the default "
                            "runs"}


def row_log(row: Mapping[str, Any]) -> str:
    """The log a scorecard row's condition begins with (``BLUE maui`` -> ``BLUE``)."""
    return str(row["condition"]).split(" ")[0].rstrip(",")


def is_every_log(row: Mapping[str, Any]) -> bool:
    """Whether the row's claim is about every log."""
    return str(row["condition"]).startswith(("every log", "all months of every log"))


def unattributed_logs(cfg: Settings, main_logs: Sequence[str] | None) -> list[str]:
    """The logs simulated in this run that the attribution leaves out (``attribution.logs``)."""
    logs, published = cfg.attribution.get("logs"), list(cfg.published["table1"])
    run = published if main_logs is None else main_logs
    return [] if logs is None else [lg for lg in published if lg in run and lg not in logs]


def attribution_needs_run(row: dict[str, Any], unattributed: Sequence[str]) -> dict[str, Any]:
    """A deviating row of a log the attribution leaves out at this scale (or of every log, when
    one is left out) has no reading: ``unexplained``, naming the run that would try them."""
    if row["verdict"] not in DEVIATING or row["cause"] != NOT_ATTRIBUTED["cause"]:
        return row
    log, every = row_log(row), is_every_log(row)
    left = [log] if log in unattributed else list(unattributed) if every else []
    if not left:
        return row
    names = " and ".join(left)
    cost = ", ".join(f"{lg}: {ATTRIBUTION_COST.get(lg, 'cost not measured')}" for lg in left)
    return needs_run(row, f"the attribution's readings on {names} run at the paper scale only "
                     "(attribution.logs)", f"the attribution batch on {names} (make "
                     "reproduce-paper)", cost)


#: The adaptive rows' untried reading: PBAS and WBAS switch between Flex and Maui, whose readings
#: (Flex's slack, Maui's priority) were chosen on Tables 2-4; re-running Tables 5 and 8 under each
#: would test them (5 configurations x 3 logs x 6 other slack factors, ~13 CPU-s a run: estimated
#: from the Flex run costs of config attribution.slack_logs).
ADAPTIVE_RUN = ("PBAS and WBAS (Tables 5, 8) re-run under each Flex slack factor and Maui "
                "reading", "about 20 CPU-min, estimated")


def adaptive_needs_run(row: dict[str, Any]) -> dict[str, Any]:
    """A deviating, unattributed adaptive row (Tables 5, 8, the abstract's gains): ``unexplained``,
    naming the run that would test the candidates' readings (:data:`ADAPTIVE_RUN`)."""
    if row["item"] not in ("Table 5", "Table 8", "Abstract") or row["verdict"] not in DEVIATING \
            or row["cause"] != NOT_ATTRIBUTED["cause"]:
        return row
    return needs_run(row, "the candidates' readings (Flex's slack, Maui's priority) were chosen "
                     "on Tables 2-4, not on the adaptive tables", *ADAPTIVE_RUN)
