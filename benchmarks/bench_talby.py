"""Speed of the Flex planner (Talby & Feitelson 2005) on real logs, without the engine, and of
one PBAS sweep point through the engine (``--pbas``).

Drives :class:`FlexPlanner` with a minimal event loop (completions before arrivals at equal times),
jobs normalized the common way (requested procs else allocated, estimate = requested time else
runtime, runtime cut at the estimate, >= 1 s). Prints jobs/s and wall time per log.

``--pbas POINT`` (e.g. ``fm-resp-43200``) instead runs that PBAS point of the Talby pipeline
(cancelled jobs dropped, the configured scheduler options) and prints its CPU seconds: the cost
that kept SDSC-BLUE's PBAS/WBAS rows out of the default run before issue 20 (BLUE resp-12h:
70.8 CPU-s before Flex compressed with ``Profile.move_earlier``, 19.1 after).

    SCHEDLAB_TRACE_MIRROR=/work/shared/traces .venv/bin/python benchmarks/bench_talby.py [LOG ...]
    SCHEDLAB_TRACE_MIRROR=/work/shared/traces .venv/bin/python benchmarks/bench_talby.py \
        --pbas fm-resp-43200 SDSC-BLUE-2000-4.2-cln

``--points ID ...`` runs points of the paper-scale profile (config ``full``; ids as in
``results/paper-scale/talby2005/runs/<id>``, e.g. ``KTH-clean/pbas/fm-resp-60``) in this process as
their Snakemake jobs do (parsed trace read, normalized, simulated) and prints each one's CPU and wall
seconds; ``--months N`` cuts each log to its first N months (a quicker, proportional sample),
``--list`` prints the ids. Needs ``results/traces/<log>/jobs.parquet``. Before/after: run it once
with ``PYTHONPATH`` on the other tree's ``src``.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_talby.py --points KTH-clean/pbas/fm-resp-60 \
        BLUE-clean/sched/flex [--months 2]
"""

from __future__ import annotations

import heapq
import sys
import time

import numpy as np

from schedlab.sim.schedulers.flex import FlexJob, FlexPlanner
from schedlab.traces.lookup import load_trace


def workload(name: str, limit: int | None = None):
    t = load_trace(name)
    j = t.jobs
    size = t.header.machine_size
    procs = np.where(j["req_procs"] > 0, j["req_procs"], j["alloc_procs"]).astype(int)
    run = np.maximum(j["run_time"].to_numpy(), 1)
    est = np.where(j["req_time"] > 0, j["req_time"], run)
    run = np.minimum(run, est)
    ok = (procs > 0) & (procs <= size) & (j["run_time"].to_numpy() >= 0)
    rows = list(zip(j["job_id"][ok], j["submit_time"][ok], procs[ok], est[ok], run[ok], strict=True))
    return [tuple(int(x) for x in r) for r in rows[:limit]], size


def run(jobs, size, **kw):
    pl = FlexPlanner(size, **kw)
    rt = {j[0]: j[4] for j in jobs}
    ev = [(j[1], 1, k, j) for k, j in enumerate(jobs)]
    heapq.heapify(ev)
    waits = []
    seq = len(jobs)
    while ev:
        t, kind, _, j = heapq.heappop(ev)
        started = pl.finish(j, t) if kind == 0 else pl.arrive(FlexJob(j[0], j[1], j[2], j[3]), t)
        for s in started:
            seq += 1
            heapq.heappush(ev, (t + rt[s], 0, seq, s))
    waits = pl.wait_sum / max(pl.started, 1)
    return waits


def pbas_point(point: str, names) -> None:
    """CPU seconds of one Talby PBAS point per log (config/papers/talby2005.yaml options)."""
    from pathlib import Path

    import yaml

    from schedlab.papers.talby2005.runs import sim_jobs_from_trace, simulate_point

    cfg = yaml.safe_load((Path(__file__).parents[1] / "config/papers/talby2005.yaml").read_text())
    for name in names or ["KTH-SP2-1996-2.1-cln"]:
        t = load_trace(name)
        size = t.header.machine_size
        jobs, _ = sim_jobs_from_trace(t.jobs, t.header, size, name, cfg["cancelled"])
        t0 = time.process_time()
        _, st = simulate_point(jobs, size, "pbas", point, cfg["scheduler_options"],
                          t.header.unix_start_time, t.header.time_zone_string)
        dt = time.process_time() - t0
        print(f"{name:28s} pbas/{point}  {len(jobs):7d} jobs  {dt:7.1f} CPU-s  "
              f"{st['frames_forked']} forks  mean wait {st['mean_wait']:8.0f} s")


def paper_points(ids: list[str], months: int | None = None) -> None:
    """CPU and wall seconds of paper-scale points (module docstring), each run in this process."""
    import dataclasses
    from pathlib import Path

    from schedlab.papers import Env, Inputs
    from schedlab.papers.talby2005 import points as talby_points
    from schedlab.papers.talby2005.config import settings
    from schedlab.papers.talby2005.points import run_point
    from schedlab.traces.registry import load_registry, mirror_dir

    registry = load_registry()
    mirror = mirror_dir()
    root = Path(__file__).resolve().parents[1]

    def local(name: str) -> bool:   # as the workflow's trace_is_local (workflow/rules/common.smk)
        return name in registry and ((root / f"resources/traces/{name}.swf.gz").is_file() or (
            mirror is not None and (mirror / registry[name].file).is_file()))

    env = Env(trace_local=local,
              machine_size=lambda n: registry[n].machine_size if n in registry else None)
    s = settings({"full": True}, env)
    points = {p.id: p for p in talby_points(s)}
    if not ids:
        print("\n".join(points))
        return
    for pid in ids:
        p = points[pid]
        if months is not None:
            p = dataclasses.replace(p, spec={**p.spec, "max_months": months})
        inputs = Inputs(files={f: root / f for f in p.inputs})
        t0, w0 = time.process_time(), time.perf_counter()
        run_point(s, p, inputs)
        print(f"{pid:36s} {time.process_time() - t0:8.1f} CPU-s {time.perf_counter() - w0:8.1f} "
              f"wall-s", flush=True)


def main(names):
    if names[:1] == ["--pbas"]:
        pbas_point(names[1], names[2:])
        return
    if names[:1] in (["--points"], ["--list"]):
        months = None
        if "--months" in names:
            k = names.index("--months")
            months = int(names[k + 1])
            names = names[:k] + names[k + 2:]
        paper_points(names[1:] if names[0] == "--points" else [], months)
        return
    for name in names or ["KTH-SP2-1996-2.1-cln"]:
        jobs, size = workload(name)
        t0 = time.perf_counter()
        w = run(jobs, size)
        dt = time.perf_counter() - t0
        print(f"{name:28s} {len(jobs):7d} jobs  {dt:7.1f} s  {len(jobs) / dt:8.0f} jobs/s  "
              f"mean wait {w:8.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
