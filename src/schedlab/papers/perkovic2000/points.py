"""Perković & Keleher 2000: the experiment points (the contract's ``points``/``run_point``).

Three kinds, by ``Point.spec["kind"]``:

``jobs/<scale>``
    the normalized log: ``all`` (the whole log: Tables 1-2) and ``sim`` (the first ``max_jobs``
    jobs by submission: the simulated subset), from the trace's job table; ``<scale>`` is ``n5000``
    or ``all`` (:func:`.sweep.scale`), so runs of different subsets never mix.
``<scale>/<machine>/<experiment>[_r<seed>]``
    every run of one experiment (its variant, e.g. ``spec50``) on one job subset and machine
    size, one point per replicate of its seeded algorithms (:func:`.sweep.experiment_id`,
    :func:`.sweep.experiment_runs`): each algorithm and replicate of the sweep
    (:func:`.sweep.grid`, Figures 5-9, at ``max_jobs``) and of the paper setting
    (:func:`.sweep.paper_setting_points`, Figures 3-4, Table 3, §8), a run both contain once.
    One frame per run (:func:`.runs.simulate`: per-job results), named by the run
    (:attr:`.sweep.RunPoint.name`: ``<algorithm>[_r<seed>]``, e.g. ``R_L-NG_r1``); a run's seed
    is its own (:func:`.sweep.seed_for`), whatever else its point runs. Needs ``jobs/<scale>``.
``attribution/<reading>``
    the base experiment of BF, 1/L, P/L-NG and R/L-NG under one reading (:mod:`.attribution`);
    frame ``summary`` (:func:`.runs.summarize` rows with the input's statistics).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pandas as pd

from ...traces.swf import SWFHeader
from .. import Inputs, Point, run_by, trace_jobs
from .attribution import ATTRIBUTION_ALGORITHMS, attribution_jobs, input_stats
from .config import PAPER, Settings, readings
from .jobs import prepare_jobs
from .runs import simulate, summarize
from .sweep import RunPoint, experiment_runs, run_sets


def logs(s: Settings) -> tuple[str, ...]:
    """The CTC log."""
    return (s.trace,)


def log_names(s: Settings) -> dict[str, str]:
    """How the scorecard's conditions name the logs: each by its registry name."""
    return {log: log for log in logs(s)}


def extra_targets(s: Settings) -> tuple[str, ...]:
    """Nothing besides the assembly."""
    return ()


def points(s: Settings) -> list[Point]:
    """Every point: the jobs of each scale, the experiments (sweep, then paper setting; a run
    both contain is run once), the attribution readings."""
    trace = trace_jobs(s.trace)
    out: dict[str, Point] = {}
    for scale_name, max_jobs, runs in run_sets(s):
        if runs:
            jobs = f"jobs/{scale_name}"
            out.setdefault(jobs, Point(jobs, inputs=(trace,),
                                       spec={"kind": "jobs", "max_jobs": max_jobs}))
    for pid, runs in experiment_runs(s).items():
        # an experiment's id begins with its scale (sweep.experiment_id)
        out[pid] = Point(pid, needs=(f"jobs/{pid.split('/', 1)[0]}",),
                         spec={"kind": "runs",
                               "runs": [dataclasses.asdict(p) for p in runs.values()]})
    for name, reading in readings(s).items():
        pid = f"attribution/{name}"
        out[pid] = Point(pid, inputs=(trace,), spec={"kind": "attribution", "reading": reading})
    return list(out.values())


def _runs(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    jobs = inputs.points[point.needs[0]]["sim"]
    runs = [RunPoint(**p) for p in point.spec["runs"]]
    return {rp.name: simulate(jobs, rp, s, int(s.seed_entropy)) for rp in runs}


def _log(s: Settings, inputs: Inputs) -> tuple[pd.DataFrame, SWFHeader, str]:
    trace, meta = inputs.trace(s.trace)
    return trace, SWFHeader.from_dict(meta["swf_header"]), str(inputs.path(trace_jobs(s.trace)))


def _jobs(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    trace, header, source = _log(s, inputs)
    machine = int(s.machine)
    everything, _ = prepare_jobs(trace, header, machine, None, source)
    subset, _ = prepare_jobs(trace, header, machine, point.spec["max_jobs"], source)
    return {"all": everything, "sim": subset}


def _attribution(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    return {"summary": attribution_run(s, point, *_log(s, inputs))}


#: What a point runs, by its ``spec["kind"]`` (module docstring).
KINDS: dict[str, Callable[[Settings, Point, Inputs], dict[str, pd.DataFrame]]] = {
    "runs": _runs, "jobs": _jobs, "attribution": _attribution}


def run_point(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """One point's frames (see the module docstring)."""
    return run_by(KINDS, "kind", PAPER, s, point, inputs)


def attribution_run(s: Settings, point: Point, trace: pd.DataFrame,
                    header: SWFHeader | None, source: str) -> pd.DataFrame:
    """The :data:`.attribution.ATTRIBUTION_ALGORITHMS` on one reading's jobs: summary rows with
    the reading's name and its input's Table 1-2 statistics."""
    reading = dict(point.spec["reading"])
    if "starvation_horizon_s" in reading:
        s = dataclasses.replace(s, starvation_horizon_s=reading["starvation_horizon_s"])
    if "compression" in reading:
        s = dataclasses.replace(s, compression={**s.compression, **reading["compression"]})
    jobs, _ = attribution_jobs(trace, header, reading, source, s.flurry,
                               s.published["table1"])
    rows = []
    for order, g in ATTRIBUTION_ALGORITHMS:
        rp = RunPoint(int(reading.get("machine", 430)), "base", order, g)
        rows += summarize(simulate(jobs, rp, s, int(s.seed_entropy)), rp)
    return pd.DataFrame(rows).assign(reading=point.id.split("/", 1)[1], **input_stats(jobs))
