"""Snakemake adapter: one baseline simulation -> results/sim/{trace}/{scheduler}/{jobs.parquet,summary.json}."""

from schedlab.cli.sim import run_simulation
from schedlab.errors import ConfigError
from schedlab.io import read_parquet, write_json, write_parquet
from schedlab.pipeline import smk
from schedlab.traces.normalize import normalize
from schedlab.traces.swf import SWFHeader

OPTIONS = {"procs_field", "cancelled", "tie_rule", "machine_size"}


def main(sm):
    opts = dict(sm.params.options or {})
    unknown = set(opts) - OPTIONS
    if unknown:
        raise ConfigError(
            f"config sim: unknown option(s) {sorted(unknown)}; known: {sorted(OPTIONS)}"
        )
    table, meta = read_parquet(sm.input[0])
    header = SWFHeader.from_dict(meta.get("swf_header", {}))
    norm = normalize(
        table,
        header,
        machine_size=opts.get("machine_size"),
        procs=opts.get("procs_field", "requested"),
        cancelled=opts.get("cancelled", "keep"),
        source=sm.input[0],
    )
    prov = {"trace": sm.wildcards.trace, "trace_sha256": meta.get("sha256")}
    jobs, summary, out_meta = run_simulation(
        norm,
        header,
        sm.wildcards.scheduler,
        tie_rule=opts.get("tie_rule"),
        provenance=prov,
    )
    write_parquet(sm.output.jobs, jobs, out_meta)
    summary.pop("wall_time_s", None)  # keep the summary byte-identical across reruns
    write_json(sm.output.summary, summary)
    smk.log_to(sm)(f"{sm.wildcards.trace} {sm.wildcards.scheduler}: {summary['jobs']} jobs")


smk.run(main, snakemake)
