"""Snakemake adapter: one Talby & Feitelson 2005 sweep point -> per-job results parquet."""

import time

from schedlab import __version__
from schedlab.papers.talby2005_runs import run_attr_batch, run_point, sim_jobs_from_trace
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    trace, meta = read_parquet(sm.input[0])
    header = SWFHeader.from_dict(meta["swf_header"])
    size = int(sm.params.machine_size or header.machine_size)
    kind, name, cfg = sm.wildcards.kind, sm.wildcards.name, sm.params.cfg
    cancelled = cfg["cancelled"]
    t0 = time.process_time()
    if kind == "attr":  # the attribution batch of this log: monthly sums of every run
        batch = [tuple(b) for b in sm.params.batch]
        cache, reports = {}, {}

        def jobs_for(rule):
            if rule not in cache:
                cache[rule], reports[rule] = sim_jobs_from_trace(
                    trace, header, size, sm.input[0], rule,
                    flurry_seed=int(cfg["attribution"].get("flurry_seed", 2005)))
            return cache[rule]

        out = run_attr_batch(jobs_for, size, cfg, batch, header.unix_start_time,
                             header.time_zone_string)
        log(f"{sm.wildcards.log}-{sm.wildcards.version} attr/{name}: {len(batch)} runs, "
            f"{time.process_time() - t0:.1f} CPU-s")
        write_parquet(sm.output[0], out, {
            "paper": "talby2005", "trace": sm.params.trace, "trace_sha256": meta.get("sha256"),
            "log": sm.wildcards.log, "version": sm.wildcards.version, "kind": kind, "name": name,
            "batch": batch, "attribution": cfg["attribution"], "machine_size": size,
            "normalization": reports, "stats": {}, "schedlab_version": __version__})
        return
    jobs, report = sim_jobs_from_trace(trace, header, size, sm.input[0], cancelled)
    out, stats = run_point(jobs, size, kind, name, cfg["scheduler_options"],
                           header.unix_start_time, header.time_zone_string)
    cpu = time.process_time() - t0
    log(f"{sm.wildcards.log}-{sm.wildcards.version} {sm.wildcards.kind}/{sm.wildcards.name}: "
        f"{len(out)} jobs, mean wait {stats['mean_wait']:.0f} s, "
        f"{cpu:.1f} CPU-s")
    write_parquet(sm.output[0], out, {
        "paper": "talby2005", "trace": sm.params.trace, "trace_sha256": meta.get("sha256"),
        "log": sm.wildcards.log, "version": sm.wildcards.version, "kind": sm.wildcards.kind,
        "name": name, "scheduler_options": dict(cfg["scheduler_options"]),
        "cancelled": cancelled, "machine_size": size,
        "normalization": report, "stats": stats, "schedlab_version": __version__})


smk.run(main, snakemake)
