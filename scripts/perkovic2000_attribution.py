"""Snakemake adapter: attribution readings -> tables/attribution.parquet (+ a Markdown copy)."""

from pathlib import Path

import pandas as pd

from schedlab import __version__
from schedlab.papers import perkovic2000 as pk
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet


def main(sm):
    log = smk.log_to(sm)
    s = sm.params.settings
    readings = sm.params.readings
    rows = [pk.published_attribution_row(s["published"])]
    for name, path in zip(readings, sm.input, strict=True):
        df, _ = read_parquet(path)
        rows.append(pk.attribution_row(name, readings[name], df))
    table = pd.DataFrame(rows)
    write_parquet(sm.output.table, table, {"paper": pk.PAPER, "schedlab_version": __version__})
    tmp = Path(str(sm.output.markdown) + ".tmp")
    tmp.write_text(table.drop(columns=["settings"]).T.to_markdown(floatfmt=".3g") + "\n")
    tmp.replace(sm.output.markdown)
    log(f"perkovic2000 attribution: {len(readings)} readings")


smk.run(main, snakemake)
