"""Snakemake adapter: Theorem 1 / M/G/h analysis of every policy on the evaluation half (§3.3)."""

from schedlab import __version__
from schedlab.papers import schroeder2004 as s04
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(sm):
    cfg = sm.params.cfg
    jobs, _ = read_parquet(sm.input.jobs)
    cuts, _ = read_parquet(sm.input.cutoffs)
    _, evaluation, report = s04.workload_halves(jobs, cfg)
    meta = s04.provenance(cfg, sm.params.sha256, __version__) | {"workload": report}
    write_parquet(sm.output[0], s04.analyze(evaluation, cuts, cfg), meta)


smk.run(main, snakemake)
