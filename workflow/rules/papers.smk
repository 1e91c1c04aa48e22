# One rule family serves every paper and every study (the contract: src/schedlab/papers/__init__.py).
# A run is a paper's own (PAPERS_RUN; a package lacking part of the contract is a one-line error at
# parse time) or its study on a log of config `study_traces` (schedlab.papers.study_pairs: a
# registry entry with `study: true` that is at hand gets its studies with no code). For each run:
#   <run>_point     one job per experiment point: <dir>/runs/<point>/done.json (+ frames)
#   <run>_assemble  tables, figures and scorecard: <dir>/{tables,figures}/, scorecard.parquet
#                   (a study's also <dir>/done.json)
# with <dir> = <root>/<paper> (run name <paper>; target <paper>, which also builds the paper's
# `extra_targets(s)`, rules of workflow/rules/<paper>.smk; <root> = RUN_ROOT: results, or
# results/paper-scale for config `full`) or results/studies/<log>/<paper> at every scale (run
# name study_<log>_<paper>; target `studies`: every study). A study's settings are the paper's at
# scale `study` with config `studies.<paper>` and the log in the place of its own (`with_log`).
# Settings are resolved once (common.smk: PAPER_SETTINGS), passed to every job as a param in their
# JSON-able form (editing one reruns what depends on it). Paper-specific steps a point cannot
# express stay in workflow/rules/<paper>.smk, included before this file. Its helpers (point_done,
# point_input) are in common.smk (snakemake --lint: no functions beside rules).
from dataclasses import asdict

# run name -> (paper, log or None, settings)
PAPER_RUNS = {p: (p, None, PAPER_SETTINGS[p]) for p in PAPERS_RUN}
PAPER_POINTS = {}
PAPER_OUTPUTS = {}
try:
    STUDY_PAIRS = _papers.study_pairs(config, REGISTRY, PAPER_ENV, PAPERS_RUN)
    for _log, _p in STUDY_PAIRS:
        PAPER_RUNS[_papers.study_run(_log, _p)] = (
            _p,
            _log,
            _papers.study_settings(PAPER_MODULES[_p], _p, config, PAPER_ENV, _log),
        )
    for _run, (_p, _log, _s) in PAPER_RUNS.items():
        PAPER_POINTS[_run] = {pt.id: pt for pt in PAPER_MODULES[_p].points(_s)}
        PAPER_OUTPUTS[_run] = PAPER_MODULES[_p].outputs(_s)
except SchedlabError as _e:
    _smk.fail(_e)
STUDY_TRACES = list(dict.fromkeys(_log for _log, _ in STUDY_PAIRS))
STUDY_OUTPUTS = [f"{_papers.paper_dir(_p, _log)}/done.json" for _log, _p in STUDY_PAIRS]


for _run, (_p, _log, _s) in PAPER_RUNS.items():
    _dir = _papers.paper_dir(_p, _log, RUN_ROOT)
    _out = PAPER_OUTPUTS[_run]
    _targets = [
        *[f"{_dir}/tables/{t}.parquet" for t in _out.tables],
        *[f"{_dir}/figures/{f}.{ext}" for f in _out.figures for ext in ("png", "pdf")],
        f"{_dir}/scorecard.parquet",
        *([f"{_dir}/done.json"] if _log is not None else []),
    ]
    _logs = _dir.removeprefix("results/")

    rule:
        name:
            f"{_run}_point"
        input:
            unpack(point_input(_run)),
        output:
            f"{_dir}/runs/{{point}}/done.json",
        wildcard_constraints:
            point="|".join(re.escape(k) for k in PAPER_POINTS[_run]) or "no-point",
        params:
            paper=_p,
            settings=_s.to_dict(),
            point=lambda wc, _run=_run: asdict(PAPER_POINTS[_run][wc.point]),
        conda:
            "../envs/schedlab.yaml"
        log:
            f"logs/{_logs}/runs/{{point}}.log",
        # the point's measured cost (wall s, cpu_time, max_rss MB): what the profiles' resources
        # for this rule are declared from (benchmarks/point_costs.py sums them; docs/slurm.md)
        benchmark:
            f"logs/{_logs}/runs/{{point}}.benchmark.tsv"
        script:
            "../../scripts/paper_point.py"

    rule:
        name:
            f"{_run}_assemble"
        input:
            runs=[point_done(_p, pid, _log, RUN_ROOT) for pid in PAPER_POINTS[_run]],
            files=list(_out.inputs),
        output:
            _targets,
        params:
            paper=_p,
            log=_log,
            settings=_s.to_dict(),
            points=list(PAPER_POINTS[_run]),
        conda:
            "../envs/schedlab.yaml"
        log:
            f"logs/{_logs}/assemble.log",
        script:
            "../../scripts/paper_assemble.py"

    if _log is None:

        rule:
            name:
                _p
            input:
                _targets,
                list(PAPER_MODULES[_p].extra_targets(_s)),

    ALL_TARGETS.extend(_targets)


rule studies:
    input:
        STUDY_OUTPUTS,
