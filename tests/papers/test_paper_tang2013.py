"""Tang et al. 2013 on the paper contract: settings from the pipeline config, points and outputs
consistent, the whole paper run through schedlab.papers.runner on a tiny log."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedlab.io import write_parquet
from schedlab.models.synth import params_from_dict, rigid_workload, swf_workload
from schedlab.papers import Env, load, trace_jobs
from schedlab.papers.runner import run_paper
from schedlab.papers.tang2013.config import SUBSTITUTE
from schedlab.papers.tang2013.tabulate import ATTRIBUTION_TABLES
from schedlab.report.scorecard import value_row

REPO = Path(__file__).resolve().parents[2]
T = load("tang2013")


def env(bgp_local: bool = False) -> Env:
    return Env(trace_local=lambda name: bgp_local, machine_size=lambda name: None)


@pytest.fixture
def repo(monkeypatch):
    monkeypatch.chdir(REPO)  # settings read config/papers/tang2013.yaml as the workflow does
    return REPO


def test_settings_follow_the_switches_and_overrides(repo):
    default = T.settings({}, env())
    assert default.scale == "default"
    assert [d.label for d in default.log_specs] == ["SP2", SUBSTITUTE]
    assert default.log_specs[0].jobs == 5000
    quick = T.settings({"papers": {"tang2013": {"quick": True, "timing_jobs": 77}}}, env())
    assert quick.scale == "quick" and quick.timing_jobs == 77
    assert quick.log_specs[0].jobs == 1000  # the quick scale's SP2 jobs
    assert len(quick.sweep_points) < len(default.sweep_points)
    full = T.settings({"full": True}, env(bgp_local=True))
    assert [d.label for d in full.log_specs] == ["SP2", "BGP"]
    assert len(full.sweep_points) == 25 + 3


def test_points_and_outputs_are_consistent(repo):
    for config in ({}, {"quick": True}, {"full": True}):
        s = T.settings(config, env())
        pts = T.points(s)
        ids = [p.id for p in pts]
        assert len(ids) == len(set(ids))
        assert all(n in ids for p in pts for n in p.needs)
        assert all(not p.startswith("/") and ".." not in p for p in ids)
        # per log: every sweep point, Table 4, the search cap; SP2: two selections + base readings
        assert len(pts) == 2 * (len(s.sweep_points) + 2) + 3
        adaptive = [p for p in pts if p.spec.get("point", "").startswith("adapt")]
        assert adaptive and all(p.needs == (p.id.split("/")[0] + "/bf1_w1",) for p in adaptive)
        base = next(p for p in pts if p.spec["kind"] == "attribution_base")
        assert len(base.spec["readings"]) == (16 if config.get("full") else 7)
        out = T.outputs(s)
        assert set(ATTRIBUTION_TABLES) <= set(out.tables)
        assert {"table3_SP2", f"table2_{SUBSTITUTE}", "sweep", "monitors"} <= set(out.tables)
        assert len(out.figures) == 4 * 2 + 2


def tiny_settings(root: Path) -> T.Settings:
    """Quick settings on a 60-job synthetic log standing in for both logs (written under root)."""
    jobs, _ = rigid_workload(params_from_dict({"machine_size": 128}), 80,
                             np.random.SeedSequence(2013))
    table, header = swf_workload(jobs, 128, "tiny tang2013 log")
    quick = {"logs": {"SP2": {"jobs": 60}, "BGP": {"jobs": 60, "substitute": {"jobs": 60}}},
             "balance_factors": [1.0, 0.5], "windows": [1, 4], "timing_jobs": 30}
    s = T.settings({"quick": True, "papers": {"tang2013": {"scales": {"quick": quick}}}}, env())
    for spec in s.log_specs:
        write_parquet(root / trace_jobs(spec.trace), table, {"swf_header": header.to_dict()})
    return s


# on the substitute's 1,024 nodes the tiny log never waits: the §4.4.4 ratios are 0 / 0 (NaN)
@pytest.mark.filterwarnings("ignore:invalid value encountered in scalar divide:RuntimeWarning")
def test_whole_paper_runs_through_the_runner(repo, tmp_path):
    """Every point, then tables, figures and scorecard, in-process; twice, the same frames."""
    s = tiny_settings(tmp_path)
    tables = run_paper(T, "tang2013", s, tmp_path / "a", root=tmp_path)
    assert set(tables) == set(T.outputs(s).tables)
    for name in T.outputs(s).figures:
        assert (tmp_path / "a/tang2013/figures" / f"{name}.png").is_file()
    assert len(tables["table3_SP2"]) == len(s.configurations)
    assert (tables["sweep"]["jobs"] == 60).all()
    assert set(tables["monitors"]["point"]) <= set(s.sweep_points)
    card = pd.read_parquet(tmp_path / "a/tang2013/scorecard.parquet")
    assert len(card) and set(card["paper"]) == {"tang2013"}
    again = run_paper(T, "tang2013", s, tmp_path / "b", root=tmp_path)
    for name, df in tables.items():
        if name != "table4":  # wall-clock seconds
            pd.testing.assert_frame_equal(df, again[name], check_exact=True)



def test_scorecard_takes_the_burst_and_month_averages_from_the_tables(repo, monkeypatch):
    """The contract's scorecard feeds scorecard_rows the Figs. 5-6 maxima from table monitors
    (per log and point), the §4.4.1 month averages from table thresholds and table
    attribution_base (§3.3's "FCFS plus backfilling")."""
    import schedlab.papers.tang2013.scoring as sc

    captured = {}

    def rows_of(cfg, specs, summary, configs, gains, table4, maxqd, month_average,
                base_readings, gains_published=None):
        captured.update(maxqd=maxqd, month_average=month_average, base_readings=base_readings)
        return []

    monkeypatch.setattr(sc, "scorecard_rows", rows_of)
    s = T.settings({}, env())
    mon = pd.DataFrame([{"log": log, "point": p, "hours": h, "queue_depth_min": q}
                        for log, p, qs in (("SP2", "bf1_w1", (0.0, 10.0)),
                                           ("SP2", "adapt-bf", (7.0, 5.0)),
                                           (SUBSTITUTE, "bf1_w1", (3.0, 0.0)))
                        for h, q in zip((0.0, 0.5), qs, strict=True)])
    th = pd.DataFrame({"log": ["SP2", SUBSTITUTE], "our_run_average_min": [900.0, 900.0],
                       "our_whole_month_average_min": [400.0, 100.0]})
    tables = {name: pd.DataFrame() for name in T.outputs(s).tables} | {
        "monitors": mon, "thresholds": th}
    assert T.scorecard(s, tables).empty
    assert captured["maxqd"] == {"SP2": {"bf1_w1": 10.0, "adapt-bf": 7.0},
                                 SUBSTITUTE: {"bf1_w1": 3.0}}
    assert captured["month_average"] == {"SP2": 400.0, SUBSTITUTE: 100.0}
    assert captured["base_readings"] is tables["attribution_base"]


def test_scorecard_looks_the_causes_up_in_the_readings_table(repo, monkeypatch):
    """A deviating row's cause and evidence come from the assembly's readings table
    (report.attribution.TABLE), by the row's key: a reading there explains it; without one the
    row keeps the gap marker."""
    import schedlab.papers.tang2013.scoring as sc
    from schedlab.report.attribution import TABLE, attribution_frame

    row = value_row("tang2013", "Table 3", "average wait", "SP2 BF=1/W=1", 77.4, 120.0, "min")
    monkeypatch.setattr(sc, "scorecard_rows", lambda *a, **k: [dict(row)])
    s = T.settings({}, env())
    th = pd.DataFrame({"log": ["SP2", SUBSTITUTE], "our_whole_month_average_min": [400.0, 100.0]})
    tables = {name: pd.DataFrame() for name in T.outputs(s).tables} | {
        "monitors": pd.DataFrame(columns=["log", "point", "hours", "queue_depth_min"]),
        "thresholds": th}
    reading = {**{k: row[k] for k in ("paper", "item", "quantity", "condition")},
               "reading": "job selection records", "cause": "the first 5000 jobs",
               "value": 80.0, "baseline": 120.0, "holds": None,
               "source": "tang2013/tables/attribution_runs"}
    [r] = T.scorecard(s, tables | {TABLE: attribution_frame([reading])}).to_dict("records")
    assert (r["explained"], r["cause"]) == ("explained", "the first 5000 jobs")
    assert r["evidence"].startswith("tang2013/tables/attribution_runs: job selection records")
    [r] = T.scorecard(s, tables | {TABLE: attribution_frame([])}).to_dict("records")
    assert r["cause"] == "not yet attributed"
