"""Each scale's output root: the paper scale (config ``full``, ``make reproduce-paper``) writes its
papers' outputs, robustness matrix and merged scorecard under results/paper-scale/, the default and
quick scales keep results/, and both share the logs, models, synthetic workloads and studies
(schedlab.papers.run_root, paper_dir; Snakemake dry runs of the whole DAG)."""

from __future__ import annotations

import re

import pytest
from test_reliability import copy_workflow, snakemake

from schedlab.papers import PAPERS, paper_dir, point_done, run_root, run_scale

PAPER_SCALE = "results/paper-scale"


def test_run_root_and_paper_dir_per_scale():
    assert [run_root(c) for c in ({}, {"quick": True}, {"full": True},
                                  {"quick": True, "full": True})] == [
        "results", "results", PAPER_SCALE, "results"]
    assert run_scale({"full": True}) == "paper" and run_scale({}) == "default"
    # the default root: the folders every rule and test has always used
    assert paper_dir("cirne2001") == "results/cirne2001"
    assert point_done("tang2013", "SP2/w1") == "results/tang2013/runs/SP2/w1/done.json"
    assert paper_dir("cirne2001", None, PAPER_SCALE) == f"{PAPER_SCALE}/cirne2001"
    assert point_done("tang2013", "a", None, PAPER_SCALE) == f"{PAPER_SCALE}/tang2013/runs/a/done.json"
    # a study's folder is the same at every scale (its settings are the `study` scale's)
    assert paper_dir("talby2005", "HPC2N") == paper_dir("talby2005", "HPC2N", PAPER_SCALE) == \
        "results/studies/HPC2N/talby2005"


def dag_outputs(text: str) -> set[str]:
    """Every output and log file of a dry run's jobs."""
    files = set()
    for line in text.splitlines():
        m = re.match(r"\s+(?:output|log): (.*)", line)
        if m:
            files.update(m.group(1).split(", "))
    return files


PAPER_ROOT = re.compile(r"^(results|logs)/(" + "|".join(PAPERS) + r")/")
MERGED = {"results/robustness.parquet", "results/scorecard.parquet"}


def own(files: set[str], root: str) -> set[str]:
    """The files of the runs' own outputs under ``root``: its papers' (logs included) and the
    merged matrix and scorecard."""
    prefix = root.removeprefix("results")
    out = set()
    for f in files:
        for top in ("results", "logs"):
            if f.startswith(f"{top}{prefix}/"):
                rest = f"{top}/" + f[len(f"{top}{prefix}/"):]  # as if under results/
                if PAPER_ROOT.match(rest) or rest in MERGED:
                    out.add(f)
    return out


@pytest.fixture(scope="module")
def dags(repo, mirror, tmp_path_factory):
    wd = copy_workflow(repo, tmp_path_factory.mktemp("scales") / "wf")
    default = snakemake(wd, "--profile", "workflow/profiles/default", "-n")
    full = snakemake(wd, "--profile", "workflow/profiles/default", "--profile",
                     "workflow/profiles/full", "-n")
    return dag_outputs(default.stdout + default.stderr), dag_outputs(full.stdout + full.stderr)


@pytest.mark.slow
def test_the_paper_scale_dag_writes_under_its_own_root_and_the_default_is_unchanged(dags):
    default, full = dags
    assert not [f for f in default if "paper-scale" in f]
    for p in PAPERS:
        assert f"results/{p}/scorecard.parquet" in default
        assert f"{PAPER_SCALE}/{p}/scorecard.parquet" in full
    assert default >= MERGED and "results/report/index.html" in default
    # at paper scale, nothing of a paper's own run or of the merged files under results/...
    assert not [f for f in full if PAPER_ROOT.match(f) or f in MERGED]
    assert {f"{PAPER_SCALE}/robustness.parquet", f"{PAPER_SCALE}/scorecard.parquet",
            "results/report/index.html"} <= full
    # ... and the rest (logs, models, synthetic workloads, studies, report) is the same files
    shared_default = default - own(default, "results")
    shared_full = full - own(full, PAPER_SCALE)
    assert shared_default == shared_full
    assert any(f.startswith("results/studies/") for f in shared_full)
    assert any(f.startswith("results/models/") for f in shared_full)
    # the paper scale runs more points of the same papers (Cirne's 100 workloads of 10,000 jobs, ...)
    assert len(own(full, PAPER_SCALE)) > len(own(default, "results"))


def report_job(wd, *profiles: str) -> tuple[list[str], list[str]]:
    """(inputs, outputs) of the rule report in a dry run of target ``report``."""
    flags = [a for p in profiles for a in ("--profile", f"workflow/profiles/{p}")]
    r = snakemake(wd, *flags, "-n", "report")
    m = re.search(r"rule report:\n\s+input: ([^\n]*)\n\s+output: ([^\n]*)", r.stdout + r.stderr)
    assert m, (r.stdout + r.stderr)[-3000:]
    return m.group(1).split(", "), m.group(2).split(", ")


@pytest.mark.slow
def test_the_other_scales_scorecard_becomes_an_input_of_the_report(repo, mirror, tmp_path):
    wd = copy_workflow(repo, tmp_path / "wf")
    inputs, outputs = report_job(wd, "default")
    assert f"{PAPER_SCALE}/scorecard.parquet" not in inputs
    assert outputs == ["results/report/index.html", "results/scorecard.parquet"]
    (wd / PAPER_SCALE).mkdir(parents=True)
    (wd / PAPER_SCALE / "scorecard.parquet").write_bytes(b"")
    inputs, outputs = report_job(wd, "default")
    assert f"{PAPER_SCALE}/scorecard.parquet" in inputs
    assert outputs == ["results/report/index.html", "results/scorecard.parquet",
                       "results/scale_sensitivity.parquet"]
    # the paper-scale run: its own scorecard under its root, the default's an input when present
    inputs, outputs = report_job(wd, "default", "full")
    assert "results/scorecard.parquet" not in inputs
    assert outputs == ["results/report/index.html", f"{PAPER_SCALE}/scorecard.parquet"]
