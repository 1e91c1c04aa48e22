"""Schroeder & Harchol-Balter (2004) end to end on a tiny workload: every step's functions, and
the whole paper through the contract's runner (schedlab.papers.runner.run_paper)."""

import dataclasses
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.io import write_parquet
from schedlab.papers import Env, trace_jobs
from schedlab.papers import schroeder2004 as s04
from schedlab.papers.runner import run_paper
from schedlab.papers.schroeder2004.analysis import analyze
from schedlab.papers.schroeder2004.config import Table1Entry, resolve_config
from schedlab.papers.schroeder2004.cutoffs import derive_cutoffs
from schedlab.papers.schroeder2004.plots import figure_stems, make_figures
from schedlab.papers.schroeder2004.scoring import (
    build_scorecard,
    claim_rows,
    service_order_attribution,
)
from schedlab.papers.schroeder2004.simulations import experiments, run_experiment
from schedlab.papers.schroeder2004.workload import service_trace, table1_row, workload_halves
from schedlab.report.attribution import TABLE, not_looked_up
from schedlab.report.scorecard import COLUMNS

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def raw():
    return yaml.safe_load((REPO / "config/papers/schroeder2004.yaml").read_text())


@pytest.fixture(scope="module")
def tiny_cfg(raw):
    over = {"loads": [0.3, 0.7], "replications": 2, "cutoff_replications": 2,
            "cutoff_candidates": 5, "many_hosts": [2, 4], "scaled_loads": [0.5, 0.97]}
    return resolve_config(raw, "quick", over)


@pytest.fixture(scope="module")
def tiny_jobs():
    rng = np.random.default_rng(3)
    n = 600
    return pd.DataFrame({"submit_time": np.cumsum(rng.integers(0, 900, n)),
                         "run_time": np.ceil(rng.lognormal(6.5, 1.5, n)).astype(int),
                         "alloc_procs": rng.choice([4, 8], n), "req_procs": 8})


def test_tiny_end_to_end(tiny_cfg, tiny_jobs, raw):
    d, e, report = workload_halves(tiny_jobs, tiny_cfg)
    assert report["derivation_jobs"] + report["evaluation_jobs"] == report["jobs"]
    assert np.all(d.submit <= e.submit.min())  # chronological halves
    cuts = derive_cutoffs(d, tiny_cfg)
    a = cuts[(cuts["hosts"] == 2) & (cuts["method"] == "analytic")]
    assert set(a["policy"]) == {"SITA-E", "SITA-U-opt", "SITA-U-fair", "SITA-U-rule"}
    assert (cuts[cuts["hosts"] == 4]["cutoffs"].map(len) == 3).all()
    sims = pd.concat([run_experiment(x, e, cuts, tiny_cfg) for x in
                      experiments(tiny_cfg)], ignore_index=True)
    p = sims[sims["experiment"] == "poisson"]
    lwl = p[p["policy"] == "Least-Work-Left"].set_index(["service_order", "hosts", "load"])
    cq = p[p["policy"] == "Central-Queue"].set_index(["service_order", "hosts", "load"])
    pd.testing.assert_series_equal(lwl["mean_slowdown"], cq["mean_slowdown"])
    assert (sims["mean_slowdown"] >= 1).all()
    # every point carries its replication interval; one scaled-arrival run has a point interval
    pois = sims[sims["experiment"] != "scaled"]
    assert (pois["mean_slowdown_lo"] <= pois["mean_slowdown"] + 1e-9).all()
    assert (pois["mean_slowdown_hi"] >= pois["mean_slowdown"] - 1e-9).all()
    assert (pois["rep_mean_slowdown"].map(len) == tiny_cfg.replications).all()
    sc = sims[sims["experiment"] == "scaled"]
    assert (sc["mean_slowdown_lo"] == sc["mean_slowdown_hi"]).all()
    assert set(sims["experiment"]) == {"poisson", "many_hosts", "scaled"}
    # rerunning gives identical numbers (seeded streams only)
    again = run_experiment("poisson-trace", e, cuts, tiny_cfg)
    pd.testing.assert_frame_equal(again, sims[(sims["experiment"] == "poisson")
                                              & (sims["service_order"] == "trace")]
                                  .reset_index(drop=True))
    analysis = analyze(e, cuts, tiny_cfg)
    assert {"Random", "Least-Work-Left", "SITA-E"} <= set(analysis["policy"])
    t1 = pd.DataFrame([table1_row("CTC IBM-SP2", service_trace(tiny_jobs, {"procs": [8]}),
                                      {"procs": [8]})])
    card = build_scorecard(t1, cuts, sims, analysis, raw["published"], tiny_cfg)
    assert list(card.columns) == COLUMNS
    assert {"holds", "fails", "not_run"} & set(card["verdict"])
    assert card["item"].str.contains("Fig 7").any() and card["item"].str.contains("Fig 6").any()
    claims = card[card["check"] != ""]
    assert (claims["verdict"].isin(["holds", "fails"])).all()  # every claim evaluated
    assert 3 <= int(card["headline"].sum()) <= 5
    nr = card[card["verdict"] == "not_run"]
    assert nr["note"].str.startswith("data unavailable offline").all() and len(nr) == 11
    att = service_order_attribution(sims, cuts, analysis, tiny_cfg)
    assert {"verdict_shuffled", "verdict_trace"} <= set(att.columns)
    assert len(att) == len(claim_rows(sims, cuts, analysis, tiny_cfg, "trace"))
    figs = make_figures(cuts, sims, analysis, tiny_cfg)
    assert sorted(figs) == figure_stems(tiny_cfg)
    import matplotlib.pyplot as plt
    for f in figs.values():
        plt.close(f)




def test_points_and_outputs_agree(monkeypatch, raw):
    monkeypatch.chdir(REPO)
    s = s04.settings({}, Env(trace_local=lambda n: True, machine_size=lambda n: 512))
    pts = s04.points(s)
    ids = [p.id for p in pts]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[\w.-]+", i) for i in ids)
    assert all(n in ids for p in pts for n in p.needs)
    assert {p.id for p in pts if p.needs} == {"analysis", *(f"sim_{e}" for e in experiments(s))}
    # every point's frame is one table; the attribution tables are the assembly's own
    assert set(s04.outputs(s).tables) == {*ids, "attribution_service_order", TABLE}
    assert list(s04.outputs(s).figures) == figure_stems(s)


@pytest.mark.slow
def test_whole_paper_through_the_runner(monkeypatch, tmp_path, tiny_jobs, tiny_cfg):
    """run_paper (the rule family's steps in-process) gives the tables of the direct calls."""
    monkeypatch.chdir(REPO)
    over = {k: getattr(tiny_cfg, k) for k in ("loads", "replications", "cutoff_replications",
                                     "cutoff_candidates", "many_hosts", "scaled_loads")}
    s = s04.settings({"papers": {"schroeder2004": over | {"trace": "TINY", "scale": "quick"}}},
                     Env(trace_local=lambda n: True, machine_size=lambda n: 8))
    s = dataclasses.replace(s, table1={"tiny": Table1Entry(trace="TINY", subset={"procs": [8]})})
    write_parquet(tmp_path / trace_jobs("TINY"), tiny_jobs, {"swf_header": {}})
    tables = run_paper(s04, "schroeder2004", s, tmp_path / "results", root=tmp_path)
    assert set(tables) == set(s04.outputs(s).tables)
    out = tmp_path / "results/schroeder2004"
    assert sorted(p.stem for p in (out / "figures").glob("*.png")) == sorted(figure_stems(s))
    # the same numbers as calling the steps directly
    d, e, _ = workload_halves(tiny_jobs, s)
    cuts = derive_cutoffs(d, s)
    for x in experiments(s):
        direct = run_experiment(x, e, cuts, s)
        pd.testing.assert_series_equal(tables[f"sim_{x}"]["mean_slowdown"],
                                       direct["mean_slowdown"])
    assert tables["table1"]["jobs"].tolist() == [int((tiny_jobs["alloc_procs"] == 8).sum())]
    card = pd.read_parquet(out / "scorecard.parquet")
    sims = pd.concat([tables[f"sim_{x}"] for x in experiments(s)], ignore_index=True)
    direct_card = build_scorecard(tables["table1"], tables["cutoffs"], sims, tables["analysis"],
                                  s.published, s)
    assert card["verdict"].tolist() == direct_card["verdict"].tolist()
    # the causes are looked up in the written readings table: the same as computed in memory
    cols = ["cause", "evidence", "explained"]
    pd.testing.assert_frame_equal(card[cols], direct_card[cols])
    written = pd.read_parquet(out / "tables" / f"{TABLE}.parquet")
    assert len(written) and not_looked_up(card, written) == []
    assert (card["verdict"] == "holds").any() and (card["verdict"] == "fails").any()
