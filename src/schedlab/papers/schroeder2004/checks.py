"""Claim checks of Schroeder & Harchol-Balter (2004), as small pure functions (issue 16).

Each check takes plain numbers or small tables and returns True (the claim holds on our data),
False, or None (a quantity it needs is missing; the scorecard then says ``fails``). The scorecard
(:mod:`schedlab.papers.schroeder2004.scoring`) builds the inputs from the simulation tables.

Intervals. A simulated comparison is a table with one row per load (or host count) and columns
``ratio``, ``lo``, ``hi``: the paired ratio of two policies' metric over the independent
replications and its t-interval (:func:`schedlab.papers.schroeder2004.intervals.ratio_interval`). The rules:

* an *ordering* "A beats B" (ratio = B/A) holds when every interval lies above 1 (``lo > 1``): the
  difference is significant at every point the claim covers;
* "by a factor F" holds when every interval lies above F (``lo > F``);
* "similar" / "within x%" holds when both ends of every interval lie inside the vocabulary's band;
* a single deterministic run (the scaled trace arrivals of §6) has ``lo = hi = ratio``.

The checks named for the papers' words (``*_throughout``, :func:`order_of_magnitude_somewhere`,
:func:`ranges_about`) apply the one vocabulary (:mod:`schedlab.report.vocabulary`) to both ends of
every interval and return its :class:`~schedlab.report.vocabulary.PhraseCheck`, so that the row
names the phrase and whether the threshold is the paper's or ours.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from ...report import vocabulary as V
from ...report.scorecard import claim_check

PAPER = "schroeder2004"


def _intervals(ci: pd.DataFrame | None) -> pd.DataFrame | None:
    if ci is None or len(ci) == 0:
        return None
    d = ci[["lo", "hi"]].astype(float)
    if d.isna().any().any():
        return None
    return d


@claim_check(PAPER)
def beats_by_factor(ci: pd.DataFrame | None, factor: float = 1.0) -> bool | None:
    """Every interval of ratio B/A lies above ``factor``: A beats B (by that factor) everywhere."""
    d = _intervals(ci)
    return None if d is None else bool((d["lo"] > factor).all())


@claim_check(PAPER)
def beats_at_most_points(ci: pd.DataFrame | None) -> bool | None:
    """More than half of the intervals of ratio B/A lie above 1 (A beats B "for most" points)."""
    d = _intervals(ci)
    return None if d is None else bool((d["lo"] > 1).mean() > 0.5)


@claim_check(PAPER)
def overtakes_as_hosts_grow(ci: pd.DataFrame | None) -> bool | None:
    """Ratio LWL/SITA-E indexed by host count: SITA-E significantly better at the smallest host
    count (``lo > 1``) and LWL significantly better (``hi < 1``) at some larger one, from which on
    SITA-E is never again significantly better."""
    d = _intervals(ci)
    if d is None or len(d) < 2:
        return None
    d = d.sort_index()
    if not d["lo"].iloc[0] > 1:
        return False
    lwl_better = np.flatnonzero(d["hi"].to_numpy() < 1)
    if len(lwl_better) == 0:
        return False
    after = d.iloc[lwl_better[0]:]
    return bool(not (after["lo"] > 1).any())


@claim_check(PAPER)
def load_fraction_follows_rule(loads: pd.Series | np.ndarray | list[float],
                               fractions: pd.Series | np.ndarray | list[float],
                               band: float) -> bool | None:
    """§4.4 rule of thumb: the Host-1 share of the load is within ``band`` of ρ/2 at every load."""
    rho = np.asarray(loads, dtype=float)
    f = np.asarray(fractions, dtype=float)
    if len(f) == 0 or len(f) != len(rho) or np.isnan(f).any():
        return None
    return bool((np.abs(f - rho / 2) <= band).all())


@claim_check(PAPER)
def underloads_host1(fractions: pd.Series | np.ndarray | list[float]) -> bool | None:
    """Fig 5/13: the Host-1 share of the load is below one half at every load."""
    f = np.asarray(fractions, dtype=float)
    if len(f) == 0 or np.isnan(f).any():
        return None
    return bool((f < 0.5).all())


@claim_check(PAPER)
def identical_results(a: pd.Series | None, b: pd.Series | None) -> bool | None:
    """§3.1: two policies give exactly the same mean slowdown at every point (LWL ≡ Central-Queue)."""
    if a is None or b is None or len(a) == 0:
        return None
    d = (a - b).dropna()
    if len(d) != len(a):
        return None
    return bool((d == 0).all())


def _nearest(sim: pd.DataFrame, analytic: pd.Series) -> tuple[pd.Series, pd.Series] | None:
    """The finite analytic values and the nearest point of each simulated interval to them."""
    d = _intervals(sim)
    if d is None or analytic is None:
        return None
    a = analytic.reindex(d.index).astype(float)
    ok = np.isfinite(a)
    if not ok.any():
        return None
    return a[ok], np.clip(a[ok], d["lo"][ok], d["hi"][ok])


@claim_check(PAPER)
def analysis_similar(sim: pd.DataFrame | None, analytic: pd.Series | None) -> V.PhraseCheck:
    """§3.3/§4.3 "These are in very close agreement with the simulation results": at every point
    (policy and load) the analytic mean slowdown is 'similar' (vocabulary, ours) to the simulated
    interval's nearest point (itself when inside). Points without a finite analytic value (an
    overloaded host) are left out."""
    near = _nearest(sim, analytic) if sim is not None else None
    if near is None:
        return V.similar(None, 1.0)
    a, n = near
    return V.in_all_of({str(i): V.similar(float(a[i]), float(n[i])) for i in a.index})


def analysis_gap(sim: pd.DataFrame, analytic: pd.Series) -> float:
    """The largest ratio (larger / smaller) between an analytic value and its simulated
    interval's nearest point: the number :func:`analysis_similar` compares with its band."""
    near = _nearest(sim, analytic)
    if near is None:
        return math.nan
    a, n = near
    return float((np.maximum(a, n) / np.minimum(a, n)).max())


@claim_check(PAPER)
def cutoffs_agree(fraction_a: pd.Series | None, fraction_b: pd.Series | None, tolerance: float
                  ) -> bool | None:
    """§4.1/§6 "both methods yielded about the same result": the median |difference| of the Host-1
    load fractions of two cutoff derivations, over the common loads, is within ``tolerance``."""
    if fraction_a is None or fraction_b is None:
        return None
    d = (fraction_a - fraction_b).abs().dropna()
    if d.empty:
        return None
    return bool(float(d.median()) <= tolerance)


def _label(i: object) -> str:
    return " ".join(f"{v:g}" if isinstance(v, float | int) else str(v)
                    for v in (i if isinstance(i, tuple) else (i,)))


def _both_ends(ci: pd.DataFrame, test: Callable[[float], V.PhraseCheck]) -> V.PhraseCheck:
    """``test`` on both ends of every interval, :func:`~schedlab.report.vocabulary.in_all_of`
    over the points (an end that fails names the point)."""
    cases = {}
    for i, r in ci.iterrows():
        lo = test(float(r["lo"]))
        cases[_label(i)] = lo if lo.holds is not True else test(float(r["hi"]))
    return V.in_all_of(cases)


@claim_check(PAPER)
def similar_throughout(ci: pd.DataFrame | None) -> V.PhraseCheck:
    """"similar / comparable / close to / the same" (vocabulary ``similar``, our band): every
    interval of the ratio lies within the band around 1 at both ends."""
    d = _intervals(ci)
    if d is None:
        return V.similar(None, 1.0)
    return _both_ends(d, lambda x: V.similar(x, 1.0))


@claim_check(PAPER)
def within_throughout(ci: pd.DataFrame | None, percent: float) -> V.PhraseCheck:
    """"within N%" (vocabulary ``within``, the paper's N): every interval of the ratio lies within
    N% of 1 at both ends."""
    d = _intervals(ci)
    if d is None:
        return V.within(None, 1.0, percent)
    return _both_ends(d, lambda x: V.within(x, 1.0, percent))


@claim_check(PAPER)
def significantly_throughout(ci: pd.DataFrame | None) -> V.PhraseCheck:
    """"significantly better" (vocabulary ``significantly``, our factor): the lower end of every
    interval of the ratio B/A lies at least the factor above 1 (A beats B by it everywhere)."""
    d = _intervals(ci)
    if d is None:
        return V.significantly(None, 1.0)
    return V.in_all_of({_label(i): V.significantly(float(r["lo"]), 1.0)
                        for i, r in d.iterrows()})


@claim_check(PAPER)
def order_of_magnitude_somewhere(ci: pd.DataFrame | None) -> V.PhraseCheck:
    """"improves ... by more than an order of magnitude" (vocabulary ``less_than``, the paper's
    bound): the ratio new / old lies below 1/10 at some point, upper end of its interval included
    (the paper names no load; its §4.2 gives 4-10 at loads 0.5-0.8, so the statement can only
    hold somewhere beyond them)."""
    d = _intervals(ci)
    return V.less_than(None if d is None else float(d["hi"].min()), 0.1)


@claim_check(PAPER)
def ranges_about(ci: pd.DataFrame | None, low: float, high: float) -> V.PhraseCheck:
    """"ranges from L to H" (vocabulary ``about``, our band): the smallest point ratio is about
    L and the largest about H."""
    r = None if ci is None or not len(ci) else ci["ratio"].astype(float)
    if r is None or r.isna().any():
        return V.about(None, low)
    return V.in_all_of({f"lowest (about {low:g})": V.about(float(r.min()), low),
                        f"highest (about {high:g})": V.about(float(r.max()), high)})


@claim_check(PAPER)
def fractions_similar(opt: dict[float, float], fair: dict[float, float]) -> V.PhraseCheck:
    """§4.3, Fig 5 / 13: "Secondly observe that SITA-U-opt is not far from SITA-U-fair": the
    Host-1 load fractions of the two cutoffs (``opt``, ``fair``: load -> fraction) are 'similar'
    (vocabulary, ours) at every load both have; no load in common cannot be checked."""
    per = {f"{x:g}": V.similar(float(opt[x]), float(fair[x])) for x in opt if x in fair}
    return V.in_all_of(per) if per else V.similar(None, 1.0)
