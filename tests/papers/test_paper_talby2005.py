"""Talby & Feitelson 2005 on the paper contract (schedlab.papers): settings, points, outputs, and
the points and the assembly run in-process on a tiny synthetic log."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml
from matplotlib import pyplot as plt

from schedlab.io import write_parquet
from schedlab.papers import Env, Inputs, load, trace_jobs
from schedlab.report.attribution import TABLE, not_looked_up
from schedlab.traces.swf import parse_swf_text

T = load("talby2005")


def env(local=(), sizes=None):
    return Env(trace_local=lambda name: name in local,
               machine_size=lambda name: (sizes or {}).get(name))


@pytest.fixture(autouse=True)
def in_repo(repo, monkeypatch):
    monkeypatch.chdir(repo)  # settings read config/papers/talby2005.yaml from the workflow's dir


@pytest.mark.parametrize("switches", [{}, {"quick": True}, {"full": True}])
def test_points_and_outputs_agree(switches):
    s = T.settings(switches, env())
    pts = T.points(s)
    ids = [p.id for p in pts]
    assert len(ids) == len(set(ids)) and ids == sorted(ids)
    assert all(not p.needs for p in pts)  # every point reads its trace only
    traces = {t for names in s.logs.values() for t in names.values()}
    assert all(len(p.inputs) == 1 and p.inputs[0] in {trace_jobs(t) for t in traces} for p in pts)
    out = T.outputs(s)
    assert set(out.inputs) == {i for p in pts for i in p.inputs}  # Table 1 reads every trace run
    assert len(set(out.tables)) == len(out.tables) and len(set(out.figures)) == len(out.figures)
    batches = [p for p in pts if p.spec["kind"] == "attr"]
    assert batches and all(p.spec["batch"] for p in batches)
    if switches.get("quick"):
        assert {p.spec["log"] for p in pts} == {"KTH"}


def test_settings_follow_overrides_and_switches():
    cfg = {"papers": {"talby2005": {"min_month_jobs": 5, "quick": True}}}
    s = T.settings(cfg, env(local={"KTH-SP2-1996-2.1"}, sizes={"KTH-SP2-1996-2.1-cln": 100}))
    assert s.min_month_jobs == 5 and s.scale == "quick"
    assert s.raw_local == {"BLUE": False, "SDSP2": False, "KTH": True}
    assert s.machine_sizes["KTH-SP2-1996-2.1-cln"] == 100
    # a local raw log adds its raw scheduler points (Table 4's raw rows)
    assert any(p.id.startswith("KTH-raw/sched/") for p in T.points(s))
    assert not any("-raw/" in p.id for p in T.points(T.settings({"quick": True}, env())))


def tiny_swf(n=240, seed=7):
    """Three calendar months of a 16-processor machine (SeedSequence-seeded)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    submit = np.sort(rng.integers(0, 90 * 86400, n))
    run = rng.integers(60, 40000, n)
    procs = rng.choice([1, 2, 4, 8, 16], n)
    lines = ["; UnixStartTime: 946684800", "; TimeZoneString: UTC", "; MaxProcs: 16"]
    for i in range(n):
        status = 5 if i % 37 == 0 else 1
        lines.append(f"{i + 1} {submit[i]} -1 {run[i]} {procs[i]} -1 -1 {procs[i]} "
                     f"{run[i] * 2} -1 {status} {i % 9} 1 -1 1 -1 -1 -1")
    return "\n".join(lines) + "\n"


def test_points_tables_figures_scorecard_on_a_tiny_log(tmp_path, repo):
    """Every point of a shortened quick grid run on a tiny log, then the assembly: the tables and
    figures are exactly the declared ones (the in-process runner, run_paper, would also save the
    figures: ~40 CPU-s, too slow for a unit test)."""
    cfg = yaml.safe_load((repo / "config/papers/talby2005.yaml").read_text())
    shorter = {"pbas": {"time_frames_s": [86400], "metrics": ["util"],
                        "four": {"figure3_time_frames_s": []}, "best": cfg["pbas"]["best"][:1]},
               "wbas": {"switch_times_s": [86400], "mafs": [50], "best": cfg["wbas"]["best"][:1]},
               "attribution": {"run_readings": ["conservative", "maui_fcfs"],
                               "variants": {"separate_months": ["conservative"]}}}
    s = T.settings({"quick": True, "papers": {"talby2005": {"scales": {"quick": shorter}}}}, env())
    trace = parse_swf_text(tiny_swf())
    name = trace_jobs(s.logs["KTH"]["clean"])
    write_parquet(tmp_path / name, trace.jobs, {"swf_header": trace.header.to_dict()})
    files = Inputs(files={name: tmp_path / name})
    runs = {p.id: T.run_point(s, p, files) for p in T.points(s)}
    assert set(runs["KTH-clean/pbas/fm-util-86400"]) == {"jobs", "stats"}
    assert set(runs["KTH-clean/attr/batch"]) == {"sums"}
    tables = T.tables(s, runs, files)
    assert set(tables) == set(T.outputs(s).tables)
    t2 = tables["table2"]
    assert sorted(t2["scheduler"]) == sorted(s.schedulers)
    assert (t2["jobs"] == len(trace.jobs) - (trace.jobs["status"] == 5).sum()).all()  # dropped
    ad = tables["adaptive"]
    assert set(ad["kind"]) == {"pbas", "wbas"} and ad["switches"].ge(0).all()
    pbas = ad[ad["kind"] == "pbas"]
    assert np.allclose(pbas.filter(like="share_").sum(axis=1), 100.0)  # time shares: the whole
    assert set(tables["attr_runs"]["reading"]) >= {"conservative", "maui_fcfs"}
    figs = T.figures(s, tables)
    assert set(figs) == set(T.outputs(s).figures)
    for fig in figs.values():
        plt.close(fig)
    card = T.scorecard(s, tables)
    assert len(card) and {"holds", "fails"} & set(card["verdict"])
    # the causes are looked up in the assembly's readings table: the same as computed in memory
    cols = ["cause", "evidence", "explained"]
    memory = T.scorecard(s, {k: v for k, v in tables.items() if k != TABLE})
    pd.testing.assert_frame_equal(card[cols], memory[cols])
    assert not_looked_up(card, tables[TABLE]) == []
