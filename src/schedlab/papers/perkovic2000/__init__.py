"""Perković & Keleher 2000, "Randomization, Speculation, and Adaptation in Batch Schedulers"
(issues 8, 24), on the paper contract (:mod:`schedlab.papers`).

Modules, in the order the data flows (each imports only the ones before it):

* :mod:`.config` -- the settings (:class:`.config.Settings`) from the pipeline config (the scale,
  overrides);
* :mod:`.sweep` -- the experiments, the run grid (:class:`.sweep.RunPoint`), a run's scheduler
  configuration and seed, the job subsets' names;
* :mod:`.jobs` -- the simulation jobs and Table 2's shape groups;
* :mod:`.runs` -- one simulation and its summary rows (§8 quantities included);
* :mod:`.attribution` -- the readings of the paper's setup compared for the load gap;
* :mod:`.points` -- the experiment points and what each runs;
* :mod:`.tabulate` -- Tables 1-3, §8, the Figure 3-9 frames, the assembled tables;
* :mod:`.checks` -- the claim checks; :mod:`.scoring` -- the scorecard; :mod:`.plots`.

Target: ``snakemake perkovic2000`` (rules ``perkovic2000_point``, ``perkovic2000_assemble``);
``--config quick=true`` (about a minute), ``--config full=true`` (paper scale). Choices and
attribution results: docs/papers/perkovic2000.md.
"""

from __future__ import annotations

from .config import Settings, settings, study_role, with_log
from .plots import figures
from .points import extra_targets, log_names, logs, points, run_point
from .scoring import scorecard, tables
from .tabulate import outputs

title = "Perković & Keleher 2000 — Randomization, speculation, and adaptation in batch schedulers"
summary = ("Perković & Keleher 2000: randomization, speculation and adaptation in backfilling "
           "(Table 4 queue orders, speculative backfilling, job adaptation) on the CTC SP2 log")

__all__ = ["Settings", "extra_targets", "figures", "log_names", "logs", "outputs", "points", "run_point",
           "scorecard", "settings", "study_role", "summary", "tables", "title",
           "with_log"]
