"""Golden cases for Cirne 2001's experiments (issue 18), re-run by
tests/papers/test_golden_cirne2001.py: frames of the experiments under the configured compression
(config/papers/cirne2001_sa.yaml ``compression``: §2.2.1's early ends, until no job moves). Under a
single pass per early end they equal the frames of the experiments' own former loop
(``CBMachine``, commit 549f5ea).

    PYTHONPATH=src python tests/papers/cirne2001_cases.py save   # writes tests/fixtures/golden/cirne/
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests/fixtures/golden/cirne"


def _settings(jobs: int, targets: int, workloads: int, sa_version: str = "cb"):
    from schedlab.papers import cirne2001 as C

    return C.resolve_settings(
        yaml.safe_load((ROOT / "config/papers/cirne2001_sa.yaml").read_text()),
        overrides={"single_target": {"jobs_per_workload": jobs, "targets_per_workload": targets,
                                     "experiments": targets * workloads},
                   "offered_load": {"jobs_per_workload": jobs}, "sa_version": sa_version})


def _nas_log(seed: int, n: int = 60, procs: int = 16):
    from schedlab.papers.cirne2001 import nas as N

    rng = np.random.default_rng(seed)
    t = pd.DataFrame({"job_id": np.arange(n), "submit": np.sort(rng.integers(0, 4000, n)),
                      "runtime": rng.integers(10, 600, n),
                      "procs": rng.choice([1, 2, 3, 4, 8, 9, 16], n)})
    t["estimate"] = t["runtime"] + rng.integers(0, 600, n)
    t["user_id"] = 1
    t["cancel_time"] = np.where(rng.random(n) < 0.1, t["submit"] + rng.integers(1, 900, n), -1)
    return N.log_workload(t, procs)


def _schedule(wl, policy: str) -> pd.DataFrame:
    """Per-job schedule of a whole run: every job with its user request or SA's (conservative)."""
    from schedlab.papers import cirne2001 as C

    sim = C.machine_run(C.sim_jobs(wl), 500, policy)
    sim.run()
    j = sim.result().jobs
    ran = j["start"].to_numpy() >= 0  # -1: never started (cancelled while waiting)
    return pd.DataFrame({"job_id": j["job_id"], "start": j["start"], "end": j["end"],
                         "procs": np.where(ran, j["procs"], -1)})


def cases() -> dict[str, pd.DataFrame]:
    """name -> frame: everything the golden test compares."""
    from schedlab.papers import cirne2001 as C
    from schedlab.papers.cirne2001 import nas as N

    out: dict[str, pd.DataFrame] = {}
    s = _settings(1000, 40, 2)
    for w in range(2):  # the default model, 1,000-job workloads, 40 targets each
        out[f"single_w{w}_1000x40"] = C.run_single_workload(s, w)[0]
    wl, _ = C.synthetic_workload(np.random.SeedSequence(5), 1000, 500)
    for policy in ("user", "sa"):
        out[f"schedule_1000_{policy}"] = _schedule(wl, policy)
    s = _settings(300, 50, 3)  # a smaller workload, 50 of its jobs as targets
    out["single_w2_300x50"] = C.run_single_workload(s, 2)[0]
    s = _settings(120, 10, 4, sa_version="g")  # SAg submits the adaptive workload's jobs
    out["single_w3_120x10_sag"] = C.run_single_workload(s, 3)[0]
    s = _settings(1000, 25, 1)
    out["sweep_kappa_L_1.5_w0"] = C.run_sweep_point(s, "kappa_L", 1.5, 0)[0]
    ep = N.Benchmark("EP", "unrestricted", {1: 900.0, 4: 240.0, 16: 70.0})
    mg = N.Benchmark("MG", "power_of_2", {1: 800.0, 2: 420.0, 4: 230.0, 8: 130.0, 16: 80.0})
    wl = _nas_log(3)
    plan = N.plan_targets(wl, {"EP": ep, "MG": mg}, 16, 6,
                          {"EP": np.random.SeedSequence(1), "MG": np.random.SeedSequence(2)})
    out["nas_whole_log"] = N.nas_experiments(wl, 16, plan)
    out["nas_warmup_20"] = N.nas_experiments(wl, 16, plan, estimate="exact", warmup_jobs=20)
    return out


def save() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, df in cases().items():
        df.to_parquet(GOLDEN / f"{name}.parquet", compression="zstd", index=False)
        print(name, df.shape)


if __name__ == "__main__":
    if sys.argv[1:] != ["save"]:
        sys.exit("usage: cirne2001_cases.py save")
    save()
