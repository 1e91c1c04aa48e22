"""Snakemake adapter: Cirne 2001 tables (13, 14, 16, 18, breakdowns, sweeps) from the run files,
or (quick profile, ``inline_runs``) from runs made here."""

from pathlib import Path

from schedlab.papers import cirne2001, cirne2001_nas
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(snakemake):
    s, inp = snakemake.params.settings, snakemake.input
    if snakemake.params.inline:
        single, sweep = cirne2001.inline_runs(s, snakemake.params.model)
        nas = []
        for log, path in zip(snakemake.params.nas_logs, inp.traces, strict=True):
            jobs, meta = read_parquet(path)
            header = SWFHeader.from_dict(meta["swf_header"])
            nas.append(cirne2001_nas.run_nas_log(s, log, jobs, header)[0])
    else:
        single = [read_parquet(p)[0] for p in inp.single]
        sweep = [read_parquet(p)[0] for p in inp.sweep]
        nas = [read_parquet(p)[0] for p in inp.nas]
    tables = cirne2001.build_tables(single, sweep, s, nas, snakemake.params.model)
    meta = {"paper": cirne2001.PAPER, "seed_entropy": int(s["seed"]),
            "runs": len(single) + len(sweep) + len(nas)}
    dest = {Path(p).stem: p for p in snakemake.output}
    for name, df in tables.items():
        write_parquet(dest[name], df, meta)


smk.run(main, snakemake)
