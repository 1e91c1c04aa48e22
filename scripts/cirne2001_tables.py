"""Snakemake adapter: Cirne 2001 tables (13, 14, 18, breakdowns, sweeps) from the run files."""

from pathlib import Path

from schedlab import smk
from schedlab.io import read_parquet, write_parquet
from schedlab.papers import cirne2001


def main(snakemake):
    single = [read_parquet(p)[0] for p in snakemake.input.single]
    sweep = [read_parquet(p)[0] for p in snakemake.input.sweep]
    tables = cirne2001.build_tables(single, sweep, snakemake.params.settings)
    meta = {"paper": cirne2001.PAPER, "seed_entropy": int(snakemake.params.settings["seed"]),
            "runs": len(single) + len(sweep)}
    dest = {Path(p).stem: p for p in snakemake.output}
    for name, df in tables.items():
        write_parquet(dest[name], df, meta)


smk.run(main, snakemake)
