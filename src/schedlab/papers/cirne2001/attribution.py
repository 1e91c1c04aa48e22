"""Cirne 2001: attribution of unstated choices — the single-target experiments (§5.1) run under
each reading of a choice the thesis leaves open (config ``attribution.readings``: the moldability
model's ``condition_on_request`` and ``kind``, the arrival-rate reading, the workload size, the
experiments' same-time order), on the same seeds, side by side with Tables 13 and 14
(docs/papers/cirne2001.md).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from ...errors import ConfigError
from ...sim.options import SimOptions
from ..settings import deep_merge
from .config import PAPER, Settings
from .runs import n_targets, run_single_workload
from .stats import geomean, shares

#: Table 14's adaptive requests and outcomes against the user's request.
TABLE14_REQUESTS = ("best", "sa")
TABLE14_OUTCOMES = ("better", "same", "worse")


def run_attribution_workload(s: Settings, reading: str, w: int,
                             model: dict[str, Any] | None = None
                             ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Workload ``w`` of the attribution experiment (config ``attribution``): the single-target
    experiments with the synthetic-model overrides of ``reading`` applied on top of ``model``
    (same seeds for every reading: common random numbers). A reading's ``jobs_per_workload``
    replaces the attribution's (the workload size the targets meet; its first jobs are the same
    jobs, its targets are drawn among more); its ``sim`` replaces engine options of the
    single-target experiments (``single_target.sim``, e.g. their pinned tie rule) and its
    ``compression`` entries the configured compression's (config ``compression``: when and how
    often conservative backfilling compresses)."""
    sub, overrides = reading_settings(s, reading)
    df, meta = run_single_workload(sub, w, deep_merge(model or {}, overrides))
    df.insert(0, "reading", reading)
    return df, {**meta, "reading": reading, "overrides": s.attribution["readings"][reading]}


def single_target_twin(s: Settings, reading: str, w: int) -> bool:
    """Whether workload ``w`` of ``reading`` is single-target workload ``w`` itself: no model
    override, and the same workload size, number of targets, engine options and compression
    (the seeds are the same for both: ``run_single_workload``). Its experiments are then those
    of point ``single/w<w>``, which the attribution point reads instead of running them again
    (:func:`twin_frame`): at the paper scale, ``as_configured``'s ten workloads."""
    sub, overrides = reading_settings(s, reading)
    same_sim = (SimOptions.from_mapping(sub.single_target.get("sim"))
                == SimOptions.from_mapping(s.single_target.get("sim")))
    return (not overrides and w < s.n_workloads and same_sim and sub.compression == s.compression
            and sub.single_target["jobs_per_workload"] == s.single_target["jobs_per_workload"]
            and n_targets(sub, w) == n_targets(s, w))


def twin_frame(single: pd.DataFrame, reading: str) -> pd.DataFrame:
    """The experiments of ``reading``'s workload from those of its single-target twin
    (:func:`single_target_twin`): the same rows, with the reading."""
    df = single.copy()
    df.insert(0, "reading", reading)
    return df


def reading_settings(s: Settings, reading: str) -> tuple[Settings, dict[str, Any]]:
    """The settings ``reading``'s single-target workloads run under (its workload size, engine
    options and compression over the attribution's), and its synthetic-model overrides."""
    att = s.attribution
    readings = att.get("readings") or {}
    if reading not in readings:
        raise ConfigError(f"{PAPER}: attribution.readings has no reading {reading!r}")
    overrides = dict(readings[reading] or {})
    jobs = overrides.pop("jobs_per_workload", att.get("jobs_per_workload", 1000))
    if not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(f"{PAPER}: attribution.readings.{reading}.jobs_per_workload must be a "
                          f"positive integer, not {jobs!r}")
    sim = SimOptions.from_mapping(s.single_target.get("sim")).pinned(
        overrides.pop("sim", None), f"{PAPER}: attribution.readings.{reading}.sim")
    compression = {**s.compression, **(overrides.pop("compression", None) or {})}
    sub = dataclasses.replace(s, compression=compression, single_target={
        **s.single_target, "sim": sim.as_dict(), "jobs_per_workload": jobs,
        "targets_per_workload": int(att.get("targets_per_workload", 25)),
        "experiments": int(att.get("workloads", 1)) * int(att.get("targets_per_workload", 25))})
    return sub, overrides


def attribution_table(frames: dict[str, pd.DataFrame], published: dict[str, Any]
                      ) -> pd.DataFrame:
    """Per reading: experiments, workloads, geometric means of user / SA / best turn-around,
    SA/user, best/user, SA/best (paired: the geometric mean of per-experiment ratios), Table 14's
    shares of experiments where best / SA did better, the same or worse than the user's request
    (``t14_<request>_<outcome>_pct``), fraction of targets with c_min = 1 and with D < 500,000 s,
    each beside the thesis (Table 13, Table 14, §5.3.1, Figure 59; a share the thesis does not
    print is NaN)."""
    rows = []
    p13 = published["table13_geomean_tt_s"]
    p14 = published["table14_share_pct"]
    for reading, df in frames.items():
        if df.empty:
            continue
        rows.append({
            "reading": reading, "experiments": len(df), "workloads": df["workload"].nunique(),
            "user_gm_s": geomean(df["user_tt"]), "sa_gm_s": geomean(df["sa_tt"]),
            "best_gm_s": geomean(df["best_tt"]),
            "sa_over_user": geomean(df["sa_tt"] / df["user_tt"]),
            "best_over_user": geomean(df["best_tt"] / df["user_tt"]),
            "sa_over_best": geomean(df["sa_tt"] / df["best_tt"]),
            **{f"t14_{req}_{oc}_pct": v for req in TABLE14_REQUESTS
               for oc, v in shares(df[f"{req}_tt"], df["user_tt"]).items()},
            "c_min_1_fraction": float((df["c_min"] == 1).mean()),
            "D_below_500k_fraction": float((df["D_static"] < 5e5).mean()),
        })
    rows.append({"reading": "thesis", "experiments": 360000, "workloads": 360000,
                 "user_gm_s": p13["user"], "sa_gm_s": p13["sa"], "best_gm_s": p13["best"],
                 "sa_over_user": p13["sa"] / p13["user"],
                 "best_over_user": p13["best"] / p13["user"],
                 "sa_over_best": p13["sa"] / p13["best"],
                 **{f"t14_{req}_{oc}_pct": float(p14.get(req, {}).get(oc, float("nan")))
                    for req in TABLE14_REQUESTS for oc in TABLE14_OUTCOMES},
                 "c_min_1_fraction": published["generator"]["c_min_1_fraction"],
                 "D_below_500k_fraction": published["fig59_D_below_500k_fraction"]})
    return pd.DataFrame(rows)
