"""Wall time of the Perković, Tang and Cirne trace studies on one registered log.

Usage (from the repo root, after building the inputs, e.g.
``snakemake --cores 1 results/traces/HPC2N-2002-2.2-cln/clean.parquet
results/models/HPC2N-2002-2.2-cln``)::

    .venv/bin/python benchmarks/bench_trace_studies.py [--trace NAME] [--variant quick default]
        [--study perkovic2000 tang2013 cirne2001]

Budgets (issue 10): default settings <= 60 s per study, quick <= 10 s per study on HPC2N.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import yaml

from schedlab.io import read_parquet, read_parquet_metadata
from schedlab.trace_studies import StudyInputs, load
from schedlab.traces.registry import load_registry
from schedlab.traces.swf import SWFHeader


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trace", default="HPC2N-2002-2.2-cln")
    ap.add_argument("--variant", nargs="+", default=["quick", "default"])
    ap.add_argument("--study", nargs="+", default=["perkovic2000", "tang2013", "cirne2001"])
    a = ap.parse_args()
    base = Path("results/traces") / a.trace
    jobs, _ = read_parquet(base / "clean.parquet")
    header = SWFHeader.from_dict(read_parquet_metadata(base / "jobs.parquet")["swf_header"])
    machine = load_registry().entries[a.trace].machine_size or header.machine_size
    print(f"{a.trace}: {len(jobs)} jobs, {machine} processors")
    for name in a.study:
        mod = load(name)
        paper = yaml.safe_load(Path(f"config/papers/{name}.yaml").read_text())
        inputs = StudyInputs(a.trace, jobs, header, int(machine), Path("results/models") / a.trace,
                             paper=paper)
        for variant in a.variant:
            t0 = time.perf_counter()
            c0 = time.process_time()
            tables = mod.run(inputs, mod.DEFAULTS[variant])
            figs = mod.figures(tables)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            print(f"{name:14s} {variant:8s} wall {wall:7.1f} s  cpu {cpu:7.1f} s  "
                  f"tables {sorted(tables)}  figures {sorted(figs)}", flush=True)


if __name__ == "__main__":
    main()
