"""The template's points: ``jobs/<log>`` for each configured log, reading its parsed trace. A
point's ``spec["kind"]`` names its runner in :data:`KINDS`."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from .. import Inputs, Point, run_by, trace_jobs
from .config import PAPER, Settings


def logs(s: Settings) -> tuple[str, ...]:
    """The logs the points read."""
    return tuple(s.logs)


def log_names(s: Settings) -> dict[str, str]:
    """How the scorecard's conditions name the logs: each by its registry name."""
    return {log: log for log in logs(s)}


def extra_targets(s: Settings) -> tuple[str, ...]:
    """Nothing besides the assembly."""
    return ()


def points(s: Settings) -> list[Point]:
    """One point per log."""
    return [Point(f"jobs/{log}", inputs=(trace_jobs(log),), spec={"kind": "jobs", "log": log})
            for log in s.logs]


def _jobs(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """``summary``: the log's first ``max_jobs`` jobs counted, and their mean run time."""
    log = point.spec["log"]
    jobs = inputs.trace(log)[0]
    if s.max_jobs is not None:
        jobs = jobs.head(s.max_jobs)
    run = jobs["run_time"][jobs["run_time"] >= 0]
    return {"summary": pd.DataFrame([{"log": log, "jobs": len(jobs),
                                      "mean_run_time_s": float(run.mean())}])}


#: What a point runs, by its ``spec["kind"]``.
KINDS: dict[str, Callable[[Settings, Point, Inputs], dict[str, pd.DataFrame]]] = {"jobs": _jobs}


def run_point(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """One point's frames (:data:`KINDS`)."""
    return run_by(KINDS, "kind", PAPER, s, point, inputs)
