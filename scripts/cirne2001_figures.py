"""Snakemake adapter: Cirne 2001 figures 38-66 from the tables (Figure 57 when the NAS validation
ran)."""

from pathlib import Path

from schedlab.papers import cirne2001
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet


def main(snakemake):
    tables = {Path(p).stem: read_parquet(p)[0] for p in snakemake.input
              if Path(p).parent.name == "tables" and Path(p).stem in cirne2001.TABLES}
    fig57 = any(Path(p).stem == cirne2001.NAS_FIGURE for p in snakemake.output)
    cirne2001.make_figures(tables, Path(snakemake.output[0]).parent, fig57=fig57,
                           published=snakemake.params.settings["published"])


smk.run(main, snakemake)
