"""Benchmark (not a test): CPU time of conservative backfilling under each compression reading.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_cbf_stable.py cirne [--reading R] [--jobs N]
    PYTHONPATH=src .venv/bin/python benchmarks/bench_cbf_stable.py log LOG [--passes until_stable]
    PYTHONPATH=OTHER_TREE/src ...   # before/after

``cirne``: the user-request base run (Cirne 2001 §2.2.1's compression, early ends until stable) of
workload 0 of the first polynomial of a ``load_attribution`` reading (what one workload of a
``cirne2001_point point=load/<reading>`` costs; ``--passes one``: one pass per early end). ``log``: conservative backfilling of a real log
(``SCHEDLAB_TRACE_MIRROR``) with ``compress_on=early`` and ``--passes``. Prints CPU and wall
seconds and a checksum of the start times (equal before and after an exact speed-up).
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _cirne(reading: str, jobs: int, passes: str) -> tuple[float, float, np.ndarray]:
    from schedlab.models.synth import params_from_dict
    from schedlab.papers import cirne2001 as C
    from schedlab.papers.cirne2001.load import SEED_KEY
    from schedlab.papers.cirne2001.workload import synthetic_workload
    from schedlab.papers.settings import deep_merge

    cfg = yaml.safe_load((ROOT / "config/papers/cirne2001_sa.yaml").read_text())
    s = C.resolve_settings(cfg)
    over = s.load_attribution["readings"][reading] or {}
    poly = params_from_dict(over).rigid.arrival[0]
    forced = deep_merge(over, {"rigid": {"arrival": [poly.to_dict()]}})
    wl, _ = synthetic_workload(np.random.SeedSequence(int(s.seed), spawn_key=(SEED_KEY, 0)),
                               jobs, s.machine_procs, model=forced)
    sim = C.machine_run(C.sim_jobs(wl), s.machine_procs, "user",
                        compression={"compress_passes": passes})
    t0, w0 = time.process_time(), time.perf_counter()
    sim.run()
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return cpu, wall, sim.result().jobs["start"].to_numpy()


def _log(trace: str, passes: str) -> tuple[float, float, np.ndarray]:
    from schedlab.sim import simulate
    from schedlab.sim.schedulers import make_scheduler
    from schedlab.traces.lookup import load_trace
    from schedlab.traces.normalize import normalize

    tr = load_trace(trace)
    norm = normalize(tr.jobs, tr.header)
    sched = make_scheduler("conservative", compress_on="early", compress_passes=passes)
    t0, w0 = time.process_time(), time.perf_counter()
    res = simulate(norm.jobs, norm.machine_size, sched, record_timeline=False)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return cpu, wall, res.jobs["start"].to_numpy()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cirne")
    c.add_argument("--reading", default="accuracy_clip")
    c.add_argument("--jobs", type=int, default=10000)
    c.add_argument("--passes", default="until_stable")
    g = sub.add_parser("log")
    g.add_argument("trace")
    g.add_argument("--passes", default="until_stable")
    a = ap.parse_args()
    cpu, wall, start = (_cirne(a.reading, a.jobs, a.passes) if a.what == "cirne"
                        else _log(a.trace, a.passes))
    digest = hashlib.sha256(np.ascontiguousarray(start, dtype=np.float64).tobytes()).hexdigest()
    print(f"cpu_s {cpu:.2f} wall_s {wall:.2f} jobs {len(start)} starts_sha256 {digest[:16]}")


if __name__ == "__main__":
    main()
