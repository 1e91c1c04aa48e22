"""Snakemake adapter: Tang et al. 2013 attribution runs on SP2 (issue 22) -> one parquet of rows.

For one job selection: the seven Table 3 configurations, the BF-tuning schemes with the paper's
threshold and with our own month average, each simulated once and its unfair jobs counted under
every fair-start reading (schedlab.papers.tang2013.attribution_rows).
"""

import pandas as pd

from schedlab import __version__
from schedlab.papers import tang2013 as t
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    spec = t.LogSpec(**sm.params.spec)
    cfg = sm.params.cfg
    selection = sm.wildcards.selection
    trace, meta = read_parquet(sm.input.trace)
    header = SWFHeader.from_dict(meta["swf_header"]) if "swf_header" in meta else None
    jobs, report = t.workload(trace, header, spec, selection)
    rows = t.attribution_runs(jobs, spec, cfg, selection)
    df = pd.DataFrame(rows)
    log(df.to_string())
    write_parquet(sm.output[0], df, {"paper": "tang2013", "trace": spec.trace,
                                     "trace_sha256": meta.get("sha256"), "selection": selection,
                                     "normalization": report, "seed": None,
                                     "schedlab_version": __version__})


smk.run(main, snakemake)
