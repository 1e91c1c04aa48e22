"""Snakemake adapter: Cirne 2001 attribution runs (one workload of one reading) and the table."""

from pathlib import Path

from schedlab.papers import cirne2001
from schedlab.papers.cirne2001_checks import attribution_table
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(snakemake):
    s = snakemake.params.settings
    if snakemake.params.get("table", False):
        frames = [read_parquet(p)[0] for p in snakemake.input]
        by = {}
        for df in frames:
            by.setdefault(str(df["reading"].iloc[0]), []).append(df)
        import pandas as pd

        table = attribution_table({k: pd.concat(v, ignore_index=True) for k, v in by.items()},
                                  s["published"])
        write_parquet(snakemake.output[0], table, {"paper": cirne2001.PAPER,
                                                   "seed_entropy": int(s["seed"])})
        return
    w = int(snakemake.wildcards.w)
    df, meta = cirne2001.run_attribution_workload(s, snakemake.wildcards.reading, w,
                                                  snakemake.params.model)
    write_parquet(Path(snakemake.output[0]), df, meta)


smk.run(main, snakemake)
