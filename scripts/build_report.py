"""Snakemake adapter: combined scorecard + HTML report from the paper outputs under results/
(and the studies on the logs marked ``study: true``, results/studies/)."""

from pathlib import Path

from schedlab import __version__
from schedlab.pipeline import smk
from schedlab.report.html import build_report


def main(sm):
    out_html = Path(sm.output.html)
    build_report(Path("results"), sm.params.papers, out_html, Path(sm.output.scorecard),
                 {"schedlab_version": __version__, "papers": ", ".join(sm.params.papers)},
                 studied_traces=dict(sm.params.studied_traces),
                 extra_scorecards=dict(sm.params.extra_scorecards),
                 claims_dir=Path(sm.input.claims[0]).parent if sm.input.claims else None)


smk.run(main, snakemake)
