"""Snakemake adapter: Table 1 of Schroeder & Harchol-Balter (2004) for the configured logs."""

import pandas as pd

from schedlab import __version__
from schedlab.papers import schroeder2004 as s04
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.registry import load_registry
from schedlab.traces.swf import SWFHeader


def main(sm):
    registry = load_registry(sm.params.registry)
    rows = []
    for (label, entry), path in zip(sm.params.entries.items(), sm.input, strict=True):
        jobs, meta = read_parquet(path)
        header = SWFHeader.from_dict(meta["swf_header"])
        subset = entry.get("subset") or {}
        st = s04.service_trace(jobs, subset)
        row = s04.table1_row(label, st, subset, header.unix_start_time,
                             header.time_zone_string)
        rows.append({"trace": entry["trace"],
                     "trace_sha256": registry.expected_sha256(entry["trace"])} | row
                    | {"dropped_unknown_or_zero_run_time":
                       st.report["dropped_unknown_or_zero_run_time"]})
    write_parquet(sm.output[0], pd.DataFrame(rows),
                  {"paper": s04.PAPER, "schedlab_version": __version__})


smk.run(main, snakemake)
