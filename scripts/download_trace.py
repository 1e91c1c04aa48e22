"""Snakemake adapter: fetch one registered trace (mirror first, then URL), sha256-checked."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from schedlab.traces.download import fetch_trace
from schedlab.traces.registry import load_registry, mirror_dir


def main(sm):
    registry = load_registry(sm.params.registry)
    download = sm.config.get("download", {})
    fetch_trace(
        registry,
        sm.wildcards.trace,
        sm.output[0],
        mirror=mirror_dir(sm.config.get("trace_mirror")),
        timeout=download.get("timeout_s", 30),
        retries=download.get("retries", 3),
        log=smk.log_to(sm),
    )


smk.run(main, snakemake)
