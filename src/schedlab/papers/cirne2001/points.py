"""Cirne 2001: the experiment points of a setting (the contract's ``points``), one per job, and
what each runs (``run_point``: the point's ``spec["kind"]`` names its runner in :data:`KINDS`).

* ``single/w<w>``: synthetic workload ``w`` of §5.1/§6.1 (``n_workloads`` of them);
* ``sweep/<param>/w<w>``: workload ``w`` at every value of a §6.2 sweep (kappa_L, kappa_sigma);
* ``nas/<log>``: §5.4 on one real log, only when the NAS validation can run
  (:func:`~schedlab.papers.cirne2001.nas.not_run_reason`: SP2 execution times configured);
* ``attribution/<reading>/w<w>``: workload ``w`` of the attribution runs of one reading (it
  reads ``single/w<w>`` when it is that workload's twin: :func:`.attribution.single_target_twin`);
* ``load/<reading>``: the workloads of one reading of the load attribution (:mod:`.load`).

The quick scale is the same points with smaller settings (fewer workloads, no attribution).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import ConfigError
from ...models.synth import params_from_dict, params_from_fits
from ...traces.swf import SWFHeader
from .. import Inputs, Point, run_by, trace_jobs
from .attribution import run_attribution_workload, single_target_twin, twin_frame
from .config import PAPER, Settings
from .load import run_load_reading
from .nas import not_run_reason, run_nas_log
from .runs import SWEEP_PARAMS, run_single_workload, run_sweep

#: The chapter-3 models' scorecard (workflow/rules/models.smk), shown with the paper's.
MODELS_SCORECARD = "results/models/cirne2001/scorecard.parquet"


def single_id(w: int) -> str:
    return f"single/w{w}"


def sweep_id(param: str, w: int) -> str:
    return f"sweep/{param}/w{w}"


def nas_id(log: str) -> str:
    return f"nas/{log}"


def attribution_id(reading: str, w: int) -> str:
    return f"attribution/{reading}/w{w}"


def load_id(reading: str) -> str:
    return f"load/{reading}"


def load_readings(s: Settings) -> list[str]:
    """The readings of the load attribution (none when it runs no workload)."""
    la = s.load_attribution
    return list(la.get("readings") or {}) if la.get("workloads_per_polynomial") else []


def nas_logs(s: Settings) -> list[str]:
    """The logs of §5.4's points: every configured log when the validation can run, else none."""
    nas = s.nas_validation
    return list(nas["logs"]) if not_run_reason(nas) is None else []


def attribution_runs(s: Settings) -> list[tuple[str, int]]:
    """(reading, workload) of every attribution run, reading by reading."""
    att = s.attribution
    return [(r, w) for r in att.get("readings") or {} for w in range(int(att.get("workloads", 0)))]


def fits_dir(log: str) -> str:
    """The pipeline folder of a log's fitted chapter-3 models (rule ``fit_models``)."""
    return f"results/models/{log}"


def points(s: Settings) -> list[Point]:
    """Every experiment point of the settings ``s``; in a study (``s.fitted_log``) the synthetic
    workloads' points read the log's fitted models."""
    wpp = int(s.offered_load["workloads_per_point"])
    fits = (fits_dir(s.fitted_log),) if s.fitted_log else ()
    return [
        *[Point(single_id(w), inputs=fits, spec={"kind": "single", "workload": w})
          for w in range(s.n_workloads)],
        *[Point(sweep_id(p, w), inputs=fits, spec={"kind": "sweep", "param": p, "workload": w})
          for p in SWEEP_PARAMS for w in range(wpp)],
        *[Point(nas_id(log), inputs=(trace_jobs(log),), spec={"kind": "nas", "log": log})
          for log in nas_logs(s)],
        *[Point(attribution_id(r, w), inputs=fits,
                needs=(single_id(w),) if single_target_twin(s, r, w) else (),
                spec={"kind": "attribution", "reading": r, "workload": w})
          for r, w in attribution_runs(s)],
        *[Point(load_id(r), inputs=fits, spec={"kind": "load", "reading": r})
          for r in load_readings(s)],
    ]


def logs(s: Settings) -> tuple[str, ...]:
    """The logs of §5.4's points and of the chapter-3 models compared with the thesis (in a
    study: the log the synthetic workloads are fitted from)."""
    return tuple(dict.fromkeys([*nas_logs(s),
                                *([s.fitted_log] if s.fitted_log else s.models_logs)]))


def log_names(s: Settings) -> dict[str, str]:
    """How the scorecard's conditions name the logs: each by its registry name."""
    return {log: log for log in logs(s)}


def fitted_model(fits: Path, base: dict[str, Any] | None) -> dict[str, Any]:
    """The synthetic workloads' model with its rigid part fitted from a log (the ``*.json`` of
    rule ``fit_models`` in ``fits``) over ``base`` (the settings' model; moldability stays
    Table 12's, :func:`schedlab.models.synth.params_from_fits`), for the log's partition size."""
    models = {p.stem: json.loads(p.read_text()) for p in sorted(Path(fits).glob("*.json"))}
    if "partition_size" not in models:
        raise ConfigError(f"{PAPER}: no fitted partition_size model in {fits}")
    params = params_from_dict(base)
    procs = int(models["partition_size"]["params"].get("machine_size") or params.machine_size)
    model = params_from_fits(models, procs, params)[0].to_dict()
    model.pop("machine_size")
    return model


def _model(s: Settings, inputs: Inputs) -> dict[str, Any] | None:
    """The synthetic workloads' model: the settings' or, in a study, fitted from its log."""
    if s.fitted_log is None:
        return s.model
    return fitted_model(inputs.path(fits_dir(s.fitted_log)), s.model)


def extra_targets(s: Settings) -> tuple[str, ...]:
    """The chapter-3 models' scorecard (workflow/rules/models.smk), when their logs are at hand."""
    return (MODELS_SCORECARD,) if s.models_local else ()


def _single(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    w = int(point.spec["workload"])
    return {"experiments": run_single_workload(s, w, _model(s, inputs))[0]}


def _sweep(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    w = int(point.spec["workload"])
    return {"runs": run_sweep(s, point.spec["param"], w, _model(s, inputs))[0]}


def _attribution(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """A reading's workload; when the point needs its single-target twin (:func:`points`,
    :func:`.attribution.single_target_twin`: the same seeds and settings), that twin's
    experiments."""
    reading, w = point.spec["reading"], int(point.spec["workload"])
    if point.needs:
        (twin,) = point.needs
        return {"experiments": twin_frame(inputs.points[twin]["experiments"], reading)}
    return {"experiments": run_attribution_workload(s, reading, w, _model(s, inputs))[0]}


def _load(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    return {"workloads": run_load_reading(s, point.spec["reading"], _model(s, inputs))[0]}


def _nas(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    jobs, meta = inputs.trace(point.spec["log"])
    header = SWFHeader.from_dict(meta["swf_header"])
    return {"experiments": run_nas_log(s, point.spec["log"], jobs, header)[0]}


#: What a point runs, by its ``spec["kind"]``: ``experiments`` (one row per target) of a
#: synthetic workload, an attribution workload or a real log (§5.4); ``runs`` (one row per job and
#: policy at every value) of a sweep workload; ``workloads`` (one row per workload) of a load
#: reading.
KINDS: dict[str, Callable[[Settings, Point, Inputs], dict[str, pd.DataFrame]]] = {
    "single": _single, "sweep": _sweep, "attribution": _attribution, "load": _load, "nas": _nas}


def run_point(s: Settings, point: Point, inputs: Inputs) -> dict[str, pd.DataFrame]:
    """One point's frames (:data:`KINDS`)."""
    return run_by(KINDS, "kind", PAPER, s, point, inputs)
