"""Snakemake adapter: one baseline simulation -> results/sim/{trace}/{scheduler}/{jobs.parquet,summary.json}."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from schedlab.cli.sim import run_simulation
from schedlab.errors import ConfigError
from schedlab.io import read_parquet, write_json, write_parquet
from schedlab.sim.options import SIM_OPTION_KEYS, SimOptions
from schedlab.traces.normalize import normalize
from schedlab.traces.swf import SWFHeader

#: config ``sim:`` keys of the normalization; the others are the engine's (SimOptions)
NORMALIZATION = ("procs_field", "cancelled", "machine_size")


def main(sm):
    opts = dict(sm.params.options or {})
    unknown = set(opts) - {*NORMALIZATION, *SIM_OPTION_KEYS}
    if unknown:
        raise ConfigError(f"config sim: unknown option(s) {sorted(unknown)}; known: "
                          f"{sorted({*NORMALIZATION, *SIM_OPTION_KEYS})}")
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
    jobs, summary, out_meta = simulate_under(opts, norm, header, sm.wildcards.scheduler, prov)
    write_parquet(sm.output.jobs, jobs, out_meta)
    summary.pop("wall_time_s", None)  # keep the summary byte-identical across reruns
    write_json(sm.output.summary, summary)
    smk.log_to(sm)(f"{sm.wildcards.trace} {sm.wildcards.scheduler}: {summary['jobs']} jobs")


def simulate_under(config_sim, norm, header, scheduler, provenance):
    """The run under the engine options of the config's ``sim:`` (its tie rule and the rest)."""
    engine = SimOptions.from_mapping({k: config_sim[k] for k in SIM_OPTION_KEYS if k in config_sim},
                                     "config sim")
    return run_simulation(norm, header, scheduler, engine, provenance=provenance)


smk.run(main, snakemake)
