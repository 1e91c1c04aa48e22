# Shared helpers included first: the trace registry, the mirror, the list of default targets.
import os
import re
import sys
from pathlib import Path

import schedlab.papers as _papers
from schedlab.papers import PAPERS, point_done
from schedlab.papers import point_input as papers_point_input
from schedlab.pipeline.config import papers_to_run
from schedlab.sim.options import SIM_OPTION_KEYS, SimOptions
from schedlab.traces.registry import check_local_changes, load_registry, mirror_dir

PAPER_KEYS = list(PAPERS)
# The output root of this run's papers, robustness matrix and merged scorecard: results/ for the
# default and quick scales, results/paper-scale/ for config `full` (schedlab.papers.run_root).
RUN_SCALE = _papers.run_scale(config)
RUN_ROOT = _papers.run_root(config)
try:
    REGISTRY = load_registry(config["registry"])
    MIRROR = mirror_dir(config.get("trace_mirror"))
    if MIRROR is not None and not MIRROR.is_dir():
        _src = "$SCHEDLAB_TRACE_MIRROR" if os.environ.get("SCHEDLAB_TRACE_MIRROR") else "config trace_mirror"
        raise SchedlabError(f"trace mirror {MIRROR} ({_src}): no such directory")
    # a local (path:) trace changed since its hash was locked: error, or accepted when named
    for _name in check_local_changes(REGISTRY, config.get("accept_trace_changes") or []):
        print(f"schedlab: accepted the changed file of trace {_name} (lock updated)", file=sys.stderr)
except SchedlabError as _e:
    _smk.fail(_e)
TRACE_NAMES = REGISTRY.names()
# config `sim:` holds the engine options (schedlab.sim.options.SimOptions, e.g. tie_rule) of every
# engine simulation: the baseline runs (sim.smk), the papers' runs (papers.smk: each paper's
# settings resolve its settings file's `sim:` pins over them, and so do their studies). They reach the
# jobs as params (data), so changing them reruns what depends on them.
try:
    SIM_OPTIONS = SimOptions.from_mapping(
        {k: v for k, v in (config.get("sim") or {}).items() if k in SIM_OPTION_KEYS}, "config sim")
except SchedlabError as _e:
    _smk.fail(_e)


def trace_is_local(name):
    """Registered, and downloaded already, in the mirror, or a registered local path."""
    if name not in REGISTRY:
        return False
    e = REGISTRY[name]
    return (
        Path(f"resources/traces/{name}.swf.gz").is_file()
        or (MIRROR is not None and (MIRROR / e.file).is_file())
        or (e.path is not None and Path(e.path).is_file())
    )


# Every paper's settings, resolved once (the contract: src/schedlab/papers/__init__.py). A paper
# whose logs (`logs(s)`) a custom registry lacks is skipped with one warning line; with the default
# registry a missing log is an error.
PAPER_ENV = _papers.Env(
    trace_local=trace_is_local,
    machine_size=lambda name: REGISTRY[name].machine_size if name in REGISTRY else None,
    expected_sha256=lambda name: REGISTRY.expected_sha256(name) if name in REGISTRY else None,
    sim=SIM_OPTIONS,
)
try:
    PAPER_MODULES = {p: _papers.load(p) for p in PAPER_KEYS}
    PAPER_SETTINGS = {p: m.settings(config, PAPER_ENV) for p, m in PAPER_MODULES.items()}
    PAPERS_RUN, _warning = papers_to_run(
        {p: m.logs(PAPER_SETTINGS[p]) for p, m in PAPER_MODULES.items()},
        REGISTRY,
        strict=Path(config["registry"]).resolve() == Path("config/traces.yaml").resolve(),
    )
except SchedlabError as _e:
    _smk.fail(_e)
if _warning:
    print(_warning, file=sys.stderr)
# Each included .smk appends the targets it wants built by `snakemake` with no target.
ALL_TARGETS = []


def registry_names(names):
    """``names`` as a list, each checked against the registry (a clear error for an unknown one)."""
    for n in names:
        REGISTRY[n]
    return list(names)


def selected_traces():
    """The traces of the aggregate targets (config `traces`)."""
    sel = config.get("traces", "available")
    if sel == "all":
        return list(TRACE_NAMES)
    if sel == "available":
        return [n for n in TRACE_NAMES if trace_is_local(n)]
    return registry_names(sel)


def paper_outputs(wildcards):
    """Everything the included paper targets produce (a paper without a rule file is skipped)."""
    defined = {r.name for r in workflow.rules}
    return [f for key in PAPER_KEYS if key in defined for f in getattr(rules, key).input]


def point_input(run):
    """The input files of a run's point jobs (papers.smk), by wildcards: the point's files and
    the ``done.json`` of the points it needs (``PAPER_RUNS``, ``PAPER_POINTS``)."""
    paper, log, _ = PAPER_RUNS[run]
    return lambda wc: papers_point_input(paper, PAPER_POINTS[run][wc.point], log, RUN_ROOT)
