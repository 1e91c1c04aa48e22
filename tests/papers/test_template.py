"""The template paper package (schedlab.papers._template): it follows the contract, has exactly
the step modules every paper has, and runs through the contract's runner on a tiny log."""

from __future__ import annotations

import dataclasses
import pkgutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import schedlab.papers._template as T
from schedlab.io import write_parquet
from schedlab.papers import CONTRACT, MODULES, Env, trace_jobs
from schedlab.papers._template.checks import mean_positive
from schedlab.papers.runner import run_paper
from schedlab.report.scorecard import COLUMNS, uncovered_checks

REPO = Path(__file__).resolve().parents[2]
ENV = Env(trace_local=lambda n: True, machine_size=lambda n: None)


def test_the_template_has_the_contract_and_exactly_the_step_modules():
    assert [n for n in CONTRACT if not hasattr(T, n)] == []
    assert sorted(m.name for m in pkgutil.iter_modules(T.__path__)) == sorted(MODULES)


@pytest.mark.parametrize(("config", "max_jobs"), [
    ({}, 10000), ({"quick": True}, 1000), ({"full": True}, None),
    ({"papers": {"_template": {"scale": "study"}}}, 5000),
    ({"papers": {"_template": {"max_jobs": 7}}}, 7),
])
def test_settings_take_the_scale_and_the_overrides(monkeypatch, config, max_jobs):
    monkeypatch.chdir(REPO)
    s = T.settings(config, ENV)
    assert s.max_jobs == max_jobs and T.logs(s) == ("KTH-SP2-1996-2.1-cln",)
    assert T.Settings.from_dict(s.to_dict()) == s


def test_the_template_runs_through_the_runner(tmp_path):
    rng = np.random.default_rng(np.random.SeedSequence(1))
    jobs = pd.DataFrame({"submit_time": np.arange(50) * 60, "run_time": rng.integers(1, 900, 50)})
    write_parquet(tmp_path / trace_jobs("tiny"), jobs, {"swf_header": {}})
    s = T.Settings(logs=("tiny",), max_jobs=20, published={"mean_run_time_s": {"tiny": 1.0}})
    tables = run_paper(T, "_template", s, tmp_path / "results", root=tmp_path)
    summary = tables["summary"].iloc[0]
    assert summary["jobs"] == 20 and summary["mean_run_time_s"] == jobs["run_time"][:20].mean()
    card = pd.read_parquet(tmp_path / "results/_template/scorecard.parquet")
    assert list(card.columns) == COLUMNS
    assert list(card["verdict"]) == ["differs", "holds"]  # published 1 s: far from ours
    assert (tmp_path / "results/_template/figures/mean_run_time.png").is_file()
    again = run_paper(T, "_template", dataclasses.replace(s, max_jobs=None), tmp_path / "b",
                      root=tmp_path)
    assert again["summary"].iloc[0]["jobs"] == 50


def test_the_claim_check_fails_and_holds():
    cases = [(mean_positive, mean_positive(12.0)), (mean_positive, mean_positive(0.0))]
    assert [c[1] for c in cases] == [True, False] and mean_positive(float("nan")) is None
    assert uncovered_checks("_template", cases) == []
