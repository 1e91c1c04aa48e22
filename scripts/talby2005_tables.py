"""Snakemake adapter: Talby & Feitelson 2005 runs -> tables, figures and scorecard."""

from pathlib import Path

from schedlab import __version__
from schedlab.papers import talby2005 as tf
from schedlab.papers import talby2005_attribution as attr
from schedlab.papers import talby2005_figures as figs
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, read_parquet_metadata, write_parquet
from schedlab.report.plotting import save_figure
from schedlab.report.scorecard import scorecard_frame
from schedlab.traces.swf import SWFHeader


def main(sm):
    cfg = sm.params.cfg
    runs, stats = {}, {}
    for (log, version, kind, name), path in zip(sm.params.points, sm.input.runs, strict=True):
        jobs, meta = read_parquet(path)
        runs[(log, version, kind, name)] = jobs
        stats[(log, version, kind, name)] = meta["stats"]
    traces = {}
    for (log, version), path in zip(sm.params.trace_keys, sm.input.traces, strict=True):
        trace, meta = read_parquet(path)
        header = SWFHeader.from_dict(meta["swf_header"])
        size = sm.params.machine_sizes[f"{log}-{version}"] or header.machine_size
        traces[(log, version)] = (trace, size, header.time_zone_string, header.unix_start_time)
    tables = tf.build_tables(runs, stats, traces, cfg, cfg.get("min_month_jobs", 1))
    attr_runs = {}
    for log, r, c, point in sm.params.attr:
        d = runs[tuple(point)]
        attr_runs[(log, r, c)] = (attr.month_sums(d) if point[2] == "sched" else
                                  d[(d["reading"] == r) & (d["cancelled"] == c)])
    tables |= attr.build(attr_runs, cfg, cfg.get("min_month_jobs", 1))
    out = Path(sm.params.outdir)
    prov = {"paper": "talby2005", "schedlab_version": __version__, "scheduler_options": cfg["scheduler_options"],
            "main_version": cfg["main_version"],
            "runs": {"/".join(k): read_parquet_metadata(p).get("trace_sha256")
                     for k, p in zip(sm.params.points, sm.input.runs, strict=True)}}
    for name, df in tables.items():
        write_parquet(out / "tables" / f"{name}.parquet", df, prov)
    t2, ad = tables["table2"], tables["adaptive"]
    t2 = t2[t2["version"] == cfg["main_version"]] if len(t2) else t2
    pub2 = cfg["published"]["table2"]
    for stem, fig in (
        ("monthly_wait", figs.monthly_wait(tables["monthly"])),
        ("fig2_pbas", figs.pbas_by_frame(ad, t2, pub2)),
        ("fig3_pbas_candidates", figs.pbas_candidates(ad, t2, pub2)),
        ("fig5_wbas", figs.wbas_sweeps(ad, t2, cfg["wbas"]["maf_fixed"],
                                       cfg["wbas"]["switch_fixed_s"], pub2)),
        ("attr_easy_maui", figs.attr_easy_maui(tables["attr_easy_maui"])),
        ("attr_cancelled_slack", figs.attr_cancelled_slack(tables["attr_runs"], cfg["cancelled"])),
    ):
        if fig is None:
            fig, ax = figs.new_figure()
            ax.text(0.5, 0.5, "not run in this configuration", ha="center", va="center")
            ax.set_axis_off()
        save_figure(fig, out / "figures" / stem)
    rows = tf.scorecard_rows(cfg["published"], tables, cfg["main_version"],
                             sm.params.raw_available, cfg.get("tolerance"), cfg["cancelled"],
                             cfg.get("claim_tolerance"), sm.params.adaptive_logs,
                             cfg.get("blue_cost_note", ""), sm.params.main_logs)
    write_parquet(out / "scorecard.parquet", scorecard_frame(rows), prov)


smk.run(main, snakemake)
