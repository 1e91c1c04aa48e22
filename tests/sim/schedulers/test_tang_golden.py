"""Golden per-job schedules of Tang et al. 2013's metric-aware scheduler (issue 18, lane tang).

Saved from the private event loop (``MetricAwareSimulator.run`` + its fair-start probe loop, main
at 91b03b5) before the policy moved onto the engine; the move must reproduce them exactly.
Regenerate only on purpose (a documented change of reading):

    PYTHONPATH=src SCHEDLAB_TRACE_MIRROR=/work/shared/traces python tests/sim/schedulers/test_tang_golden.py --save

Cases: small synthetic workloads for every policy option (EASY / conservative / greedy, any-node /
contiguous, BF x W, the three Algorithm-1 schemes, scheduling interval, overruns, withdrawals,
the search cap) with the fair start times of all 16 probe readings; the first 5,000 runnable
SDSC-SP2 jobs (the paper's SP2 setting: EASY, any-node, 128 nodes) at BF {1, 0.5} x W {1, 4} and
the three adaptive schemes with the configured fair-start reading, unfair counts and LoC; the
BG/P substitute (LANL-CM5, conservative, contiguous) at two points on its first 1,000 jobs.
"""

from __future__ import annotations

import gzip
import itertools
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.papers import tang2013 as t
from schedlab.sim.schedulers.metric_aware import (
    MetricAwareSimulator,
    Policy,
    Tuning,
    loss_of_capacity,
)

REPO = Path(__file__).resolve().parents[3]
GOLDEN = REPO / "tests" / "fixtures" / "golden" / "tang"
CFG = t.resolve_settings(yaml.safe_load((REPO / "config" / "papers" / "tang2013.yaml").read_text()))
READINGS = [dict(zip(("probe_runtime", "probe_order", "probe_policy", "probe_backfill"), r,
                     strict=True))
            for r in itertools.product(("estimate", "actual"), ("dynamic", "frozen"),
                                       ("submission", "fcfs"), ("policy", "none"))]
SP2_POINTS = ["bf1_w1", "bf1_w4", "bf0.5_w1", "bf0.5_w4", "adapt-bf", "adapt-w", "adapt-2d"]
BGP_POINTS = ["bf1_w1", "bf0.5_w4"]
SP2_JOBS, BGP_JOBS = 5000, 1000


def synthetic(seed: int, m: int = 60, n: int = 16, cancels: bool | str = False) -> pd.DataFrame:
    """A small random workload (recorded seed), busy enough to queue. ``cancels``: 15% of the
    jobs get a cancel time; ``"log"``: those run 1 s, as the log's withdrawn jobs
    (``normalize(cancelled="withdraw")``: never ran, run time 0 -> 1 s)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    est = rng.integers(300, 7200, m)
    jobs = pd.DataFrame({"job_id": np.arange(m), "submit": np.sort(rng.integers(0, 30000, m)),
                         "runtime": np.maximum(1, (est * rng.uniform(0.1, 1.0, m)).astype(int)),
                         "estimate": est, "procs": rng.integers(1, n + 1, m)})
    if cancels:
        c = jobs["submit"] + rng.integers(0, 4000, m)
        jobs["cancel_time"] = np.where(rng.uniform(size=m) < 0.15, c, -1)
        if cancels == "log":
            jobs.loc[jobs["cancel_time"] >= 0, "runtime"] = 1
    return jobs


#: name -> (seed, machine, Policy kwargs, Tuning kwargs or None, cancels, overrun factor)
SYNTHETIC: dict[str, tuple] = {
    "easy_any_bf1_w1": (1, 16, {}, None, False, None),
    "easy_any_bf05_w3": (2, 16, {"bf": 0.5, "window": 3}, None, False, None),
    "easy_any_bf0_w4": (3, 16, {"bf": 0.0, "window": 4}, None, False, None),
    "cons_any_bf05_w2": (4, 16, {"bf": 0.5, "window": 2, "backfill": "conservative"}, None,
                         False, None),
    "cons_contig_bf1_w3": (5, 32, {"window": 3, "backfill": "conservative",
                                   "allocation": "contiguous"}, None, False, None),
    "easy_contig_bf05_w2": (6, 32, {"bf": 0.5, "window": 2, "allocation": "contiguous"}, None,
                            False, None),
    "greedy_any_bf05_w2": (7, 16, {"bf": 0.5, "window": 2, "backfill": "greedy"}, None, False,
                           None),
    "easy_adapt_2d": (8, 16, {}, {"qd_threshold": 20000.0, "adapt_window": True}, False, None),
    "cons_adapt_bf": (9, 16, {"backfill": "conservative"}, {"qd_threshold": 20000.0}, False, None),
    "easy_interval_30": (10, 16, {"bf": 0.5, "window": 2, "sched_interval": 30.0}, None, False,
                         None),
    "easy_overrun_300": (11, 16, {"overrun_grace": 300.0}, None, False, 1.1),
    "easy_cancel": (12, 16, {"bf": 0.5}, None, True, None),
    "easy_cancel_log": (14, 16, {"bf": 0.5, "window": 2}, None, "log", None),
    "cons_search_cap_1": (13, 16, {"window": 3, "backfill": "conservative",
                                   "search_windows": 1}, None, False, None),
}


def run_synthetic(name: str) -> dict:
    seed, n, pol, tun, cancels, overrun = SYNTHETIC[name]
    jobs = synthetic(seed, n=n, cancels=cancels)
    if overrun is not None:  # some jobs run past their estimate (up to ``overrun`` x)
        rng = np.random.default_rng(np.random.SeedSequence(seed + 100))
        over = rng.uniform(size=len(jobs)) < 0.3
        jobs["runtime"] = np.where(over, (jobs["estimate"] * overrun).astype(int), jobs["runtime"])
    sim = MetricAwareSimulator(jobs["submit"], jobs["runtime"], jobs["estimate"], jobs["procs"], n,
                               Policy(**pol), None if tun is None else Tuning(**tun),
                               jobs.get("cancel_time"))
    res = sim.run()
    out = {"schedule": _schedule(jobs, res), "tunables": [list(x) for x in res.tunables],
           "passes": res.passes}
    out["fair"] = {"/".join(r.values()): _fair(sim.fair_start_times(res, **r))
                   for r in READINGS}
    return out


def _schedule(jobs: pd.DataFrame, res) -> dict[str, list]:
    return {"job_id": jobs["job_id"].astype(int).tolist(), "start": res.start.tolist(),
            "end": res.end.tolist(), "node": res.node.astype(int).tolist()}


def _fair(fair: np.ndarray) -> list:
    """NaN (the probe was cut at the real start) as None: strict JSON."""
    return [None if np.isnan(x) else float(x) for x in fair]


def trace_jobs(mirror: Path, name: str) -> tuple[pd.DataFrame, object]:
    from schedlab.traces.swf import read_swf

    tr = read_swf(mirror / f"{name}.swf.gz")
    return tr.jobs, tr.header


def run_log(mirror: Path, label: str, point: str) -> dict:
    """One point of the paper's setting on a prefix of the log, as ``tang2013.run_point``."""
    specs = {s.label: s for s in t.log_specs(CFG, False)}
    spec = specs[label]
    spec = replace(spec, jobs=SP2_JOBS if label == "SP2" else BGP_JOBS)
    trace, header = trace_jobs(mirror, spec.trace)
    jobs, _ = t.workload(trace, header, spec, CFG.job_selection)
    th = None
    if point in ("adapt-bf", "adapt-2d"):
        th = float(CFG.tuning["qd_threshold_min"]["SP2"]) * 60.0 if label == "SP2" else 3.0e5
    sim, res = t.simulate_point(jobs, spec, point, CFG, th)
    fair = sim.fair_start_times(res, **t.fair_start_options(CFG))
    unfair = int(np.sum(~np.isnan(fair) & (res.start > fair)))
    loc = loss_of_capacity(sim.submit, res.start, res.end, sim.procs, spec.machine_size,
                           bool(CFG.loc_strict))
    return {"schedule": _schedule(jobs, res), "tunables": [list(x) for x in res.tunables],
            "passes": res.passes, "fair": _fair(fair), "unfair": unfair, "loc": loc,
            "mean_wait": float(np.mean(res.start - sim.submit))}


def _path(name: str) -> Path:
    return GOLDEN / f"{name}.json.gz"


def _load(name: str) -> dict:
    return json.loads(gzip.decompress(_path(name).read_bytes()))


def _save(name: str, data: dict) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(data, sort_keys=True, allow_nan=False).encode()
    _path(name).write_bytes(gzip.compress(raw, mtime=0))


def _normal(data: dict) -> dict:
    """Round-trip through JSON (tuples -> lists, float keys) for comparison with a fixture."""
    return json.loads(json.dumps(data, sort_keys=True, allow_nan=False))


#: Listed differences from the private loop (module docstring of metric_aware, "Golden
#: schedules"): the engine terminates a job still running at its cancel time, the old loop let
#: it run on. Only synthetic workloads have such jobs (the log's withdrawn jobs run 1 s).
DIFFERS = {"easy_cancel"}


@pytest.mark.parametrize("name", [n for n in SYNTHETIC if n not in DIFFERS])
def test_synthetic_golden(name):
    assert _normal(run_synthetic(name)) == _load(f"synthetic_{name}")


def test_cancel_while_running_is_the_only_difference():
    """``easy_cancel``: identical until the first job that is running at its cancel time; the
    engine ends that job then (the old loop ran it to its end)."""
    new, old = _normal(run_synthetic("easy_cancel")), _load("synthetic_easy_cancel")
    jobs = synthetic(12, n=16, cancels=True)
    cancel = jobs["cancel_time"].to_numpy()
    o_start, o_end = np.array(old["schedule"]["start"]), np.array(old["schedule"]["end"])
    n_start, n_end = np.array(new["schedule"]["start"]), np.array(new["schedule"]["end"])
    cut = (cancel >= 0) & (o_start < cancel) & (cancel < o_end)
    assert cut.any()
    first = cancel[cut].min()
    before = o_start < first
    assert np.array_equal(n_start[before], o_start[before])
    k = int(np.flatnonzero(cut & (cancel == first))[0])
    assert n_end[k] == first and o_end[k] > first
    assert not np.array_equal(n_start, o_start)  # the cascade after it is real


@pytest.mark.parametrize("point", SP2_POINTS)
def test_sp2_golden(mirror, point):
    assert _normal(run_log(mirror, "SP2", point)) == _load(f"sp2_{point}")


@pytest.mark.parametrize("point", BGP_POINTS)
def test_bgp_substitute_golden(mirror, point):
    assert _normal(run_log(mirror, t.SUBSTITUTE, point)) == _load(f"cm5_{point}")


if __name__ == "__main__" and "--save" in sys.argv:
    import os

    for name in SYNTHETIC if len(sys.argv) < 3 else sys.argv[2:]:
        _save(f"synthetic_{name}", run_synthetic(name))
        print("saved", name, flush=True)
    if len(sys.argv) > 2:
        sys.exit(0)
    mirror_dir = Path(os.environ["SCHEDLAB_TRACE_MIRROR"])
    for point in SP2_POINTS:
        _save(f"sp2_{point}", run_log(mirror_dir, "SP2", point))
        print("saved sp2", point, flush=True)
    for point in BGP_POINTS:
        _save(f"cm5_{point}", run_log(mirror_dir, t.SUBSTITUTE, point))
        print("saved cm5", point, flush=True)
