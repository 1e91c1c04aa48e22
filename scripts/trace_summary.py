"""Snakemake adapter: one row per trace (registry facts + characteristics) -> summary.parquet."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

import pandas as pd

from schedlab import __version__
from schedlab.io import read_parquet, write_parquet
from schedlab.traces.lookup import trace_characteristics
from schedlab.traces.registry import load_registry
from schedlab.traces.swf import SWFHeader, SWFTrace


def main(sm):
    registry = load_registry(sm.params.registry)
    rows = []
    for name, path in zip(sm.params.names, sm.input, strict=True):
        jobs, meta = read_parquet(path)
        header = SWFHeader.from_dict(meta["swf_header"])
        entry = registry[name]
        c = trace_characteristics(SWFTrace(jobs, header, path), entry.machine_size)
        rows.append({"trace": name, "kind": entry.kind, "sha256": registry.expected_sha256(name),
                     "description": entry.description} | c)
    df = pd.DataFrame(rows)
    write_parquet(sm.output[0], df, {"schedlab_version": __version__})


smk.run(main, snakemake)
