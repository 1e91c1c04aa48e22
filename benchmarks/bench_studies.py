"""Wall and CPU time of the papers' studies (the contract's points at scale ``study``) on one
registered log, each run in this process (:func:`schedlab.papers.runner.run_paper`).

Usage (from the repo root, after building the inputs, e.g.
``snakemake --cores 1 results/traces/HPC2N-2002-2.2-cln/jobs.parquet
results/models/HPC2N-2002-2.2-cln``)::

    .venv/bin/python benchmarks/bench_studies.py [--trace NAME] [--scale study quick]
        [--paper perkovic2000 tang2013 cirne2001] [--out /tmp/bench-studies]
"""

from __future__ import annotations

import argparse
import time

from schedlab import papers
from schedlab.papers.runner import run_paper
from schedlab.traces.registry import load_registry


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trace", default="HPC2N-2002-2.2-cln")
    ap.add_argument("--scale", nargs="+", default=["study"])
    ap.add_argument("--paper", nargs="+", default=list(papers.PAPERS))
    ap.add_argument("--out", default="/tmp/bench-studies")
    a = ap.parse_args()
    registry = load_registry()
    env = papers.Env(trace_local=lambda n: True,
                     machine_size=lambda n: registry[n].machine_size if n in registry else None)
    for name in a.paper:
        module = papers.load(name)
        for scale in a.scale:
            s = papers.study_settings(module, name, {"studies": {name: {"scale": scale}}}, env,
                                      a.trace)
            t0, c0 = time.perf_counter(), time.process_time()
            tables = run_paper(module, name, s, f"{a.out}/{scale}", log=a.trace)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            print(f"{name:14s} {scale:6s} wall {wall:7.1f} s  cpu {cpu:7.1f} s  "
                  f"{len(module.points(s))} points, {len(tables)} tables", flush=True)


if __name__ == "__main__":
    main()
