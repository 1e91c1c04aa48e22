"""The template of a paper package (copy it to add a paper; docs/development.md).

A paper package binds the names of the contract (:mod:`schedlab.papers`) in its ``__init__`` and
nothing else; the names live in the same step modules in every paper:

* :mod:`.config` — ``Settings`` (a frozen dataclass) and ``settings(config, env)``:
  ``config/papers/<paper>.yaml`` at the pipeline's scale, deep-merged with the overrides;
* :mod:`.points` — ``logs(s)``, ``extra_targets(s)``, ``points(s)`` and ``run_point`` (a dict of
  runners by the point's kind, :func:`schedlab.papers.run_by`);
* :mod:`.tabulate` — ``outputs(s)`` and ``tables(s, runs, inputs)``;
* :mod:`.plots` — ``figures(s, tables)``;
* :mod:`.checks` — the claim checks (pure functions, each tested both ways);
* :mod:`.scoring` — ``scorecard(s, tables)``.

Other modules are named after the paper's concepts (a workload model, a scheduler's reading...).
This template reproduces nothing: on each configured log it counts the jobs and their mean run
time (the first ``max_jobs`` jobs, a size of its ``scales:``) and checks that the mean is
positive. It is not registered in :data:`schedlab.papers.PAPERS`; tests/papers/test_template.py
runs it through the contract's runner.
"""

from __future__ import annotations

from .config import Settings, settings, study_role, with_log
from .plots import figures
from .points import extra_targets, log_names, logs, points, run_point
from .scoring import scorecard
from .tabulate import outputs, tables

title = "Template 2000 — The title of the paper, as the report shows it"
summary = "Template: the number of jobs and their mean run time on each configured log"

__all__ = ["Settings", "extra_targets", "figures", "log_names", "logs", "outputs", "points", "run_point",
           "scorecard", "settings", "study_role", "summary", "tables", "title",
           "with_log"]
