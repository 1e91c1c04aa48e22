"""Snakemake adapter: parse a fetched trace into results/traces/{trace}/jobs.parquet."""

from schedlab import smk
from schedlab.io import write_parquet
from schedlab.registry import load_registry
from schedlab.swf import header_metadata, read_swf


def main(sm):
    entry = load_registry(sm.params.registry)[sm.wildcards.trace]
    trace = read_swf(sm.input[0], submit_order=entry.submit_order)
    meta = header_metadata(trace) | {"trace": entry.name, "sha256": entry.sha256}
    write_parquet(sm.output[0], trace.jobs, meta)
    smk.log_to(sm)(f"{entry.name}: {trace.n_jobs} jobs")


smk.run(main, snakemake)
