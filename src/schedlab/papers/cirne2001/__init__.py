"""Cirne 2001 (PhD thesis, UCSD, "Using Moldability to Improve the Performance of Supercomputer
Jobs"), chapters 2, 4-6: SA choosing the request of moldable jobs — the paper contract
(:mod:`schedlab.papers`).

Modules, each importing only modules listed before it (no circle):

* :mod:`.config` — the settings (config/papers/cirne2001_sa.yaml, the quick/full switches);
  :mod:`.stats` — geometric means and bootstrap CIs (§4.2);
* :mod:`.workload`, :mod:`.machine` — moldable workloads as arrays; conservative backfilling with
  SA on the engine (pause and fork);
* :mod:`.experiments` — the single-target (§5.1), emergent (§6.1) and whole-workload (§6.2)
  experiments (its docstring: the design and every choice where the thesis is silent);
* :mod:`.runs`, :mod:`.attribution`, :mod:`.nas` — what one point runs (a synthetic workload, a
  sweep workload, an attribution reading's workload, §5.4 on one real log);
* :mod:`.plan` — the experiment points; :mod:`.generator`, :mod:`.tabulate` — the tables;
  :mod:`.plots` — the figures; :mod:`.checks`, :mod:`.scoring` — the scorecard.

The chapter-3 workload models (Tables 1-10) are a separate stage (workflow/rules/models.smk,
:mod:`schedlab.models`); workflow/rules/cirne2001.smk adds their scorecard to this paper's target.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...errors import ConfigError
from ...traces.swf import SWFHeader
from .. import Inputs, Outputs, Point, logs_read
from .attribution import run_attribution_workload
from .config import PAPER, resolve_settings, settings
from .experiments import single_target_experiments, whole_workload_run
from .machine import TIE_RULE, fork_start, load_at, machine_run, rigid, sa_choice, sim_jobs
from .nas import run_nas_log
from .plan import attribution_runs, nas_logs, points
from .plots import FIGURES, NAS_FIGURE, figures
from .runs import run_single_workload, run_sweep, run_sweep_point
from .scoring import scorecard
from .stats import geomean, geomean_ci, shares
from .tabulate import TABLES, build_tables, table13, table14, table18, tables
from .workload import Workload, pick_targets, synthetic_workload, workload_from_tables

#: The chapter-3 models' scorecard (workflow/rules/models.smk), shown with the paper's.
MODELS_SCORECARD = "results/models/cirne2001/scorecard.parquet"
title = "Cirne 2001 — Using moldability to improve the performance of supercomputer jobs"
summary = ("Cirne 2001 (PhD thesis): SA choosing the requests of moldable jobs — single target "
         "(§5.1, Tables 13-14), emergent behaviour (§6.1, Table 18), offered load (§6.2), "
         "NAS validation on real logs (§5.4, Table 16)")

__all__ = [
    "FIGURES",
    "NAS_FIGURE",
    "PAPER",
    "TABLES",
    "TIE_RULE",
    "Workload",
    "build_tables",
    "extra_targets",
    "figures",
    "fork_start",
    "geomean",
    "geomean_ci",
    "load_at",
    "logs",
    "machine_run",
    "outputs",
    "pick_targets",
    "points",
    "resolve_settings",
    "rigid",
    "run_attribution_workload",
    "run_point",
    "run_single_workload",
    "run_sweep",
    "run_sweep_point",
    "sa_choice",
    "scorecard",
    "settings",
    "shares",
    "sim_jobs",
    "single_target_experiments",
    "summary",
    "synthetic_workload",
    "table13",
    "table14",
    "table18",
    "tables",
    "title",
    "whole_workload_run",
    "workload_from_tables",
]


def run_point(s: dict[str, Any], point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """One point's frames (:mod:`.plan` names the kinds): ``experiments`` (one row per target)
    of a synthetic workload, an attribution workload or a real log (§5.4); ``runs`` (one row per
    job and policy at every value) of a sweep workload."""
    spec, model = point.spec, s.get("model")
    kind = spec.get("kind")
    if kind == "single":
        return {"experiments": run_single_workload(s, int(spec["workload"]), model)[0]}
    if kind == "sweep":
        return {"runs": run_sweep(s, spec["param"], int(spec["workload"]), model)[0]}
    if kind == "attribution":
        return {"experiments": run_attribution_workload(s, spec["reading"],
                                                        int(spec["workload"]), model)[0]}
    if kind == "nas":
        jobs, meta = inputs.trace(spec["log"])
        header = SWFHeader.from_dict(meta["swf_header"])
        return {"experiments": run_nas_log(s, spec["log"], jobs, header)[0]}
    raise ConfigError(f"{PAPER}: point {point.id}: unknown kind {kind!r}")


def outputs(s: dict[str, Any]) -> Outputs:
    """Every table of :data:`TABLES` (and ``attribution`` when its readings run), every figure of
    :data:`FIGURES` (and Figure 57 when §5.4 runs)."""
    return Outputs(tables=(*TABLES, *(("attribution",) if attribution_runs(s) else ())),
                   figures=(*FIGURES, *((NAS_FIGURE,) if nas_logs(s) else ())))


def logs(s: dict[str, Any]) -> tuple[str, ...]:
    """The logs of §5.4's points and of the chapter-3 models compared with the thesis."""
    return tuple(dict.fromkeys([*logs_read(points(s)), *s["models_logs"]]))


def extra_targets(s: dict[str, Any]) -> tuple[str, ...]:
    """The chapter-3 models' scorecard (workflow/rules/models.smk), when their logs are at hand."""
    return (MODELS_SCORECARD,) if s["models_local"] else ()
