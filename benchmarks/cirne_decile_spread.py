"""How far a Cirne 'about the same across deciles' row's statistic moves with the sample: the
workloads resampled with replacement (bootstrap), the statistic recomputed each time.

The rows of Figures 44, 47, 50b and 66a (``findings.flat``) compare the largest and smallest
decile of one request's relative turn-around (its geometric mean of per-experiment ratios to the
user request's, per decile of a factor) against the vocabulary's 'similar' threshold. This
recomputes that statistic from a run's ``tables/experiments.parquet`` on the same decile bins
(``tabulate._bins``), then on ``--resamples`` resamples of whole workloads (a workload's targets
share its queue, so they are not independent), from a recorded seed, and prints the statistic, its
95% interval and the share of resamples at or under the threshold.

    .venv/bin/python benchmarks/cirne_decile_spread.py results/cirne2001 \
        results/paper-scale/cirne2001 [--factor accuracy] [--request sa]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from schedlab.papers.cirne2001.stats import FLOOR_S
from schedlab.papers.cirne2001.tabulate import _bins
from schedlab.report.vocabulary import PHRASES


def largest_over_smallest(exp: pd.DataFrame, factor: str, request: str, deciles: int = 10) -> float:
    """The row's statistic: largest / smallest decile of ``request``'s relative turn-around."""
    ratio = np.maximum(exp[f"{request}_tt"].to_numpy(float), FLOOR_S) / \
        np.maximum(exp["user_tt"].to_numpy(float), FLOOR_S)
    rel = np.exp(pd.Series(np.log(ratio), index=exp.index).groupby(
        _bins(exp[factor], deciles), sort=False).mean())
    return float(rel.max() / rel.min())


def spread(exp: pd.DataFrame, factor: str, request: str, resamples: int, seed: int
           ) -> tuple[float, np.ndarray]:
    """(the statistic, its values over ``resamples`` bootstrap resamples of whole workloads)."""
    exp = exp[exp[factor].notna()]
    groups = [g for _, g in exp.groupby("workload", sort=True)]
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    boots = np.array([largest_over_smallest(pd.concat(
        [groups[i] for i in rng.integers(0, len(groups), len(groups))], ignore_index=True),
        factor, request) for _ in range(resamples)])
    return largest_over_smallest(exp, factor, request), boots


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, help="a Cirne output dir (holding tables/)")
    ap.add_argument("--factor", default="accuracy")
    ap.add_argument("--request", default="sa")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=50)
    a = ap.parse_args()
    t = PHRASES["similar"].threshold
    print(f"{a.request}'s relative turn-around across {a.factor} deciles, largest / smallest; "
          f"'similar' <= {t:g}; {a.resamples} resamples of whole workloads, seed {a.seed}")
    for run in a.runs:
        exp = pd.read_parquet(run / "tables" / "experiments.parquet")
        value, boots = spread(exp, a.factor, a.request, a.resamples, a.seed)
        lo, hi = np.quantile(boots, [0.025, 0.975])
        print(f"{run}: {exp['workload'].nunique()} workloads, {len(exp)} experiments: {value:.4f} "
              f"[{lo:.3f}, {hi:.3f}], {np.mean(boots <= t):.1%} of resamples <= {t:g}")


if __name__ == "__main__":
    main()
