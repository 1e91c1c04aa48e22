"""Snakemake adapter: Tang et al. 2013 Table 4 (seconds per scheduling iteration vs W), measured here.

Wall-clock timings are the one output of this study that is not byte-identical between runs.
"""

from schedlab import __version__
from schedlab.papers.tang2013 import LogSpec, iteration_seconds, workload
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.traces.swf import SWFHeader


def main(sm):
    spec = LogSpec(**{**sm.params.spec, "jobs": int(sm.params.jobs)})
    trace, meta = read_parquet(sm.input.trace)
    header = SWFHeader.from_dict(meta["swf_header"]) if "swf_header" in meta else None
    jobs, report = workload(trace, header, spec, sm.params.selection)
    table = iteration_seconds(jobs, spec, list(sm.params.windows))
    smk.log_to(sm)(table.to_string())
    write_parquet(sm.output[0], table, {"paper": "tang2013", "trace": spec.trace,
                                        "substitute": spec.substitute, "normalization": report,
                                        "schedlab_version": __version__})


smk.run(main, snakemake)
