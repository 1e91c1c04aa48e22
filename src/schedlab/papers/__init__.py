"""The reproduced papers, one package each, behind one contract (served by one rule family).

Each paper package ``schedlab.papers.<paper>`` (pure functions; file I/O is the runner's,
:mod:`schedlab.papers.runner`) exposes:

``TITLE: str``
    one line: authors, year, what is reproduced.
``settings(config: Mapping, env: Env) -> dict``
    the paper's resolved settings from the pipeline config (the paper reads its own
    ``config/papers/<paper>*.yaml``, the overrides ``config["papers"][<paper>]`` and the switches
    ``quick``/``full``). JSON-able: the rules pass it as a param, so editing a setting reruns what
    depends on it. Called once, when the workflow is parsed.
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

The rule family (``workflow/rules/papers.smk``) defines, for every paper run, ``<paper>_point``
(one job per point), ``<paper>_assemble`` (tables, figures, scorecard) and the target ``<paper>``.
A step no point can express stays in ``workflow/rules/<paper>.smk`` (e.g. Cirne's fitted models).

Inside a package, modules are named after the paper's concepts; the contract's own steps use the same
names in every paper (not the contract's function names, which the package's ``__init__`` binds):
``config`` (settings), ``tabulate`` (tables), ``plots`` (figures), ``checks`` (the claim checks) and
``scoring`` (the scorecard rows).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from ..errors import ConfigError
from ..io import read_parquet
from ..sim.options import SimOptions

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


@dataclass(frozen=True)
class Switches:
    """The pipeline's switches for one paper: its overrides (config ``papers.<paper>``), ``quick``
    (config ``quick`` or the override ``quick``) and ``full`` (config ``full``)."""

    overrides: Mapping[str, Any]
    quick: bool
    full: bool

    def applied(self, cfg: dict[str, Any]) -> dict[str, Any]:
        """``cfg`` (a paper's settings file) with the overrides' top-level keys replaced (all but
        the switch ``quick``)."""
        return cfg | {k: v for k, v in self.overrides.items() if k != "quick"}


def switches(config: Mapping[str, Any], paper: str) -> Switches:
    """The switches of ``paper`` in the pipeline config (one reading for every paper)."""
    overrides = (config.get("papers") or {}).get(paper) or {}
    return Switches(overrides, bool(config.get("quick") or overrides.get("quick")),
                    bool(config.get("full")))


def trace_jobs(trace: str) -> str:
    """The pipeline path of a parsed trace's job table."""
    return f"results/traces/{trace}/jobs.parquet"


def point_done(paper: str, point_id: str) -> str:
    """The pipeline path of a finished point's ``done.json`` (``results/<paper>/runs/<id>/``)."""
    return f"results/{paper}/runs/{point_id}/done.json"


def point_input(paper: str, point: Point) -> dict[str, list[str]]:
    """The inputs of rule ``<paper>_point`` for ``point``: its ``files`` and the ``done.json`` of
    the points it ``needs``."""
    return {"files": list(point.inputs), "needs": [point_done(paper, n) for n in point.needs]}


#: The names a paper package exposes (the contract above).
CONTRACT: tuple[str, ...] = ("TITLE", "settings", "points", "run_point", "outputs", "tables",
                             "figures", "scorecard")


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
