# One rule family serves every paper (the contract: src/schedlab/papers/__init__.py). For each paper
# run (PAPERS_RUN; a package lacking part of the contract is a one-line error at parse time):
#   <paper>_point     one job per experiment point: results/<paper>/runs/<point>/done.json (+ frames)
#   <paper>_assemble  tables, figures and scorecard: results/<paper>/{tables,figures}/, scorecard.parquet
#   <paper>           the paper's target (the report reads its inputs)
# The target also builds the paper's `extra_targets(s)` (rules of workflow/rules/<paper>.smk).
# Settings are resolved once (common.smk: PAPER_SETTINGS), passed to every job as a param in their
# JSON-able form (editing one reruns what depends on it). Paper-specific steps a point cannot express stay in
# workflow/rules/<paper>.smk, included before this file. Its helpers (point_done, point_input) are in
# common.smk (snakemake --lint: no functions beside rules).
from dataclasses import asdict

PAPER_POINTS = {}
PAPER_OUTPUTS = {}
try:
    for _p in PAPERS_RUN:
        PAPER_POINTS[_p] = {pt.id: pt for pt in PAPER_MODULES[_p].points(PAPER_SETTINGS[_p])}
        PAPER_OUTPUTS[_p] = PAPER_MODULES[_p].outputs(PAPER_SETTINGS[_p])
except SchedlabError as _e:
    _smk.fail(_e)


for _p in PAPER_POINTS:
    _out = PAPER_OUTPUTS[_p]
    _targets = [
        *[f"results/{_p}/tables/{t}.parquet" for t in _out.tables],
        *[f"results/{_p}/figures/{f}.{ext}" for f in _out.figures for ext in ("png", "pdf")],
        f"results/{_p}/scorecard.parquet",
    ]

    rule:
        name:
            f"{_p}_point"
        input:
            unpack(point_input(_p)),
        output:
            f"results/{_p}/runs/{{point}}/done.json",
        wildcard_constraints:
            point="|".join(re.escape(k) for k in PAPER_POINTS[_p]) or "no-point",
        params:
            paper=_p,
            settings=PAPER_SETTINGS[_p].to_dict(),
            point=lambda wc, _p=_p: asdict(PAPER_POINTS[_p][wc.point]),
        conda:
            "../envs/schedlab.yaml"
        log:
            f"logs/{_p}/runs/{{point}}.log",
        script:
            "../../scripts/paper_point.py"

    rule:
        name:
            f"{_p}_assemble"
        input:
            runs=[point_done(_p, pid) for pid in PAPER_POINTS[_p]],
            files=list(_out.inputs),
        output:
            _targets,
        params:
            paper=_p,
            settings=PAPER_SETTINGS[_p].to_dict(),
            points=list(PAPER_POINTS[_p]),
        conda:
            "../envs/schedlab.yaml"
        log:
            f"logs/{_p}/assemble.log",
        script:
            "../../scripts/paper_assemble.py"

    rule:
        name:
            _p
        input:
            _targets,
            list(PAPER_MODULES[_p].extra_targets(PAPER_SETTINGS[_p])),

    ALL_TARGETS.extend(_targets)
