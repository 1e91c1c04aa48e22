"""Snakemake adapter: Cirne 2001 scorecard (Tables 13, 14, 16, 18, chapter 6 claims)."""

from pathlib import Path

from schedlab import smk
from schedlab.io import read_parquet, write_parquet
from schedlab.papers import cirne2001


def main(snakemake):
    tables = {Path(p).stem: read_parquet(p)[0] for p in snakemake.input
              if Path(p).parent.name == "tables" and Path(p).stem in cirne2001.TABLES}
    card = cirne2001.scorecard(tables, snakemake.params.settings)
    write_parquet(snakemake.output[0], card, {"paper": cirne2001.PAPER})


smk.run(main, snakemake)
