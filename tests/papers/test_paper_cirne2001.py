"""Cirne 2001 through the paper contract (schedlab.papers.cirne2001: settings, points, run_point,
outputs, tables, figures, scorecard), run whole by schedlab.papers.runner.run_paper on tiny
settings, and the points of the shipped settings."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml
from test_nas_cirne2001 import _swf

from schedlab.errors import ConfigError
from schedlab.io import write_parquet
from schedlab.papers import Env, trace_jobs
from schedlab.papers import cirne2001 as C
from schedlab.papers.runner import read_point, run_paper
from schedlab.report.attribution import TABLE, not_looked_up
from schedlab.sim import SimOptions
from schedlab.traces.swf import SWFHeader

ROOT = Path(__file__).resolve().parents[2]
SA_YAML = ROOT / "config/papers/cirne2001_sa.yaml"
ENV = Env(trace_local=lambda name: True, machine_size=lambda name: None,
          sim=SimOptions(tie_rule="arrivals_first"))
NAS = {"logs": ["A"], "machine_procs": {"A": 16}, "experiments_per_benchmark": 4,
       "benchmarks": {"MG": {"constraint": "power_of_2"}, "EP": {"constraint": "unrestricted"}},
       "execution_times": {"MG": {4: 400.0, 8: 200.0, 16: 100.0}, "EP": {1: 900.0}}}


def _tiny(nas: bool) -> C.Settings:
    """The shipped quick settings, smaller: 2 x 3 targets of 60-job workloads, two sweep points
    per parameter, one attribution reading, one load reading of 60-job workloads; with ``nas`` a
    §5.4 log "A" with made-up SP2 times."""
    smaller = {"single_target": {"experiments": 6, "targets_per_workload": 3,
                                 "jobs_per_workload": 60},
               "offered_load": {"kappa_L": [0.5, 1.0], "kappa_sigma": [1.0, 2.0],
                                "workloads_per_point": 1, "jobs_per_workload": 60},
               "generator_check_jobs": 500}
    s = C.resolve_settings(yaml.safe_load(SA_YAML.read_text()), "quick", smaller)
    s = dataclasses.replace(s, attribution={"readings": {"as_configured": {}}, "workloads": 1,
                                            "targets_per_workload": 3, "jobs_per_workload": 60},
                            load_attribution={"readings": {"as_configured": {}},
                                              "jobs_per_workload": 60,
                                              "workloads_per_polynomial": 1})
    return dataclasses.replace(s, nas_validation=NAS) if nas else s


def _swf_table(root: Path) -> None:
    """A small SWF job table of log "A" where the pipeline puts it."""
    header = SWFHeader(fields={"MaxProcs": "16", "UnixStartTime": "0", "TimeZoneString": "UTC"})
    write_parquet(root / trace_jobs("A"), _swf(), {"swf_header": header.to_dict()})


def test_points_are_unique_and_what_the_tables_read(tmp_path):
    s = _tiny(nas=True)
    pts = C.points(s)
    ids = [p.id for p in pts]
    assert len(ids) == len(set(ids)) == 2 + 2 + 1 + 1 + 1
    # every point stands alone but the attribution workload whose settings are the single-target
    # experiments' own: it reads its twin's frames (attribution.single_target_twin)
    assert {p.id: p.needs for p in pts if p.needs} == {"attribution/as_configured/w0": ("single/w0",)}
    assert [p.inputs for p in pts if p.spec["kind"] == "nas"] == [(trace_jobs("A"),)]
    out = C.outputs(s)
    assert {"attribution", "attribution_load"} <= set(out.tables) and C.NAS_FIGURE in out.figures
    assert C.NAS_FIGURE not in C.outputs(_tiny(nas=False)).figures  # §5.4 not run: no Figure 57


def test_points_of_the_shipped_settings(monkeypatch):
    monkeypatch.chdir(ROOT)
    s = C.settings({}, ENV)
    ids = [p.id for p in C.points(s)]
    kinds = pd.Series([p.spec["kind"] for p in C.points(s)]).value_counts().to_dict()
    # 50 workloads (the default's 15,000 experiments, 300 targets each; the paper scale's
    # 30,000 take 100), 2 sweep workloads per parameter, 8 readings x 2 workloads, 8 load
    # readings, no SP2 times
    assert kinds == {"single": 50, "sweep": 4, "attribution": 16, "load": 8}
    paper = C.settings({"papers": {"cirne2001": {"scale": "paper"}}}, ENV)
    assert paper.n_workloads == 100 and paper.load_attribution["workloads_per_polynomial"] == 4
    assert paper.single_target["jobs_per_workload"] == 10000
    assert paper.offered_load == {**paper.offered_load, "workloads_per_point": 40,
                                  "jobs_per_workload": 10000}
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[A-Za-z0-9_.\-/]+", i) for i in ids)
    quick = C.settings({"quick": True}, ENV)
    assert [p.id for p in C.points(quick)] == ["single/w0", "single/w1", "sweep/kappa_L/w0",
                                               "sweep/kappa_sigma/w0"]


def test_run_paper_end_to_end_on_tiny_settings(tmp_path):
    _swf_table(tmp_path)
    s = _tiny(nas=True)
    tables = run_paper(C, "cirne2001", s, tmp_path / "results", root=tmp_path)
    assert set(tables) == set(C.TABLES) | {"attribution", "attribution_load", TABLE}
    runs = tmp_path / "results/cirne2001/runs"
    single = read_point(runs / "single/w1/done.json")["experiments"]
    assert len(single) == 3 and (single["workload"] == 1).all()
    # a point's frame is what its run function returns (the contract adds nothing)
    pd.testing.assert_frame_equal(single, C.run_single_workload(s, 1)[0])
    assert (tables["table16"]["status"] == "run").all() and len(tables["nas_experiments"]) == 8
    att = tables["attribution"].set_index("reading")
    assert list(att.index) == ["as_configured", "thesis"] and att.loc["as_configured",
                                                                         "experiments"] == 3
    sc = pd.read_parquet(tmp_path / "results/cirne2001/scorecard.parquet")
    nas = sc[sc["item"].isin(["Table 16", "Figure 57"])]
    assert len(nas) == 6 and "not_run" not in set(nas["verdict"])  # §5.4 ran: real verdicts
    # the condition names the experiment, its size is in the note: one key at every scale/log
    assert sc["condition"].iloc[0] == "single-target experiments, conservative backfilling"
    assert sc["note"].iloc[0].startswith("6 experiments in 2 workloads")
    assert set(sc["verdict"]) <= {"match", "close", "differs", "holds", "fails", "not_run"}
    # every claim row names its check; the headline rows are marked
    claims = sc[sc["verdict"].isin(["holds", "fails"])]
    assert (claims["check"] != "").all()
    assert sc["headline"].sum() >= 3
    # the causes are looked up in the written readings table: the same as computed in memory
    cols = ["cause", "evidence", "explained"]
    memory = C.scorecard(s, {k: v for k, v in tables.items() if k != TABLE})
    pd.testing.assert_frame_equal(sc[cols], memory[cols])
    assert not_looked_up(sc, pd.read_parquet(tmp_path / f"results/cirne2001/tables/{TABLE}.parquet")) == []
    t13 = tables["table13"].set_index("request")
    assert {"sa/user", "best/user", "sa/best"} <= set(t13.index)
    assert (t13.loc["sa/user", "ci_low"] <= t13.loc["sa/user", "geomean_s"]
            <= t13.loc["sa/user", "ci_high"])
    load = tables["attribution_load"].set_index("reading")
    assert list(load.index) == ["as_configured", "thesis"]
    assert load.loc["as_configured", "workloads"] == 4  # one per arrival polynomial
    pd.testing.assert_frame_equal(read_point(runs / "load/as_configured/done.json")["workloads"],
                                  C.run_load_reading(s, "as_configured", None)[0])
    gen = tables["generator_check"]
    assert {"arrival_factor 1", "arrival_factor 0.5", "condition_on_request True",
            "condition_on_request False"} <= set(gen["reading"])
    figs = tmp_path / "results/cirne2001/figures"
    assert sorted(p.stem for p in figs.glob("*.png")) == sorted(C.outputs(s).figures)


def test_without_sp2_times_table16_is_not_run(tmp_path):
    s = _tiny(nas=False)
    s = dataclasses.replace(s, attribution={}, load_attribution={},
                            offered_load={**s.offered_load, "kappa_L": [1.0], "kappa_sigma": [1.0]})
    tables = C.tables(s, {p.id: C.run_point(s, p, None) for p in C.points(s)}, None)
    assert "attribution" not in tables and "attribution_load" not in tables
    assert (tables["table16"]["status"] == "not run").all()  # no SP2 times configured
    sc = C.scorecard(s, tables)
    t16 = sc[sc["item"].isin(["Table 16", "Figure 57"])]
    assert len(t16) == 6 and (t16["verdict"] == "not_run").all()


def test_settings_from_the_pipeline_config(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the pipeline's working directory: config/ is read from there
    s = C.settings({}, ENV)
    raw = yaml.safe_load(SA_YAML.read_text()) | {"models": yaml.safe_load(
        (ROOT / "config/papers/cirne2001.yaml").read_text())["models"]}
    file = C.resolve_settings(raw)
    # the engine options: the file pins the single-target and §5.4 ones, §6.2 takes the workflow's
    assert s == dataclasses.replace(
        file, offered_load={**file.offered_load, "sim": {"tie_rule": "arrivals_first"}},
        single_target={**file.single_target, "sim": {"tie_rule": C.TIE_RULE}},
        nas_validation={**file.nas_validation, "sim": {"tie_rule": C.TIE_RULE}},
        models_local=s.models_local)
    assert s.single_target["sim"] == s.nas_validation["sim"] == {"tie_rule": C.TIE_RULE}
    assert s.model == raw["models"]["synthetic"]["params"]
    quick = C.settings({"quick": True}, ENV)
    assert quick.single_target["experiments"] < s.single_target["experiments"]
    assert C.settings({"papers": {"cirne2001": {"quick": True}}}, ENV) == quick
    full = C.settings({"full": True}, ENV)
    assert C.settings({"papers": {"cirne2001": {"scale": "paper"}}}, ENV) == full
    assert full.single_target["jobs_per_workload"] == 10000
    other = tmp_path / "sa.yaml"
    cfg = yaml.safe_load(SA_YAML.read_text())
    cfg["seed"] = 7
    other.write_text(yaml.safe_dump(cfg))
    assert C.settings({"cirne2001_sa": str(other)}, ENV).seed == 7
    with pytest.raises(ConfigError, match="not found"):
        C.settings({"cirne2001_sa": str(tmp_path / "missing.yaml")}, ENV)
