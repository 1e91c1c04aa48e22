"""Snakemake adapter: CTC-SP2 trace table -> Perković & Keleher 2000 simulation jobs.

Writes the whole normalized log (Tables 1-2) and the simulated subset (first ``max_jobs`` jobs).
"""

from schedlab import __version__
from schedlab.papers.perkovic2000 import prepare_jobs
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    trace, meta = read_parquet(sm.input[0])
    header = SWFHeader.from_dict(meta["swf_header"])
    s = sm.params.settings
    common = {"paper": "perkovic2000", "trace": s["trace"], "trace_sha256": meta.get("sha256"),
              "machine": int(s["machine"]), "schedlab_version": __version__}
    full, report_full = prepare_jobs(trace, header, int(s["machine"]), None, sm.input[0])
    max_jobs = sm.params.max_jobs
    sub, report = prepare_jobs(trace, header, int(s["machine"]), max_jobs, sm.input[0])
    write_parquet(sm.output.all, full, {**common, "normalization": report_full})
    write_parquet(sm.output.sim, sub, {**common, "normalization": report, "max_jobs": max_jobs})
    log(f"perkovic2000 jobs: {len(full)} normalized, {len(sub)} simulated; report {report}")


smk.run(main, snakemake)
