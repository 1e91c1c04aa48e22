"""The file side of the paper contract (:mod:`schedlab.papers`): run one point, assemble a paper.

The rule family in ``workflow/rules/papers.smk`` (a paper's own runs and its studies) calls these
through ``scripts/paper_point.py`` and ``scripts/paper_assemble.py``; :func:`run_paper` runs a whole
paper (or a study) in-process (tests, notebooks).
A point's frames are written beside its ``done.json`` (``results/<paper>/runs/<id>/``), the
``done.json`` last, so a point is complete exactly when its ``done.json`` exists. The ``done.json``
records each frame's size and sha256, and a frame is checked against them before it is read: a frame
cut short or changed since the point ran is an error naming the file
(:class:`~schedlab.io.CorruptFileError`), never a frame read as it is.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from .. import __version__
from ..errors import ConfigError
from ..io import (
    CorruptFileError,
    check_record,
    file_record,
    read_json,
    read_parquet,
    read_parquet_metadata,
    write_json,
    write_parquet,
)
from . import Inputs, Point
from .settings import PaperSettings

DONE = "done.json"


def out_dir(results: str | Path, paper: str, log: str | None = None) -> Path:
    """``results/<paper>``, or ``results/studies/<log>/<paper>`` for a study."""
    return Path(results) / (paper if log is None else Path("studies", log, paper))


def point_dir(results: str | Path, paper: str, point_id: str, log: str | None = None) -> Path:
    """``<out_dir>/runs/<point_id>``."""
    return out_dir(results, paper, log) / "runs" / point_id


class PointFrames(Mapping[str, pd.DataFrame]):
    """The frames of a finished point, by name (from its ``done.json``), each read from disk when
    asked and not kept: an assembly over many large points holds only the frames it is using.
    A frame is checked against the size and sha256 its ``done.json`` records when first read."""

    def __init__(self, done: str | Path) -> None:
        self._done = Path(done)
        self._dir = self._done.parent
        record = read_json(done)
        if not isinstance(record, dict) or not isinstance(record.get("frames"), list):
            raise CorruptFileError(done, "not a point's done.json (no list of frames)")
        self._names = tuple(record["frames"])
        self._files = record.get("files") or {}
        self._checked: set[str] = set()

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._names:
            raise KeyError(name)
        path = self._dir / f"{name}.parquet"
        if name not in self._checked and name in self._files:
            check_record(path, self._files[name], str(self._done))
            self._checked.add(name)
        return read_parquet(path)[0]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def read_point(done: str | Path) -> Mapping[str, pd.DataFrame]:
    """The frames of a finished point, by name, from its ``done.json`` (read on access)."""
    return PointFrames(done)


def _inputs(files: Mapping[str, str | Path], needs: Mapping[str, str | Path]) -> Inputs:
    return Inputs(files={k: Path(v) for k, v in files.items()},
                  points={pid: read_point(done) for pid, done in needs.items()})


def run_point(module: ModuleType, paper: str, s: PaperSettings, point: Point,
              files: Mapping[str, str | Path], needs: Mapping[str, str | Path],
              done: str | Path) -> dict[str, pd.DataFrame]:
    """Run ``point`` and write its frames and ``done`` (the frames' names and provenance)."""
    frames = module.run_point(s, point, _inputs(files, needs))
    bad = [k for k, v in frames.items() if not isinstance(v, pd.DataFrame)]
    if bad:
        raise ConfigError(f"{paper} point {point.id}: run_point returned non-frames {bad}")
    out = Path(done).parent
    prov = {"paper": paper, "point": point.id, "spec": dict(point.spec),
            "inputs": _input_hashes(files), "schedlab_version": __version__}
    for name, df in frames.items():
        write_parquet(out / f"{name}.parquet", df, prov | {"frame": name})
    files = {name: file_record(out / f"{name}.parquet") for name in frames}
    write_json(done, prov | {"frames": list(frames), "files": files})
    return frames


def assemble(module: ModuleType, paper: str, s: PaperSettings,
             runs: Mapping[str, str | Path], files: Mapping[str, str | Path],
             out: str | Path, log: str | None = None) -> dict[str, pd.DataFrame]:
    """Tables, figures and scorecard of ``paper`` from its points' ``done.json`` (by point id);
    checks the names against ``outputs(s)`` (the rule's declared outputs). A study (``log``
    given) also writes ``done.json`` last: the paper, the log, the study log's role and the
    names of the tables and figures."""
    # plotting imports matplotlib and seaborn (~0.9 CPU-s): only the assembly draws, not every point
    from ..report.plotting import save_figure

    declared = module.outputs(s)
    inputs = _inputs(files, runs)
    tables = module.tables(s, inputs.points, inputs)
    _check_names(paper, "tables", tables, declared.tables)
    figures = module.figures(s, tables)
    _check_names(paper, "figures", figures, declared.figures)
    card = module.scorecard(s, tables)
    out = Path(out)
    prov = {"paper": paper, "settings": s.to_dict(), "inputs": _input_hashes(files),
            "schedlab_version": __version__}
    for name, df in tables.items():
        write_parquet(out / "tables" / f"{name}.parquet", df, prov | {"table": name})
    for name, fig in figures.items():
        save_figure(fig, out / "figures" / name)
    write_parquet(out / "scorecard.parquet", card, prov | {"table": "scorecard"})
    if log is not None:
        write_json(out / DONE, prov | {"log": log, "title": module.title, "role": module.study_role,
                                       "tables": list(tables), "figures": list(figures)})
    return tables


def _input_hashes(files: Mapping[str, str | Path]) -> dict[str, str | None]:
    """Provenance: the recorded sha256 of each parquet input that carries one (a parsed trace's
    job table records its log's hash), by input name."""
    return {name: read_parquet_metadata(path).get("sha256") for name, path in files.items()
            if str(path).endswith(".parquet") and Path(path).is_file()}


def _check_names(paper: str, what: str, got: Mapping[str, Any], declared: tuple[str, ...]) -> None:
    if set(got) != set(declared):
        missing, extra = sorted(set(declared) - set(got)), sorted(set(got) - set(declared))
        raise ConfigError(f"{paper}: {what} differ from outputs(s): missing {missing}, "
                          f"undeclared {extra}")


def run_paper(module: ModuleType, paper: str, s: PaperSettings, results: str | Path,
              root: str | Path = ".", log: str | None = None) -> dict[str, pd.DataFrame]:
    """Every point in dependency order, then the assembly, in this process (no Snakemake): for
    tests and notebooks. Input files are taken relative to ``root``. With ``log``: the study of
    that log (``s`` from :func:`schedlab.papers.study_settings`), under ``results/studies/``."""
    points = {p.id: p for p in module.points(s)}
    done: dict[str, Path] = {}

    def visit(pid: str, stack: tuple[str, ...] = ()) -> None:
        if pid in done:
            return
        if pid in stack:
            raise ConfigError(f"{paper}: points need each other: {' -> '.join((*stack, pid))}")
        p = points[pid]
        for need in p.needs:
            visit(need, (*stack, pid))
        d = point_dir(results, paper, pid, log) / DONE
        run_point(module, paper, s, p, {f: Path(root) / f for f in p.inputs},
                  {n: done[n] for n in p.needs}, d)
        done[pid] = d

    for pid in points:
        visit(pid)
    out = out_dir(results, paper, log)
    for sub in ("tables", "figures"):
        shutil.rmtree(out / sub, ignore_errors=True)
    return assemble(module, paper, s, done,
                    {f: Path(root) / f for f in module.outputs(s).inputs}, out, log)
