"""Snakemake adapter: one Tang et al. 2013 sweep point -> per-job, monitor-series and summary parquet."""

import time

import pandas as pd

from schedlab import __version__
from schedlab.papers.tang2013 import LogSpec, qd_threshold_min, run_point, workload
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    spec = LogSpec(**sm.params.spec)
    cfg = sm.params.cfg
    point = sm.wildcards.point
    trace, meta = read_parquet(sm.input.trace)
    header = SWFHeader.from_dict(meta["swf_header"]) if "swf_header" in meta else None
    jobs, report = workload(trace, header, spec, cfg.get("job_selection", "records"))
    th_min = None
    if sm.input.get("base"):
        base, _ = read_parquet(sm.input.base)
        th_min = qd_threshold_min(base, cfg, spec.label)
    t0 = time.perf_counter()
    per_job, series, summary = run_point(jobs, spec, point, cfg,
                                         None if th_min is None else th_min * 60.0)
    log(f"{spec.describe()} {point}: mean wait {summary['mean_wait_min']:.1f} min, "
        f"{summary['unfair_jobs']} unfair, LoC {summary['loc_pct']:.2f}%, "
        f"{time.perf_counter() - t0:.1f} s wall")
    provenance = {"paper": "tang2013", "log": spec.label, "trace": spec.trace,
                  "trace_sha256": meta.get("sha256"), "substitute": spec.substitute,
                  "description": spec.describe(), "point": point, "normalization": report,
                  "fair_start": cfg["fair_start"], "loc_strict": cfg["loc_strict"],
                  "search_windows": spec.search_windows, "qd_threshold_min": th_min,
                  "seed": None, "schedlab_version": __version__}
    write_parquet(sm.output.jobs, per_job, provenance)
    write_parquet(sm.output.series, series, provenance)
    write_parquet(sm.output.summary, pd.DataFrame([summary]), provenance)


smk.run(main, snakemake)
