"""Snakemake adapter: fit Cirne's rigid-model quantities and Downey's distributions to a cleaned
trace -> results/models/{trace}/{model}.json + figures/{model}.png|pdf."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from pathlib import Path

from schedlab import __version__
from schedlab.io import read_parquet, write_json
from schedlab.models.arrival import PUBLISHED_POLYNOMIALS
from schedlab.models.fit import fit_all
from schedlab.models.plots import fit_figures
from schedlab.report.plotting import save_figure
from schedlab.traces.swf import SWFHeader


def main(sm):
    name = sm.wildcards.trace
    out = Path(sm.output[0])
    jobs, meta = read_parquet(sm.input[0])
    header = SWFHeader.from_dict(meta["swf_header"])
    fits = fit_all(jobs, trace=name, sha256=meta.get("sha256"),
                   unix_start=header.unix_start_time, tz=header.time_zone_string,
                   arrival=sm.params.arrival, machine_size=header.machine_size,
                   on_error=sm.params.on_error)
    dicts = {}
    for model, res in fits.items():
        d = res.to_dict() | {"schedlab_version": __version__}
        write_json(out / f"{model}.json", d)
        dicts[model] = d
    workload = next((w for w, t in sm.params.workloads.items() if t == name), None)
    published = {t: v[workload] for t, v in sm.params.published.items()
                 if workload and isinstance(v, dict) and workload in v}
    poly = next((p for p in PUBLISHED_POLYNOMIALS if p.name == workload), None)
    for fig_name, fig in fit_figures(jobs, dicts, name, published, poly).items():
        save_figure(fig, out / "figures" / fig_name)
    log = smk.log_to(sm)
    for res in fits.values():
        if not res.fitted:
            log(f"{name}: model {res.model} {res.notes[0]}")
    log(f"{name}: {sum(r.fitted for r in fits.values())} of {len(fits)} models fitted -> {out}")


smk.run(main, snakemake)
