# Shared helpers included first: the trace registry, the mirror, the list of default targets.
import os
import re
from pathlib import Path

from schedlab.registry import load_registry, mirror_dir

REGISTRY = load_registry(config["registry"])
MIRROR = mirror_dir(config.get("trace_mirror"))
TRACE_NAMES = REGISTRY.names()
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


PAPER_KEYS = ["schroeder2004", "talby2005", "tang2013", "perkovic2000", "cirne2001"]


def paper_outputs(wildcards):
    """Everything the included paper targets produce (a paper without a rule file is skipped)."""
    defined = {r.name for r in workflow.rules}
    return [f for key in PAPER_KEYS if key in defined for f in getattr(rules, key).input]
