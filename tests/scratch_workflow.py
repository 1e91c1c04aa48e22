"""A scratch copy of the workflow for end-to-end tests (imported by tests in several packages;
tests/ is on sys.path through tests/conftest.py)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml

#: the snakemake of the test's own environment
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def scratch_workflow(repo: Path, tmp: Path, entries: dict) -> Path:
    """A copy of the workflow whose registry is the project's plus ``entries`` (as a user adds)."""
    wd = tmp / "wf"
    for d in ("workflow", "scripts", "config"):
        shutil.copytree(repo / d, wd / d)
    shutil.copy(repo / "Snakefile", wd / "Snakefile")
    (wd / "config" / "traces.lock.tsv").unlink(missing_ok=True)
    registry = yaml.safe_load((repo / "config" / "traces.yaml").read_text())
    registry["traces"].update(entries)
    (wd / "config" / "traces.yaml").write_text(yaml.safe_dump(registry, sort_keys=False))
    return wd
