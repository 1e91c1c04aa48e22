"""Snakemake adapter: thesis Tables 1-10 beside our fits -> results/models/cirne2001/."""

import json
from pathlib import Path

import pyarrow.parquet as pq

from schedlab import __version__, smk
from schedlab.io import read_parquet_metadata, write_parquet
from schedlab.models.compare import comparison_tables, scorecard_rows
from schedlab.scorecard import scorecard_frame


def main(sm):
    cfg = sm.params.cfg
    workloads = cfg["workloads"]
    fits, info = {}, {}
    for trace, model_dir, clean in zip(sm.params.traces, sm.input.models, sm.input.clean,
                                       strict=True):
        fits[trace] = {p.stem: json.loads(p.read_text()) for p in Path(model_dir).glob("*.json")}
        meta = read_parquet_metadata(clean)
        info[trace] = {"jobs": pq.ParquetFile(clean).metadata.num_rows,
                       "machine_size": meta["swf_header"].get("machine_size")}
    tables = comparison_tables(cfg["published"], workloads, fits, info)
    out = Path(sm.output.tables)
    provenance = {"paper": "cirne2001", "traces": {t: f["arrival"]["trace_sha256"]
                                                    for t, f in fits.items()},
                  "schedlab_version": __version__}
    for name, df in tables.items():
        write_parquet(out / f"{name}.parquet", df, provenance)
    rows = scorecard_rows(tables, fits, workloads, cfg.get("tolerance", 0.10),
                          cfg["published"].get("outlier_day_example"))
    write_parquet(sm.output.scorecard, scorecard_frame(rows), provenance)
    smk.log_to(sm)(f"{len(tables)} comparison tables, {len(rows)} scorecard rows")


smk.run(main, snakemake)
