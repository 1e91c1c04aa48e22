"""Reliability of the pipeline (issue 10, part 6), on real logs in scratch copies of the workflow.

* A run killed mid-way (SIGKILL to snakemake and its jobs, like a crashed node or a lost session)
  and then unlocked and rerun with the same profile ends with results identical, byte for byte, to an
  uninterrupted run.
* Running the quick profile twice (the second time forcing the traces and a paper's assembly to be
  rebuilt) gives byte-identical parquet.

The reference is one uninterrupted run of the quick profile's trace targets (two small traces and
their summary) and Schroeder 2004's target (its points, tables, figures and scorecard); the kill test
runs the trace targets and compares them with it. The quick profile's whole DAG, every paper's
scorecard and the report, runs end to end in ci/slurm/e2e.sh, twice (locally and through SLURM),
compared file by file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
QUICK = "workflow/profiles/quick"
# The traces the quick profile selects (workflow/profiles/quick/quick.yaml); the summary covers both.
TRACES = ("KTH-SP2-1996-2.1-cln", "lublin_256")
TARGET = "results/traces/summary.parquet"
TIMEOUT = 1200
# A paper whose whole quick target takes seconds (one trace, eight points); no wall-clock outputs.
PAPER = "schroeder2004"

pytestmark = pytest.mark.slow


def copy_workflow(repo: Path, dest: Path) -> Path:
    """A scratch copy of the workflow (Snakefile, rules, profiles, scripts, config) in ``dest``."""
    dest.mkdir(parents=True)
    for d in ("workflow", "scripts", "config"):
        shutil.copytree(repo / d, dest / d)
    shutil.copy(repo / "Snakefile", dest / "Snakefile")
    return dest


def snakemake_cmd(wd: Path, *args: str) -> list[str]:
    """The snakemake command line for the workflow copy ``wd`` (run with cwd=wd)."""
    return [SNAKEMAKE, "--directory", str(wd), "--snakefile", str(wd / "Snakefile"), *args]


def snakemake(wd: Path, *args: str) -> subprocess.CompletedProcess:
    r = subprocess.run(snakemake_cmd(wd, *args), cwd=wd, capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0, f"snakemake {' '.join(args)} failed:\n{r.stderr[-4000:]}"
    return r


def digests(wd: Path, pattern: str = "*") -> dict[str, str]:
    """sha256 of every file under results/ and resources/ matching ``pattern`` (temp files excluded)."""
    out = {}
    for top in ("results", "resources"):
        for p in sorted((wd / top).rglob(pattern)):
            if p.is_file() and not p.name.startswith("."):
                out[str(p.relative_to(wd))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def reference(repo, mirror, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """An uninterrupted run of the trace targets and one paper's quick target, and its file digests."""
    wd = copy_workflow(repo, tmp_path_factory.mktemp("reference") / "wf")
    snakemake(wd, "--profile", QUICK, TARGET, PAPER)
    got = digests(wd)
    expected = ({f"results/traces/{t}/jobs.parquet" for t in TRACES}
                | {TARGET, f"results/{PAPER}/scorecard.parquet"})
    assert expected <= set(got), f"missing outputs: {expected - set(got)}"
    return wd, got


def test_killed_run_resumes_to_identical_results(repo, reference, tmp_path):
    _, expected = reference
    wd = copy_workflow(repo, tmp_path / "wf")
    # One core, so the jobs run one after another and the kill lands between the first parsed
    # trace and the summary. The new session lets us kill snakemake and its job processes at once.
    proc = subprocess.Popen(snakemake_cmd(wd, "--profile", QUICK, "--cores", "1", TARGET), cwd=wd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    parsed = [wd / f"results/traces/{t}/jobs.parquet" for t in TRACES]
    deadline = time.monotonic() + TIMEOUT
    try:
        while not any(p.exists() for p in parsed):
            assert proc.poll() is None, "snakemake ended before the first trace was parsed"
            assert time.monotonic() < deadline, "no trace parsed in time"
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert not (wd / TARGET).exists(), "the run was not interrupted mid-way"
    assert (wd / ".snakemake/locks").is_dir() and any((wd / ".snakemake/locks").iterdir()), \
        "a killed run leaves its lock (the case a user meets)"

    snakemake(wd, "--unlock")
    snakemake(wd, "--profile", QUICK, TARGET)
    got = digests(wd)
    assert {f"results/traces/{t}/jobs.parquet" for t in TRACES} | {TARGET} <= set(got)
    assert got == {k: expected[k] for k in got}


def test_quick_profile_twice_gives_identical_parquet(reference):
    wd, expected = reference
    # The paper's assembly (tables, figures, scorecard), rebuilt from the same runs.
    snakemake(wd, "--profile", QUICK, "--forcerun", f"{PAPER}_assemble", "--", PAPER)
    assert digests(wd) == expected
    # The traces: parse_trace and everything downstream of it up to the summary; downloads are kept.
    before = digests(wd, "*.parquet")
    traces = [f"results/traces/{t}/jobs.parquet" for t in TRACES] + [TARGET]
    mtimes = {p: (wd / p).stat().st_mtime_ns for p in traces}
    snakemake(wd, "--profile", QUICK, "--forcerun", "parse_trace", "--", TARGET)
    assert all((wd / p).stat().st_mtime_ns != m for p, m in mtimes.items()), "not rebuilt"
    assert digests(wd, "*.parquet") == before
