"""Snakemake adapter: one simulation experiment (poisson-<order>, many_hosts-<order>, scaled)."""

from schedlab import __version__
from schedlab.papers import schroeder2004 as s04
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(sm):
    cfg = sm.params.cfg
    jobs, _ = read_parquet(sm.input.jobs)
    cuts, _ = read_parquet(sm.input.cutoffs)
    _, evaluation, report = s04.workload_halves(jobs, cfg)
    df = s04.run_experiment(sm.wildcards.s04experiment, evaluation, cuts, cfg)
    meta = s04.provenance(cfg, sm.params.sha256, __version__) | {"workload": report}
    write_parquet(sm.output[0], df, meta)


smk.run(main, snakemake)
