"""Snakemake adapter: Tang et al. 2013 attribution rows (both job selections) -> the runs table,
the per-reading fit to Table 3 (schedlab.papers.tang2013.attribution_table) and the unfair counts
per reading and configuration (schedlab.papers.tang2013.unfair_table): every fair-start reading
under the strict count; under every counting rule, the configured reading, the same with the
run's backfilling in the probe, and the plainest reading."""

import pandas as pd

from schedlab import __version__
from schedlab.papers import tang2013 as t
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(sm):
    cfg = sm.params.cfg
    rows = pd.concat([read_parquet(p)[0] for p in sm.input], ignore_index=True)
    table = t.attribution_table(rows, cfg)
    unfair = t.unfair_table(rows, cfg)
    configured = {**t.PLAIN_FAIR_READING, **cfg.get("fair_start", {})}
    readings = {t.reading_name(r) for r in (configured, {**configured, "backfill": "policy"},
                                            t.PLAIN_FAIR_READING)}
    margins = t.unfair_table(rows, cfg, readings=sorted(readings), count_rules=t.COUNT_RULES)
    meta = {"paper": "tang2013", "seed": None, "schedlab_version": __version__,
            "note": "SP2: job selection x queue-depth threshold x fair-start reading vs Table 3"}
    write_parquet(sm.output.runs, rows, meta)
    write_parquet(sm.output.table, table, meta)
    write_parquet(sm.output.unfair, unfair, meta)
    write_parquet(sm.output.margins, margins, meta)
    log = smk.log_to(sm)
    for df in (table, unfair, margins):
        log(df.to_string())


smk.run(main, snakemake)
