"""Tang et al. 2013: the paper's claims as checks (issue 16), each citing its table or figure."""

from __future__ import annotations

import math

import pandas as pd

from ...report.scorecard import claim_check
from ...report.vocabulary import (
    PhraseCheck,
    all_of,
    for_most,
    in_all,
    in_all_of,
    increases_as,
    significantly,
    similar,
    slightly,
)
from .config import PAPER


@claim_check(PAPER)
def bf_half_gives_most_wait_drop(wait_bf1: float, wait_bf05: float,
                                 wait_further: dict[float, float]) -> PhraseCheck:
    """Fig. 3a (BG/P, l. 206): "the waiting time drops significantly as BF is tuned from 1 to 0.5
    and then stays at the same level when BF decreases further": the wait at BF = 0.5 is
    'significantly' below BF = 1's, and the wait at each smaller BF run (``wait_further``: BF ->
    wait) is
    'similar' to BF = 0.5's, in all of them (vocabulary; both thresholds ours)."""
    drop = significantly(wait_bf05, wait_bf1, above=False)
    stays = in_all_of({f"BF={bf:g}": similar(w, wait_bf05) for bf, w in wait_further.items()})
    return all_of(drop, stays)


@claim_check(PAPER)
def falls_toward_sjf(bf: list[float], values: list[float]) -> PhraseCheck:
    """Fig. 4a-b (SP2): "The average wait times and slowdown decrease when the queuing policy gets
    closer to SJF": a trend (vocabulary 'increases as': the values rise with BF, Spearman >=
    0.5). The BG/P wording of Fig. 3 ("drops significantly ... from 1 to 0.5 and then stays")
    is not the SP2 text."""
    return increases_as(bf, values)


@claim_check(PAPER)
def unfair_rises_toward_sjf(bf: list[float], unfair: list[float]) -> PhraseCheck:
    """Fig. 3c: "the number of unfair jobs increases as the policy approaches SJF"; Fig. 4c:
    "fairness declines when BF decreases": a trend (vocabulary 'increases as': unfair jobs fall
    as BF rises, Spearman <= -0.5), not a strict rise at every BF step."""
    return increases_as(bf, unfair, decreasing=True)


@claim_check(PAPER)
def loc_falls_with_window(loc_by_window: dict[float, dict[int, float]]) -> PhraseCheck:
    """Figs. 3d-4d (l. 215): "when BF is no less than 0.5, the loss of capacity shows a decreasing
    trend as the window size increases": for every BF >= 0.5 line (``loc_by_window``: BF -> W ->
    LoC) the LoC falls with W (vocabulary 'decreases as': Spearman <= -0.5, ours), in all lines
    run at two windows or more."""
    return in_all_of({f"BF={bf:g}": increases_as(list(v), list(v.values()), decreasing=True)
                      for bf, v in loc_by_window.items() if bf >= 0.5 and len(v) >= 2})


@claim_check(PAPER)
def enhanced_lower_wait(base_wait: float, enhanced_waits: list[float]) -> bool | None:
    """Tables 2-3: "all the enhanced cases are good for minimizing the average waiting time"."""
    if not enhanced_waits:
        return None
    return all(w < base_wait for w in enhanced_waits)


@claim_check(PAPER)
def enhanced_raise_unfair(base_unfair: float, enhanced_unfair: list[float]) -> bool | None:
    """Tables 2-3: "All the enhanced cases hurt fairness by increasing the number of unfair
    jobs"."""
    if not enhanced_unfair:
        return None
    return all(u > base_unfair for u in enhanced_unfair)


@claim_check(PAPER)
def bf05_w4_extreme(table: pd.DataFrame) -> bool | None:
    """Tables 2-3: BF = 0.5/W = 4 "has the minimum average waiting time (it also has the highest
    number of unfair jobs)". ``table``: configuration-indexed, avg_wait_min and unfair_jobs."""
    if "BF=0.5/W=4" not in table.index:
        return None
    return bool(table["avg_wait_min"].idxmin() == "BF=0.5/W=4"
                and table["unfair_jobs"].idxmax() == "BF=0.5/W=4")


@claim_check(PAPER)
def adaptive_fairer_than_bf05_w4(unfair_static: float, unfair_adaptive: list[float]
                                 ) -> bool | None:
    """Tables 2-3: "adaptive schemes are superior to the fourth case (BF = 0.5/W = 4) ... (it
    also has the highest number of unfair jobs)": every adaptive scheme has fewer unfair jobs."""
    if not unfair_adaptive:
        return None
    return all(u < unfair_static for u in unfair_adaptive)


@claim_check(PAPER)
def best_by_average_gain(average_gain: dict[str, float], expected: list[str]) -> bool | None:
    """Fig. 12: the schemes the text names best ("BF-adpat and 2D-adapt" on BG/P, "W-adpat and
    2D-adapt" on SP2) are the top ones by average gain, and their gains are positive."""
    if len(average_gain) < len(expected) or any(e not in average_gain for e in expected):
        return None
    top = sorted(average_gain, key=lambda c: -average_gain[c])[:len(expected)]
    return set(top) == set(expected) and all(average_gain[e] > 0 for e in expected)


@claim_check(PAPER)
def named_adaptive_beat_static(average_gain: dict[str, float], named: list[str],
                               static: list[str]) -> PhraseCheck:
    """Fig. 12a: "the adaptive scheduling schemes, especially BF-adpat and 2D-adapt, perform
    significantly better than ones without adaptive policy tuning": each ``named`` scheme's
    average gain is above every ``static`` scheme's, in all pairs (the paper ranks them against
    the non-adaptive schemes only, not against W Adapt.; "significantly" is not tested: the gains
    may differ in sign, where a ratio means nothing)."""
    return in_all({f"{a} > {b}": (None if a not in average_gain or b not in average_gain
                                  else bool(average_gain[a] > average_gain[b]))
                   for a in named for b in static})


@claim_check(PAPER)
def burst_below(ratio: float, bound: float) -> bool | None:
    """Figs. 5-6: a policy's maximum queue depth over the first 200 h, as a fraction of FCFS's,
    is below ``bound`` (Fig. 5: BF = 0.5 "less than 1/8"; Fig. 6: below FCFS, bound 1)."""
    if ratio is None or math.isnan(ratio):
        return None
    return bool(ratio < bound)


@claim_check(PAPER)
def cost_grows_with_window(per_iteration: list[float]) -> PhraseCheck:
    """Table 4 (l. 342): "the running time per iteration increases substantially as the window
    size gets larger" — checked on the deterministic placement counts, W = 1, 2, ...: the cost
    rises with W (vocabulary 'increases as': Spearman >= 0.5) and the largest W's is
    'significantly' above W = 1's ("substantially"; both thresholds ours)."""
    c = [float(x) for x in per_iteration]
    size = significantly(c[-1] if c else None, c[0] if c else None, above=True)
    return all_of(size, increases_as(list(range(1, len(c) + 1)), c))


@claim_check(PAPER)
def fcfs_plus_backfilling(ours: tuple[float, float], easy: tuple[float, float]) -> bool | None:
    """§3.3: "If BF and W are both set to the default value 1, the scheduling policy is the most
    commonly used scheduling policy, namely, FCFS plus backfilling" (SP2: EASY, §4.1): our
    BF = 1 / W = 1 run and the engine's textbook ``easy`` scheduler on the same jobs (table
    ``attribution_base``) give the same (average wait, LoC), to a relative 1e-9."""
    vals = (*ours, *easy)
    if any(v is None or math.isnan(v) for v in vals):
        return None
    return all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(ours, easy, strict=True))


@claim_check(PAPER)
def window_best_and_worst(wait: dict[float, dict[int, float]], best: int, worst: int
                          ) -> PhraseCheck:
    """Fig. 4a (SP2): "window size 4 achieves the best average waiting time, whereas window size
    1 has the worst": for most BF lines (``wait``: BF -> W -> average wait) ``best`` has the
    lowest wait and ``worst`` the highest among the windows run."""
    return for_most({f"BF={bf:g}": (None if best not in w or worst not in w else
                                    bool(min(w, key=w.get) == best and max(w, key=w.get) == worst))
                     for bf, w in wait.items()})


@claim_check(PAPER)
def window_slight_help(wait: dict[float, dict[int, float]]) -> PhraseCheck:
    """Fig. 4 (SP2): "the window size provides a slight help in decreasing the average waiting":
    for most BF lines the best W > 1 is 'slightly' below W = 1 (vocabulary)."""
    out = {}
    for bf, w in wait.items():
        larger = [v for k, v in w.items() if k > 1]
        out[f"BF={bf:g}"] = (slightly(min(larger), w[1], above=False).holds
                             if larger and 1 in w else None)
    return for_most(out)


@claim_check(PAPER)
def unfair_rises_with_window(unfair: dict[float, dict[int, float]]) -> PhraseCheck:
    """Fig. 3c (BG/P): "A general trend appears showing that a larger window size also decreases
    fairness": for most BF lines the unfair jobs rise with W (vocabulary 'increases as')."""
    return for_most({f"BF={bf:g}": increases_as(list(u), list(u.values())).holds
                     for bf, u in unfair.items()})


@claim_check(PAPER)
def lower_than_base(base: float, values: dict[str, float], most: bool) -> PhraseCheck:
    """Tables 2-3: "Loss of capacity ... generally improved by the enhanced cases, with one or two
    exceptions" (``most``: for most cases) and "the adaptive schemes are also good for this
    metric" (every adaptive scheme): each value below the base configuration's."""
    cases = {k: (None if math.isnan(v) else bool(v < base)) for k, v in values.items()}
    return for_most(cases) if most else in_all(cases)


@claim_check(PAPER)
def gains_signed(gains: dict[str, float], negative: bool) -> PhraseCheck:
    """Fig. 12a: "when fairness is weighted more than others, the statical schemes are worse than
    FCFS/backfill" (``negative``: every gain below 0). "However, adaptive policy tuning has no
    such issue" (every gain at least 0)."""
    return in_all({k: (None if math.isnan(v) else bool(v < 0 if negative else v >= 0))
                   for k, v in gains.items()})


@claim_check(PAPER)
def window_helps_fcfs(wait_by_window: dict[int, float]) -> PhraseCheck:
    """Fig. 3 (BG/P): "for FCFS, using a window size larger than 1 can considerably improve the
    average waiting time compared with that of the traditional FCFS plus backfilling": at BF = 1
    the best W > 1 is 'significantly' below W = 1 (vocabulary; the paper's own Table 2 gives
    245.2 -> 221.6 min, a factor 1.11, below our 1.3)."""
    larger = [v for w, v in wait_by_window.items() if w > 1]
    return significantly(min(larger) if larger else None, wait_by_window.get(1), above=False)
