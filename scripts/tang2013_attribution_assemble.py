"""Snakemake adapter: Tang et al. 2013 attribution rows (both job selections) -> the runs table and
the per-reading fit to Table 3 (schedlab.papers.tang2013.attribution_table)."""

import pandas as pd

from schedlab import __version__, smk
from schedlab.io import read_parquet, write_parquet
from schedlab.papers import tang2013 as t


def main(sm):
    cfg = sm.params.cfg
    rows = pd.concat([read_parquet(p)[0] for p in sm.input], ignore_index=True)
    table = t.attribution_table(rows, cfg)
    meta = {"paper": "tang2013", "seed": None, "schedlab_version": __version__,
            "note": "SP2: job selection x queue-depth threshold x fair-start reading vs Table 3"}
    write_parquet(sm.output.runs, rows, meta)
    write_parquet(sm.output.table, table, meta)
    smk.log_to(sm)(table.to_string())


smk.run(main, snakemake)
