"""Snakemake adapter: flurry candidates (never removed here) + per-user activity plot."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from schedlab import __version__
from schedlab.io import read_parquet, write_parquet
from schedlab.report.plotting import save_figure
from schedlab.traces.flurry import FlurrySettings, detect_flurries, plot_activity


def main(sm):
    name = sm.wildcards.trace
    jobs, meta = read_parquet(sm.input[0])
    settings = FlurrySettings(**(sm.params.settings or {}))
    cand = detect_flurries(jobs, settings)
    cand.insert(0, "trace", name)
    write_parquet(sm.output.candidates, cand,
                  {"trace": name, "sha256": meta.get("sha256"), "settings": settings.to_dict(),
                   "schedlab_version": __version__})
    save_figure(plot_activity(jobs, cand, title=f"{name}: jobs per day of the busiest users "
                              f"({len(cand)} flurry candidates shaded)"), sm.output.plot[0])
    smk.log_to(sm)(f"{name}: {len(cand)} flurry candidates")


smk.run(main, snakemake)
