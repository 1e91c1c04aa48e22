"""Running Perković & Keleher backfilling (:class:`.perkovic.Perkovic`) on a job list: the paper
driver's entry point (:func:`simulate_pk`) and its per-job result arrays."""

from __future__ import annotations

import numpy as np

from ..engine import simulate
from ..errors import SimulationError
from ..job import SimJob
from ..options import SimOptions
from .perkovic import TIE_RULE, Perkovic, PKConfig

#: Per-job output columns of :func:`simulate_pk` (docs/design.md §3 per-job result plus the flags
#: of this policy).
RESULT_COLUMNS = ("start", "end", "run_procs", "run_runtime", "guaranteed_start", "first_start",
                  "kills", "spec_starts", "test_runs", "speculative", "widened", "wasted_proc_s")


def pk_jobs(submit: np.ndarray, runtime: np.ndarray, estimate: np.ndarray, procs: np.ndarray
            ) -> list[SimJob]:
    """Engine jobs from arrays of whole seconds / processors (job id = position)."""
    cols = [np.asarray(c) for c in (submit, runtime, estimate, procs)]
    for name, c in zip(("submit", "runtime", "estimate", "procs"), cols, strict=True):
        if c.size and not np.array_equal(c, np.round(c)):
            raise SimulationError(f"Perković jobs: {name} must be whole seconds / processors")
    return [SimJob(i, int(s), int(r), int(e), int(p))
            for i, (s, r, e, p) in enumerate(zip(*(c.tolist() for c in cols), strict=True))]


def run_engine(jobs: list[SimJob], machine: int, sched: Perkovic,
               options: SimOptions = SimOptions(tie_rule=TIE_RULE)) -> dict[str, np.ndarray]:
    """Simulate ``jobs`` with ``sched`` under ``options`` (default: :data:`TIE_RULE`); per-job
    arrays named as :data:`RESULT_COLUMNS`, in input order (``sched`` keeps its state for
    inspection)."""
    df = simulate(jobs, int(machine), sched, options=options, record_timeline=False).jobs
    rank = np.fromiter((sched.index[j.job_id] for j in jobs), dtype=np.int64, count=len(jobs))
    start = df["start"].to_numpy(dtype=np.float64)
    end = df["end"].to_numpy(dtype=np.float64)
    return {
        "start": start,
        "end": end,
        "run_procs": df["procs"].to_numpy(dtype=np.int64),
        "run_runtime": end - start,
        "guaranteed_start": np.asarray(sched.guaranteed, dtype=np.float64)[rank],
        "first_start": df["first_start"].to_numpy(dtype=np.float64),
        "kills": df["attempts"].to_numpy(dtype=np.int64) - 1,
        "spec_starts": np.asarray(sched.spec_starts, dtype=np.int64)[rank],
        "test_runs": np.asarray(sched.test_runs, dtype=np.int64)[rank],
        "speculative": (df["tag"] != "").to_numpy(dtype=bool),
        "widened": np.asarray(sched.widened, dtype=bool)[rank],
        "wasted_proc_s": df["wasted_proc_seconds"].to_numpy(dtype=np.float64),
    }


def simulate_pk(submit: np.ndarray, runtime: np.ndarray, estimate: np.ndarray, procs: np.ndarray,
                machine: int, config: PKConfig, seed: np.random.SeedSequence,
                options: SimOptions = SimOptions(tie_rule=TIE_RULE)) -> dict[str, np.ndarray]:
    """Run one algorithm mix on a job list (the paper driver's entry point): :func:`run_engine`
    with the priorities of the whole workload drawn up front, under ``options`` (the paper's
    settings pin them: config/papers/perkovic2000.yaml ``sim:``)."""
    jobs = pk_jobs(submit, runtime, estimate, procs)
    return run_engine(jobs, machine, Perkovic(config, seed, n_jobs=len(jobs)), options)
