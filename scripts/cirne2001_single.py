"""Snakemake adapter: Cirne 2001 single-target + emergent experiments on one synthetic workload."""

from schedlab.papers import cirne2001
from schedlab.pipeline import smk
from schedlab.pipeline.io import write_parquet


def main(snakemake):
    df, meta = cirne2001.run_single_workload(snakemake.params.settings,
                                             int(snakemake.wildcards.w),
                                             model=snakemake.params.model)
    write_parquet(snakemake.output[0], df, meta)


smk.run(main, snakemake)
