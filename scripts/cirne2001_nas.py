"""Snakemake adapter: Cirne 2001 §5.4 NAS validation on one real log (Tables 15-16, Figure 57)."""

from schedlab.papers import cirne2001_nas
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(snakemake):
    jobs, meta = read_parquet(snakemake.input[0])
    df, out_meta = cirne2001_nas.run_nas_log(snakemake.params.settings, snakemake.wildcards.log,
                                             jobs, SWFHeader.from_dict(meta["swf_header"]))
    write_parquet(snakemake.output[0], df, out_meta)


smk.run(main, snakemake)
