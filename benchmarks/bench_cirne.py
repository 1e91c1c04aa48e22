"""Benchmark (not a test) for the Cirne 2001 experiments: CPU time of the pieces, as a table.

    .venv/bin/python benchmarks/bench_cirne.py [--jobs 1000] [--targets 25] [--workloads 1]
    PYTHONPATH=OTHER_TREE/src .venv/bin/python benchmarks/bench_cirne.py ...   # before/after
    .venv/bin/python benchmarks/bench_cirne.py --nas-times TIMES.yaml [--nas-experiments 60]

Rows: one conservative-backfilling run of a synthetic workload (user requests) with the engine's
Conservative (default tie rule) and as the experiments run it (:func:`C.machine_run`, their tie
rule); the same with SA; the single-target experiments of ``--workloads`` workloads (2 base runs + forks
each; experiments per CPU-second, the issue-23 throughput measure); sweep points kappa_L 1 and 4.
With ``--nas-times`` (a YAML mapping benchmark -> {processors: seconds}; for timing only, e.g. a
made-up table — real runs take the times from config with their source) it instead times the §5.4
NAS validation on each configured log (results/traces/<log>/jobs.parquet must exist).
``--jobs 10000 --targets 25`` is the thesis' workload size; its measured before/after and where the
time goes: docs/papers/cirne2001.md, "Speed at 10,000 jobs".
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import yaml

from schedlab.models.synth import WorkloadParams, moldable_workload
from schedlab.papers import cirne2001 as C
from schedlab.sim.engine import simulate
from schedlab.sim.job import Alternative, SimJob
from schedlab.sim.schedulers.conservative import Conservative
from schedlab.sim.schedulers.sa import SA

ROOT = Path(__file__).resolve().parents[1]


def _cpu(fn):
    t0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return time.process_time() - t0, time.perf_counter() - w0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1000)
    ap.add_argument("--targets", type=int, default=25)
    ap.add_argument("--workloads", type=int, default=1)
    ap.add_argument("--nas-times", type=Path)
    ap.add_argument("--nas-experiments", type=int, default=60)
    a = ap.parse_args()
    if a.nas_times:
        return _bench_nas(a.nas_times, a.nas_experiments)
    jobs, alts = moldable_workload(WorkloadParams(), a.jobs, 1)
    wl = C.workload_from_tables(jobs, alts, 500)
    by_job = {j: g for j, g in alts.groupby("job_id")}
    sim_jobs = [SimJob(int(r.job_id), int(r.submit), int(r.runtime), int(r.estimate), int(r.procs),
                       cancel_time=None if np.isnan(r.cancel_time) else int(np.ceil(r.cancel_time)),
                       alternatives=tuple(Alternative(int(x.procs), int(x.runtime), int(x.estimate))
                                          for x in by_job[r.job_id].itertuples()))
                for r in jobs.itertuples()]
    rows = []
    for name, fn in (
        ("engine Conservative", lambda: simulate(sim_jobs, 500, Conservative(),
                                                 record_timeline=False)),
        ("engine SA", lambda: simulate(sim_jobs, 500, SA(), record_timeline=False)),
        (f"experiments' base run (tie rule {C.TIE_RULE}), user requests",
         lambda: C.machine_run(C.sim_jobs(wl), 500, "user").run()),
        (f"experiments' base run (tie rule {C.TIE_RULE}), SA",
         lambda: C.machine_run(C.sim_jobs(wl), 500, "sa").run()),
    ):
        cpu, wall, _ = _cpu(fn)
        rows.append((name, a.jobs, cpu, wall))
    cfg = yaml.safe_load((ROOT / "config/papers/cirne2001_sa.yaml").read_text())
    s = C.resolve_settings(cfg, overrides={
        "single_target": {"jobs_per_workload": a.jobs, "targets_per_workload": a.targets,
                          "experiments": a.targets * a.workloads},
        "offered_load": {"jobs_per_workload": a.jobs}})
    cpu, wall, n = _cpu(lambda: sum(len(C.run_single_workload(s, w)[0])
                                    for w in range(a.workloads)))
    rows.append((f"single-target: {a.workloads} x {a.targets} targets "
                 f"({n / cpu:.2f} experiments/CPU-s)", a.jobs, cpu, wall))
    for v in (1.0, 4.0):
        cpu, wall, _ = _cpu(lambda v=v: C.run_sweep_point(s, "kappa_L", v, 0))
        rows.append((f"sweep point kappa_L={v:g} (SA + user runs)", a.jobs, cpu, wall))
    print(f"{'what':60s} {'jobs':>6s} {'cpu s':>8s} {'wall s':>8s}")
    for name, n, cpu, wall in rows:
        print(f"{name:60s} {n:6d} {cpu:8.2f} {wall:8.2f}")


def _bench_nas(times: Path, experiments: int) -> None:
    from schedlab.io import read_parquet
    from schedlab.papers.cirne2001 import nas as N
    from schedlab.traces.swf import SWFHeader

    cfg = yaml.safe_load((ROOT / "config/papers/cirne2001_sa.yaml").read_text())
    s = C.resolve_settings(cfg, overrides={"nas_validation": {
        "execution_times": yaml.safe_load(times.read_text()),
        "experiments_per_benchmark": experiments}})
    print(f"{'log':28s} {'experiments':>11s} {'cpu s':>8s} {'wall s':>8s}  experiments by benchmark")
    for log in s.nas_validation["logs"]:
        jobs, meta = read_parquet(ROOT / f"results/traces/{log}/jobs.parquet")
        header = SWFHeader.from_dict(meta["swf_header"])
        cpu, wall, (df, _) = _cpu(lambda log=log, jobs=jobs, h=header: N.run_nas_log(s, log, jobs, h))
        by = df.groupby("benchmark").size().to_dict()
        print(f"{log:28s} {len(df):11d} {cpu:8.2f} {wall:8.2f}  {by}", flush=True)


if __name__ == "__main__":
    main()
