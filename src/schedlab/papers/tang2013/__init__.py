"""Tang, Ren, Lan & Desai 2013: metric-aware scheduling and adaptive policy tuning (issue 7).

The paper contract (:mod:`schedlab.papers`) around :mod:`schedlab.sim.schedulers.metric_aware`
(the scheduler, tuning and §4.2 metrics); pure functions, the file I/O is
:mod:`schedlab.papers.runner`'s. One module per concept:

* :mod:`.config` — the settings (:class:`.config.Settings`), the two workloads (§4.1: the first 5,000 SDSC-SP2 jobs, EASY, any-node
  allocation; the Intrepid BG/P study, conservative, contiguous, 40,960 nodes — or, offline, its
  configuration on a substitute log labelled ``BGP-substitute`` everywhere, config
  ``logs.BGP.substitute``), the sweep points (§4.3-4.4: ``bf{BF}_w{W}`` static,
  ``adapt-bf`` / ``adapt-w`` / ``adapt-2d``) and ``settings(config, env)``;
* :mod:`.workload` — a log's first jobs, normalized (two readings of "the first 5000 jobs");
* :mod:`.runs` — one sweep point simulated, the queue-depth threshold, Table 4's cost;
* :mod:`.points` — the experiment points (``points``, ``run_point``, ``logs``);
* :mod:`.gains` — Tables 2-3 layout, Fig. 11's scores ("score" = value / max over the seven
  configurations x 100), Fig. 12's relative gains (``G = (S_A - S_B) / S_A`` against
  BF = 1 / W = 1; weighted ``w1 G_wait + w2 G_unfair + w3 G_LoC``; two readings);
* :mod:`.attribution`, :mod:`.base_readings` — issue 22: the readings of the paper's open
  points run side by side against Table 3;
* :mod:`.tabulate` (``outputs``, ``tables``), :mod:`.plots` (``figures``: Figs. 3-12),
  :mod:`.checks` (the claims), :mod:`.scoring` (``scorecard``).
"""

from __future__ import annotations

from .config import (
    ADAPTIVE,
    BASE,
    METRICS,
    SUBSTITUTE,
    LogSpec,
    Settings,
    log_specs,
    parse_point,
    resolve_settings,
    settings,
    study_role,
    sweep_points,
    with_log,
)
from .gains import config_table, relative_gains
from .plots import fig_metrics, figures
from .points import extra_targets, log_names, logs, points, run_point
from .runs import fair_start_options, qd_threshold_min, run_sweep_point, simulate_point
from .scoring import scorecard, tables
from .tabulate import outputs
from .workload import workload

title = ("Tang, Ren, Lan & Desai 2013 — Toward balanced and sustainable job scheduling for "
         "production supercomputers (metric-aware scheduling)")
summary = ("Tang, Ren, Lan & Desai 2013: metric-aware scheduling (balance factor x window, "
           "adaptive tuning) on SDSC-SP2 and Intrepid BG/P")

__all__ = [
    "ADAPTIVE",
    "BASE",
    "METRICS",
    "SUBSTITUTE",
    "LogSpec",
    "Settings",
    "config_table",
    "extra_targets",
    "fair_start_options",
    "fig_metrics",
    "figures",
    "log_names",
    "log_specs",
    "logs",
    "outputs",
    "parse_point",
    "points",
    "qd_threshold_min",
    "relative_gains",
    "resolve_settings",
    "run_point",
    "run_sweep_point",
    "scorecard",
    "settings",
    "simulate_point",
    "study_role",
    "summary",
    "sweep_points",
    "tables",
    "title",
    "with_log",
    "workload",
]
