"""Snakemake adapter: one paper's (or one study's) tables, figures and scorecard from its points
(rule <run>_assemble)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

import time
from pathlib import Path

from schedlab.papers import load
from schedlab.papers.runner import assemble


def main(sm):
    log = smk.log_to(sm)
    paper = sm.params.paper
    t0 = time.process_time()
    module = load(paper)
    out = Path(next(f for f in sm.output if f.endswith("scorecard.parquet"))).parent
    tables = assemble(module, paper, module.Settings.from_dict(sm.params.settings),
                      dict(zip(sm.params.points, sm.input.runs, strict=True)), {f: f for f in sm.input.files},
                      out, sm.params.log)
    log(f"{out}: {len(tables)} tables, {time.process_time() - t0:.1f} CPU-s")


smk.run(main, snakemake)
