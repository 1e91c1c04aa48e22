"""The trace-studies framework (issue 10, "new traces as inputs"): the registry's ``study`` flag,
settings variants and overrides, and the study modules' common contract on a small synthetic log.

:func:`synthetic_swf` is the small log the study tests (and the end-to-end pipeline test) use.
"""

from __future__ import annotations

import importlib
import json
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.errors import ConfigError, RegistryError
from schedlab.trace_studies import STUDIES, StudyInputs, load, study_settings
from schedlab.traces.registry import load_registry
from schedlab.traces.swf import parse_swf_text

MACHINE = 32


def synthetic_swf(n: int = 600, seed: int = 7, days: float = 80.0) -> str:
    """An SWF log of ``n`` jobs on a 32-processor machine over ``days`` days (several calendar
    months), loaded enough that schedulers differ; 8-processor jobs are the most common."""
    rng = np.random.default_rng(seed)
    submit = np.cumsum(rng.exponential(days * 86400 / n, n)).astype(int)
    run = np.maximum(1, rng.lognormal(8.0, 1.4, n)).astype(int)
    procs = rng.choice([1, 2, 4, 8, 16, 32], n, p=[0.2, 0.15, 0.15, 0.3, 0.15, 0.05])
    req = (run * rng.uniform(1.0, 4.0, n)).astype(int) + 60
    users = rng.integers(1, 12, n)
    head = (f"; MaxProcs: {MACHINE}\n; UnixStartTime: 1000000000\n"
            "; TimeZoneString: Europe/Stockholm\n")
    return head + "".join(
        f"{i + 1} {submit[i]} -1 {run[i]} {procs[i]} -1 -1 {procs[i]} {req[i]} -1 1 {users[i]} "
        f"1 -1 1 -1 -1 -1\n" for i in range(n))


def study_inputs(repo, study: str, n: int = 600, seed: int = 7) -> StudyInputs:
    """The synthetic log as a study sees it, with the paper's config for reference values."""
    trace = parse_swf_text(synthetic_swf(n, seed), "synthetic.swf")
    paper_cfg = repo / "config" / "papers" / f"{study}.yaml"
    paper = yaml.safe_load(paper_cfg.read_text()) if paper_cfg.exists() else {}
    return StudyInputs("synthetic", trace.jobs, trace.header, MACHINE, paper=paper)


def existing_studies() -> list[str]:
    return [s for s in STUDIES if importlib.util.find_spec(f"schedlab.trace_studies.{s}")]


# --- registry ----------------------------------------------------------------------------------

def _registry(tmp_path, **extra):
    entry = {"file": "t.swf", "path": "t.swf", "kind": "raw", "description": "d"} | extra
    p = tmp_path / "config" / "traces.yaml"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(yaml.safe_dump({"traces": {"T": entry}}))
    return p


def test_study_flag_defaults_to_false_and_is_read(tmp_path):
    assert load_registry(_registry(tmp_path))["T"].study is False
    assert load_registry(_registry(tmp_path, study=True))["T"].study is True


def test_bad_study_flag_names_entry_and_field(tmp_path):
    with pytest.raises(RegistryError, match=r"entry 'T', field 'study': 'yes' is not of type "
                                            r"'boolean'"):
        load_registry(_registry(tmp_path, study="yes"))


def test_repo_registry_marks_hpc2n_for_study(repo):
    reg = load_registry(repo / "config" / "traces.yaml")
    assert reg["HPC2N-2002-2.2-cln"].study is True
    assert not reg["KTH-SP2-1996-2.1-cln"].study


# --- settings ----------------------------------------------------------------------------------

@pytest.mark.parametrize("study", existing_studies())
def test_every_module_has_the_contract(study):
    m = load(study)
    assert isinstance(m.TITLE, str) and m.TITLE
    assert set(m.DEFAULTS) == {"default", "quick", "full"}
    keys = {v: set(s) for v, s in m.DEFAULTS.items()}
    assert keys["default"] == keys["quick"] == keys["full"], "every variant sets the same keys"
    assert callable(m.run) and callable(m.figures)


def test_settings_variant_and_override():
    m = load("talby2005")
    s = study_settings(m, "quick", {"max_jobs": 123})
    assert s["max_jobs"] == 123 and s["months"] == m.DEFAULTS["quick"]["months"]
    assert m.DEFAULTS["quick"]["max_jobs"] != 123  # the defaults are not modified
    with pytest.raises(ConfigError, match=r"trace_studies.talby2005: unknown setting\(s\) mnths"):
        study_settings(m, "default", {"mnths": 3})
    # values given as text on the command line (snakemake --config) take the defaults' types
    s = study_settings(load("schroeder2004"), "quick",
                       {"replications": "3", "fallback_to_mode": "False", "loads": ["0.5", "0.9"],
                        "max_jobs": "null"})
    assert s["replications"] == 3 and s["fallback_to_mode"] is False and s["max_jobs"] is None
    assert s["loads"] == [0.5, 0.9]
    with pytest.raises(ConfigError, match=r"trace_studies.schroeder2004.replications: 'many' is "
                                          "not an integer"):
        study_settings(load("schroeder2004"), "quick", {"replications": "many"})
    with pytest.raises(ConfigError, match="variant must be one of"):
        study_settings(m, "huge")
    with pytest.raises(ConfigError, match="unknown trace study 'nope'"):
        load("nope")


def test_config_schema_checks_study_names(repo):
    from snakemake.exceptions import WorkflowError
    from snakemake.utils import validate

    config = yaml.safe_load((repo / "config/config.yaml").read_text())
    schema = str(repo / "workflow/schemas/config.schema.yaml")
    validate(config | {"trace_studies": {"talby2005": {"months": 3}, "cirne2001": None}}, schema)
    with pytest.raises(WorkflowError, match="talby"):
        validate(config | {"trace_studies": {"talby": {"months": 3}}}, schema)


def assert_deterministic(repo, study: str, overrides: dict | None = None) -> dict[str, pd.DataFrame]:
    """Run a study twice on the synthetic log: equal tables; no NaN-only column; return them."""
    m = load(study)
    settings = study_settings(m, "quick", overrides)
    a = m.run(study_inputs(repo, study), settings)
    b = m.run(study_inputs(repo, study), settings)
    assert list(a) == list(b) and a
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])
        assert len(a[name]), f"{study}: table {name} is empty"
    return a


# --- end to end: one registry entry with `study: true` ------------------------------------------

@pytest.mark.slow
def test_new_log_with_study_flag_runs_every_study_and_reaches_the_report(repo, tmp_path,
                                                                        monkeypatch):
    """A new log registered with ``study: true`` (quick settings) gets every existing study's
    outputs, and the report rule depends on them and lists the log with each study."""
    import subprocess

    from scratch_workflow import SNAKEMAKE, scratch_workflow

    from schedlab.io import read_parquet
    from schedlab.report.html import build_report

    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)  # only the new log is local
    name = "MySite-2024-1"
    src = tmp_path / f"{name}.swf"
    src.write_text(synthetic_swf(600))
    wd = scratch_workflow(repo, tmp_path, {name: {
        "file": f"{name}.swf", "path": str(src), "kind": "raw", "description": "a new site's log",
        "study": True}})
    base = [SNAKEMAKE, "--directory", str(wd), "--snakefile", str(wd / "Snakefile"), "--cores", "2",
            "--config", "quick=True", f"traces=[{name}]"]
    r = subprocess.run([base[0], "trace_studies", *base[1:]], capture_output=True, text=True,
                       timeout=300, cwd=wd)
    assert r.returncode == 0, r.stderr[-3000:]
    studies = existing_studies()
    assert {"talby2005", "schroeder2004"} <= set(studies)
    for study in studies:
        out = wd / "results" / "studies" / name / study
        done = json.loads((out / "done.json").read_text())
        assert done["trace"] == name and done["variant"] == "quick" and done["tables"]
        for t in done["tables"]:
            df, meta = read_parquet(out / "tables" / f"{t}.parquet")
            assert len(df) and meta["study"] == study
        for f in done["figures"]:
            assert (out / "figures" / f"{f}.png").stat().st_size > 0
    # the report rule waits for every study of the new log (edges of the DAG) ...
    dag = subprocess.run([base[0], "--dag", "dot", *base[1:], "--", "results/report/index.html"],
                         capture_output=True, text=True, timeout=300, cwd=wd)
    assert dag.returncode == 0, dag.stderr[-3000:]
    nodes = dict(re.findall(r'(\d+)\[label = "([^"]*)"', dag.stdout))
    report = next(i for i, label in nodes.items() if label == "report")
    into_report = {nodes[a] for a, b in re.findall(r"(\d+) -> (\d+)", dag.stdout) if b == report}
    assert {f"trace_study\\nstudy: {s}" for s in studies} <= into_report, into_report
    # ... and the page lists the log with each study's title
    page = wd / "results" / "report" / "index.html"
    build_report(wd / "results", [], page, wd / "results" / "scorecard.parquet", {},
                 studied_traces={name: None})
    text = page.read_text()
    assert f"Log {name}" in text
    for study in studies:
        assert load(study).TITLE.split(" ")[0] in text
        assert f'id="study-{name}-{study}"' in text
    # a misspelt setting fails at workflow start with one line naming the study and setting
    bad = subprocess.run([base[0], f"results/studies/{name}/talby2005/done.json", *base[1:],
                          'trace_studies={"talby2005": {"mnths": 3}}'],
                         capture_output=True, text=True, timeout=300, cwd=wd)
    assert bad.returncode == 2
    assert ("schedlab: error: config trace_studies.talby2005: unknown setting(s) mnths "
            "(did you mean 'months'?)") in bad.stderr
