"""Perković & Keleher 2000 experiment driver: grid, shape groups, Tables 1-3, summaries, scorecard."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.papers import perkovic2000 as pk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.report.scorecard import COLUMNS
from schedlab.traces.swf import SWF_COLUMNS

CFG = yaml.safe_load(Path("config/papers/perkovic2000.yaml").read_text())


def trace_table(n=60, seed=3):
    """A small synthetic SWF table (18 columns) with estimates and a few zero runtimes."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({c: -np.ones(n, dtype=np.int64) for c in SWF_COLUMNS})
    df["job_id"] = np.arange(1, n + 1)
    df["submit_time"] = np.sort(rng.integers(0, 4000, n))
    df["run_time"] = rng.integers(0, 900, n)
    df["req_time"] = df["run_time"] * rng.integers(1, 6, n) + 60
    df["req_procs"] = rng.integers(1, 9, n)
    df["alloc_procs"] = df["req_procs"]
    df["status"] = 1
    return df


def test_grid_sizes_and_paths():
    pts = pk.grid(CFG)
    n_alg = 2 * len(CFG["orders"])
    n_pct = len(CFG["spec_percentages"])
    expected = n_alg * (len(CFG["experiments"]) + 2 * (n_pct - 1)) + n_alg * len(CFG["extra_machines"])
    assert len(pts) == expected
    assert len({p.path for p in pts}) == len(pts)
    quick = pk.grid(CFG, quick=True)
    assert len(quick) < len(pts) and all(p.machine == CFG["machine"] for p in quick)
    assert pk.RunPoint(338, "spec", "R/L", False, 0.5).path == "338/spec50/R_L-NG"
    bad = {**CFG, "orders": ["X"]}
    with pytest.raises(ValueError, match="unknown order"):
        pk.grid(bad)


def test_sweep_seeds_replicate_the_seeded_algorithms_and_pair_with_their_reference():
    cfg = {**CFG, "sweep_seeds": 2, "extra_machines": []}
    one, two = pk.grid({**cfg, "sweep_seeds": 1}), pk.grid(cfg)
    seeded = set(CFG["paper_setting"]["seed_algorithms"])
    reps = [p for p in two if p.replicate]
    assert len(two) == len(one) + sum(p.algorithm in seeded for p in one)
    assert {p.algorithm for p in reps} == seeded and {p.replicate for p in reps} == {1}
    assert any(p.experiment == "base" for p in reps) and len({p.path for p in two}) == len(two)
    # replicate r of an experiment is compared with replicate r of the base experiment
    rows = []
    for exp, rep, bsld in (("base", 0, 10.0), ("base", 1, 20.0), ("spec", 0, 5.0), ("spec", 1, 5.0)):
        rows.append({"machine": 430, "experiment": exp, "group": "all", "order": "R/L",
                     "guarantees": False, "algorithm": "R/L-NG", "replicate": rep,
                     "percentage": 0.5 if exp == "spec" else math.nan,
                     "bounded_slowdown": bsld, "delay": 1.0, "response": 1.0})
    rows.append({**rows[0], "order": "D", "guarantees": True, "algorithm": "BF"})
    f5 = pk.figure_frames(pd.DataFrame(rows), 430)["fig5"].sort_values("replicate")
    assert list(f5["bounded_slowdown_ratio"]) == [0.5, 0.25]


def test_pk_config_per_experiment():
    s = {**pk.settings(CFG), "starvation_horizon_s": 86400}
    c = pk.pk_config(pk.RunPoint(338, "half_widen_spec", "R/L", False, 0.5), s, 10800)
    assert c.adaptation == "half" and c.widening and c.speculation.test_runs == CFG["fig9_test_runs"]
    assert c.order.weight > 0 and c.speculation.percentage == 0.5
    g = pk.pk_config(pk.RunPoint(338, "base", "R/L", True), s, 10800)
    assert g.order.weight == 0 and g.speculation is None
    assert pk.pk_config(pk.RunPoint(430, "base", "R/L", False), pk.settings(CFG), 10800
                        ).order.weight == (0.0 if CFG["starvation_horizon_s"] == 0 else
                                           pytest.approx(0.5 / 10800 / CFG["starvation_horizon_s"]))


def test_shape_groups_and_table2():
    table = pd.DataFrame({"procs": [1, 1, 8, 8, 2, 16], "estimate": [10, 100, 10, 100, 50, 1000],
                          "overestimation": [1.0, 50.0, 2.0, np.nan, 3.0, 9.0]})
    g = pk.shape_groups(table, "estimate")  # median procs 5, median estimate 75
    assert list(g) == ["SN", "LN", "SW", "LW", "SN", "LW"]
    g2 = pk.shape_groups(table, "overestimation")  # median 3.0; NaN counts as short
    assert list(g2) == ["SN", "LN", "SW", "SW", "SN", "LW"]
    with pytest.raises(ValueError):
        pk.shape_groups(table, "width")


def test_prepare_jobs_tables_and_guarantee_ratios():
    tr = trace_table()
    jobs, report = pk.prepare_jobs(tr, None, 8, 40)
    assert len(jobs) == 40 and report["dropped_subset"] == 20
    assert (jobs["runtime"] >= 1).all() and (jobs["estimate"] >= jobs["runtime"]).all()
    t2 = pk.table2(jobs)
    assert t2.groupby("grouping")["jobs"].sum().tolist() == [40, 40]
    assert t2["zero_runtime_jobs"].sum() == 2 * int((jobs["log_runtime"] == 0).sum())
    pub = CFG["published"]["table1"]
    t1 = pk.table1(tr, jobs, [8, 16], pub, 430)
    row = t1.set_index("quantity")
    assert row.loc["Number of jobs", "reproduced"] == 40
    assert row.loc["Median overestimation factor", "reproduced"] == pytest.approx(
        np.nanmedian(jobs["estimate"] / jobs["log_runtime"].where(jobs["log_runtime"] > 0)))
    # Table 3 by hand: guaranteed delays 10, 40; actual 5, 10 -> ratios 2, 4
    done = pd.DataFrame({"submit": [0, 0, 0], "guaranteed_start": [0, 10, 40], "start": [0, 5, 10]})
    done = pk.add_metrics(done.assign(end=[1, 6, 11], runtime=[1, 1, 1]))
    assert list(pk.guarantee_ratios(done)) == [2.0, 4.0]
    t3 = pk.table3(done).set_index("statistic")["reproduced"]
    assert t3["Average"] == 3.0 and t3["Median"] == 3.0


def test_queue_length_max_and_section8_readings_by_hand():
    jobs = pd.DataFrame({"submit": [0, 1, 2, 10], "start": [0, 5, 6, 10], "end": [9, 7, 70, 11]})
    assert pk.queue_length_max(jobs) == 2
    assert pk.queue_length_max(jobs, "end") == 3           # [2, 7): jobs 0, 1 and 2 in the schedule
    m = pk.section8_metrics(jobs.assign(wait=jobs["start"] - jobs["submit"]))  # waits 0, 4, 4, 0
    assert m["jobs_delayed"] == 2 and m["jobs_delayed_over_10s"] == 0
    assert m["max_queue_with_running"] == 3 and set(m) == set(pk.SECTION8_COLUMNS)
    summary = pd.DataFrame({"machine": 430, "experiment": "base", "group": "all",
                            "algorithm": ["BF", "R/L-NG", "R/L-NG"],
                            **{c: [30_000, 20_000, 21_000] for c in pk.SECTION8_COLUMNS}})
    t = pk.section8_table(summary, 430, CFG["published"]).set_index("reading")
    assert t.loc["wait > 0 s (default)", "R/L-NG"] == 20_500   # mean over seeds
    assert t.loc["wait > 0 s (default)", "smallest by"] == "R/L-NG"
    assert t.loc["wait > 0 s (default)", "smallest"] == 20_000     # over runs, not seed means
    assert t.loc["waiting jobs (default)", "largest"] == 30_000
    assert t.loc["waiting jobs (default)", "published"] == "~1,000"
    assert math.isnan(t.loc["wait > 0 s (default)", "1/L"])


def test_flurry_jobs_follow_the_numbering_gaps():
    tr = trace_table(12)
    tr["user_id"] = 7
    tr.loc[tr["job_id"].isin([2, 3]), "alloc_procs"] = 1
    tr.loc[tr["job_id"].isin([2, 3]), "user_id"] = 9
    kept = tr[~tr["job_id"].isin([5, 6, 7, 9])].reset_index(drop=True)  # flurry: 5-7 and 9
    flurry = {"user": 9, "first_job": 5, "last_job": 9, "jobs": 4}
    shape = {"runtime": 100.4, "estimate": 21_627.0}
    burst = pk.flurry_jobs(kept, flurry, shape, "burst")
    assert list(burst["job_id"]) == [5, 6, 7, 9]
    s = tr.set_index("job_id")["submit_time"]
    lo, hi = s[4], s[8]                                   # jobs 5-7 arrive between jobs 4 and 8
    assert list(burst["submit_time"][:3]) == [int(lo + (hi - lo) * k / 4) for k in (1, 2, 3)]
    assert s[8] <= burst["submit_time"].iloc[3] <= s[10]
    assert (burst["run_time"] == 100).all() and (burst["req_time"] == 21_627).all()
    assert (burst["alloc_procs"] == 1).all() and (burst["user_id"] == 9).all()
    assert list(burst.columns) == list(kept.columns)
    spread = pk.flurry_jobs(kept, flurry, shape, "spread")
    assert list(spread["submit_time"]) == [int(lo + (s[10] - lo) * k / 5) for k in (1, 2, 3, 4)]
    with pytest.raises(ValueError, match="filter says 5"):
        pk.flurry_jobs(kept, {**flurry, "jobs": 5}, shape)
    with pytest.raises(ValueError, match="burst, spread"):
        pk.flurry_jobs(kept, flurry, shape, "uniform")
    pub = {**CFG["published"]["table1"], "Number of jobs": 12}
    jobs, info = pk.attribution_jobs(kept, None, {"machine": 8, "flurry": "burst"}, "t", flurry, pub)
    assert len(jobs) == 12 and info["flurry_jobs"] == 4 and info["flurry_procs"] == 1
    with pytest.raises(ValueError, match="flurry"):
        pk.attribution_jobs(kept, None, {"machine": 8, "flurry": "burst"})


def test_small_run_summary_figures_scorecard_and_determinism(tmp_path):
    tr = trace_table(50)
    jobs, _ = pk.prepare_jobs(tr, None, 8, None)
    s = pk.settings(CFG, quick=True)
    s = {**s, "machine": 8, "orders": ["D", "1/L"], "spec_percentages": [0.2, 0.8]}
    points = pk.grid(s)
    rows = []
    runs = {}
    for p in points:
        out = pk.run_point(jobs, p, s, 1)
        assert out["end"].notna().all() and (out["start"] >= out["submit"]).all()
        runs[p] = out
        rows += pk.summarize(out, p)
    summary = pd.DataFrame(rows)
    frames = pk.figure_frames(summary, 8)
    assert set(frames) == {f"fig{i}" for i in range(3, 10)}
    f3 = frames["fig3"]
    assert f3.loc[f3["algorithm"] == "BF", "bounded_slowdown_ratio"].iloc[0] == pytest.approx(1.0)
    assert set(frames["fig4"]["group"]) <= set(pk.GROUPS)
    bf = runs[pk.RunPoint(8, "base", "D", True)]
    card = pk.scorecard(pk.table1(tr, jobs, [8], CFG["published"]["table1"], 430), pk.table2(jobs),
                        pk.table3(bf), frames, CFG["published"], "test")
    card = pd.concat([card, pk.section8_rows(summary, 8, CFG["published"], "test")])
    assert list(card.columns) == COLUMNS
    assert len(card) >= 50 and set(card["verdict"]) <= {"match", "close", "differs", "holds",
                                                          "fails", "not_run"}
    assert card["headline"].sum() >= 3
    # the same point twice -> byte-identical parquet
    p = pk.RunPoint(8, "spectest", "R/L", False, 0.2)
    for name in ("a", "b"):
        write_parquet(tmp_path / f"{name}.parquet", pk.run_point(jobs, p, s, 1), {"seed": 1})
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    other = pk.run_point(jobs, p, s, 2)
    df, meta = read_parquet(tmp_path / "a.parquet")
    assert meta == {"seed": 1} and len(df) == len(other)
    assert not math.isnan(summary["bounded_slowdown"].iloc[0])


def test_paper_setting_points_with_seed_replicates():
    s = pk.settings(CFG)
    pts = pk.paper_setting_points(s)
    ps = s["paper_setting"]
    n_alg = 2 * len(s["orders"])
    assert len(pts) == n_alg + (ps["seeds"] - 1) * len(ps["seed_algorithms"])
    assert len({p.path for p in pts}) == len(pts)
    reps = [p for p in pts if p.replicate]
    assert {p.algorithm for p in reps} == set(ps["seed_algorithms"])
    assert reps[0].path.endswith("_r1")
    # replicate 0 keeps the seed of the unreplicated point; replicates draw other streams
    a, b = pk.RunPoint(430, "base", "R/L", False), pk.RunPoint(430, "base", "R/L", False, None, 1)
    assert pk.seed_for(1, a).spawn_key != pk.seed_for(1, b).spawn_key
    assert pk.seed_for(1, a).spawn_key == pk.seed_for(1, pk.RunPoint(430, "spec", "R/L", False)).spawn_key
    with pytest.raises(ValueError, match="seed_algorithms"):
        pk.paper_setting_points({**s, "paper_setting": {**ps, "seed_algorithms": ["X-NG"]}})
    assert pk.paper_setting_points({**s, "paper_setting": None}) == []


def test_attribution_jobs_and_rows():
    tr = trace_table(40)
    tr.loc[:4, "status"] = 0
    tr.loc[5, "run_time"] = tr.loc[5, "req_time"] + 100  # runs past its estimate
    base, info = pk.attribution_jobs(tr, None, {"machine": 8})
    assert len(base) == 40 and info["cancelled_in_log"] == 0
    cut = base.set_index("job_id").loc[tr.loc[5, "job_id"]]
    assert cut["runtime"] == tr.loc[5, "req_time"]                  # killed at the estimate
    nocut, info = pk.attribution_jobs(tr, None, {"machine": 8, "runtime_cut": False})
    row = nocut.set_index("job_id").loc[tr.loc[5, "job_id"]]
    assert row["runtime"] == row["estimate"] == tr.loc[5, "run_time"] and info["estimates_raised"] == 1
    dropped, info = pk.attribution_jobs(tr, None, {"machine": 8, "drop_failed": True})
    assert len(dropped) == 35 and info["dropped_failed"] == 5
    s = {**pk.settings(CFG, quick=True), "starvation_horizon_s": 0}
    assert pk.pk_config(pk.RunPoint(8, "base", "R/L", False), s, 100.0).order.weight == 0.0
    rows = []
    for o, g in pk.ATTRIBUTION_ALGORITHMS:
        p = pk.RunPoint(8, "base", o, g)
        rows += pk.summarize(pk.run_point(base, p, pk.settings(CFG, quick=True), 1), p)
    r = pk.attribution_row("paper", {"machine": 8}, pd.DataFrame(rows).assign(**pk.input_stats(base)))
    assert r["input median parallelism"] == base["procs"].median()
    bf = pd.DataFrame(rows).query("group == 'all'").set_index("algorithm")
    assert r["jobs_delayed_BF"] == bf.loc["BF", "jobs_delayed"] and r["machine"] == 8
    assert r["bsd_reduction R/L-NG vs BF"] == pytest.approx(
        1 - bf.loc["R/L-NG", "bounded_slowdown"] / bf.loc["BF", "bounded_slowdown"])
    pub = pk.published_attribution_row(CFG["published"])
    assert pub["bsd_reduction R/L-NG vs BF"] == 0.77 and set(pub) == set(r)
