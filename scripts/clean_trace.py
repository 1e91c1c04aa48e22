"""Snakemake adapter: apply the archive's published filters (config/flurries.yaml) to a parsed
trace -> results/traces/{trace}/clean.parquet (+ per-filter report); optionally also drop the
flurry detector's candidates (config clean.remove_flurries)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

import pandas as pd

from schedlab import __version__
from schedlab.io import read_parquet, write_parquet
from schedlab.traces.clean import clean_jobs, filters_for, load_filters
from schedlab.traces.flurry import remove_flurries
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    name = sm.wildcards.trace
    jobs, meta = read_parquet(sm.input.jobs)
    header = SWFHeader.from_dict(meta["swf_header"])
    filters = filters_for(name, load_filters(sm.input.filters))
    if filters is None:
        log(f"{name}: no published cleaning filters; jobs kept as they are")
        filters = []
    kept, report = clean_jobs(jobs, filters, header, sm.params.strict_precedence)
    report.insert(0, "trace", name)
    if sm.params.remove_flurries:
        cand, _ = read_parquet(sm.input.flurries)
        kept, n = remove_flurries(kept, cand)
        report = pd.concat([report, pd.DataFrame([{
            "trace": name, "filter": len(report) + 1, "expr": "flurry detector candidates",
            "removed": n, "archive_removed": pd.NA}])], ignore_index=True)
        report["archive_removed"] = report["archive_removed"].astype("Int64")
    for r in report.itertuples():
        log(f"{name}: filter {r.filter} {r.expr!r}: {r.removed} jobs removed "
            f"(archive, from the raw log: {r.archive_removed})")
    meta = meta | {"cleaning": report.drop(columns="trace").to_dict("records"),
                   "jobs_before_cleaning": len(jobs), "schedlab_version": __version__}
    write_parquet(sm.output.report, report, {"trace": name, "sha256": meta.get("sha256")})
    write_parquet(sm.output.clean, kept, meta)
    log(f"{name}: {len(jobs)} -> {len(kept)} jobs")


smk.run(main, snakemake)
