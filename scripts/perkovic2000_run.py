"""Snakemake adapter: one Perković & Keleher 2000 sweep point -> per-job results parquet."""

import dataclasses
import time

from schedlab import __version__
from schedlab.papers.perkovic2000 import RunPoint, run_point
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(sm):
    log = smk.log_to(sm)
    jobs, meta = read_parquet(sm.input[0])
    point = RunPoint(**sm.params.point)
    s = sm.params.settings
    t0 = time.perf_counter()
    out = run_point(jobs, point, s, int(s["seed_entropy"]))
    log(f"perkovic2000 {point.path}: {len(out)} jobs, mean bounded slowdown "
        f"{out['bounded_slowdown'].mean():.2f}, {time.perf_counter() - t0:.1f} s wall")
    write_parquet(sm.output[0], out, {
        "paper": "perkovic2000", "trace": meta.get("trace"), "trace_sha256": meta.get("trace_sha256"),
        "point": dataclasses.asdict(point), "algorithm": point.algorithm,
        "seed_entropy": int(s["seed_entropy"]), "settings": s, "schedlab_version": __version__})


smk.run(main, snakemake)
