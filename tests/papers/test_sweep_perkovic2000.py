"""Perković & Keleher 2000: the run grid, seeds, a run's scheduler configuration, the paper setting."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd
import pytest
from perkovic2000_cases import CFG, settings_at

from schedlab.papers.perkovic2000.sweep import (
    RunPoint,
    experiment_id,
    experiment_runs,
    grid,
    paper_setting_points,
    pk_config,
    run_sets,
    seed_for,
)
from schedlab.papers.perkovic2000.tabulate import figure_frames


def key(p):
    """A run's place: its experiment's point id at the default scale and its name there."""
    return experiment_id("n", p), p.name


def test_grid_sizes_and_paths():
    pts = grid(settings_at())
    n_alg = 2 * len(CFG["orders"])
    n_pct = len(CFG["spec_percentages"])
    expected = n_alg * (len(CFG["experiments"]) + 2 * (n_pct - 1)) + n_alg * len(CFG["extra_machines"])
    assert len(pts) == expected
    assert len({key(p) for p in pts}) == len(pts)
    quick = grid(settings_at("quick"))
    assert len(quick) < len(pts) and all(p.machine == CFG["machine"] for p in quick)
    p = RunPoint(338, "spec", "R/L", False, 0.5, replicate=2)
    assert experiment_id("n5000", p) == "n5000/338/spec50_r2" and p.name == "R_L-NG_r2"
    assert experiment_id("all", dataclasses.replace(p, replicate=0)) == "all/338/spec50"
    with pytest.raises(ValueError, match="unknown order"):
        grid(settings_at(orders=["X"]))


def test_sweep_seeds_replicate_the_seeded_algorithms_and_pair_with_their_reference():
    one = grid(settings_at(sweep_seeds=1, extra_machines=[]))
    two = grid(settings_at(sweep_seeds=2, extra_machines=[]))
    seeded = set(CFG["paper_setting"]["seed_algorithms"])
    reps = [p for p in two if p.replicate]
    assert len(two) == len(one) + sum(p.algorithm in seeded for p in one)
    assert {p.algorithm for p in reps} == seeded and {p.replicate for p in reps} == {1}
    assert any(p.experiment == "base" for p in reps) and len({key(p) for p in two}) == len(two)
    # replicate r of an experiment is compared with replicate r of the base experiment
    rows = []
    for exp, rep, bsld in (("base", 0, 10.0), ("base", 1, 20.0), ("spec", 0, 5.0), ("spec", 1, 5.0)):
        rows.append({"machine": 430, "experiment": exp, "group": "all", "order": "R/L",
                     "guarantees": False, "algorithm": "R/L-NG", "replicate": rep,
                     "percentage": 0.5 if exp == "spec" else math.nan,
                     "bounded_slowdown": bsld, "delay": 1.0, "response": 1.0})
    rows.append({**rows[0], "order": "D", "guarantees": True, "algorithm": "BF"})
    f5 = figure_frames(pd.DataFrame(rows), 430)["fig5"].sort_values("replicate")
    assert list(f5["bounded_slowdown_ratio"]) == [0.5, 0.25]


def test_pk_config_per_experiment():
    s = settings_at(starvation_horizon_s=86400)
    c = pk_config(RunPoint(338, "half_widen_spec", "R/L", False, 0.5), s, 10800)
    assert c.adaptation == "half" and c.widening and c.speculation.test_runs == CFG["fig9_test_runs"]
    assert c.order.weight > 0 and c.speculation.percentage == 0.5
    g = pk_config(RunPoint(338, "base", "R/L", True), s, 10800)
    assert g.order.weight == 0 and g.speculation is None
    assert pk_config(RunPoint(430, "base", "R/L", False), settings_at(), 10800
                        ).order.weight == (0.0 if CFG["starvation_horizon_s"] == 0 else
                                           pytest.approx(0.5 / 10800 / CFG["starvation_horizon_s"]))


def test_paper_setting_points_with_seed_replicates():
    s = settings_at()
    pts = paper_setting_points(s)
    ps = s.paper_setting
    n_alg = 2 * len(s.orders)
    assert len(pts) == n_alg + (ps.seeds - 1) * len(ps.seed_algorithms)
    assert len({key(p) for p in pts}) == len(pts)
    reps = [p for p in pts if p.replicate]
    assert {p.algorithm for p in reps} == set(ps.seed_algorithms)
    assert reps[0].name.endswith("_r1")
    # replicate 0 keeps the seed of the unreplicated point; replicates draw other streams
    a, b = RunPoint(430, "base", "R/L", False), RunPoint(430, "base", "R/L", False, None, 1)
    assert seed_for(1, a).spawn_key != seed_for(1, b).spawn_key
    assert seed_for(1, a).spawn_key == seed_for(1, RunPoint(430, "spec", "R/L", False)).spawn_key
    with pytest.raises(ValueError, match="seed_algorithms"):
        paper_setting_points(settings_at(paper_setting={"seed_algorithms": ["X-NG"]}))
    assert paper_setting_points(settings_at(paper_setting=None)) == []


@pytest.mark.parametrize("overrides", [
    {},  # the sweep on 5,000 jobs, the paper setting on the whole log: no run in both
    {"max_jobs": None, "sweep_seeds": 2, "paper_setting": {"seeds": 3}},  # both on the whole log
])
def test_experiment_runs_hold_every_algorithm_and_replicate_once(overrides):
    s = settings_at(**overrides)
    groups = experiment_runs(s)
    listed = [(experiment_id(scale_name, p), p) for scale_name, _, runs in run_sets(s) for p in runs]
    wanted: dict[str, set[RunPoint]] = {}
    for pid, p in listed:
        wanted.setdefault(pid, set()).add(p)
    assert set(groups) == set(wanted)
    for pid, runs in groups.items():
        # every run of the experiment once, by its name; every algorithm of the settings
        assert len(runs) == len(wanted[pid]) and set(runs.values()) == wanted[pid]
        assert all(name == p.name for name, p in runs.items())
        reps = {p.replicate for p in runs.values()}
        assert len(reps) == 1  # a further seed is its own point (experiment_id)
        algos = {p.algorithm for p in runs.values()}
        assert (len(algos) == 2 * len(s.orders) if reps == {0}
                else algos <= set(s.paper_setting.seed_algorithms))
    both = len(listed) - sum(map(len, groups.values()))  # runs the sweep and paper setting share
    if s.max_jobs is None:
        base, base_r1 = groups[f"all/{s.machine}/base"], groups[f"all/{s.machine}/base_r1"]
        assert both == 2 * len(s.orders) + len(s.paper_setting.seed_algorithms)  # replicates 0, 1
        assert len(base) == 2 * len(s.orders)
        assert len(base_r1) == len(s.paper_setting.seed_algorithms)
    else:
        assert both == 0
