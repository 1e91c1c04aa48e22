"""Snakemake adapter: one synthetic moldable workload -> results/synthetic/{model}/{seed}.parquet
(jobs), .alternatives.parquet (job_id, procs, runtime, estimate) and .swf (the user requests)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from pathlib import Path

import numpy as np

from schedlab import __version__
from schedlab.io import read_json, write_parquet
from schedlab.models.synth import (
    moldable_workload,
    params_from_dict,
    params_from_fits,
    swf_workload,
)
from schedlab.traces.swf import write_swf


def main(sm):
    seed = int(sm.wildcards.seed)
    params = params_from_dict({"machine_size": sm.params.machine_size} | sm.params.params)
    notes = []
    if sm.input.models:
        d = Path(sm.input.models)
        fits = {p.stem: read_json(p) for p in d.glob("*.json")}
        procs = fits["partition_size"]["params"].get("machine_size") or sm.params.machine_size
        params, notes = params_from_fits(fits, procs, params)
    jobs, alts = moldable_workload(params, sm.params.n_jobs, np.random.SeedSequence(seed))
    info = jobs.attrs.pop("info")
    meta = {"model": sm.wildcards.model, "seed_entropy": seed, "n_jobs": sm.params.n_jobs,
            "params": params.to_dict(), "info": info, "notes": notes,
            "schedlab_version": __version__}
    write_parquet(sm.output.jobs, jobs, meta)
    write_parquet(sm.output.alternatives, alts, {"model": sm.wildcards.model,
                                                 "seed_entropy": seed})
    table, header = swf_workload(jobs, params.machine_size,
                                 f"schedlab {__version__} synthesize {sm.wildcards.model}, "
                                 f"SeedSequence entropy {seed}, arrival polynomial "
                                 f"{info['arrival_polynomial']}")
    write_swf(sm.output.swf, table, header)
    smk.log_to(sm)(f"{sm.wildcards.model}/{seed}: {len(jobs)} jobs, {len(alts)} alternatives")


smk.run(main, snakemake)
