"""Snakemake adapter: parse a fetched trace into results/traces/{trace}/jobs.parquet, a block of
lines at a time (memory flat in the number of jobs)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from schedlab.traces.download import sha256_file
from schedlab.traces.lookup import with_registry_machine_size
from schedlab.traces.registry import load_registry
from schedlab.traces.swf import header_metadata, parse_swf_to_parquet


def main(sm):
    registry = load_registry(sm.params.registry)
    entry = registry[sm.wildcards.trace]
    # the source file's hash: the registry's, else the lock file's (recorded on first copy of a
    # `path:` trace), else the stored copy's
    sha = registry.expected_sha256(entry.name) or sha256_file(sm.input[0])

    def metadata(trace):
        # a header without MaxProcs/MaxNodes takes the registry's machine_size
        trace.header = with_registry_machine_size(trace.header, entry)
        return header_metadata(trace) | {"trace": entry.name, "sha256": sha}

    _, n_jobs = parse_swf_to_parquet(sm.input[0], sm.output[0], metadata,
                                     submit_order=entry.submit_order)
    smk.log_to(sm)(f"{entry.name}: {n_jobs} jobs")


smk.run(main, snakemake)
