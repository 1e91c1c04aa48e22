"""Snakemake adapter: Cirne 2001 §6.2 offered-load sweep, one workload at every point of one
parameter (all SA vs all user requests)."""

from schedlab.papers import cirne2001
from schedlab.pipeline import smk
from schedlab.pipeline.io import write_parquet


def main(snakemake):
    w = snakemake.wildcards
    df, meta = cirne2001.run_sweep(snakemake.params.settings, w.param, int(w.w),
                                   model=snakemake.params.model)
    write_parquet(snakemake.output[0], df, meta)


smk.run(main, snakemake)
