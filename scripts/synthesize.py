"""Snakemake adapter: one synthetic moldable workload -> results/synthetic/{model}/{seed}.parquet
(jobs), .alternatives.parquet (job_id, procs, runtime, estimate) and .swf (the user requests)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from schedlab import __version__, smk
from schedlab.io import write_parquet
from schedlab.swf import SWF_COLUMNS, SWFHeader, write_swf
from schedlab.synth import moldable_workload, params_from_dict, params_from_fits


def swf_table(jobs: pd.DataFrame) -> pd.DataFrame:
    """The user requests as SWF job lines (cancelled jobs: status 5; -1 where the model is silent)."""
    out = pd.DataFrame({c: np.full(len(jobs), -1, dtype=np.int64) for c in SWF_COLUMNS})
    for c in ("avg_cpu_time", "used_mem_kb", "req_mem_kb"):
        out[c] = out[c].astype(np.float64)
    out["job_id"] = jobs["job_id"].to_numpy()
    out["submit_time"] = jobs["submit"].to_numpy()
    out["run_time"] = jobs["runtime"].to_numpy()
    out["alloc_procs"] = out["req_procs"] = jobs["procs"].to_numpy()
    out["req_time"] = jobs["estimate"].to_numpy()
    out["status"] = np.where(jobs["cancel_time"].notna(), 5, 1)
    return out


def main(sm):
    seed = int(sm.wildcards.seed)
    params = params_from_dict({"machine_size": sm.params.machine_size} | sm.params.params)
    notes = []
    if sm.input.models:
        d = Path(sm.input.models)
        fits = {p.stem: json.loads(p.read_text()) for p in d.glob("*.json")}
        procs = json.loads((d / "partition_size.json").read_text()).get("machine_size")
        procs = procs or sm.params.machine_size
        params, notes = params_from_fits(fits, procs, params)
    jobs, alts = moldable_workload(params, sm.params.n_jobs, np.random.SeedSequence(seed))
    info = jobs.attrs.pop("info")
    meta = {"model": sm.wildcards.model, "seed_entropy": seed, "n_jobs": sm.params.n_jobs,
            "params": params.to_dict(), "info": info, "notes": notes,
            "schedlab_version": __version__}
    write_parquet(sm.output.jobs, jobs, meta)
    write_parquet(sm.output.alternatives, alts, {"model": sm.wildcards.model,
                                                 "seed_entropy": seed})
    header = SWFHeader.parse([
        "; Version: 2.2",
        f"; Computer: synthetic ({sm.wildcards.model}, Cirne 2001 Tables 11-12)",
        f"; MaxJobs: {len(jobs)}", f"; MaxRecords: {len(jobs)}",
        f"; MaxProcs: {params.machine_size}", f"; MaxNodes: {params.machine_size}",
        f"; Note: schedlab {__version__} synthesize, SeedSequence entropy {seed}, "
        f"arrival polynomial {info['arrival_polynomial']}",
        "; Note: cancelled jobs have status 5; cancellation instants and the moldable",
        ";       alternatives are in the parquet files next to this one",
    ])
    write_swf(sm.output.swf, swf_table(jobs), header)
    smk.log_to(sm)(f"{sm.wildcards.model}/{seed}: {len(jobs)} jobs, {len(alts)} alternatives")


smk.run(main, snakemake)
