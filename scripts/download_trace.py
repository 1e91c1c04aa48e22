"""Snakemake adapter: fetch one registered trace (mirror first, then URL), sha256-checked."""

from pathlib import Path

from schedlab import smk
from schedlab.download import fetch_trace
from schedlab.registry import load_registry


def main(sm):
    registry = load_registry(sm.params.registry)
    mirror = Path(sm.params.mirror) if sm.params.mirror else None
    fetch_trace(
        registry,
        sm.wildcards.trace,
        sm.output[0],
        mirror=mirror,
        timeout=sm.params.timeout,
        retries=sm.params.retries,
        log=smk.log_to(sm),
    )


smk.run(main, snakemake)
