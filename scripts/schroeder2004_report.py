"""Snakemake adapter: figures (PNG + PDF) and the scorecard of Schroeder & Harchol-Balter (2004)."""

from pathlib import Path

import pandas as pd

from schedlab import __version__
from schedlab.papers import schroeder2004 as s04
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.report.plotting import save_figure


def main(sm):
    cfg = sm.params.cfg
    table1, _ = read_parquet(sm.input.table1)
    cuts, _ = read_parquet(sm.input.cutoffs)
    analysis, _ = read_parquet(sm.input.analysis)
    sims = pd.concat([read_parquet(p)[0] for p in sm.input.sims], ignore_index=True)
    figdir = Path(sm.output.figures[0]).parent
    for stem, fig in s04.figures(cuts, sims, analysis, cfg).items():
        save_figure(fig, figdir / stem)
    card = s04.scorecard(table1, cuts, sims, analysis, sm.params.published, cfg)
    meta = s04.provenance(cfg, sm.params.sha256, __version__)
    write_parquet(sm.output.scorecard, card, meta)
    write_parquet(sm.output.attribution,
                  s04.service_order_attribution(sims, cuts, analysis, cfg), meta)


smk.run(main, snakemake)
