"""Snakemake adapter: SITA cutoffs (analytic and simulated) on the derivation half (§4.1)."""

from schedlab import __version__
from schedlab.papers import schroeder2004 as s04
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(sm):
    cfg = sm.params.cfg
    jobs, _ = read_parquet(sm.input[0])
    derivation, _, report = s04.workload_halves(jobs, cfg)
    cuts = s04.derive_cutoffs(derivation, cfg)
    meta = s04.provenance(cfg, sm.params.sha256, __version__) | {"workload": report}
    write_parquet(sm.output[0], cuts, meta)


smk.run(main, snakemake)
