"""Cirne 2001: the experiment points of a setting (the contract's ``points``), one per job.

* ``single/w<w>``: synthetic workload ``w`` of §5.1/§6.1 (``n_workloads`` of them);
* ``sweep/<param>/w<w>``: workload ``w`` at every value of a §6.2 sweep (kappa_L, kappa_sigma);
* ``nas/<log>``: §5.4 on one real log, only when the NAS validation can run
  (:func:`~schedlab.papers.cirne2001.nas.not_run_reason`: SP2 execution times configured);
* ``attribution/<reading>/w<w>``: workload ``w`` of the attribution runs of one reading;
* ``load/<reading>``: the workloads of one reading of the load attribution (:mod:`.load`).

The quick profile is the same points with smaller settings (fewer workloads, no attribution).
"""

from __future__ import annotations

from typing import Any

from .. import Point, trace_jobs
from .nas import not_run_reason
from .runs import SWEEP_PARAMS


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


def load_readings(s: dict[str, Any]) -> list[str]:
    """The readings of the load attribution (none when it runs no workload)."""
    la = s.get("load_attribution") or {}
    return list(la.get("readings") or {}) if la.get("workloads_per_polynomial") else []


def nas_logs(s: dict[str, Any]) -> list[str]:
    """The logs of §5.4's points: every configured log when the validation can run, else none."""
    nas = s["nas_validation"]
    return list(nas["logs"]) if not_run_reason(nas) is None else []


def attribution_runs(s: dict[str, Any]) -> list[tuple[str, int]]:
    """(reading, workload) of every attribution run, reading by reading."""
    att = s.get("attribution") or {}
    return [(r, w) for r in att.get("readings") or {} for w in range(int(att.get("workloads", 0)))]


def points(s: dict[str, Any]) -> list[Point]:
    """Every experiment point of the settings ``s``."""
    wpp = int(s["offered_load"]["workloads_per_point"])
    return [
        *[Point(single_id(w), spec={"kind": "single", "workload": w})
          for w in range(s["n_workloads"])],
        *[Point(sweep_id(p, w), spec={"kind": "sweep", "param": p, "workload": w})
          for p in SWEEP_PARAMS for w in range(wpp)],
        *[Point(nas_id(log), inputs=(trace_jobs(log),), spec={"kind": "nas", "log": log})
          for log in nas_logs(s)],
        *[Point(attribution_id(r, w), spec={"kind": "attribution", "reading": r, "workload": w})
          for r, w in attribution_runs(s)],
        *[Point(load_id(r), spec={"kind": "load", "reading": r}) for r in load_readings(s)],
    ]
