"""Snakemake adapter: combined scorecard + HTML report from the paper outputs under the run's root
(results/, or results/paper-scale/ at paper scale), the studies on the logs marked ``study: true``
(results/studies/) and, when it exists, the other scale's merged scorecard (the scale-sensitivity
table, results/scale_sensitivity.parquet)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from pathlib import Path

from schedlab import __version__
from schedlab.report.html import build_report


def main(sm):
    out_html = Path(sm.output.html)
    build_report(Path("results"), sm.params.papers, out_html, Path(sm.output.scorecard),
                 {"schedlab_version": __version__, "papers": ", ".join(sm.params.papers)},
                 studied_traces=dict(sm.params.studied_traces),
                 extra_scorecards=dict(sm.params.extra_scorecards),
                 claims_dir=Path(sm.input.claims[0]).parent if sm.input.claims else None,
                 # the run's root is its merged scorecard's folder (results/ or results/paper-scale/)
                 scale=sm.params.scale, root=Path(sm.output.scorecard).parent,
                 other_scorecards=dict(zip(sm.params.other_scales, map(Path, sm.input.other_scale),
                                           strict=True)),
                 out_sensitivity=getattr(sm.output, "sensitivity", None),
                 scale_causes=next(map(Path, getattr(sm.input, "scale_causes", [])), None))


smk.run(main, snakemake)
