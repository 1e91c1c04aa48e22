"""Cirne 2001 (PhD thesis, UCSD, "Using Moldability to Improve the Performance of Supercomputer
Jobs"), chapters 2, 4-6: SA choosing the request of moldable jobs — the paper contract
(:mod:`schedlab.papers`).

Modules, each importing only modules listed before it (no circle):

* :mod:`.config` — the settings (:class:`.config.Settings`: config/papers/cirne2001_sa.yaml at a
  scale, with the models section of config/papers/cirne2001.yaml);
  :mod:`.stats` — geometric means and bootstrap CIs (§4.2);
* :mod:`.workload`, :mod:`.machine` — moldable workloads as arrays; conservative backfilling with
  SA on the engine (pause and fork);
* :mod:`.moldable` — the single-target (§5.1), emergent (§6.1) and whole-workload (§6.2)
  experiments (its docstring: the design and every choice where the thesis is silent);
* :mod:`.runs`, :mod:`.attribution`, :mod:`.load`, :mod:`.nas` — what one point runs (a synthetic
  workload, a sweep workload, an attribution reading's workload, a load reading's workloads, §5.4
  on one real log);
* :mod:`.points` — the experiment points and what each runs; :mod:`.generator`, :mod:`.tabulate` — the tables;
  :mod:`.plots` — the figures; :mod:`.checks`, :mod:`.scoring` — the scorecard.

The chapter-3 workload models (Tables 1-10) are a separate stage (workflow/rules/models.smk,
:mod:`schedlab.models`); workflow/rules/cirne2001.smk adds their scorecard to this paper's target.
"""

from __future__ import annotations

from .attribution import run_attribution_workload
from .config import PAPER, TIE_RULE, Settings, resolve_settings, settings, study_role, with_log
from .load import run_load_reading
from .machine import fork_start, load_at, machine_run, rigid, sa_choice, sim_jobs
from .moldable import single_target_experiments, whole_workload_run
from .plots import FIGURES, NAS_FIGURE, figures
from .points import extra_targets, log_names, logs, points, run_point
from .runs import run_single_workload, run_sweep, run_sweep_point
from .scoring import scorecard, tables
from .stats import geomean, geomean_ci, shares
from .tabulate import TABLES, build_tables, outputs, table13, table14, table18
from .workload import Workload, pick_targets, synthetic_workload, workload_from_tables

title = "Cirne 2001 — Using moldability to improve the performance of supercomputer jobs"
summary = ("Cirne 2001 (PhD thesis): SA choosing the requests of moldable jobs — single target "
           "(§5.1, Tables 13-14), emergent behaviour (§6.1, Table 18), offered load (§6.2), "
           "NAS validation on real logs (§5.4, Table 16)")

__all__ = [
    "FIGURES", "NAS_FIGURE", "PAPER", "TABLES", "TIE_RULE", "Settings", "Workload", "build_tables",
    "extra_targets", "figures", "fork_start", "geomean", "geomean_ci", "load_at", "log_names", "logs",
    "machine_run", "outputs", "pick_targets", "points", "resolve_settings", "rigid",
    "run_attribution_workload", "run_load_reading", "run_point", "run_single_workload", "run_sweep",
    "run_sweep_point", "sa_choice", "scorecard", "settings", "shares", "sim_jobs",
    "single_target_experiments", "study_role", "summary", "synthetic_workload", "table13",
    "table14", "table18", "tables", "title", "whole_workload_run", "with_log",
    "workload_from_tables",
]
