"""Benchmark (not a test): CPU time of conservative backfilling under each compression reading.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_cbf_stable.py cirne [--reading R] [--jobs N]
    PYTHONPATH=src .venv/bin/python benchmarks/bench_cbf_stable.py log LOG [--passes until_stable]
    PYTHONPATH=src .venv/bin/python benchmarks/bench_cbf_stable.py capture OUT.pkl [--every 50]
    PYTHONPATH=src .venv/bin/python benchmarks/bench_cbf_stable.py replay OUT.pkl [--repeat 3]
    PYTHONPATH=OTHER_TREE/src ...   # before/after

``cirne``: the user-request base run (Cirne 2001 §2.2.1's compression, early ends until stable) of
workload 0 of the first polynomial of a ``load_attribution`` reading (what one workload of a
``cirne2001_point point=load/<reading>`` costs; ``--passes one``: one pass per early end). ``log``: conservative backfilling of a real log
(``SCHEDLAB_TRACE_MIRROR``) with ``compress_on=early`` and ``--passes``. Prints CPU and wall
seconds and a checksum of the start times (equal before and after an exact speed-up).
``capture``: the state before every ``--every``-th compression until stable (an early end's
``due`` or a dirty arrival's ``arrive``) of the user-request run of workload 0 of a §6.2
kappa_L = 4 sweep point at 10,000 jobs (its two runs are 97% compression), pickled (about 5 MB
each); ``replay``: the CPU time of those compressions alone, on copies (the least of
``--repeat``), with a checksum of the queues and profiles they leave: the compression kernels
before/after, without the engine around them.
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
    from schedlab.papers.cirne2001.runs import stream_seed
    from schedlab.papers.cirne2001.workload import synthetic_workload
    from schedlab.papers.settings import deep_merge

    cfg = yaml.safe_load((ROOT / "config/papers/cirne2001_sa.yaml").read_text())
    s = C.resolve_settings(cfg)
    over = s.load_attribution["readings"][reading] or {}
    poly = params_from_dict(over).rigid.arrival[0]
    forced = deep_merge(over, {"rigid": {"arrival": [poly.to_dict()]}})
    wl, _ = synthetic_workload(stream_seed(s, SEED_KEY, 0), jobs, s.machine_procs, model=forced)
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


def _capture(out: Path, every: int) -> None:
    import pickle

    from schedlab.papers import cirne2001 as C
    from schedlab.papers.cirne2001.moldable import whole_workload_run
    from schedlab.papers.cirne2001.runs import stream_seed
    from schedlab.papers.cirne2001.workload import synthetic_workload
    from schedlab.sim import cbf_kernel
    from schedlab.sim.options import SimOptions
    from schedlab.sim.schedulers.conservative import Conservative

    cfg = yaml.safe_load((ROOT / "config/papers/cirne2001_sa.yaml").read_text())
    s = C.resolve_settings(cfg, "paper")
    wl, _ = synthetic_workload(stream_seed(s, 1, 0), 10000, s.machine_procs, kappa_L=4.0)
    caps: list[tuple] = []
    seen = [0]

    def keep(name: str, args: tuple) -> None:
        seen[0] += 1
        if seen[0] % every == 0:
            caps.append((name, *(a.copy() if isinstance(a, np.ndarray) else a for a in args)))

    class Capturing:  # the kernels, with the compressing calls recorded first
        def __getattr__(self, name):
            return getattr(cbf_kernel, name)

        def due(self, *args):
            if args[4] and args[5]:  # squeeze, until_stable
                keep("due", args)
            return cbf_kernel.due(*args)

        def arrive(self, *args):
            if args[4] and args[5]:  # dirty, until_stable
                keep("arrive", args)
            return cbf_kernel.arrive(*args)

    Conservative.kernel = Capturing()
    try:
        whole_workload_run(wl, s.machine_procs, "user",
                           SimOptions.from_mapping(s.offered_load.get("sim")),
                           dict(s.compression))
    finally:
        Conservative.kernel = None
    with open(out, "wb") as f:
        pickle.dump(caps, f, protocol=5)
    print(f"{seen[0]} compressions, {len(caps)} captured to {out}")


def _replay(path: Path, repeat: int) -> None:
    import pickle

    from schedlab.sim import cbf_kernel as K

    with open(path, "rb") as f:
        caps = pickle.load(f)
    K.warm()
    digest = hashlib.sha256()
    best = float("inf")
    for r in range(repeat):
        cpu = 0.0
        for name, prof, queue, meta, *rest in caps:
            prof, queue, meta = prof.copy(), queue.copy(), meta.copy()
            args = [a.copy() if isinstance(a, np.ndarray) else a for a in rest]
            t0 = time.process_time()
            (K.due if name == "due" else K.arrive)(prof, queue, meta, *args)
            cpu += time.process_time() - t0
            if r == 0:
                digest.update(queue[:, : meta[K.M]].tobytes())
                digest.update(prof[:2, : meta[K.N]].tobytes())
        best = min(best, cpu)
    print(f"replay {len(caps)} compressions: cpu_s {best:.3f} "
          f"({1000 * best / max(len(caps), 1):.2f} ms each) state_sha256 {digest.hexdigest()[:16]}")


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
    cap = sub.add_parser("capture")
    cap.add_argument("out", type=Path)
    cap.add_argument("--every", type=int, default=50)
    rep = sub.add_parser("replay")
    rep.add_argument("path", type=Path)
    rep.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if a.what == "capture":
        return _capture(a.out, a.every)
    if a.what == "replay":
        return _replay(a.path, a.repeat)
    cpu, wall, start = (_cirne(a.reading, a.jobs, a.passes) if a.what == "cirne"
                        else _log(a.trace, a.passes))
    digest = hashlib.sha256(np.ascontiguousarray(start, dtype=np.float64).tobytes()).hexdigest()
    print(f"cpu_s {cpu:.2f} wall_s {wall:.2f} jobs {len(start)} starts_sha256 {digest[:16]}")


if __name__ == "__main__":
    main()
