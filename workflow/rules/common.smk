# Shared helpers included first: the trace registry, the mirror, the list of default targets.
import os
import re
import sys
from pathlib import Path

from schedlab.pipeline.config import papers_to_run
from schedlab.traces.registry import check_local_changes, load_registry, mirror_dir

PAPER_KEYS = ["schroeder2004", "talby2005", "tang2013", "perkovic2000", "cirne2001"]
try:
    REGISTRY = load_registry(config["registry"])
    MIRROR = mirror_dir(config.get("trace_mirror"))
    if MIRROR is not None and not MIRROR.is_dir():
        _src = "$SCHEDLAB_TRACE_MIRROR" if os.environ.get("SCHEDLAB_TRACE_MIRROR") else "config trace_mirror"
        raise SchedlabError(f"trace mirror {MIRROR} ({_src}): no such directory")
    # a local (path:) trace changed since its hash was locked: error, or accepted when named
    for _name in check_local_changes(REGISTRY, config.get("accept_trace_changes") or []):
        print(f"schedlab: accepted the changed file of trace {_name} (lock updated)", file=sys.stderr)
    # the papers' logs are named in config/traces.yaml; a custom registry may leave some out
    _default = Path("config/traces.yaml")
    if Path(config["registry"]).resolve() == _default.resolve():
        PAPERS_RUN, _warning = list(PAPER_KEYS), None
    else:
        PAPERS_RUN, _warning = papers_to_run(PAPER_KEYS, REGISTRY, load_registry(_default))
except SchedlabError as _e:
    _smk.fail(_e)
if _warning:
    print(_warning, file=sys.stderr)
TRACE_NAMES = REGISTRY.names()
# config `sim: {tie_rule: ...}` is the event order of every engine simulation (baseline runs and
# the papers' engine runs): each script sets it for its job (src/schedlab/pipeline/smk.py, sim/options.py).
# Rules whose results depend on it carry it as a param, so changing it reruns them.
SIM_TIE_RULE = (config.get("sim") or {}).get("tie_rule") or "default"
# Each included .smk appends the targets it wants built by `snakemake` with no target.
ALL_TARGETS = []


def trace_is_local(name):
    """Downloaded already, in the mirror, or a registered local path."""
    e = REGISTRY[name]
    return (
        Path(f"resources/traces/{name}.swf.gz").is_file()
        or (MIRROR is not None and (MIRROR / e.file).is_file())
        or (e.path is not None and Path(e.path).is_file())
    )


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


def study_traces():
    """The logs of the per-log studies (config `study_traces`; independent of `traces`)."""
    sel = config.get("study_traces", "marked")
    if sel == "marked":
        return [n for n in TRACE_NAMES if REGISTRY[n].study and trace_is_local(n)]
    return registry_names(sel)


def paper_outputs(wildcards):
    """Everything the included paper targets produce (a paper without a rule file is skipped)."""
    defined = {r.name for r in workflow.rules}
    return [f for key in PAPER_KEYS if key in defined for f in getattr(rules, key).input]


def point_done(paper, pid):
    """The done.json of a paper contract point (papers.smk)."""
    return f"results/{paper}/runs/{pid}/done.json"


def point_input(paper):
    """The input function of <paper>_point (papers.smk): the point's files and the done.json of
    the points it needs (PAPER_POINTS, papers.smk)."""

    def files(wc):
        p = PAPER_POINTS[paper][wc.point]
        return {"files": list(p.inputs), "needs": [point_done(paper, n) for n in p.needs]}

    return files
