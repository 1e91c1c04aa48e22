"""Cirne 2001: what one experiment point runs — one synthetic workload's single-target and
emergent experiments (§5.1, §6.1), and one workload of a §6.2 offered-load sweep.

Seeds (``numpy.random.SeedSequence(seed, spawn_key=...)``): workload ``w`` of the single-target
experiments ``(0, w)``, its targets ``(2, w)``; sweep workload ``w`` ``(1, w)`` at every value
(common random numbers); the tables' bootstrap ``(3,)``, §5.4's ``(4, log, benchmark)`` and its
bootstrap ``(5,)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...sim.options import SimOptions
from .config import PAPER, Settings
from .moldable import single_target_experiments, whole_workload_run
from .workload import pick_targets, synthetic_workload

SWEEP_PARAMS = ("kappa_L", "kappa_sigma")  # §6.2: Figure 63 (load), Figures 64-66 (sigma)


def stream_seed(s: Settings, *key: int) -> np.random.SeedSequence:
    """The recorded seed's stream ``key`` (a ``SeedSequence`` spawn key): here (0, w) single-target
    workload w, (1, w) sweep workload w, (2, w) its targets; other drivers name their own keys."""
    return np.random.SeedSequence(int(s.seed), spawn_key=key)


def n_targets(s: Settings, w: int) -> int:
    """The targets of single-target workload ``w``: ``targets_per_workload``, fewer in the last
    workload when they do not divide ``experiments``."""
    st = s.single_target
    return max(0, min(st["targets_per_workload"],
                      st["experiments"] - w * st["targets_per_workload"]))


def run_single_workload(s: Settings, w: int, model: dict[str, Any] | None = None
                        ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Workload ``w``: the single-target and emergent experiments of its targets (one row each)."""
    st = s.single_target
    wl, info = synthetic_workload(stream_seed(s, 0, w), st["jobs_per_workload"], s.machine_procs,
                                  model=model)
    targets = pick_targets(wl, n_targets(s, w), np.random.default_rng(stream_seed(s, 2, w)))
    sim = SimOptions.from_mapping(st.get("sim"))
    df = single_target_experiments(wl, s.machine_procs, targets, s.sa_version,
                                   sim=sim, compression=dict(s.compression))
    df.insert(0, "workload", w)
    meta = {"paper": PAPER, "workload": w, "seed_entropy": int(s.seed), "spawn_key": [0, w],
            "target_spawn_key": [2, w], "jobs": st["jobs_per_workload"],
            "machine_procs": s.machine_procs, "sa_version": s.sa_version,
            "sim": sim.as_dict(), "compression": dict(s.compression),
            "workload_info": info}
    return df, meta


def run_sweep_point(s: Settings, param: str, value: float, w: int,
                    model: dict[str, Any] | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """§6.2: one workload at ``param`` (kappa_L or kappa_sigma) = ``value``, all jobs SA and all
    jobs user request. The same workload seed is used at every value (common random numbers)."""
    if param not in SWEEP_PARAMS:
        raise ConfigError(f"{PAPER}: unknown sweep parameter {param!r}")
    ol = s.offered_load
    kw = {param: float(value)}
    wl, info = synthetic_workload(stream_seed(s, 1, w), ol["jobs_per_workload"], s.machine_procs,
                                  model=model, **kw)
    frames = []
    for pol in ("sa", "user"):
        df = whole_workload_run(wl, s.machine_procs, pol,
                                SimOptions.from_mapping(ol.get("sim")), dict(s.compression))
        df.insert(0, "policy", pol)
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    sigma = wl.info["sigma"].to_numpy(float) if "sigma" in wl.info else np.full(wl.n_jobs, np.nan)
    out["sigma"] = np.tile(sigma, 2)
    out.insert(0, "workload", w)
    out.insert(0, "value", float(value))
    out.insert(0, "param", param)
    span = float(wl.submit[-1] - wl.submit[0]) if wl.n_jobs > 1 else 1.0
    out["capacity"] = s.machine_procs * max(span, 1.0)
    meta = {"paper": PAPER, "param": param, "value": float(value), "workload": w,
            "seed_entropy": int(s.seed), "spawn_key": [1, w],
            "jobs": ol["jobs_per_workload"], "workload_info": info}
    return out, meta


def run_sweep(s: Settings, param: str, w: int, model: dict[str, Any] | None = None
              ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Workload ``w`` of every point of the ``param`` sweep (one experiment point)."""
    values = s.offered_load[param] if param in SWEEP_PARAMS else None
    if values is None:
        raise ConfigError(f"{PAPER}: unknown sweep parameter {param!r}")
    runs = [run_sweep_point(s, param, float(v), w, model) for v in values]
    meta = {**runs[0][1], "values": [float(v) for v in values]}
    meta.pop("value", None)
    return pd.concat([r[0] for r in runs], ignore_index=True), meta
