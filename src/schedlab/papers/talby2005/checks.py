"""Talby & Feitelson 2005: the claim checks of the scorecard (pure, on plain numbers;
tests/papers/test_claims_talby2005.py gives each a failing and a holding hand-made case)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ...report.scorecard import claim_check
from ...report.vocabulary import (
    PHRASES,
    PhraseCheck,
    about,
    for_most,
    in_all,
    in_all_of,
    significantly,
    similar,
    times,
)

PAPER = "talby2005"


@claim_check(PAPER)
def best_scheduler_matches(ours: Mapping[str, float], published: Mapping[str, float]) -> bool | None:
    """Table 2: the scheduler with the lowest value is the paper's (None if one is missing)."""
    if set(published) - set(ours) or any(not np.isfinite(ours[s]) for s in published):
        return None
    return min(published, key=lambda s: ours[s]) == min(published, key=published.get)


@claim_check(PAPER)
def shares_about(shares: Mapping[str, float], n: float) -> PhraseCheck:
    """§2.3 / Table 3: Maui "wins about 70% of the months, under both metrics, consistently across
    all logs": every share (``shares``: log and metric -> percent of months) is about ``n``
    (vocabulary 'about': the paper's number, our band), in every case ('consistently')."""
    each = in_all({k: about(v, n).holds for k, v in shares.items()})
    band = PHRASES["about"].threshold
    return PhraseCheck("about", each.holds, band, PHRASES["about"].source,
                       f"'about' (ours threshold: |share - {n:g}| <= {band:g} x {n:g}) in every "
                       f"log and metric: {each.detail.split(': ', 1)[-1]}")


@claim_check(PAPER)
def pooled_share_about(won: float, months: float, n: float) -> PhraseCheck:
    """§2.3: "When only Flex and Maui are compared, Maui 'wins' about 75% of the months": one
    aggregate statement, Maui's months won against Flex over every month of every log and both
    metrics (``won`` of ``months``) is about ``n`` percent."""
    return about(100.0 * won / months if months else None, n)


@claim_check(PAPER)
def gaps_consistently_high(gaps: Mapping[str, float], floor: float) -> PhraseCheck:
    """§2.3 / Table 4: "The numbers are consistently very high": every average monthly gap
    (``gaps``: cell -> percent) is at least ``floor``. "Very high" is read as at least the
    smallest average gap the paper itself calls so (Table 4's 25%, SDSP2 cleaned): the words are
    the paper's, the floor is our reading of them; "consistently" is "in all" (no exception)."""
    return in_all({k: (None if not np.isfinite(v) else bool(v >= floor))
                   for k, v in gaps.items()})


@claim_check(PAPER)
def flex_gains_similar(over_flex: Sequence[float], over_maui: Sequence[float]) -> PhraseCheck:
    """Tables 5 / 8: "The average performance gains for Flex are similar" (§3.3), "The average
    improvements over Flex are similar" (§4.3): the mean performance gain over Flex and the mean
    over Maui (the same configurations and logs) are 'similar' (vocabulary; on the paper's
    tables 9.0 vs 9.7 and 9.9 vs 9.9)."""
    f = [float(x) for x in over_flex if np.isfinite(x)]
    m = [float(x) for x in over_maui if np.isfinite(x)]
    return similar(float(np.mean(f)) if f else None, float(np.mean(m)) if m else None)


@claim_check(PAPER)
def four_worse_than_two(two: Sequence[float], four: Sequence[float]) -> PhraseCheck:
    """§3.4 / Figure 3 (l. 205): "using any other candidate set, and in particular the set of all
    four schedulers, provides significantly worse results": 4-scheduler PBAS's mean wait over the
    time frames (``four``) is 'significantly' above 2-scheduler PBAS's (``two``, the same frames;
    vocabulary, threshold ours)."""
    if not len(two) or len(two) != len(four):
        return significantly(None, None)
    return significantly(float(np.mean(four)), float(np.mean(two)), above=True)


@claim_check(PAPER)
def correlation_agrees(published: float, reproduced: float, tolerance: float) -> bool | None:
    """Table 7: same sign as the paper's correlation and within ``tolerance`` of it (absolute,
    correlations are in [-1, 1]); a published 0.00 needs ours within the tolerance."""
    if reproduced is None or not np.isfinite(reproduced):
        return None
    if published * reproduced < 0:
        return False
    return abs(reproduced - published) <= tolerance


@claim_check(PAPER)
def not_available(reproduced: float | None) -> bool:
    """Table 7 N/A (KTH has no CPU times): ours is not a number either."""
    return reproduced is None or not np.isfinite(reproduced)


@claim_check(PAPER)
def sign_in_every_log(correlations: Mapping[str, float], sign: int) -> PhraseCheck:
    """§4.1 / Table 7: the two exceptions to "most variables do not consistently indicate a
    preference" (l. 234): the processors' median and interval correlate negatively in every log
    (the basis of WBAS, §4.2), the inter-arrival median (absolute) negatively and the job count
    (relative) positively. ``correlations``: log -> ours; ``sign``: -1 or +1; a 0 has no sign."""
    return in_all({log: None if not np.isfinite(v) else bool(v * sign > 0)
                   for log, v in correlations.items()})


@claim_check(PAPER)
def comparable_in_every_log(flex: Mapping[str, float], maui: Mapping[str, float]) -> PhraseCheck:
    """§1 / §2.2: "Flex ... offers comparable performance to Maui", "Maui provides similar
    performance": Table 2's mean waits of the two are 'similar' in every log."""
    return in_all({log: similar(flex.get(log), maui[log]).holds for log in maui})


@claim_check(PAPER)
def weaker_for_most(weak: Mapping[str, float], strong: Mapping[str, Sequence[float]]
                    ) -> PhraseCheck:
    """§2.2 / Table 2: "Conservative and Easy typically have lower performance": in most cases
    (``weak``: case -> value, lower is better) the value is above both of the case's ``strong``
    values (Flex's and Maui's)."""
    return for_most({k: None if not np.isfinite(v) else bool(all(v > x for x in strong[k]))
                     for k, v in weak.items()})


@claim_check(PAPER)
def stability_gain_smaller(over_flex: float, over_maui: float, much: bool) -> PhraseCheck | bool:
    """§3.3: "the stability gains [for Flex] are smaller" (Table 5; a direction) and §4.3: "the
    much smaller stability gains" (Table 8; vocabulary 'significantly' below). A gain over Flex
    at or below 0 beside a positive one over Maui is much smaller whatever the ratio."""
    if not (np.isfinite(over_flex) and np.isfinite(over_maui)):
        return significantly(None, None, above=False) if much else None  # type: ignore[return-value]
    if not much:
        return bool(over_flex < over_maui)
    if over_flex <= 0 < over_maui:
        t = PHRASES["significantly"]
        return PhraseCheck("significantly", True, t.threshold, t.source,
                           f"'{t.words[0]}' ({t.source} threshold): {over_flex:.3g} <= 0 < "
                           f"{over_maui:.3g}")
    return significantly(over_flex, over_maui, above=False)


@claim_check(PAPER)
def catastrophic_month(gaps_h: Sequence[float], years: float, per_year: float,
                       hours: Sequence[float]) -> PhraseCheck:
    """§2.3: "about one month per year, Maui shows catastrophic performance, by presenting average
    wait times that are 2-4 *hours* longer than that of Flex": in one log, the months whose Maui
    mean wait exceeds Flex's by at least ``hours[0]`` (``gaps_h``: Maui minus Flex per month, in
    hours) number 'about' ``per_year`` per year of ``years``, and none exceeds it by more than
    ``hours[1]``. The 2-4 hours are the paper's; 'about' is the vocabulary's band (ours)."""
    low, high = float(hours[0]), float(hours[1])
    gaps = [float(g) for g in gaps_h if np.isfinite(g)]
    if not gaps or not years > 0:
        return PhraseCheck("about", None, PHRASES["about"].threshold, PHRASES["about"].source,
                           "'about' (ours threshold): no monthly gaps")
    bad = [g for g in gaps if g >= low]
    rate = about(len(bad) / years, per_year)
    longer = [g for g in bad if g > high]
    return PhraseCheck("about", bool(rate.holds) and not longer, rate.threshold, rate.source,
                       f"{rate.detail}; {len(bad)} month(s) with Maui {low:g}+ h behind Flex in "
                       f"{years:.2g} years ({', '.join(f'{g:.1f} h' for g in bad) or 'none'})"
                       + (f"; beyond {high:g} h: {len(longer)}" if longer else ""))


@claim_check(PAPER)
def worst_month_times_yearly(worst: Mapping[str, float], yearly: Mapping[str, float],
                             n: float) -> PhraseCheck:
    """§2.3: "Such a wait time is about three times the yearly average on each of the machines we
    study": in every log, Maui's mean wait in its worst month against Flex (``worst``) is 'N times'
    its yearly mean wait (``yearly``; vocabulary 'times', our band)."""
    return in_all_of({log: times(worst[log], yearly.get(log), n) for log in worst})


@claim_check(PAPER)
def oracle_gain_in_range(gains: Mapping[str, float], low: float, high: float) -> PhraseCheck:
    """§3.1: "we can theoretically improve performance by 30-40%, if we could predict in advance
    which scheduler will win each month": in every log the oracle's gain (``gains``, percent) is
    within the paper's range [``low``, ``high``] (the paper's bounds, no band added)."""
    each = in_all({k: (None if not np.isfinite(v) else bool(low <= v <= high))
                   for k, v in gains.items()})
    return PhraseCheck("in_all", each.holds, each.threshold, each.source,
                       f"every log within the paper's {low:g}-{high:g}%: "
                       + ", ".join(f"{k} {v:.1f}%" for k, v in gains.items()))
