"""Snakemake adapter: Tang et al. 2013, issue 22 — the Step-5 permutation search with and without
a cap on the searched windows, every table configuration of each log
(schedlab.papers.tang2013.search_cap_rows) -> tables/search_cap.parquet."""

import pandas as pd

from schedlab import __version__
from schedlab.papers import tang2013 as t
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    cfg = sm.params.cfg
    log = smk.log_to(sm)
    rows = []
    for spec_d, trace_path, base_path in zip(sm.params.specs, sm.input.traces, sm.input.bases,
                                             strict=True):
        spec = t.LogSpec(**spec_d)
        trace, meta = read_parquet(trace_path)
        header = SWFHeader.from_dict(meta["swf_header"]) if "swf_header" in meta else None
        jobs, _ = t.workload(trace, header, spec, cfg.get("job_selection", "records"))
        base, _ = read_parquet(base_path)
        th = t.qd_threshold_min(base, cfg, spec.label) * 60.0
        rows += t.search_cap_rows(jobs, spec, cfg, th)
    df = pd.DataFrame(rows)
    log(df.to_string())
    write_parquet(sm.output[0], df, {"paper": "tang2013", "seed": None,
                                     "schedlab_version": __version__,
                                     "fair_start": cfg["fair_start"],
                                     "note": "Step-5 search: every window vs the first only"})


smk.run(main, snakemake)
