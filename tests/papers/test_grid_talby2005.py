"""Talby & Feitelson 2005 experiment grid and sweep points."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.papers.talby2005 import grid as ex
from schedlab.papers.talby2005 import runs
from schedlab.papers.talby2005.config import resolve_settings
from schedlab.sim import SimJob


@pytest.fixture(scope="module")
def raw(repo):
    return yaml.safe_load((repo / "config/papers/talby2005.yaml").read_text())


@pytest.fixture(scope="module")
def cfg(raw):
    return resolve_settings(raw)


def at(raw, scale, **changes):
    """The settings at ``scale`` with ``changes`` replaced."""
    return dataclasses.replace(resolve_settings(raw, scale), **changes)


def test_grid_sizes(cfg, raw):
    quick = ex.grid(resolve_settings(raw, "quick"))
    assert {p.log for p in quick} == {"KTH"}
    assert {p.name for p in quick if p.kind == "sched"} == set(cfg.schedulers)
    full = ex.grid(resolve_settings(raw, "paper"))
    pb = raw["pbas"]
    n_pbas = len(pb["metrics"]) * len(pb["time_frames_s"])
    per_log = {log: sum(1 for p in full if p.log == log and p.kind == "pbas") for log in cfg.logs}
    n_four = len(pb["four"]["time_frames_s"])
    assert per_log["KTH"] == n_pbas + n_four and per_log["BLUE"] == n_pbas + n_four
    default = ex.grid(cfg)
    assert ({p.log for p in default if p.kind in ("pbas", "wbas")}
            == set(raw["scales"]["default"]["adaptive_logs"]))
    # the attribution runs on the logs of attribution.logs (the paper scale: every log) and the
    # slack sweep on those of slack_logs; a reading equal to a main scheduler reuses its run
    attributed = set(raw["scales"]["default"]["attribution"]["logs"])
    assert attributed < set(cfg.logs) <= set(cfg.attribution["slack_logs"])
    assert {p.log for p in full if p.kind == "attr"} == set(cfg.logs)
    # one attribution batch job per log; a log outside attribution.logs runs the slack sweep only
    assert sorted(p.name for p in default if p.kind == "attr") == ["batch"] * len(cfg.logs)
    for log in set(cfg.logs) - attributed:
        assert {r for r, _ in ex.attr_batch(cfg, log)} <= {
            ex.slack_reading(f) for f in cfg.attribution["slack_factors"]}
        assert ex.attr_batch(cfg, log)
        # its main runs (the sched points, no run of their own) are keys too: the slack
        # readings' tables (attr_table3, attr_monthly) compare against them
        keys = {(r, c) for lg, r, c in ex.attribution_keys(cfg, [log])}
        assert ("maui_xfactor100", cfg.cancelled) in keys and ("maui_fcfs", cfg.cancelled) not in keys
        assert {ex.attr_point(cfg, log, r, c).kind for r, c in keys
                if not r.startswith("flex_slack")} == {"sched"}
    assert {p.log for p in default if p.kind == "sched"} == set(cfg.logs)
    assert {p.log for p in default if p.kind == "sched"} == set(cfg.logs)
    # raw-log points only when the raw log is local
    assert not any(p.version == "raw" for p in default)
    with_raw = ex.grid(dataclasses.replace(cfg, raw_local={"KTH": True}))
    assert {p.log for p in with_raw if p.version == "raw"} == {"KTH"}


def test_attr_points_and_readings(cfg, raw):
    cfg = dataclasses.replace(cfg, cancelled="drop")
    # the configured Maui (queue time + XFACTOR 100) is the main run; Maui's FCFS default is not
    assert ex.attr_point(cfg, "KTH", "maui_xfactor100", "drop") == ex.SweepPoint("KTH", "clean",
                                                                            "sched", "maui")
    assert ex.attr_point(cfg, "KTH", "maui_fcfs", "drop").kind == "attr"
    assert ex.attr_point(cfg, "KTH", "easy_every_event", "keep").kind == "attr"
    assert ("maui_fcfs", "drop") in ex.attr_batch(cfg, "KTH")
    main_slack = ex.slack_reading(cfg.scheduler_options["flex"]["slack_factor"])
    assert ex.attr_point(cfg, "KTH", main_slack, "drop").name == "flex"
    assert ex.attr_reading(cfg, "flex_slack2")[1]["slack_factor"] == 2.0
    assert ex.attr_reading(cfg, "easy_arrival_only") == ("easy", {"backfill": "arrival_only"})
    with pytest.raises(ConfigError, match="unknown attribution reading"):
        ex.attr_reading(cfg, "nope")
    assert ex.parse_name("attr", "maui_xfactor10~keep") == {"reading": "maui_xfactor10",
                                                            "cancelled": "keep"}
    keys = ex.attribution_keys(at(raw, "quick", cancelled="drop"), ["KTH"])
    assert {c for _, _, c in keys} == {"drop", "drop+separate_months"}
    # a variant run is never a main run, even when its reading is
    assert ex.attr_point(cfg, "KTH", "maui_xfactor100", "drop+separate_months").kind == "attr"
    assert ex.split_rule("drop+flurries") == ("drop", ("flurries",))
    with pytest.raises(ConfigError, match="unknown attribution variant"):
        ex.variant_rule("drop", "nope")


def test_run_point_attr_uses_its_reading():
    jobs = [SimJob(0, 0, 10, 100, 4), SimJob(1, 0, 200, 200, 5), SimJob(2, 1, 50, 50, 9),
            SimJob(3, 2, 50, 50, 2)]
    lit, _ = runs.simulate_point(jobs, 10, "attr", "easy_arrival_only~drop", {}, 0, "UTC",
                          ("easy", {"backfill": "arrival_only"}))
    usual, _ = runs.simulate_point(jobs, 10, "sched", "easy", {}, 0, "UTC")
    assert lit.set_index("job_id").start[3] == 250 and usual.set_index("job_id").start[3] == 10
    with pytest.raises(ConfigError, match="needs its reading"):
        runs.simulate_point(jobs, 10, "attr", "easy_arrival_only~drop", {}, 0, "UTC")


def test_names_round_trip():
    assert ex.parse_name("pbas", ex.pbas_name("all4", "util", 1800)) == {
        "candidates": ["flex", "maui", "easy", "conservative"], "metric": "util", "time_frame": 1800}
    assert ex.parse_name("wbas", ex.wbas_name(7500, 86400)) == {"maf": 7500.0, "time_frame": 86400}
    with pytest.raises(ConfigError, match="bad sweep point"):
        ex.parse_name("pbas", "fm-util")


def test_run_point_adds_months_and_stats():
    jobs = [SimJob(i, i * 3000, 2000, 4000, 1 + i % 3) for i in range(30)]
    start = int(pd.Timestamp("2000-01-31 12:00", tz="UTC").timestamp())
    out, st = runs.simulate_point(jobs, 4, "pbas", "fm-resp-3600", {"flex": {"slack_factor": 1.0}},
                           start, "UTC")
    assert set(out["month"]) == {"2000-01", "2000-02"}
    assert st["params"]["metric"] == "resp" and sum(st["shares"].values()) == pytest.approx(1)
    out2, _ = runs.simulate_point(jobs, 4, "sched", "flex", {"flex": {"slack_factor": 1.0}}, start, "UTC")
    assert len(out2) == len(jobs)


def test_separate_months_start_each_month_empty(cfg):
    """Variant separate_months: a month's jobs do not wait behind the last month's backlog."""
    start = int(pd.Timestamp("2000-01-31 00:00", tz="UTC").timestamp())
    jobs = [SimJob(0, 0, 200000, 200000, 10),            # fills the machine into February
            SimJob(1, 86400 + 3600, 100, 100, 10)]       # 2000-02-01 01:00
    cfg = dataclasses.replace(cfg, cancelled="drop")
    out = runs.run_attr_batch(lambda rule: jobs, 10, cfg,
                            [("conservative", "drop"), ("conservative", "drop+separate_months")],
                            start, "UTC")
    feb = out[out["month"] == "2000-02"].set_index("cancelled")["wait_sum"]
    assert feb["drop"] == 200000 - 90000 and feb["drop+separate_months"] == 0


def test_variant_traces(cfg):
    trace = pd.DataFrame({"job_id": [3, 4], "submit_time": [0, 10], "wait_time": 0,
                          "run_time": [50, 60], "alloc_procs": 1, "avg_cpu_time": -1,
                          "used_mem_kb": -1, "req_procs": 1, "req_time": [1000, 1000],
                          "req_mem_kb": -1, "status": 1, "user_id": [2, 2], "group_id": -1,
                          "app_id": -1, "queue_id": -1, "partition_id": -1, "prev_job_id": -1,
                          "think_time": -1})
    from schedlab.traces.swf import SWFHeader
    h = SWFHeader(notes=["THIS IS A CLEANED VERSION OF THE LOG!\n"
                         "  user=2 and (job>=1 and job<=3) (2 jobs removed)"])
    plain, _ = runs.sim_jobs_from_trace(trace, h, 4, "t", "drop")
    exact, _ = runs.sim_jobs_from_trace(trace, h, 4, "t", "drop+exact_estimates")
    fl, rep = runs.sim_jobs_from_trace(trace, h, 4, "t", "drop+flurries", flurry_seed=1)
    assert [j.estimate for j in plain] == [1000, 1000] and [j.estimate for j in exact] == [50, 60]
    assert len(fl) == 4 and rep["flurries"]["reinserted"] == 2


def test_paper_scale_runs_every_table6_frame_on_its_log(cfg, raw):
    four = cfg.pbas["four"]
    paper = ex.grid(resolve_settings(raw, "paper"))
    got = {p.name for p in paper if p.log == four["log"] and p.name.startswith("all4")}
    assert got == {ex.pbas_name("all4", four["metric"], f) for f in four["time_frames_s"]}
    # the default leaves BLUE's whole adaptive grid (Table 6 with it) to the paper scale
    assert four["log"] not in cfg.adaptive_logs
    assert not any(p.log == four["log"] and p.kind in ("pbas", "wbas") for p in ex.grid(cfg))
    quick = ex.grid(resolve_settings(raw, "quick"))
    assert ({p.name for p in quick if p.name.startswith("all4")}
            == {ex.pbas_name("all4", four["metric"], f)
                for f in raw["scales"]["quick"]["pbas"]["four"]["figure3_time_frames_s"]})
