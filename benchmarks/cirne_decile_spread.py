"""How far a Cirne 'about the same across deciles' row's statistic moves with the sample, and how
large it is with no effect at all.

Figure 50b's row ("SA, on the other hand, seems to be almost unaffected by the accuracy") and
Figure 44's (c_min) compare the largest and smallest decile of SA's relative turn-around (the
geometric mean, per decile of a factor, of its per-experiment ratios to the user request's)
against the vocabulary's 'similar' threshold (``findings.flat``). This recomputes that statistic
from a run's ``tables/experiments.parquet`` on the same ten decile bins (``tabulate._bins``) and
then, from a recorded seed:

* **spread**: on ``--resamples`` resamples of whole workloads (a workload's targets share its
  queue, so they are not independent), its 95% interval and the share at or under the threshold;
* **no-effect floor**: on as many copies of the run with the factor shuffled among the targets of
  each workload (no effect of the factor, same sample size), the median and 95th percentile.
  Largest over smallest of ten noisy deciles is above 1 even with no effect, so a ratio is read
  against this floor, not against 1.

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


def no_effect(exp: pd.DataFrame, factor: str, request: str, resamples: int, seed: int
              ) -> np.ndarray:
    """The statistic on ``resamples`` copies of ``exp`` with ``factor`` shuffled within each
    workload: what it is when the factor has no effect, at this sample size."""
    exp = exp[exp[factor].notna()].reset_index(drop=True)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 1]))
    rows = [g.index.to_numpy() for _, g in exp.groupby("workload", sort=True)]
    values = exp[factor].to_numpy()
    out = []
    for _ in range(resamples):
        shuffled = values.copy()
        for idx in rows:
            shuffled[idx] = values[rng.permutation(idx)]
        out.append(largest_over_smallest(exp.assign(**{factor: shuffled}), factor, request))
    return np.array(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path, help="a Cirne output dir (holding tables/)")
    ap.add_argument("--factor", default="accuracy", help="a column of experiments.parquet")
    ap.add_argument("--request", default="sa")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=50)
    a = ap.parse_args()
    t = PHRASES["similar"].threshold
    print(f"{a.request}'s relative turn-around across {a.factor} deciles, largest / smallest; "
          f"'similar' <= {t:g}; {a.resamples} resamples, seed {a.seed}")
    for run in a.runs:
        exp = pd.read_parquet(run / "tables" / "experiments.parquet")
        value, boots = spread(exp, a.factor, a.request, a.resamples, a.seed)
        lo, hi = np.quantile(boots, [0.025, 0.975])
        floor = no_effect(exp, a.factor, a.request, a.resamples, a.seed)
        print(f"{run}: {exp['workload'].nunique()} workloads, {len(exp)} experiments: {value:.4f}; "
              f"whole workloads resampled [{lo:.3f}, {hi:.3f}], {np.mean(boots <= t):.1%} <= {t:g}; "
              f"no effect (shuffled within workloads) median {np.median(floor):.3f}, "
              f"95th percentile {np.quantile(floor, 0.95):.3f}")


if __name__ == "__main__":
    main()
