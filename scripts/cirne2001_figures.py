"""Snakemake adapter: Cirne 2001 figures 38-66 from the tables."""

from schedlab import smk
from schedlab.io import read_parquet
from schedlab.papers import cirne2001


def main(snakemake):
    tables = {n: read_parquet(f"{snakemake.params.tables}/{n}.parquet")[0]
              for n in cirne2001.TABLES}
    cirne2001.make_figures(tables, snakemake.params.outdir)


smk.run(main, snakemake)
