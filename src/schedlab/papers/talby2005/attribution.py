"""Talby & Feitelson 2005: the attribution experiment (issue 20) — readings side by side.

Pure functions on the monthly sums of the attribution runs (:func:`.months.month_sums`: per calendar
month the job count and the sums of wait and bounded slowdown, from which every mean of Tables 2-3
is exact), keyed ``(log, reading, cancelled)`` (:func:`.grid.attribution_keys`); each reading
is a scheduler with options (config ``attribution.readings``) or Flex with slack factor ``f``
(``flex_slack<f>``).

Tables (written under ``results/talby2005/tables`` by the pipeline, shown in the report):

* ``attr_runs``: every run: mean wait and bounded slowdown beside the Table 2 value of the
  scheduler it reads (relative error = ours / published - 1).
* ``attr_easy_maui``: every (EASY reading, Maui reading) pair under the main cancelled rule, with
  the main Conservative and Flex runs: per log the Table 2 errors of EASY and Maui and the Table 3
  shares (months won, ties nobody's win) of the four schedulers and of Maui against Flex alone.
* ``attr_easy_maui_fit``: the joint fit of each pair over all logs and both tables:
  ``t2_err`` = mean |relative error| of the 12 Table 2 cells of EASY and Maui (wait and bounded
  slowdown, three logs); ``t3_err`` = mean |share - published share| in points over the 27 Table 3
  cells involving EASY or Maui (EASY and Maui shares, both metrics, three logs; Maui-vs-Flex share
  against the paper's 75%); ``score = t2_err + t3_err / 100`` (a 10% error on a mean weighs like a
  10-point error on a share); among the pairs run on every log, the lowest score is the best joint
  fit (``rank`` 1); ``mean_tie_share`` = percent of months in which the best value is tied.
* ``attr_cancelled``: per cancelled rule and log, Table 2 errors of the readings run under every
  rule (Conservative, EASY, Flex), and per rule the mean |relative error| over all those cells.
* ``attr_slack``: Flex's slack factor against Table 2's Flex column, per log and overall.
* ``attr_slack_fit``: the slack factor judged on Tables 2 and 4 together (:func:`slack_fit`).
* ``attr_table3`` / ``attr_table3_fit``: Table 3 under every month cut x Flex slack x Maui
  reading (:func:`table3_tables`).
* ``attr_log_version``: every reading on the cleaned log as it is, with its removed flurries
  modelled back (the raw log, :mod:`.flurries`) and with exact estimates
  (:func:`variant_table`).
* ``attr_monthly``: the monthly means of every run (:func:`monthly_table`): §2.3's catastrophic
  months and §3.1's oracle under each reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .config import Settings
from .grid import split_rule
from .months import gap_stats, months_won


def overall(sums: pd.DataFrame) -> tuple[float, float, int]:
    """(mean wait, mean bounded slowdown, jobs) of a run from its monthly sums."""
    n = int(sums["jobs"].sum())
    return float(sums["wait_sum"].sum()) / n, float(sums["bsld_sum"].sum()) / n, n


def monthly_from_sums(sums: pd.DataFrame, min_jobs: int = 1) -> pd.DataFrame:
    """Monthly means (columns month, jobs, wait, bsld), months with < ``min_jobs`` jobs dropped."""
    d = sums[sums["jobs"] >= min_jobs]
    return pd.DataFrame({"month": d["month"].astype(str), "jobs": d["jobs"],
                         "wait": d["wait_sum"] / d["jobs"], "bsld": d["bsld_sum"] / d["jobs"]})


SCHEDULERS = ("conservative", "easy", "flex", "maui")


def reading_role(reading: str, readings: Mapping[str, Mapping[str, Any]]) -> str:
    """Which of the paper's four schedulers (Table 2 column) a reading stands for."""
    if reading.startswith("flex_slack"):
        return "flex"
    return str(readings[reading]["scheduler"])


def rel_err(ours: float, published: float) -> float:
    """Relative error ``ours / published - 1`` (NaN when the published value is 0)."""
    return ours / published - 1.0 if published else float("nan")


def runs_table(runs: Mapping[tuple[str, str, str], pd.DataFrame],
               readings: Mapping[str, Mapping[str, Any]],
               table2: Mapping[str, Mapping[str, Mapping[str, float]]]) -> pd.DataFrame:
    """``attr_runs``: one row per run with its Table 2 comparison."""
    rows = []
    for (log, reading, cancelled), sums in sorted(runs.items()):
        role = reading_role(reading, readings)
        w, b, n = overall(sums)
        pw, pb = table2["wait"][log][role], table2["bsld"][log][role]
        rows.append({"log": log, "reading": reading, "cancelled": cancelled, "role": role,
                     "jobs": n, "wait": w, "published_wait": pw,
                     "wait_err": rel_err(w, pw), "bsld": b, "published_bsld": pb,
                     "bsld_err": rel_err(b, pb)})
    return pd.DataFrame(rows)


def pair_months(monthly: Mapping[str, pd.DataFrame], min_jobs: int = 1) -> dict[str, float]:
    """Table 3 shares (percent of months, strict wins only) of the four schedulers and of Maui
    against Flex alone, for both metrics, from the monthly sums of one run per scheduler."""
    long = pd.concat([monthly_from_sums(j, min_jobs).assign(scheduler=s)
                      for s, j in monthly.items()], ignore_index=True)
    n = long["month"].nunique()
    out: dict[str, float] = {"months": float(n)}
    for metric in ("wait", "bsld"):
        won = months_won(long, metric, list(SCHEDULERS))
        for s in (*SCHEDULERS, "tie"):
            out[f"{metric}_{s}"] = 100.0 * won[s] / n if n else float("nan")
        pair = months_won(long[long["scheduler"].isin(["flex", "maui"])], metric, ["flex", "maui"])
        out[f"{metric}_maui_vs_flex"] = 100.0 * pair["maui"] / n if n else float("nan")
    return out


def easy_maui_tables(runs: Mapping[tuple[str, str, str], pd.DataFrame],
                     readings: Mapping[str, Mapping[str, Any]], cancelled: str,
                     pub: Mapping[str, Any], min_jobs: int = 1
                     ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``attr_easy_maui`` and ``attr_easy_maui_fit`` (module docstring)."""
    t2, t3 = pub["table2"], pub["table3"]
    logs = sorted({k[0] for k in runs})
    easy = sorted({r for (_, r, c) in runs if c == cancelled
                   and reading_role(r, readings) == "easy"})
    maui = sorted({r for (_, r, c) in runs if c == cancelled
                   and reading_role(r, readings) == "maui"})
    rows = []
    for e in easy:
        for m in maui:
            for log in logs:
                keys = {"conservative": (log, "conservative", cancelled),
                        "flex": (log, "flex", cancelled),
                        "easy": (log, e, cancelled), "maui": (log, m, cancelled)}
                if not all(k in runs for k in keys.values()):
                    continue
                row: dict[str, Any] = {"easy_reading": e, "maui_reading": m, "log": log}
                for s in ("easy", "maui"):
                    w, b, _ = overall(runs[keys[s]])
                    for metric, v in (("wait", w), ("bsld", b)):
                        row[f"{s}_{metric}"] = v
                        row[f"{s}_{metric}_err"] = rel_err(v, t2[metric][log][s])
                shares = pair_months({s: runs[k] for s, k in keys.items()}, min_jobs)
                row |= shares
                errs = []
                for metric in ("wait", "bsld"):
                    for s in ("easy", "maui"):
                        errs.append(abs(shares[f"{metric}_{s}"] - t3[metric][log][s][1]))
                    errs.append(abs(shares[f"{metric}_maui_vs_flex"] - t3["maui_vs_flex_share"]))
                row["t3_err"] = float(np.mean(errs))
                row["t2_err"] = float(np.mean([abs(row[f"{s}_{x}_err"]) for s in ("easy", "maui")
                                               for x in ("wait", "bsld")]))
                rows.append(row)
    detail = pd.DataFrame(rows)
    fit = []
    if len(detail):
        for (e, m), g in detail.groupby(["easy_reading", "maui_reading"], sort=True):
            t2e, t3e = float(g["t2_err"].mean()), float(g["t3_err"].mean())
            fit.append({"easy_reading": e, "maui_reading": m, "logs": len(g),
                        "t2_err": t2e, "t3_err": t3e, "score": t2e + t3e / 100.0,
                        "mean_tie_share": float((g["wait_tie"] + g["bsld_tie"]).mean() / 2)})
    fit_df = pd.DataFrame(fit)
    if len(fit_df):
        # pairs run on every log first (a pair seen on fewer logs is not comparable)
        fit_df = fit_df.assign(_n=-fit_df["logs"]).sort_values(
            ["_n", "score", "easy_reading", "maui_reading"]).drop(columns="_n")
        fit_df = fit_df.reset_index(drop=True)
        fit_df["rank"] = np.arange(1, len(fit_df) + 1)
    return detail, fit_df


def by_rule_fit(runs_df: pd.DataFrame, rule_col: str, rows_filter: Sequence[str] | None = None
                ) -> pd.DataFrame:
    """Mean |relative error| (wait and bounded slowdown) per value of ``rule_col`` and log, and
    over all logs (``log = "all"``), over the runs whose reading is in ``rows_filter``."""
    d = runs_df if rows_filter is None else runs_df[runs_df["reading"].isin(rows_filter)]
    out = []
    for key, g in d.groupby(rule_col, sort=True):
        for log, gg in [*g.groupby("log", sort=True), ("all", g)]:
            out.append({rule_col: key, "log": log, "runs": len(gg),
                        "wait_err": float(gg["wait_err"].abs().mean()),
                        "bsld_err": float(gg["bsld_err"].abs().mean())})
    df = pd.DataFrame(out)
    if len(df):
        df["err"] = (df["wait_err"] + df["bsld_err"]) / 2
    return df


def cancelled_table(runs_df: pd.DataFrame, readings_all_rules: Sequence[str]) -> pd.DataFrame:
    """``attr_cancelled``: Table 2 errors per cancelled rule (readings run under every rule)."""
    d = runs_df[~runs_df["cancelled"].str.contains("+", regex=False)] if len(runs_df) else runs_df
    if not len(d):
        return pd.DataFrame()
    return by_rule_fit(d, "cancelled", list(readings_all_rules))


def variant_table(runs_df: pd.DataFrame, cfg: Settings) -> pd.DataFrame:
    """``attr_log_version``: Table 2 mean wait of each reading run on the cleaned log as it is
    (``variant = clean``) and under the trace variants ``flurries`` (removed flurries modelled
    back: the raw log's jobs) and ``exact_estimates``, one row per (log, reading), with the
    published value and the relative errors (``<variant>_err``)."""
    if not len(runs_df):
        return pd.DataFrame()
    base = cfg.cancelled
    d = runs_df[runs_df["cancelled"].map(lambda c: split_rule(c)[0] == base
                                         and set(split_rule(c)[1]) <= {"flurries",
                                                                       "exact_estimates"})]
    d = d.assign(variant=d["cancelled"].map(lambda c: "+".join(split_rule(c)[1]) or "clean"))
    if set(d["variant"]) == {"clean"}:
        return pd.DataFrame()
    keep = d.groupby(["log", "reading"])["variant"].transform("nunique") > 1
    d = d[keep]
    wide = d.pivot_table(index=["log", "reading", "role", "published_wait"], columns="variant",
                         values=["wait", "jobs"], aggfunc="first")
    wide.columns = [f"{v}_{m}" if m != "wait" else v for m, v in wide.columns]
    wide = wide.reset_index()
    for v in sorted(set(d["variant"])):
        wide[f"{v}_err"] = wide[v] / wide["published_wait"] - 1.0
    return wide


def slack_table(runs_df: pd.DataFrame, cancelled: str) -> pd.DataFrame:
    """``attr_slack``: Flex's Table 2 errors per slack factor (main cancelled rule)."""
    if not len(runs_df):
        return pd.DataFrame()
    d = runs_df[runs_df["reading"].str.startswith("flex_slack") & (runs_df["cancelled"] == cancelled)]
    if not len(d):
        return pd.DataFrame()
    d = d.assign(slack_factor=d["reading"].str.removeprefix("flex_slack").astype(float))
    return by_rule_fit(d, "slack_factor")


def main_reading(readings: Mapping[str, Mapping[str, Any]], cfg: Settings,
                 scheduler: str) -> str | None:
    """The reading that is ``scheduler`` with its configured main options (None if there is
    none)."""
    opts = dict(cfg.scheduler_options.get(scheduler) or {})
    for name, r in sorted(readings.items()):
        if r["scheduler"] == scheduler and dict(r.get("options") or {}) == opts:
            return name
    return None


def slack_of(reading: str, cfg: Settings) -> float:
    """Flex's slack factor of a Flex reading (``flex_slack<f>`` or a configured reading)."""
    if reading.startswith("flex_slack"):
        return float(reading.removeprefix("flex_slack"))
    opts = cfg.attribution["readings"][reading].get("options") or {}
    return float(opts.get("slack_factor", 3.0))


def _t2_err(runs: Mapping[tuple[str, str, str], pd.DataFrame], keys: Mapping[str, tuple],
            t2: Mapping[str, Any], log: str) -> dict[str, float]:
    out = {}
    for s in ("flex", "maui"):
        w, b, _ = overall(runs[keys[s]])
        out[f"{s}_wait_err"] = rel_err(w, t2["wait"][log][s])
        out[f"{s}_bsld_err"] = rel_err(b, t2["bsld"][log][s])
    return out


def table3_tables(runs: Mapping[tuple[str, str, str], pd.DataFrame], cfg: Settings,
                  min_jobs: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``attr_table3`` and ``attr_table3_fit``: Table 3 (months won) under every combination of
    month cut (``one_run``: months cut from one run of the whole log; ``separate``: every month
    simulated on its own, variant ``separate_months``; ``flurries``: one run of the log with its
    removed flurries modelled back, the paper's raw log), Flex slack factor and Maui reading, with
    Conservative and EASY in their main configuration. Per combination and log: the shares of
    Flex and Maui (both metrics), Maui's share against Flex alone, ``t3_err`` = mean |share -
    published| in points over those six cells, ``t2_err`` = mean |relative error| of Flex's and
    Maui's Table 2 wait and bounded slowdown. The fit averages over the logs (``score = t2_err +
    t3_err / 100`` as in ``attr_easy_maui_fit``; rank 1 = lowest among combinations on every
    log)."""
    readings, cancelled, pub = cfg.attribution["readings"], cfg.cancelled, cfg.published
    t2, t3 = pub["table2"], pub["table3"]
    cons, easy = main_reading(readings, cfg, "conservative"), main_reading(readings, cfg, "easy")
    rows = []
    for rule in sorted({c for (_, _, c) in runs}):
        base, mods = split_rule(rule)
        if base != cancelled or set(mods) - {"separate_months", "flurries"}:
            continue
        cut = "+".join(m.replace("separate_months", "separate") for m in mods) or "one_run"
        for log in sorted({k[0] for k in runs if k[2] == rule}):
            here = {r for (lg, r, c) in runs if lg == log and c == rule}
            flexes = sorted(r for r in here if reading_role(r, readings) == "flex")
            mauis = sorted(r for r in here if reading_role(r, readings) == "maui")
            if cons not in here or easy not in here:
                continue
            seen: set[float] = set()
            for f in flexes:
                sf = slack_of(f, cfg)
                if sf in seen:  # the main Flex reading and flex_slack<f> with the same factor
                    continue
                seen.add(sf)
                for m in mauis:
                    keys = {"conservative": (log, cons, rule), "easy": (log, easy, rule),
                            "flex": (log, f, rule), "maui": (log, m, rule)}
                    sh = pair_months({s: runs[k] for s, k in keys.items()}, min_jobs)
                    errs = [abs(sh[f"{x}_{s}"] - t3[x][log][s][1]) for x in ("wait", "bsld")
                            for s in ("flex", "maui")]
                    errs += [abs(sh[f"{x}_maui_vs_flex"] - t3["maui_vs_flex_share"])
                             for x in ("wait", "bsld")]
                    e2 = _t2_err(runs, keys, t2, log)
                    rows.append({"cut": cut, "slack_factor": sf, "maui_reading": m, "log": log,
                                 **{k: sh[k] for k in ("months", "wait_flex", "wait_maui",
                                                       "wait_maui_vs_flex", "bsld_flex",
                                                       "bsld_maui", "bsld_maui_vs_flex")},
                                 "t3_err": float(np.mean(errs)),
                                 "t2_err": float(np.mean(np.abs(list(e2.values())))), **e2})
    detail = pd.DataFrame(rows)
    if not len(detail):
        return detail, pd.DataFrame()
    fit = detail.groupby(["cut", "slack_factor", "maui_reading"], sort=True).agg(
        logs=("log", "nunique"), t2_err=("t2_err", "mean"), t3_err=("t3_err", "mean"),
        wait_maui=("wait_maui", "mean"), wait_maui_vs_flex=("wait_maui_vs_flex", "mean"),
        bsld_maui=("bsld_maui", "mean")).reset_index()
    fit["score"] = fit["t2_err"] + fit["t3_err"] / 100.0
    fit = fit.assign(_n=-fit["logs"]).sort_values(
        ["_n", "score", "cut", "slack_factor", "maui_reading"]).drop(columns="_n")
    fit = fit.reset_index(drop=True)
    fit["rank"] = np.arange(1, len(fit) + 1)
    return detail, fit


def slack_fit(runs: Mapping[tuple[str, str, str], pd.DataFrame], cfg: Settings,
              min_jobs: int = 1) -> pd.DataFrame:
    """``attr_slack_fit``: Flex's slack factor judged jointly on Table 2 (Flex's mean wait and
    bounded slowdown, |relative error|) and Table 4 (the Flex-Maui monthly wait gaps against the
    main Maui: average and maximum in the months won by each, |ours - published| in points; the
    paper's cleaned-log rows where it has them, BLUE and SDSC-SP2, else its raw row, KTH), per log
    and over all logs (``log = "all"``); ``score = (wait_err + bsld_err) / 2 + t4_err / 100``."""
    readings, cancelled, pub = cfg.attribution["readings"], cfg.cancelled, cfg.published
    maui = main_reading(readings, cfg, "maui")
    rows = []
    for (log, r, c), sums in sorted(runs.items()):
        if c != cancelled or not r.startswith("flex_slack") or (log, maui, c) not in runs:
            continue
        w, b, _ = overall(sums)
        long = pd.concat([monthly_from_sums(sums, min_jobs).assign(scheduler="flex"),
                          monthly_from_sums(runs[(log, maui, c)], min_jobs).assign(
                              scheduler="maui")], ignore_index=True)
        gaps = gap_stats(long)
        p4 = pub["table4"]["clean"].get(log) or pub["table4"]["raw"][log]
        # a scheduler that wins no month has no gap: counted as 0 against the published gap
        t4 = [abs((gaps[k] if np.isfinite(gaps[k]) else 0.0) - p4[k])
              for k in ("flex_avg", "flex_max", "maui_avg", "maui_max")]
        rows.append({"slack_factor": slack_of(r, cfg), "log": log, "wait": w, "bsld": b,
                     "wait_err": abs(rel_err(w, pub["table2"]["wait"][log]["flex"])),
                     "bsld_err": abs(rel_err(b, pub["table2"]["bsld"][log]["flex"])),
                     **{f"t4_{k}": gaps[k] for k in ("flex_avg", "flex_max", "maui_avg",
                                                     "maui_max")},
                     "t4_err": float(np.mean(t4))})
    df = pd.DataFrame(rows)
    if not len(df):
        return df
    allrows = df.groupby("slack_factor", sort=True)[["wait_err", "bsld_err", "t4_err"]].mean()
    allrows = allrows.assign(log="all", logs=df.groupby("slack_factor")["log"].nunique())
    df = pd.concat([df, allrows.reset_index()], ignore_index=True)
    df["score"] = (df["wait_err"] + df["bsld_err"]) / 2 + df["t4_err"] / 100.0
    return df


def monthly_table(runs: Mapping[tuple[str, str, str], pd.DataFrame],
                  readings: Mapping[str, Mapping[str, Any]], min_jobs: int = 1) -> pd.DataFrame:
    """``attr_monthly``: the monthly means of every scheduler run (columns log, reading,
    cancelled, role, month, jobs, wait, bsld), from which §2.3's catastrophic months and §3.1's
    oracle are recomputed under each reading (:func:`.causes.monthly_readings`)."""
    parts = [monthly_from_sums(sums, min_jobs).assign(
                 log=log, reading=reading, cancelled=cancelled,
                 role=reading_role(reading, readings))
             for (log, reading, cancelled), sums in sorted(runs.items())
             if {"month", "wait_sum"} <= set(sums.columns)]
    cols = ["log", "reading", "cancelled", "role", "month", "jobs", "wait", "bsld"]
    return (pd.concat(parts, ignore_index=True)[cols] if parts
            else pd.DataFrame(columns=cols))


def build(runs: Mapping[tuple[str, str, str], pd.DataFrame], cfg: Settings,
          min_jobs: int = 1) -> dict[str, pd.DataFrame]:
    """All attribution tables from the runs (see module docstring)."""
    at, pub = cfg.attribution, cfg.published
    readings = at["readings"]
    rdf = runs_table(runs, readings, pub["table2"])
    detail, fit = easy_maui_tables(runs, readings, cfg.cancelled, pub, min_jobs)
    out = {"attr_runs": rdf, "attr_easy_maui": detail, "attr_easy_maui_fit": fit,
           "attr_cancelled": cancelled_table(rdf, at["cancelled_readings"]),
           "attr_slack": slack_table(rdf, cfg.cancelled),
           "attr_slack_fit": slack_fit(runs, cfg, min_jobs),
           "attr_log_version": variant_table(rdf, cfg),
           "attr_monthly": monthly_table(runs, readings, min_jobs)}
    out["attr_table3"], out["attr_table3_fit"] = table3_tables(runs, cfg, min_jobs)
    # which log version every number comes from (config main_version: clean | raw)
    return {k: (v.assign(log_version=cfg.main_version) if len(v) else v) for k, v in out.items()}
