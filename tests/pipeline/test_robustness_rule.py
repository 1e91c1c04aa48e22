"""The rule ``robustness`` (workflow/rules/robustness.smk) in a scratch workflow: a log added by one
registry entry with ``study: true`` is among its inputs, with no code (a Snakemake dry run)."""

from __future__ import annotations

import re
import subprocess

import pytest
from scratch_workflow import SNAKEMAKE, scratch_workflow

from schedlab.papers import PAPERS


@pytest.mark.slow
def test_a_study_log_added_by_one_registry_entry_is_an_input_of_the_matrix(repo, tmp_path,
                                                                          monkeypatch):
    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)  # only the new log is local
    name = "MySite-2024-1"
    src = tmp_path / f"{name}.swf"
    src.write_text("; MaxProcs: 8\n" + "".join(
        f"{i} {i * 60} 0 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n" for i in range(1, 11)))
    entry = {"file": f"{name}.swf", "path": str(src), "kind": "raw",
             "description": "a new site's log", "machine_size": 8}
    runs = {}
    for study in (True, False):
        wd = scratch_workflow(repo, tmp_path / str(study), {name: entry | {"study": study}})
        r = subprocess.run([SNAKEMAKE, "-n", "robustness", "--directory", str(wd), "--snakefile",
                            str(wd / "Snakefile"), "--cores", "1", "--config", "quick=True"],
                           capture_output=True, text=True, timeout=300, cwd=wd)
        assert r.returncode == 0, r.stderr[-3000:]
        job = re.search(r"rule robustness:\n\s+input: ([^\n]*)", r.stdout + r.stderr)
        assert job, (r.stdout + r.stderr)[-3000:]
        runs[study] = job.group(1).split(", ")
    studies = [f for f in runs[True] if f.startswith(f"results/studies/{name}/")]
    assert {f.split("/")[3] for f in studies} >= {"talby2005", "schroeder2004"}
    assert not [f for f in runs[False] if name in f]
    assert {f"results/{p}/scorecard.parquet" for p in PAPERS} & set(runs[True])


@pytest.mark.parametrize("root", ["results", "results/paper-scale"])
def test_the_rules_script_writes_the_matrix_from_the_scorecards_on_disk(repo, tmp_path,
                                                                       monkeypatch, root):
    """scripts/robustness.py (the rule's job) in a scratch results tree: the matrix of the own
    scorecard and the study scorecards found, its size and the study without a scorecard in the
    metadata and the log. The own scorecard is read under the run's root (the matrix's folder:
    results/, or results/paper-scale/ at paper scale), the studies under results/studies/ (shared
    by both scales)."""
    import runpy
    from types import SimpleNamespace

    from robustness_cards import P, card

    from schedlab.io import read_parquet, write_parquet
    from schedlab.report.robustness import size

    monkeypatch.chdir(tmp_path)
    write_parquet(tmp_path / root / P / "scorecard.parquet", card({"a": True, "b": True}))
    if root != "results":  # another scale's own scorecard must not be read
        write_parquet(tmp_path / "results" / P / "scorecard.parquet", card({"a": False}))
    write_parquet(tmp_path / "results/studies/New-1" / P / "scorecard.parquet",
                  card({"a": False, "b": True}))
    out, log = tmp_path / root / "robustness.parquet", tmp_path / "robustness.log"
    sm = SimpleNamespace(input=[], output=[str(out)], log=[str(log)], rule="robustness",
                         wildcards={}, params=SimpleNamespace(
                             pairs=[["New-1", P], ["Other-2", P]],
                             own_logs={P: {"SDSC-SP2": "SDSC-SP2"}}))
    runpy.run_path(str(repo / "scripts" / "robustness.py"), init_globals={"snakemake": sm})
    m, meta = read_parquet(out)
    assert size(m) == (2, 2) and (meta["claims"], meta["log_columns"]) == (2, 2)
    assert meta["studies_without_scorecard"] == [f"Other-2/{P}"]
    assert list(m.loc[m["log"] == "New-1", "verdict"]) == ["fails", "holds"]
    assert "2 claims x 2 log columns (4 cells); 1 studies without a scorecard" in log.read_text()
