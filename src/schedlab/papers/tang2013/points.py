"""Tang et al. 2013: the experiment points of the contract (one job each) and what a point runs.

Point ids (``results/tang2013/runs/<id>/``), per log label (``SP2``, ``BGP`` or
``BGP-substitute``):

* ``<log>/<sweep point>`` — one sweep point (§4.3-4.4: ``bf{BF}_w{W}``, ``adapt-bf`` /
  ``adapt-w`` / ``adapt-2d``; the adaptive ones need ``<log>/bf1_w1`` for the threshold):
  frames ``jobs``, ``series`` (30-min monitors), ``summary``;
* ``<log>/table4`` — Table 4, seconds and placements per scheduling iteration for W = 1..5:
  frame ``table4`` (its seconds are wall-clock measurements, not byte-identical between runs);
* ``<log>/search_cap`` — issue 22, the Step-5 search with and without a cap (needs
  ``<log>/bf1_w1``): frame ``rows``;
* ``SP2/attribution_<selection>`` — issue 22, both readings of "the first 5000 jobs" x every
  fair-start reading x both thresholds: frame ``rows``;
* ``SP2/attribution_base`` — issue 22, readings of the base schedule (needs the SP2 runs of the
  Table 3 configurations): frame ``rows``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pandas as pd

from ...sim.options import SimOptions
from ...traces.swf import SWFHeader
from .. import Inputs, Point, run_by, trace_jobs
from .attribution import attribution_runs, search_cap_rows
from .base_readings import BASE_READINGS, base_attribution_rows
from .config import ADAPTIVE, BASE, PAPER, LogSpec, Settings, log_of
from .runs import iteration_seconds, qd_threshold_min, run_sweep_point
from .workload import JOB_SELECTIONS, workload

#: The log of the attribution runs (issue 22): Table 3's.
ATTRIBUTION_LOG = "SP2"
#: Table 4's window sizes W.
TABLE4_WINDOWS = (1, 2, 3, 4, 5)


def sweep_id(label: str, point: str) -> str:
    """The id of sweep point ``point`` on log ``label``."""
    return f"{label}/{point}"


def attribution_id(selection: str) -> str:
    """The id of the attribution runs of one job selection."""
    return f"{ATTRIBUTION_LOG}/attribution_{selection}"


def base_readings_run(s: Settings) -> list[str]:
    """The base-schedule readings run: those whose cost is in ``base_reading_costs`` (the cheap
    ones by default, all at the paper scale)."""
    return [n for n, r in BASE_READINGS.items() if r["cost"] in s.base_reading_costs]


def logs(s: Settings) -> tuple[str, ...]:
    """The logs run: SP2, then BG/P or its substitute."""
    return tuple(spec.trace for spec in s.log_specs)


def log_names(s: Settings) -> dict[str, str]:
    """How the scorecard's conditions name the logs: each by its registry name."""
    return {log: log for log in logs(s)}


def extra_targets(s: Settings) -> tuple[str, ...]:
    """Nothing besides the assembly."""
    return ()


def points(s: Settings) -> list[Point]:
    """Every point of settings ``s`` (module docstring)."""
    out = []
    for spec in s.log_specs:
        lab, trace = spec.label, (trace_jobs(spec.trace),)
        base = (sweep_id(lab, BASE),)
        out += [Point(sweep_id(lab, p), trace, base if p in ADAPTIVE else (),
                      {"kind": "sweep", "log": lab, "point": p}) for p in s.sweep_points]
        out.append(Point(f"{lab}/table4", trace, (), {"kind": "table4", "log": lab,
                                                      "jobs": int(s.timing_jobs),
                                                      "windows": list(TABLE4_WINDOWS)}))
        out.append(Point(f"{lab}/search_cap", trace, base, {"kind": "search_cap", "log": lab}))
    trace = (trace_jobs(log_of(s, ATTRIBUTION_LOG).trace),)
    out += [Point(attribution_id(sel), trace, (),
                  {"kind": "attribution", "log": ATTRIBUTION_LOG, "selection": sel})
            for sel in (JOB_SELECTIONS if s.selection_attribution else ())]
    confs = tuple(dict.fromkeys(sweep_id(ATTRIBUTION_LOG, p)
                                for p in (BASE, *s.configurations.values())))
    out.append(Point(f"{ATTRIBUTION_LOG}/attribution_base", trace, confs,
                     {"kind": "attribution_base", "log": ATTRIBUTION_LOG,
                      "readings": base_readings_run(s)}))
    return out


def _trace(inputs: Inputs, spec: LogSpec) -> tuple[pd.DataFrame, SWFHeader | None]:
    trace, meta = inputs.trace(spec.trace)
    return trace, SWFHeader.from_dict(meta["swf_header"]) if "swf_header" in meta else None


def _jobs(s: Settings, inputs: Inputs, spec: LogSpec) -> pd.DataFrame:
    """The log's workload under the configured job selection."""
    return workload(*_trace(inputs, spec), spec, s.job_selection)[0]


def _threshold_s(s: Settings, inputs: Inputs, spec: LogSpec) -> float:
    """Th (seconds) from the log's BF = 1 / W = 1 run (a point this one needs)."""
    base = inputs.points[sweep_id(spec.label, BASE)]["series"]
    return qd_threshold_min(base, s, spec.label) * 60.0


def _sweep(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    spec, p = log_of(s, point.spec["log"]), point.spec
    th = _threshold_s(s, inputs, spec) if p["point"] in ADAPTIVE else None
    per_job, series, summary = run_sweep_point(_jobs(s, inputs, spec), spec, p["point"],
                                               s, th)
    return {"jobs": per_job, "series": series, "summary": pd.DataFrame([summary])}


def _table4(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    spec, p = log_of(s, point.spec["log"]), point.spec
    spec = replace(spec, jobs=int(p["jobs"]))
    return {"table4": iteration_seconds(_jobs(s, inputs, spec), spec, list(p["windows"]),
                                        SimOptions.from_mapping(s.sim))}


def _search_cap(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    spec = log_of(s, point.spec["log"])
    rows = search_cap_rows(_jobs(s, inputs, spec), spec, s, _threshold_s(s, inputs, spec))
    return {"rows": pd.DataFrame(rows)}


def _attribution(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    spec, p = log_of(s, point.spec["log"]), point.spec
    jobs, _ = workload(*_trace(inputs, spec), spec, p["selection"])
    return {"rows": pd.DataFrame(attribution_runs(jobs, spec, s, p["selection"]))}


def _attribution_base(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    spec, p = log_of(s, point.spec["log"]), point.spec
    per_job = {conf: inputs.points[sweep_id(spec.label, point)]["jobs"]
               for conf, point in s.configurations.items()}
    rows = base_attribution_rows(*_trace(inputs, spec), spec, s, list(p["readings"]),
                                 _threshold_s(s, inputs, spec), per_job)
    return {"rows": pd.DataFrame(rows)}


#: What a point runs, by its ``spec["kind"]`` (module docstring).
KINDS: dict[str, Callable[[Settings, Point, Inputs], dict[str, pd.DataFrame]]] = {
    "sweep": _sweep, "table4": _table4, "search_cap": _search_cap, "attribution": _attribution,
    "attribution_base": _attribution_base}


def run_point(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """The contract's run_point: one point's frames by name (module docstring)."""
    return run_by(KINDS, "kind", PAPER, s, point, inputs)
