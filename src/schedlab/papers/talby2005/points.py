"""Talby & Feitelson 2005: the experiment points (one per sweep point of :func:`.grid.grid`, id
``<log>-<version>/<kind>/<name>``, reading its log's parsed trace) and what each runs: a
scheduler, PBAS or WBAS point simulates (:func:`.runs.simulate_point`); an attribution batch runs
its (reading, cancelled rule) runs (:func:`.runs.run_attr_batch`). The point's ``spec["kind"]``
names its runner in :data:`KINDS`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from ...sim.options import SimOptions
from ...traces.swf import SWFHeader
from .. import Inputs, Point, run_by, trace_jobs
from .config import PAPER, Settings
from .grid import SweepPoint, attr_batch, grid, run_logs
from .runs import run_attr_batch, sim_jobs_from_trace, simulate_point, stats_frame


def trace_of(s: Settings, log: str, version: str) -> str:
    """The registry name of ``log`` in ``version`` (clean or raw)."""
    return s.logs[log][version]


def logs(s: Settings) -> tuple[str, ...]:
    """The registry logs of the points (each log run, in the versions run)."""
    return tuple(sorted({trace_of(s, p.log, p.version) for p in grid(s)}))


def log_names(s: Settings) -> dict[str, str]:
    """How the scorecard's conditions name the logs run (``BLUE``, ``SDSP2``, ``KTH``; a study's
    log by its registry name): name -> registry log of the main version."""
    return {log: trace_of(s, log, s.main_version) for log in run_logs(s)}


def extra_targets(s: Settings) -> tuple[str, ...]:
    """Nothing besides the assembly."""
    return ()


def points(s: Settings) -> list[Point]:
    """One point per sweep point; it reads its log's parsed trace. An attribution batch carries its
    (reading, cancelled rule) runs (:func:`.grid.attr_batch`)."""
    out = []
    for p in grid(s):
        trace = trace_of(s, p.log, p.version)
        spec: dict[str, Any] = {"log": p.log, "version": p.version, "kind": p.kind,
                                "name": p.name, "trace": trace,
                                "machine_size": s.machine_sizes[trace]}
        if s.max_months is not None:
            spec["max_months"] = s.max_months
        if p.kind == "attr":
            spec["batch"] = [list(b) for b in attr_batch(s, p.log)]
        out.append(Point(id=p.path, inputs=(trace_jobs(trace),), spec=spec))
    return out


#: A month of ``max_months`` (30 days, in seconds).
MONTH_S = 30 * 86400


def first_months(trace: pd.DataFrame, months: int | None) -> pd.DataFrame:
    """The jobs submitted in the log's first ``months`` months (30 days each, from its first
    submit); the whole log when ``months`` is None."""
    if months is None or trace.empty:
        return trace
    start = trace["submit_time"].min()
    return trace[trace["submit_time"] < start + months * MONTH_S].reset_index(drop=True)


def _log(point: Point, inputs: Inputs) -> tuple[pd.DataFrame, SWFHeader, int]:
    trace, meta = inputs.trace(point.spec["trace"])
    trace = first_months(trace, point.spec.get("max_months"))
    header = SWFHeader.from_dict(meta["swf_header"])
    return trace, header, int(point.spec["machine_size"] or header.machine_size)


def _simulation(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """``jobs`` (per-job results with ``month``) and ``stats`` of a scheduler, PBAS or WBAS point
    (cancelled jobs by config ``cancelled``)."""
    sp = point.spec
    trace, header, size = _log(point, inputs)
    jobs, _report = sim_jobs_from_trace(trace, header, size, trace_jobs(sp["trace"]), s.cancelled)
    out, stats = simulate_point(jobs, size, sp["kind"], sp["name"], s.scheduler_options,
                                header.unix_start_time, header.time_zone_string,
                                sim=SimOptions.from_mapping(s.sim))
    return {"jobs": out, "stats": stats_frame(stats)}


def _attribution(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """``sums``: monthly sums per reading and cancelled rule of an attribution batch."""
    trace, header, size = _log(point, inputs)
    source = trace_jobs(point.spec["trace"])
    cache: dict[str, Any] = {}
    seed = int(s.attribution.get("flurry_seed", 2005))

    def jobs_for(rule: str) -> Any:
        if rule not in cache:
            cache[rule] = sim_jobs_from_trace(trace, header, size, source, rule, seed)[0]
        return cache[rule]

    batch = [(str(r), str(c)) for r, c in point.spec["batch"]]
    return {"sums": run_attr_batch(jobs_for, size, s, batch, header.unix_start_time,
                                   header.time_zone_string, SimOptions.from_mapping(s.sim))}


#: What a point runs, by its ``spec["kind"]``.
KINDS: dict[str, Callable[[Settings, Point, Inputs], dict[str, pd.DataFrame]]] = {
    "sched": _simulation, "pbas": _simulation, "wbas": _simulation, "attr": _attribution}


def run_point(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """One point's frames (module docstring)."""
    return run_by(KINDS, "kind", PAPER, s, point, inputs)


def sweep_key(p: SweepPoint) -> tuple[str, str, str, str]:
    """(log, version, kind, name) of a sweep point: the key of its frames in the tables."""
    return (p.log, p.version, p.kind, p.name)
