"""Snakemake adapter: Cirne 2001 single-target + emergent experiments on one synthetic workload."""

from schedlab import smk
from schedlab.io import write_parquet
from schedlab.papers import cirne2001


def main(snakemake):
    df, meta = cirne2001.run_single_workload(snakemake.params.settings,
                                             int(snakemake.wildcards.w),
                                             model=snakemake.params.model)
    write_parquet(snakemake.output[0], df, meta)


smk.run(main, snakemake)
