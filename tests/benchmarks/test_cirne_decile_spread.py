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
    # six copies of one workload: every resample is the same sample
    one = exp[exp["workload"] == 0]
    same = pd.concat([one.assign(workload=w) for w in range(6)], ignore_index=True)
    v, b = spread_mod.spread(same, "accuracy", "sa", 10, seed=7)
    assert np.allclose(b, v)
