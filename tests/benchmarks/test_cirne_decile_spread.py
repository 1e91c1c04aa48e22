"""benchmarks/cirne_decile_spread.py: the 'about the same across deciles' rows' statistic, and its
spread over resampled workloads."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

_SPEC = importlib.util.spec_from_file_location(
    "cirne_decile_spread",
    Path(__file__).resolve().parents[2] / "benchmarks" / "cirne_decile_spread.py")
spread_mod = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(spread_mod)


def _experiments(workloads: int = 6, per: int = 40, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = workloads * per
    accuracy = rng.uniform(0.01, 1.0, n)
    user = rng.lognormal(7, 1, n)
    rows = {"workload": np.repeat(np.arange(workloads), per), "accuracy": accuracy,
            "user_tt": user, "sa_tt": user * (0.5 + accuracy) * rng.lognormal(0, 0.2, n)}
    # a tenth of the targets under one second: the breakdowns count them as one second
    rows["sa_tt"][::10] = 0.2
    for r in ("best", "user", "sa"):
        for m in ("wait", "te", "cr"):
            rows[f"{r}_{m}"] = rng.lognormal(5, 1, n)
    rows["best_tt"] = user * 0.5
    return pd.DataFrame(rows)


def test_the_statistic_is_the_rows_largest_over_smallest_decile():
    from schedlab.papers.cirne2001 import findings as F
    from schedlab.papers.cirne2001.tabulate import breakdowns

    exp = _experiments()
    bd = breakdowns(exp, ["accuracy"], 10, np.random.default_rng(0), resamples=5)
    rel = F.factor_bins(bd, "accuracy", "tt", "sa")["relative"]
    assert spread_mod.largest_over_smallest(exp, "accuracy", "sa") == pytest.approx(
        rel.max() / rel.min(), rel=1e-12)
    # SA's ratio grows with accuracy here: clearly not flat
    assert rel.max() / rel.min() > 1.5


def test_the_spread_is_seeded_and_resamples_whole_workloads():
    exp = _experiments()
    value, boots = spread_mod.spread(exp, "accuracy", "sa", 30, seed=7)
    again = spread_mod.spread(exp, "accuracy", "sa", 30, seed=7)[1]
    assert len(boots) == 30 and np.array_equal(boots, again)
    assert not np.array_equal(boots, spread_mod.spread(exp, "accuracy", "sa", 30, seed=8)[1])
    assert boots.min() < value < boots.max()
    # the seed's stream: the first resample draws these workloads, all six of them each time
    rng = np.random.default_rng(np.random.SeedSequence(7))
    first = rng.integers(0, 6, 6)
    picked = pd.concat([exp[exp["workload"] == w] for w in first], ignore_index=True)
    assert boots[0] == pytest.approx(spread_mod.largest_over_smallest(picked, "accuracy", "sa"),
                                     rel=1e-12)
    # six copies of one workload: every resample is the same sample
    one = exp[exp["workload"] == 0]
    same = pd.concat([one.assign(workload=w) for w in range(6)], ignore_index=True)
    v, b = spread_mod.spread(same, "accuracy", "sa", 10, seed=7)
    assert np.allclose(b, v)


def test_the_no_effect_floor_shuffles_the_factor_within_workloads():
    exp = _experiments(workloads=8, per=60)
    value = spread_mod.largest_over_smallest(exp, "accuracy", "sa")
    floor = spread_mod.no_effect(exp, "accuracy", "sa", 40, seed=3)
    assert np.array_equal(floor, spread_mod.no_effect(exp, "accuracy", "sa", 40, seed=3))
    # SA's ratio follows accuracy here: shuffled, the statistic falls to the noise (still > 1)
    assert 1.0 < np.quantile(floor, 0.95) < value
    # a factor with no effect: its statistic lies within its own floor
    flat = exp.assign(sa_tt=exp["user_tt"] * np.random.default_rng(5).lognormal(0, 0.2, len(exp)))
    f = spread_mod.no_effect(flat, "accuracy", "sa", 40, seed=3)
    assert f.min() < spread_mod.largest_over_smallest(flat, "accuracy", "sa") < f.max()
    # the shuffle stays within each workload: a workload's accuracies are kept, in another order
    shuffled = []
    orig = spread_mod.largest_over_smallest

    def capture(frame, factor, request, deciles=10):
        shuffled.append(frame[[factor, "workload"]].copy())
        return orig(frame, factor, request, deciles)

    spread_mod.largest_over_smallest = capture
    try:
        spread_mod.no_effect(exp, "accuracy", "sa", 1, seed=3)
    finally:
        spread_mod.largest_over_smallest = orig
    got = shuffled[0]
    assert not np.array_equal(got["accuracy"].to_numpy(), exp["accuracy"].to_numpy())
    for w, g in exp.groupby("workload"):
        assert sorted(got[got["workload"] == w]["accuracy"]) == sorted(g["accuracy"])
