"""Perković & Keleher 2000 end to end: a small sweep's summary, figures frames and scorecard; the contract."""

from __future__ import annotations

import dataclasses
import importlib
import math

import pandas as pd
import pytest
from perkovic2000_cases import CFG, settings_at, trace_table

from schedlab.io import read_parquet, write_parquet
from schedlab.papers import load, trace_jobs
from schedlab.papers.perkovic2000.config import Attribution, PaperSetting, settings
from schedlab.papers.perkovic2000.jobs import prepare_jobs
from schedlab.papers.perkovic2000.runs import simulate, summarize
from schedlab.papers.perkovic2000.scoring import paper_rows, section8_rows
from schedlab.papers.perkovic2000.sweep import (
    GROUPS,
    RunPoint,
    experiment_id,
    experiment_runs,
    grid,
    paper_setting_points,
    run_sets,
)
from schedlab.papers.perkovic2000.tabulate import figure_frames, table1, table2, table3, views
from schedlab.papers.runner import read_point, run_paper
from schedlab.report.attribution import TABLE, not_looked_up
from schedlab.report.scorecard import COLUMNS


def test_small_run_summary_figures_scorecard_and_determinism(tmp_path):
    tr = trace_table(50)
    jobs, _ = prepare_jobs(tr, None, 8, None)
    s = settings_at("quick", machine=8, orders=["D", "1/L"], spec_percentages=[0.2, 0.8])
    points = grid(s)
    rows = []
    runs = {}
    for p in points:
        out = simulate(jobs, p, s, 1)
        assert out["end"].notna().all() and (out["start"] >= out["submit"]).all()
        runs[p] = out
        rows += summarize(out, p)
    summary = pd.DataFrame(rows)
    frames = figure_frames(summary, 8)
    assert set(frames) == {f"fig{i}" for i in range(3, 10)}
    f3 = frames["fig3"]
    assert f3.loc[f3["algorithm"] == "BF", "bounded_slowdown_ratio"].iloc[0] == pytest.approx(1.0)
    assert set(frames["fig4"]["group"]) <= set(GROUPS)
    bf = runs[RunPoint(8, "base", "D", True)]
    card = paper_rows(table1(tr, jobs, [8], CFG["published"]["table1"], 430), table2(jobs),
                        table3(bf), frames, CFG["published"], "test")
    card = pd.concat([card, section8_rows(summary, 8, CFG["published"], "test")])
    assert list(card.columns) == COLUMNS
    assert len(card) >= 50 and set(card["verdict"]) <= {"match", "close", "differs", "holds",
                                                          "fails", "not_run"}
    assert card["headline"].sum() >= 3
    # the same point twice -> byte-identical parquet
    p = RunPoint(8, "spectest", "R/L", False, 0.2)
    for name in ("a", "b"):
        write_parquet(tmp_path / f"{name}.parquet", simulate(jobs, p, s, 1), {"seed": 1})
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    other = simulate(jobs, p, s, 2)
    df, meta = read_parquet(tmp_path / "a.parquet")
    assert meta == {"seed": 1} and len(df) == len(other)
    assert not math.isnan(summary["bounded_slowdown"].iloc[0])


def tiny_settings(**changes):
    """The config file's settings on a 60-job log: 8 nodes, two orders, a 40-job sweep, an extra
    machine, the paper setting on the whole log with 2 seeds of 1/L-NG, two attribution readings."""
    base = settings({})
    return dataclasses.replace(
        base, trace="tiny", machine=8, orders=("D", "1/L"), max_jobs=40, extra_machines=(16,),
        spec_percentages=(0.2, 0.8),
        paper_setting=PaperSetting(machine=8, max_jobs=None, seeds=2, seed_algorithms=("1/L-NG",)),
        attribution=Attribution(readings={"paper": {"machine": 8},
                                          "no_runtime_cut": {"machine": 8, "runtime_cut": False}}),
        **changes)


def test_contract_runs_every_point_and_assembles_a_tiny_log(tmp_path):
    pk = load("perkovic2000")
    s = tiny_settings()
    write_parquet(tmp_path / trace_jobs("tiny"), trace_table(60), {"swf_header": {}})
    pts = pk.points(s)
    ids = [p.id for p in pts]
    assert len(ids) == len(set(ids)) and all(n in ids for p in pts for n in p.needs)
    assert {"jobs/n40", "jobs/all", "n40/8/base", "n40/8/spec20", "n40/8/half_widen_spec50",
            "all/8/base", "n40/16/base", "attribution/no_runtime_cut"} <= set(ids)
    tables = run_paper(pk, "perkovic2000", s, tmp_path / "results", root=tmp_path)
    out = pk.outputs(s)
    assert set(tables) == set(out.tables) and "attribution" in out.tables
    figs = tmp_path / "results/perkovic2000/figures"
    assert sorted(p.stem for p in figs.glob("*.png")) == sorted(out.figures)
    assert "fig3_16" in out.figures
    summary = tables["summary"]
    paper = summary["setting"] == "paper"
    assert summary.loc[paper, "jobs"].max() == 60 and summary.loc[~paper, "jobs"].max() == 40
    assert list(tables["attribution"]["reading"]) == ["published (paper)", "paper", "no_runtime_cut"]
    # what the figures and the scorecard read back equals the runs' own summary
    runs = tmp_path / "results/perkovic2000/runs"
    direct = pd.DataFrame([r for p in paper_setting_points(s) for r in summarize(
        read_point(runs / experiment_id("all", p) / "done.json")[p.name], p)])
    v = views(s, tables)
    pd.testing.assert_frame_equal(v.base.reset_index(drop=True), direct, check_exact=True)
    assert v.whole_log and v.note_base == "8 nodes, whole cleaned log, 2 seeds of 1/L-NG"
    card = pd.read_parquet(tmp_path / "results/perkovic2000/scorecard.parquet")
    assert list(card.columns) == COLUMNS and card["condition"].str.endswith("(16 nodes)").any()
    assert "not_run" not in set(card.loc[card["item"] == "Table 3", "verdict"])
    # the causes are looked up in the written readings table: the same as computed in memory
    written = pd.read_parquet(tmp_path / f"results/perkovic2000/tables/{TABLE}.parquet")
    cols = ["cause", "evidence", "explained"]
    pd.testing.assert_frame_equal(card[cols], pk.scorecard(s, {k: v for k, v in tables.items()
                                                              if k != TABLE})[cols])
    assert not_looked_up(card, written) == []


def test_an_experiment_point_runs_each_of_its_runs_once_as_if_alone(tmp_path, monkeypatch):
    """The sweep and the paper setting both on the whole log (replicates 0-1 of 1/L-NG in both):
    each run is simulated once, in its experiment's point, and its frame is the run alone."""
    pk = load("perkovic2000")
    s = dataclasses.replace(tiny_settings(), max_jobs=None, extra_machines=(), sweep_seeds=2,
                            attribution=Attribution(readings={}))
    write_parquet(tmp_path / trace_jobs("tiny"), trace_table(60), {"swf_header": {}})
    simulated = []

    def counted(table, rp, *args):
        simulated.append(rp)
        return simulate(table, rp, *args)

    # the package binds the name ``points`` to the contract's function: the module by its path
    monkeypatch.setattr(importlib.import_module("schedlab.papers.perkovic2000.points"), "simulate",
                        counted)
    run_paper(pk, "perkovic2000", s, tmp_path / "results", root=tmp_path)
    every = {p for _, _, runs in run_sets(s) for p in runs}
    assert len(simulated) == len(set(simulated)) == len(every) and set(simulated) == every
    assert len(every) < sum(len(runs) for _, _, runs in run_sets(s))  # the sets share runs
    runs = tmp_path / "results/perkovic2000/runs"
    jobs = read_point(runs / "jobs/all/done.json")["sim"]
    for pid, group in experiment_runs(s).items():
        frames = read_point(runs / pid / "done.json")
        assert sorted(frames) == sorted(group)  # every algorithm and replicate, nothing else
        for name, rp in group.items():
            pd.testing.assert_frame_equal(frames[name], simulate(jobs, rp, s, int(s.seed_entropy)),
                                          check_exact=True)


def test_quick_settings_drop_the_paper_setting_and_the_attribution():
    pk = load("perkovic2000")
    s = settings({"quick": True})
    assert s.scale == "quick" and s.paper_setting is None and s.max_jobs == 1000
    ids = [p.id for p in pk.points(s)]
    assert "jobs/n1000" in ids and not any(i.startswith(("attribution/", "all/")) for i in ids)
    assert "attribution" not in pk.outputs(s).tables
    full = settings({"full": True, "papers": {"perkovic2000": {"sweep_seeds": 2}}})
    assert full.max_jobs is None and full.sweep_seeds == 2  # overrides win over the scale
    assert "machine_338" in {p.id.split("/")[1] for p in pk.points(full) if p.id.startswith("attr")}
