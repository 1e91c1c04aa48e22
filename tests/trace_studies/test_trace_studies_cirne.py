"""Cirne 2001 as a trace study (schedlab.trace_studies.cirne2001): fitted model beside the
thesis' values, and the §5.1 single-target SA experiment on workloads fitted from the log."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import yaml
from matplotlib.figure import Figure
from test_trace_studies_perkovic import assert_same_tables, run_twice, small_log

from schedlab.errors import ConfigError
from schedlab.models.fit import fit_all
from schedlab.trace_studies import load, study_settings
from schedlab.trace_studies.cirne2001 import read_fits, synthetic_params

MACHINE = 32


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A small log and its fitted chapter-3 models, written as rule fit_models writes them."""
    d = tmp_path_factory.mktemp("models")
    log = small_log(1500, machine=MACHINE, seed=5, study="cirne2001", models_dir=d)
    for name, r in fit_all(log.jobs, trace="tiny", machine_size=MACHINE).items():
        (d / f"{name}.json").write_text(json.dumps(r.to_dict()))
    return log


def settings(repo, **kw):
    return study_settings(load("cirne2001"), "quick", {
        "experiments": 12, "targets_per_workload": 6, "jobs_per_workload": 200, "resamples": 100,
        "sa_config": str(repo / "config/papers/cirne2001_sa.yaml"), **kw})


@pytest.fixture(scope="module")
def result(inputs, repo):
    return run_twice("cirne2001", inputs, settings(repo))


def test_deterministic(result):
    assert_same_tables(*result)


def test_table13_best_bounds_sa_and_user(result, repo):
    t = result[0]["table13"].set_index("request")
    assert list(t.index) == ["best", "sa", "user"]
    assert (t["n"] == 12).all() and (t["workloads"] == 2).all()
    assert t.loc["best", "geomean_s"] <= t.loc["sa", "geomean_s"] + 1e-9
    assert t.loc["best", "geomean_s"] <= t.loc["user", "geomean_s"] + 1e-9
    assert ((t["ci_low"] <= t["geomean_s"]) & (t["geomean_s"] <= t["ci_high"])).all()
    pub = yaml.safe_load((repo / "config/papers/cirne2001_sa.yaml").read_text())["published"]
    assert t["Cirne thesis"].to_dict() == {k: float(v) for k, v in
                                           pub["table13_geomean_tt_s"].items()}


def test_table14_shares(result):
    t = result[0]["table14"]
    shares = t[t["request"] != "expected"].groupby("request")["percent"].sum()
    assert shares.to_numpy() == pytest.approx([100.0, 100.0])
    best = t[t["request"] == "best"].set_index("outcome")["percent"]
    assert best["worse"] == 0.0  # the best request never loses to the user request
    assert t.set_index("request").loc["expected", "Cirne thesis"] == pytest.approx(44.8)


def test_model_table_beside_thesis(result, inputs):
    m = result[0]["model_parameters"].set_index("quantity")
    fits = read_fits(inputs.models_dir, inputs.trace)
    assert m.loc["processors", "this log"] == MACHINE
    assert m.loc["jobs", "this log"] == len(inputs.jobs)
    assert m.loc["chi_n", "this log"] == pytest.approx(fits["partition_size"]["params"]["chi_n"])
    assert m.loc["chi_n", "Cirne CTC"] == pytest.approx(0.0709)
    assert m.loc["alpha_a", "Cirne SDSC"] == pytest.approx(0.5898)
    assert np.isnan(m.loc["pc", "Cirne KTH"])  # the thesis has no pc for KTH


def test_synthetic_model_sources(inputs):
    fits = read_fits(inputs.models_dir, inputs.trace)
    _, tab = synthetic_params(fits, {})
    src = tab.set_index("parameter")["source"]
    assert src["pc"] == "fitted from the log" and src["n"] == "fitted from the log"
    nocancel = copy.deepcopy(fits)
    nocancel["cancellation"]["params"] = {"pc": None}
    model, tab = synthetic_params(nocancel, {})
    src = tab.set_index("parameter")["source"]
    assert src["pc"] == src["lc"] == "Table 11 (thesis)"
    assert model["rigid"]["pc"] == 0.15  # Table 11


def test_machine_override_figure_and_errors(inputs, repo, tmp_path):
    mod = load("cirne2001")
    r = mod.run(inputs, settings(repo, machine_procs=64, experiments=4, targets_per_workload=4))
    assert (r["table13"]["machine_procs"] == 64).all()
    figs = mod.figures(r)
    assert list(figs) == ["table13_14"] and isinstance(figs["table13_14"], Figure)
    empty = small_log(50, machine=MACHINE, study="cirne2001", models_dir=tmp_path)
    with pytest.raises(ConfigError, match="no fitted model"):
        mod.run(empty, settings(repo))
    with pytest.raises(ConfigError, match="machine_procs"):
        mod.run(inputs, settings(repo, machine_procs=0))
