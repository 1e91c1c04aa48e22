"""Snakemake adapter: one Talby & Feitelson 2005 sweep point -> per-job results parquet."""

import time

from schedlab import __version__, smk
from schedlab.io import read_parquet, write_parquet
from schedlab.papers.talby2005_runs import run_point, sim_jobs_from_trace
from schedlab.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    trace, meta = read_parquet(sm.input[0])
    header = SWFHeader.from_dict(meta["swf_header"])
    size = int(sm.params.machine_size or header.machine_size)
    jobs, report = sim_jobs_from_trace(trace, header, size, sm.input[0])
    t0 = time.perf_counter()
    out, stats = run_point(jobs, size, sm.wildcards.kind, sm.wildcards.name, sm.params.options,
                           header.unix_start_time, header.time_zone_string)
    log(f"{sm.wildcards.log}-{sm.wildcards.version} {sm.wildcards.kind}/{sm.wildcards.name}: "
        f"{len(out)} jobs, mean wait {stats['mean_wait']:.0f} s, "
        f"{time.perf_counter() - t0:.1f} s wall")
    write_parquet(sm.output[0], out, {
        "paper": "talby2005", "trace": sm.params.trace, "trace_sha256": meta.get("sha256"),
        "log": sm.wildcards.log, "version": sm.wildcards.version, "kind": sm.wildcards.kind,
        "name": sm.wildcards.name, "scheduler_options": dict(sm.params.options), "machine_size": size,
        "normalization": report, "stats": stats, "schedlab_version": __version__})


smk.run(main, snakemake)
