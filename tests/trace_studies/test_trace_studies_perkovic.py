"""Perković & Keleher 2000 §4–6 as a trace study (schedlab.trace_studies.perkovic2000)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from matplotlib.figure import Figure

from schedlab.errors import ConfigError
from schedlab.models.synth import params_from_dict, rigid_workload, swf_workload
from schedlab.trace_studies import StudyInputs, load, study_settings

REPO = Path(__file__).resolve().parents[2]
REPO_CONFIG = "config/papers/perkovic2000.yaml"


def small_log(n_jobs: int = 300, machine: int = 32, seed: int = 7,
              study: str = "perkovic2000",
              models_dir=None) -> StudyInputs:
    """A small SWF log (Cirne's rigid model, published parameters) as ``study`` sees it (with its
    paper config, as the pipeline's adapter passes it)."""
    jobs, _ = rigid_workload(params_from_dict({"machine_size": machine}), n_jobs,
                             np.random.SeedSequence(seed))
    table, header = swf_workload(jobs, machine, "test log")
    paper = yaml.safe_load((REPO / "config" / "papers" / f"{study}.yaml").read_text())
    return StudyInputs("tiny", table, header, machine, models_dir, paper=paper)


def run_twice(study: str, inputs: StudyInputs, settings: dict) -> tuple[dict, dict]:
    """The study's tables from two independent runs (for the determinism checks)."""
    mod = load(study)
    return mod.run(inputs, settings), mod.run(inputs, settings)


def assert_same_tables(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])


def settings(repo, **kw):
    """The quick variant with overrides, merged (and checked) as the pipeline does."""
    return study_settings(load("perkovic2000"), "quick",
                          {"max_jobs": 200, "orders": ["D", "1/L", "R/L"], **kw})


@pytest.fixture(scope="module")
def result(repo):
    inputs = small_log()
    return inputs, *run_twice("perkovic2000", inputs, settings(repo))


def test_deterministic(result):
    assert_same_tables(result[1], result[2])


def test_figure3_layout_and_invariants(result):
    _, t, _ = result
    f3 = t["figure3"].set_index("algorithm")
    assert list(f3.index) == ["BF", "BF-NG", "1/L", "1/L-NG", "R/L", "R/L-NG"]
    assert f3.loc["BF", ["bounded_slowdown_ratio", "delay_ratio", "response_ratio"]].tolist() \
        == [1.0, 1.0, 1.0]
    cols = ["bounded_slowdown", "delay", "response", "bounded_slowdown_ratio", "delay_ratio",
            "started_immediately"]
    assert not f3[cols].isna().any().any()
    assert (f3["jobs"] == t["figure3"]["log_jobs"].iloc[0]).all()
    assert (f3["bounded_slowdown"] >= 1).all()
    assert (f3["response"] >= f3["delay"]).all()
    assert f3["started_immediately"].between(0, 1).all()
    # ratio = metric / BF's metric
    np.testing.assert_allclose(f3["delay_ratio"], f3["delay"] / f3.loc["BF", "delay"])


def test_reference_columns_are_the_papers_ctc_values(result, repo):
    _, t, _ = result
    pub = yaml.safe_load((repo / REPO_CONFIG).read_text())["published"]
    f3 = t["figure3"].set_index("algorithm")
    assert f3.loc["BF", "Perković CTC started_immediately"] == pub["started_immediately"]
    assert f3.loc["R/L-NG", "Perković CTC bounded_slowdown_ratio"] == pytest.approx(
        1 - pub["bsd_reduction"]["R/L-NG"]["BF"])
    assert f3.loc["1/L", ["Perković CTC delay_ratio"]].isna().all()
    t3 = t["table3"].set_index("statistic")
    assert t3.loc["Median", "Perković CTC"] == pub["table3"]["Median"]
    assert (t3["reproduced"] > 0).all()


def test_reductions_follow_figure3(result, repo):
    _, t, _ = result
    f3 = t["figure3"].set_index("algorithm")
    r = t["reductions"].set_index(["metric", "algorithm", "relative_to"])
    assert len(r) == 8
    got = r.loc[("delay", "R/L-NG", "1/L"), "reduction"]
    assert got == pytest.approx(1 - f3.loc["R/L-NG", "delay"] / f3.loc["1/L", "delay"])
    pub = yaml.safe_load((repo / REPO_CONFIG).read_text())["published"]
    assert r.loc[("bounded slowdown", "P/L-NG", "BF"), "Perković CTC"] == \
        pub["bsd_reduction"]["P/L-NG"]["BF"]


def test_shape_groups_and_speculation(result):
    _, t, _ = result
    f4 = t["figure4"]
    assert set(f4["group"]) <= {"SN", "SW", "LN", "LW"}
    # the groups partition the jobs of every algorithm
    assert (f4.groupby("algorithm")["jobs"].sum() == t["figure3"]["log_jobs"].iloc[0]).all()
    sp = t["speculation"]
    assert set(sp["experiment"]) == {"spec", "spectest"}
    assert len(sp) == 2 * len(t["figure3"])
    assert (sp["speculative_successes"] <= sp["spec_starts"] + sp["test_runs"]).all()
    assert (sp.loc[sp["experiment"] == "spec", "test_runs"] == 0).all()


def test_figure(result):
    mod = load("perkovic2000")
    figs = mod.figures(result[1])
    assert list(figs) == ["figure3"] and isinstance(figs["figure3"], Figure)


def test_machine_override_and_bad_settings(repo):
    mod = load("perkovic2000")
    inputs = small_log(120)
    t = mod.run(inputs, settings(repo, machine=64, max_jobs=None, orders=["D"], experiments=["base"]))
    assert t["figure3"]["machine"].iloc[0] == 64 and t["figure3"]["log_jobs"].iloc[0] == 120
    assert t["speculation"].empty
    with pytest.raises(ConfigError, match="experiments"):
        mod.run(inputs, settings(repo, experiments=["base", "greedy"]))
    with pytest.raises(ConfigError, match=r"needs config/papers/perkovic2000\.yaml"):
        mod.run(dataclasses.replace(inputs, paper={}), settings(repo))
