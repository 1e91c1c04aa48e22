"""Snakemake adapter: Tang et al. 2013, issue 22 — readings of the SP2 base schedule against Table 3
(schedlab.papers.tang2013.BASE_READINGS / LOC_READINGS) -> tables/attribution_base.parquet.

The configured reading's rows come from the runs themselves (runs/SP2/{point}/jobs); every other
reading in ``params.readings`` is simulated here; the loss-of-capacity readings are recomputed on
the configured schedules."""

import pandas as pd

from schedlab import __version__
from schedlab.papers import tang2013 as t
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.sim.schedulers.metric_aware import loss_of_capacity
from schedlab.traces.swf import SWFHeader


def main(sm):
    cfg = sm.params.cfg
    log = smk.log_to(sm)
    spec = t.LogSpec(**sm.params.spec)
    trace, meta = read_parquet(sm.input.trace)
    header = SWFHeader.from_dict(meta["swf_header"]) if "swf_header" in meta else None
    base_series, _ = read_parquet(sm.input.base)
    th = t.qd_threshold_min(base_series, cfg, spec.label) * 60.0
    per_job = {conf: read_parquet(path)[0]
               for conf, path in zip(cfg["configurations"], sm.input.jobs, strict=True)}
    first = next(iter(t.BASE_READINGS))
    rows = [{"reading": first, "configuration": conf, "jobs": len(j),
             "avg_wait_min": float(j["wait"].mean() / 60.0),
             "unfair_jobs": int(j["unfair"].sum()),
             "loc_pct": 100.0 * loss_of_capacity(j["submit"].to_numpy(), j["start"].to_numpy(),
                                                 j["end"].to_numpy(), j["procs"].to_numpy(),
                                                 spec.machine_size, bool(cfg["loc_strict"]))}
            for conf, j in per_job.items()]
    for name in sm.params.readings:
        if name != first:
            rows += t.base_reading_rows(trace, header, spec, cfg, name, th)
    base = pd.DataFrame(rows)
    rows += t.loc_reading_rows(per_job, spec, cfg, base)
    table = t.base_attribution_table(pd.DataFrame(rows), cfg, spec.table)
    log(table.to_string())
    write_parquet(sm.output[0], table, {
        "paper": "tang2013", "trace": spec.trace, "trace_sha256": meta.get("sha256"),
        "seed": None, "schedlab_version": __version__, "fair_start": cfg["fair_start"],
        "readings_not_run": [n for n in t.BASE_READINGS if n not in sm.params.readings],
        "note": "SP2 base schedule: readings x Table 3 configurations; full=True runs all"})


smk.run(main, snakemake)
