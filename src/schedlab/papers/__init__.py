"""The reproduced papers, one package each, behind one contract (served by one rule family).

Each paper package ``schedlab.papers.<paper>`` (pure functions; file I/O is the runner's,
:mod:`schedlab.papers.runner`) exposes:

``title: str``
    the paper's authors, year and title (the report's heading).
``summary: str``
    one line: what is reproduced.
``Settings``
    the settings' type: a frozen dataclass, subclass of
    :class:`~schedlab.papers.settings.PaperSettings` (``to_dict``/``from_dict``: the JSON-able form
    the rules pass as a param, so editing a setting reruns what depends on it).
``settings(config: Mapping, env: Env) -> Settings``
    the paper's resolved settings from the pipeline config: its ``config/papers/<paper>.yaml`` at
    the scale the switches ask for, deep-merged with the overrides ``config["papers"][<paper>]``
    (:func:`schedlab.papers.settings.resolve`). Called once, when the workflow is parsed.
``logs(s) -> tuple[str, ...]``
    the registry logs the paper's points read at settings ``s`` (a custom registry lacking one
    skips the paper).
``log_names(s) -> dict[str, str]``
    how the scorecard's conditions name the paper's logs: name -> registry log (Talby's
    ``KTH``; a paper naming them by registry name maps each to itself). The robustness matrix
    (:mod:`schedlab.report.robustness`) reads it to line a claim on one of the paper's logs up
    with the same claim on a studied log.
``extra_targets(s) -> tuple[str, ...]``
    files the paper's target builds besides its assembly (rules of ``workflow/rules/<paper>.smk``);
    a ``scorecard.parquet`` among them joins the paper's scorecard in the report.
``points(s) -> list[Point]``
    the experiment points: each is one job (rule ``<paper>_point``), reading the files
    ``Point.inputs`` and the frames of the points ``Point.needs``.
``run_point(s, point: Point, inputs: Inputs) -> dict[str, pandas.DataFrame]``
    one point's frames by name (written as ``results/<paper>/runs/<point.id>/<name>.parquet``).
``outputs(s) -> Outputs``
    the names of the tables and figures ``tables``/``figures`` return, and the files the assembly
    reads besides the points (``Outputs.inputs``); the rule ``<paper>_assemble`` declares them.
``tables(s, runs: Mapping[str, Mapping[str, DataFrame]], inputs: Inputs) -> dict[str, DataFrame]``
    every table (``results/<paper>/tables/<name>.parquet``) from the points' frames (by point id).
``figures(s, tables) -> dict[str, matplotlib.figure.Figure]``
    every figure (``results/<paper>/figures/<name>.png`` and ``.pdf``), published values overlaid.
``scorecard(s, tables) -> DataFrame``
    the paper's rows of the scorecard (:mod:`schedlab.report.scorecard`):
    ``results/<paper>/scorecard.parquet``.
``with_log(s, log: str, env: Env) -> Settings``
    the settings ``s`` with the registry log ``log`` in the place of the paper's own log(s): the
    paper's study of that log (a paper reading several logs gives the study log one role and
    drops the others; :data:`study_role` says which).
``study_role: str``
    one line: what the study log replaces (the report shows it above the study's tables).

A study is the paper's own points at the ``study`` scale of its settings (``quick`` with config
``quick``) on another registered log (:func:`study_settings`): the same rules, runs, tables,
figures and scorecard under ``results/studies/<log>/<paper>/`` (:func:`paper_dir`) and a
``done.json`` when assembled. The logs studied are config ``study_traces`` (``marked``: the
registry entries with ``study: true`` that are at hand); :func:`study_pairs` lists every (log,
paper) of a config. The study's overrides are config ``studies: {<paper>: {...}}`` (the keys of
the paper's overrides).

A paper's own outputs are under its run's root (:func:`run_root`): ``results/`` at the default and
quick scales, ``results/paper-scale/`` at the paper scale (config ``full``), so the two sizes sit
side by side (the report's scale sensitivity, :mod:`schedlab.report.scale_sensitivity`); studies,
logs, models and synthetic workloads are shared.

The rule family (``workflow/rules/papers.smk``) defines, for every paper run, ``<paper>_point``
(one job per point), ``<paper>_assemble`` (tables, figures, scorecard) and the target ``<paper>``;
for every study the same two rules named ``study_<log>_<paper>_...`` and the target ``studies``.
A step no point can express stays in ``workflow/rules/<paper>.smk`` (e.g. Cirne's fitted models).

Every package has the same step modules (:data:`MODULES`; ``__init__`` only binds the contract's names
to them): ``config`` (the settings), ``points`` (the points, ``run_point`` and its dispatch),
``tabulate`` (tables), ``plots`` (figures), ``checks`` (the claim checks) and ``scoring`` (the scorecard
rows). Other modules are named after the paper's concepts. ``schedlab.papers._template`` is the
skeleton to copy for a new paper (docs/development.md).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import pandas as pd

from ..errors import ConfigError
from ..io import read_parquet
from ..sim.options import SimOptions
from .settings import PaperSettings, Switches, scale_of, switches

__all__ = [
    "CONTRACT",
    "MODULES",
    "PAPERS",
    "RESULTS",
    "ROOTS",
    "Env",
    "Inputs",
    "Outputs",
    "PaperSettings",
    "Point",
    "Switches",
    "load",
    "paper_dir",
    "point_done",
    "point_input",
    "run_by",
    "run_root",
    "run_scale",
    "study_logs",
    "study_pairs",
    "study_run",
    "study_settings",
    "switches",
    "trace_jobs",
]

#: The papers, in report order (package names under schedlab.papers).
PAPERS: tuple[str, ...] = ("schroeder2004", "talby2005", "tang2013", "perkovic2000", "cirne2001")


@dataclass(frozen=True)
class Point:
    """One experiment point: one job of rule ``<paper>_point``."""

    id: str  #: path-safe name, ``/`` allowed: ``results/<paper>/runs/<id>/``
    inputs: tuple[str, ...] = ()  #: pipeline files it reads (e.g. ``results/traces/<t>/jobs.parquet``)
    needs: tuple[str, ...] = ()  #: ids of the points whose frames it reads
    #: JSON-able description of what the point runs (the paper's own fields: log, scheduler, seed...)
    spec: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outputs:
    """What ``<paper>_assemble`` declares: table and figure names, and extra input files."""

    tables: tuple[str, ...]
    figures: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()  #: files the assembly reads besides the points' frames


@dataclass(frozen=True)
class Env:
    """What settings may ask of the pipeline (built by ``workflow/rules/papers.smk``)."""

    trace_local: Callable[[str], bool]  #: a registry trace is downloaded, mirrored or a local path
    machine_size: Callable[[str], int | None]  #: a registry trace's machine size
    expected_sha256: Callable[[str], str | None] = lambda name: None
    #: the workflow's engine options (config ``sim:``); a paper's settings resolve its settings
    #: file's ``sim:`` blocks over them (``env.sim.pinned(block)``): what a paper pins wins
    sim: SimOptions = SimOptions()


@dataclass(frozen=True)
class Inputs:
    """What a point (or the assembly) may read: its input files (by the path given in
    ``Point.inputs``/``Outputs.inputs``) and the frames of the points it needs (by point id)."""

    files: Mapping[str, Path] = field(default_factory=dict)
    points: Mapping[str, Mapping[str, pd.DataFrame]] = field(default_factory=dict)

    def path(self, name: str) -> Path:
        """The file given as ``name`` in the point's inputs (a clear error if it was not declared)."""
        if name not in self.files:
            raise ConfigError(f"input {name!r} is not among the declared inputs "
                              f"({', '.join(self.files) or 'none'})")
        return self.files[name]

    def table(self, name: str) -> tuple[pd.DataFrame, dict[str, Any]]:
        """A declared parquet input and its metadata."""
        return read_parquet(self.path(name))

    def trace(self, trace: str) -> tuple[pd.DataFrame, dict[str, Any]]:
        """``results/traces/<trace>/jobs.parquet`` (declared as an input) and its metadata."""
        return self.table(trace_jobs(trace))


def trace_jobs(trace: str) -> str:
    """The pipeline path of a parsed trace's job table."""
    return f"results/traces/{trace}/jobs.parquet"


#: What runs one kind of point: ``(settings, point, inputs) -> frames by name``.
Runner = Callable[[Any, "Point", "Inputs"], dict[str, pd.DataFrame]]


def run_by(runners: Mapping[str, Runner], key: str, paper: str, s: Any, point: Point,
           inputs: Inputs) -> dict[str, pd.DataFrame]:
    """``point``'s frames from the runner its ``spec[key]`` names (a paper's ``run_point``
    dispatch); a clear error for a name without a runner."""
    name = point.spec.get(key)
    if name not in runners:
        raise ConfigError(f"{paper} point {point.id}: unknown {key} {name!r}")
    return runners[name](s, point, inputs)


#: The folder of the outputs every scale shares (logs, fitted models, synthetic workloads, the
#: studies) and of the default's (and quick's) own.
RESULTS = "results"
#: The output root of each run scale the report compares: a paper-scale run (config ``full``)
#: writes its papers' outputs, robustness matrix and merged scorecard under its own root, so
#: neither scale overwrites the other. Quick runs share the default's.
ROOTS: dict[str, str] = {"default": RESULTS, "paper": f"{RESULTS}/paper-scale"}


def run_scale(config: Mapping[str, Any]) -> str:
    """The scale a pipeline config asks of its runs (config ``quick``, ``full``;
    :func:`~schedlab.papers.settings.scale_of` without a paper's overrides)."""
    return scale_of({}, bool(config.get("quick")), bool(config.get("full")))


def run_root(config: Mapping[str, Any]) -> str:
    """The output root of a pipeline config's paper runs, robustness matrix and merged
    scorecard (:data:`ROOTS`): ``results/paper-scale`` for config ``full``, else ``results``."""
    return ROOTS.get(run_scale(config), RESULTS)


def paper_dir(paper: str, log: str | None = None, root: str = RESULTS) -> str:
    """The pipeline folder of a paper's outputs: ``<root>/<paper>`` (``root``: :func:`run_root`),
    or of its study on ``log``: ``results/studies/<log>/<paper>`` whatever the root, since a
    study's settings are the paper's ``study`` scale at the default and the paper scale alike
    (:func:`study_config`): both runs share its files."""
    return f"{root}/{paper}" if log is None else f"{RESULTS}/studies/{log}/{paper}"


def study_run(log: str, paper: str) -> str:
    """The run name of ``paper``'s study on ``log``: the prefix of its rules (``<run>_point``,
    ``<run>_assemble``; workflow/rules/papers.smk)."""
    name = re.sub(r"\W", "_", log)
    return f"study_{name}_{paper}"


def point_done(paper: str, point_id: str, log: str | None = None, root: str = RESULTS) -> str:
    """The pipeline path of a finished point's ``done.json`` (``<paper_dir>/runs/<id>/``)."""
    return f"{paper_dir(paper, log, root)}/runs/{point_id}/done.json"


def point_input(paper: str, point: Point, log: str | None = None,
                root: str = RESULTS) -> dict[str, list[str]]:
    """The inputs of a point's rule: its ``files`` and the ``done.json`` of the points it
    ``needs`` (of the paper's own run under ``root``, or of its study on ``log``)."""
    return {"files": list(point.inputs),
            "needs": [point_done(paper, n, log, root) for n in point.needs]}


class Registry(Protocol):
    """What the studies read of the trace registry (:class:`schedlab.traces.registry.Registry`)."""

    def names(self) -> list[str]: ...
    def __contains__(self, name: object) -> bool: ...
    def __getitem__(self, name: str) -> Any: ...


def study_logs(config: Mapping[str, Any], registry: Registry, env: Env) -> list[str]:
    """The logs studied (config ``study_traces``): ``marked`` (the default) = every registry
    entry with ``study: true`` that is at hand (``env.trace_local``); or a list of registry names
    (marked or not; an unknown name is an error)."""
    sel = config.get("study_traces", "marked")
    if sel == "marked":
        return [n for n in registry.names() if registry[n].study and env.trace_local(n)]
    unknown = [n for n in sel if n not in registry]
    if unknown:
        raise ConfigError(f"config study_traces: {', '.join(map(str, unknown))} not in the "
                          "registry")
    return list(sel)


def study_pairs(config: Mapping[str, Any], registry: Registry, env: Env,
                papers: Sequence[str] = PAPERS) -> list[tuple[str, str]]:
    """Every (log, paper) study of a pipeline config: each studied log (:func:`study_logs`) by
    each of ``papers`` (default: every paper), in log then report order. Their outputs:
    ``results/studies/<log>/<paper>/scorecard.parquet`` and ``done.json``."""
    return [(log, p) for log in study_logs(config, registry, env) for p in papers]


def study_config(config: Mapping[str, Any], paper: str) -> dict[str, Any]:
    """The pipeline config a paper's study is resolved from: the overrides ``papers.<paper>``
    replaced by config ``studies.<paper>``, at scale ``study`` (``quick`` with config
    ``quick``) unless they name another."""
    papers = dict(config.get("papers") or {})
    scale = "quick" if config.get("quick") else "study"
    papers[paper] = {"scale": scale} | dict((config.get("studies") or {}).get(paper) or {})
    return {**config, "papers": papers}


def study_settings(module: ModuleType, paper: str, config: Mapping[str, Any], env: Env,
                   log: str) -> Any:
    """The settings of ``paper``'s study on ``log``: its settings at scale ``study`` (with config
    ``studies.<paper>``) and ``log`` in the place of its own (``with_log``)."""
    return module.with_log(module.settings(study_config(config, paper), env), log, env)


#: The names a paper package exposes (the contract above).
CONTRACT: tuple[str, ...] = ("title", "summary", "Settings", "settings", "logs", "log_names",
                             "extra_targets", "points", "run_point", "outputs", "tables",
                             "figures", "scorecard", "with_log", "study_role")
#: The modules every paper package has (the contract's steps).
MODULES: tuple[str, ...] = ("config", "points", "tabulate", "plots", "checks", "scoring")


def follows_contract(module: ModuleType) -> bool:
    """Whether ``module`` exposes every name of :data:`CONTRACT`."""
    return not _missing(module)


def _missing(module: ModuleType) -> list[str]:
    return [n for n in CONTRACT if not hasattr(module, n)]


def load(name: str) -> ModuleType:
    """The paper package ``schedlab.papers.<name>``; a clear error for an unknown name or a
    package that lacks part of the contract."""
    if name not in PAPERS:
        raise ConfigError(f"unknown paper {name!r}; known: {', '.join(PAPERS)}")
    module = importlib.import_module(f"{__name__}.{name}")
    missing = _missing(module)
    if missing:
        raise ConfigError(f"paper package schedlab.papers.{name} lacks {', '.join(missing)} "
                          "of the paper contract (schedlab.papers)")
    return module
