"""Snakemake adapter: one attribution reading (whole log) -> summary rows of BF, 1/L, P/L-NG, R/L-NG."""

import time

import pandas as pd

from schedlab import __version__
from schedlab.papers import perkovic2000 as pk
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    s = dict(sm.params.settings)
    reading = dict(sm.params.reading)
    if "starvation_horizon_s" in reading:
        s["starvation_horizon_s"] = reading["starvation_horizon_s"]
    trace, meta = read_parquet(sm.input[0])
    header = SWFHeader.from_dict(meta["swf_header"])
    jobs, report = pk.attribution_jobs(trace, header, reading, sm.input[0], sm.params.flurry,
                                       sm.params.table1)
    stats = pk.input_stats(jobs)
    rows = []
    for order, g in pk.ATTRIBUTION_ALGORITHMS:
        point = pk.RunPoint(int(reading.get("machine", 430)), "base", order, g)
        t0 = time.process_time()
        out = pk.run_point(jobs, point, s, int(s["seed_entropy"]))
        rows += pk.summarize(out, point)
        log(f"{sm.wildcards.reading} {point.algorithm}: {time.process_time() - t0:.1f} CPU-s")
    write_parquet(sm.output[0], pd.DataFrame(rows).assign(reading=sm.wildcards.reading, **stats),
                  {"paper": pk.PAPER, "reading": reading, "normalization": report,
                   "seed_entropy": int(s["seed_entropy"]), "schedlab_version": __version__})


smk.run(main, snakemake)
