"""Snakemake adapter: one experiment point of one paper or study (rule <run>_point)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

import time

from schedlab.papers import Point, load
from schedlab.papers.runner import run_point


def main(sm):
    log = smk.log_to(sm)
    paper, p = sm.params.paper, sm.params.point
    point = Point(id=p["id"], inputs=tuple(p["inputs"]), needs=tuple(p["needs"]), spec=p["spec"])
    t0 = time.process_time()
    module = load(paper)
    frames = run_point(module, paper, module.Settings.from_dict(sm.params.settings), point,
                       {f: f for f in sm.input.files}, dict(zip(point.needs, sm.input.needs, strict=True)),
                       sm.output[0])
    log(f"{paper} {point.id}: {', '.join(f'{k} ({len(v)} rows)' for k, v in frames.items())}, "
        f"{time.process_time() - t0:.1f} CPU-s")


smk.run(main, snakemake)
