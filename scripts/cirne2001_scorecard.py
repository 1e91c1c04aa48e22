"""Snakemake adapter: Cirne 2001 scorecard (Tables 13, 14, 16, 18, chapter 6 claims)."""

from pathlib import Path

from schedlab.papers import cirne2001
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(snakemake):
    tables = {Path(p).stem: read_parquet(p)[0] for p in snakemake.input
              if Path(p).parent.name == "tables" and Path(p).stem in cirne2001.TABLES}
    card = cirne2001.scorecard(tables, snakemake.params.settings)
    write_parquet(snakemake.output[0], card, {"paper": cirne2001.PAPER})


smk.run(main, snakemake)
