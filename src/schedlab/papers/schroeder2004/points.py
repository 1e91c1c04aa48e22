"""Schroeder & Harchol-Balter (2004): the experiment points and what each one runs.

``table1`` (every Table 1 log), ``cutoffs`` (the derivation half), one ``sim_<experiment>`` per
simulation experiment (:func:`.simulations.experiments`) and ``analysis``; the last two read the
cutoffs. A point's ``spec["step"]`` names its runner in :data:`STEPS`.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from .. import Inputs, Point, run_by, trace_jobs
from .analysis import analyze
from .config import PAPER, Settings
from .cutoffs import derive_cutoffs
from .simulations import experiments, run_experiment
from .workload import table1, workload_halves


def logs(s: Settings) -> tuple[str, ...]:
    """The workload's log, then Table 1's logs."""
    return tuple(dict.fromkeys([s.trace, *(e.trace for e in s.table1.values())]))


def log_names(s: Settings) -> dict[str, str]:
    """How the scorecard's conditions name the logs: each by its registry name."""
    return {log: log for log in logs(s)}


def extra_targets(s: Settings) -> tuple[str, ...]:
    """Nothing besides the assembly."""
    return ()


def points(s: Settings) -> list[Point]:
    """``table1``, ``cutoffs``, one ``sim_<experiment>`` per simulation experiment and
    ``analysis`` (the last two read the cutoffs)."""
    jobs = (trace_jobs(s.trace),)
    table1_logs = tuple(dict.fromkeys(trace_jobs(e.trace) for e in s.table1.values()))
    return [Point("table1", inputs=table1_logs, spec={"step": "table1"}),
            Point("cutoffs", inputs=jobs, spec={"step": "cutoffs"}),
            *[Point(f"sim_{e}", inputs=jobs, needs=("cutoffs",),
                    spec={"step": "sim", "experiment": e}) for e in experiments(s)],
            Point("analysis", inputs=jobs, needs=("cutoffs",), spec={"step": "analysis"})]


def _table1(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    return {"table1": table1(s.table1, inputs.trace, s.trace_sha256)}


def _halves(s: Settings, inputs: Inputs):
    return workload_halves(inputs.trace(s.trace)[0], s)


def _cutoffs(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    derivation, _, _ = _halves(s, inputs)
    return {"cutoffs": derive_cutoffs(derivation, s)}


def _analysis(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    _, evaluation, _ = _halves(s, inputs)
    return {"analysis": analyze(evaluation, inputs.points["cutoffs"]["cutoffs"], s)}


def _sim(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    _, evaluation, _ = _halves(s, inputs)
    return {"sim": run_experiment(point.spec["experiment"], evaluation,
                                  inputs.points["cutoffs"]["cutoffs"], s)}


#: What a point runs, by its ``spec["step"]``.
STEPS: dict[str, Callable[[Settings, Point, Inputs], dict[str, pd.DataFrame]]] = {
    "table1": _table1, "cutoffs": _cutoffs, "sim": _sim, "analysis": _analysis}


def run_point(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """One point's frame: ``table1``, ``cutoffs`` (derivation half), ``sim`` or ``analysis``
    (evaluation half)."""
    return run_by(STEPS, "step", PAPER, s, point, inputs)
