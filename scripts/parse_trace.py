"""Snakemake adapter: parse a fetched trace into results/traces/{trace}/jobs.parquet."""

from schedlab.io import write_parquet
from schedlab.pipeline import smk
from schedlab.traces.download import sha256_file
from schedlab.traces.lookup import with_registry_machine_size
from schedlab.traces.registry import load_registry
from schedlab.traces.swf import header_metadata, read_swf


def main(sm):
    registry = load_registry(sm.params.registry)
    entry = registry[sm.wildcards.trace]
    trace = read_swf(sm.input[0], submit_order=entry.submit_order)
    # a header without MaxProcs/MaxNodes takes the registry's machine_size
    trace.header = with_registry_machine_size(trace.header, entry)
    # the source file's hash: the registry's, else the lock file's (recorded on first copy of a
    # `path:` trace), else the stored copy's
    sha = registry.expected_sha256(entry.name) or sha256_file(sm.input[0])
    meta = header_metadata(trace) | {"trace": entry.name, "sha256": sha}
    write_parquet(sm.output[0], trace.jobs, meta)
    smk.log_to(sm)(f"{entry.name}: {trace.n_jobs} jobs")


smk.run(main, snakemake)
