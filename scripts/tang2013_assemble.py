"""Snakemake adapter: Tang et al. 2013 Tables 2-4, sweep, gains, attribution, Figures 3-12 and the
scorecard."""

from pathlib import Path

import pandas as pd

from schedlab import __version__
from schedlab.papers import tang2013 as t
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.report.plotting import save_figure


def main(sm):
    cfg = sm.params.cfg
    out = str(Path(sm.output[-1]).parent)  # results/tang2013 (the scorecard is the last output)
    specs = [t.LogSpec(**s) for s in sm.params.specs]
    summary = pd.concat([read_parquet(p)[0] for p in sm.input.summaries], ignore_index=True)
    series = {}
    for (label, point), p in zip(sm.params.series_keys, sm.input.series, strict=True):
        series.setdefault(label, {})[point] = read_parquet(p)[0]
    table4 = pd.concat([read_parquet(p)[0] for p in sm.input.table4], ignore_index=True)
    meta = {"paper": "tang2013", "logs": [s.describe() for s in specs],
            "fair_start": cfg["fair_start"], "gain_reading": cfg["gain_reading"],
            "seed": None, "schedlab_version": __version__}
    hours = float(cfg["plot_hours"])
    tables, maxqd, month_avg, published, th_rows = {}, {}, {}, {}, []
    for spec in specs:
        lab = spec.label
        tables[lab] = t.config_table(summary, cfg, lab)
        published[lab] = t.published_table(cfg, spec.table, lab)
        num = spec.table.split()[-1]
        write_parquet(f"{out}/tables/table{num}_{lab}.parquet", tables[lab], meta)
        s = series[lab]
        maxqd[lab] = {p: float(d[d["hours"] <= hours]["queue_depth_min"].max()) for p, d in s.items()}
        month_avg[lab] = t.month_average_threshold_min(s[t.BASE], cfg)
        used = t.qd_threshold_min(s[t.BASE], cfg, lab)
        pkey = "BGP" if spec.table == "Table 2" else "SP2"
        th_rows.append({"log": lab, "threshold_used_min": used,
                        "paper_threshold_min": cfg["published"]["qd_threshold_min"][pkey],
                        "our_month_average_min": month_avg[lab],
                        "mean_queue_depth_bf1_w1_min": float(s[t.BASE]["queue_depth_min"].mean())})
        f = spec.figures
        save_figure(t.fig_metrics(summary, spec, published[lab]),
                    f"{out}/figures/{f['metrics']}_{lab}")
        save_figure(t.fig_queue_depth(s, ["bf1_w1", "bf0.75_w1", "bf0.5_w1", "adapt-bf"], spec,
                                      hours, "Adaptive tuning of the balance factor", cfg,
                                      used),
                    f"{out}/figures/{f['bf_adapt']}_{lab}")
        save_figure(t.fig_utilization(s, spec, hours), f"{out}/figures/{f['util']}_{lab}")
        save_figure(t.fig_twod(s, spec, hours), f"{out}/figures/{f['twod']}_{lab}")
    gains = pd.concat([t.all_gains(tables[s.label], cfg["weightings"]) for s in specs],
                      ignore_index=True)
    gains_pub = pd.concat([t.all_gains(published[s.label], cfg["weightings"]).assign(
        source=f"published {s.table}") for s in specs], ignore_index=True)
    scores = pd.concat([t.scores(tables[s.label]) for s in specs], ignore_index=True)
    write_parquet(f"{out}/tables/sweep.parquet", summary, meta)
    write_parquet(f"{out}/tables/scores.parquet", scores, meta)
    write_parquet(f"{out}/tables/gains.parquet", gains, meta)
    write_parquet(f"{out}/tables/gains_published.parquet", gains_pub,
                  {**meta, "note": "Fig. 12 gains computed from the paper's own Tables 2-3"})
    write_parquet(f"{out}/tables/thresholds.parquet", pd.DataFrame(th_rows), meta)
    write_parquet(f"{out}/tables/table4.parquet", table4,
                  {**meta, "note": "placements: deterministic; seconds: wall-clock measurements "
                   "on this machine (not byte-identical between runs, no verdict)"})
    save_figure(t.fig_radar(tables, specs), f"{out}/figures/fig11_radar")
    save_figure(t.fig_gains(gains, specs, cfg, gains_pub), f"{out}/figures/fig12_gains")
    card = t.scorecard(t.scorecard_rows(cfg, specs, summary, tables, gains, table4, maxqd,
                                        month_avg))
    write_parquet(f"{out}/scorecard.parquet", card, meta)
    smk.log_to(sm)(card.to_string())


smk.run(main, snakemake)
