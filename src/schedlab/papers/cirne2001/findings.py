"""Cirne 2001: the thesis' further findings about its figures (§5.2-§6.2), each a scorecard row
tested with the vocabulary of the papers' words (:mod:`schedlab.report.vocabulary`) on our tables:
the §5.3 decile breakdowns (Figures 39-56), the §6.1 load bins (Figures 58-62), the §6.2 sweeps
(Figures 63-66) and Table 13. Each function quotes its finding; the claim inventory
(config/papers/cirne2001_claims.tsv) points at the rows.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ...report.scorecard import claim_row
from ...report.vocabulary import (
    PhraseCheck,
)
from . import checks as K
from .config import PAPER
from .stats import FLOOR_S, geomean
from .tabulate import SCENARIOS

#: §5.3.1 Figure 46: "even surpassing the wait time of the user request for c_min > 13"
CMIN_WAIT_ABOVE = 13
#: §5.3's "levels off" points (Figures 42b, 47, 52b): factor -> (item, value)
LEVELS_OFF = {"A": ("Figure 42b", 100.0), "c_max": ("Figure 47", 100.0),
              "D": ("Figure 52b", 200_000.0)}
#: §6.1's light / moderate-to-high boundary of D (s)
D_MODERATE = 110_000


def factor_bins(bd: pd.DataFrame, factor: str, measure: str, request: str) -> pd.DataFrame:
    """One factor's decile bins of one measure and request, by bin median (columns of the
    breakdowns table)."""
    if not len(bd):
        return pd.DataFrame(columns=["bin_median", "geomean", "relative"])
    g = bd[(bd["factor"] == factor) & (bd["measure"] == measure) & (bd["request"] == request)]
    return g.sort_values("bin_median", kind="stable")


def _trend(bd: pd.DataFrame, factor: str, measure: str, request: str, col: str,
           decreasing: bool = False) -> PhraseCheck:
    b = factor_bins(bd, factor, measure, request)
    return K.rises_with(b["bin_median"], b[col], decreasing=decreasing)


def breakdown_rows(bd: pd.DataFrame, cond: str) -> list[dict[str, Any]]:
    """§5.3's statements about the decile figures beyond the relative turn-around trends."""
    rows = []

    def row(item: str, what: str, holds: PhraseCheck | bool | None, check: Any, note: str = ""
            ) -> None:
        rows.append(claim_row(PAPER, item, what, cond, holds, note=note, check=check))

    # Figure 39a: "the larger the L ..., the greater the turn-around time"
    row("Figure 39a", "user turn-around rises with L", _trend(bd, "L", "tt", "user", "geomean"), K.rises_with)
    # Figure 39a: "the turn-around time of the adaptive requests is better than that obtained by
    # the user request even for large jobs"
    u, s_ = (factor_bins(bd, "L", "tt", r) for r in ("user", "sa"))
    row("Figure 39a", "SA's turn-around below the user's in every L decile",
        K.each_pair({f"L~{m:.3g}": (a, b) for m, a, b in
                     zip(u["bin_median"], s_["geomean"], u["geomean"], strict=True)}, above=False),
        K.each_pair)
    # Figure 41b: "the relative wait time clearly grows with L"
    row("Figure 41b", "SA's relative wait rises with L", _trend(bd, "L", "wait", "sa", "relative"), K.rises_with)
    # Figure 41a: "for large values of L, the adaptive requests incur wait times greater than the
    # ones obtained by the user requests" (the last decile)
    last = {r: factor_bins(bd, "L", "wait", r)["geomean"] for r in ("user", "sa", "best")}
    row("Figure 41a", "adaptive wait above the user's in the largest L decile",
        K.each_pair({r: (last[r].iloc[-1], last["user"].iloc[-1]) if len(last[r]) else None
                     for r in ("sa", "best")}, above=True), K.each_pair)
    # Figure 44: "variations in sigma show very little impact on the performance of either SA or
    # the best request"
    for r in ("sa", "best"):
        row("Figure 44", f"{r}: relative turn-around about the same across sigma deciles",
            K.flat(factor_bins(bd, "sigma", "tt", r)["relative"]), K.flat,
            note="largest vs smallest decile")
    # Figure 46: "the wait time of the adaptive requests grows with c_min, even surpassing the wait
    # time of the user request for c_min > 13"
    row("Figure 46", "SA's relative wait rises with c_min",
        _trend(bd, "c_min", "wait", "sa", "relative"), K.rises_with)
    wu = factor_bins(bd, "c_min", "wait", "user").set_index("bin_median")["geomean"]
    cases: dict[str, tuple[float, float] | None] = {}
    for r in ("sa", "best"):
        w = factor_bins(bd, "c_min", "wait", r).set_index("bin_median")["geomean"]
        for m in w.index[w.index > CMIN_WAIT_ABOVE]:
            cases[f"{r} c_min~{m:g}"] = (w[m], wu.get(m, math.nan))
    row("Figure 46", "adaptive wait above the user's for c_min > 13",
        K.each_pair(cases, above=True), K.each_pair,
        note="the c_min bins whose median is above 13")
    # levels off (Figures 42b, 47, 52b)
    for factor, (item, at) in LEVELS_OFF.items():
        b = factor_bins(bd, factor, "tt", "sa")
        row(item, f"SA's relative turn-around levels off above {factor} = {at:g}",
            K.flat(b[b["bin_median"] > at]["relative"]), K.flat,
            note=f"the bins whose median is above {at:g}")
    # Figure 47: "Up to certain point (around c_max = 100), the performance improvement generated by
    # the adaptive requests grows as c_max grows"
    b = factor_bins(bd, "c_max", "tt", "sa")
    b = b[b["bin_median"] <= LEVELS_OFF["c_max"][1]]
    row("Figure 47", "SA's relative turn-around falls as c_max grows to 100",
        K.rises_with(b["bin_median"], b["relative"], decreasing=True), K.rises_with)
    # Figure 49: "Non-power-of-2 jobs experience greater turn-around time than power-of-2 jobs"
    k = factor_bins(bd, "kind", "tt", "user").set_index("bin")["geomean"]
    row("Figure 49", "non-power-of-2 jobs' turn-around above power-of-2 jobs' (user request)",
        K.lower_in_second(k.get("other", math.nan), k.get("power of 2", math.nan)),
        K.lower_in_second)
    # Figure 50: "the turn-around time tt grows with the accuracy a"; "the best request delivers a
    # greater performance improvement for low accuracy jobs. SA, on the other hand, seems to be
    # almost unaffected by the accuracy"
    row("Figure 50a", "user turn-around rises with accuracy",
        _trend(bd, "accuracy", "tt", "user", "geomean"), K.rises_with)
    row("Figure 50b", "best's relative turn-around rises with accuracy",
        _trend(bd, "accuracy", "tt", "best", "relative"), K.rises_with)
    row("Figure 50b", "SA's relative turn-around about the same across accuracy deciles",
        K.flat(factor_bins(bd, "accuracy", "tt", "sa")["relative"]), K.flat,
        note="largest vs smallest")
    # Figures 52a, 53a: "the turn-around time grows with the load per processor"; "the longer an
    # arriving job has to wait in the queue"
    row("Figure 52a", "user turn-around rises with D", _trend(bd, "D", "tt", "user", "geomean"), K.rises_with)
    row("Figure 53a", "user wait rises with D", _trend(bd, "D", "wait", "user", "geomean"), K.rises_with)
    # Figure 52b: "the gap between SA and the best request is smaller for lightly loaded systems"
    sa, be = (factor_bins(bd, "D", "tt", r) for r in ("sa", "best"))
    gap = sa["relative"].to_numpy(float) / be["relative"].to_numpy(float) if len(sa) == len(be) \
        else np.array([])
    row("Figure 52b", "SA / best gap rises with D",
        K.rises_with(sa["bin_median"] if len(gap) else [], gap), K.rises_with)
    # Figures 54, 55: light loads: "reducing the execution time ... by selecting large requests";
    # heavy loads: "selecting smaller requests ... that increase the execution time"
    row("Figure 54", "SA's relative execution time rises with D",
        _trend(bd, "D", "te", "sa", "relative"), K.rises_with)
    row("Figure 55", "SA's relative requested computation falls as D grows",
        _trend(bd, "D", "cr", "sa", "relative", decreasing=True), K.rises_with)
    # Figure 56: "for heavily loaded supercomputers, the wait time corresponds to a sizable
    # fraction of the turn-around time"
    row("Figure 56", "wait / turn-around (user) rises with D",
        _trend(bd, "D", "wait_over_tt", "user", "geomean"), K.rises_with)
    return rows


def load_side_note(threshold: float = D_MODERATE) -> str:
    """How §6.1's load rows read "light" and "moderate to high" load (:func:`by_load_side`)."""
    return (f"geometric mean over the targets on that side of D = {threshold:,.0f} s (light: "
            f"D <= {threshold:,.0f} s; moderate to high: D > {threshold:,.0f} s), each target by "
            "the D of its own workload")


def by_load_side(exp: pd.DataFrame, measure: str, scenario: str, heavy: bool,
                 threshold: float = D_MODERATE) -> float:
    """Geometric mean of ``measure`` (tt, wait, te) over one scenario's targets (Table 17:
    ``sa_static``, ``sa_adaptive``, ``user_static``, ``user_adaptive``) on one side of §6.1's
    D = 110,000 s: "For D > 110000, both SA and the user request experience smaller turn-around
    times when they are in adaptive workloads"; "In low load scenarios, however, ...".

    Each target counts by the D it met in its scenario's workload. Whole targets, not the
    Figures 60-62 decile bins: a bin straddling 110,000 s (at 10,000-job workloads the first
    bin reaches 180,000 s) would leave the light side empty. NaN when the side has no target.
    """
    req, dcol = SCENARIOS[scenario]
    col = f"{req}_{measure}"
    if not len(exp) or col not in exp or dcol not in exp:
        return math.nan
    d = exp[dcol].to_numpy(float)
    side = d > threshold if heavy else d <= threshold
    v = np.maximum(exp[col].to_numpy(float)[side], FLOOR_S)
    return geomean(v) if v.size else math.nan


def emergent_rows(exp: pd.DataFrame, em: pd.DataFrame, cond: str) -> list[dict[str, Any]]:
    """§6.1's statements about Figures 58 and 61 (the adaptive vs static workload by D) not split at
    a load (those are :func:`load_rows`)."""
    rows = []
    # Figure 58: "the tendency of SA to reduce the size of the request as the load grows remains
    # the same when it is in adaptive workloads"
    a = em[(em["measure"] == "cr") & (em["scenario"] == "sa_adaptive")].sort_values("bin_low") \
        if len(em) else em
    u = em[(em["measure"] == "cr") & (em["scenario"] == "user_adaptive")].sort_values("bin_low") \
        if len(em) else em
    ok = len(a) and len(a) == len(u)
    rows.append(claim_row(PAPER, "§6.1 Figure 58", "SA's requested computation relative to the "
                          "user's falls as D grows (adaptive workload)", cond,
                          K.rises_with(a["bin_median"] if ok else [],
                                       a["geomean"].to_numpy(float) / u["geomean"].to_numpy(float)
                                       if ok else [], decreasing=True), check=K.rises_with,
                          note="SA / user request, both in the adaptive workload, per D bin"))
    # Figure 61: "the execution times of jobs using the user request do not seem to be affected by
    # whether the workload is adaptive or static"
    te = [geomean(exp[c]) if c in exp and len(exp) else None
          for c in ("user_adaptive_te", "user_te")]
    rows.append(claim_row(PAPER, "§6.1 Figure 61", "user execution time about the same in "
                          "adaptive and static workloads", cond, K.similar_values(*te),
                          check=K.similar_values, note="geometric means over all targets"))
    return rows


def load_rows(exp: pd.DataFrame, cond: str, threshold: float = D_MODERATE
              ) -> list[dict[str, Any]]:
    """§6.1's statements split at D = 110,000 s (``threshold``), Figures 60-62, each on whole
    targets (:func:`by_load_side`); "adaptive/static" is the adaptive workload's geometric mean
    over the static one's."""
    rows = []
    note = load_side_note(threshold)
    at = f"{threshold:.0f}"

    def row(item: str, what: str, measure: str, who: str, heavy: bool) -> None:
        st, ad = (by_load_side(exp, measure, f"{who}_{w}", heavy, threshold)
                  for w in ("static", "adaptive"))
        rows.append(claim_row(PAPER, item, what, cond,
                              K.lower_in_second(st, ad) if heavy else K.lower_in_second(ad, st),
                              reproduced=ad / st if not math.isnan(ad + st) else None,
                              unit="adaptive/static", check=K.lower_in_second, note=note))

    # Figure 60: "For D > 110000, both SA and the user request experience smaller turn-around
    # times when they are in adaptive workloads"; "In low load scenarios, however, both SA and the
    # user request achieve smaller turn-around times when in a static workload"
    for who in ("sa", "user"):
        row("§6.1 Figure 60", f"{who}: adaptive better at moderate-to-high load (D > {at} s)",
            "tt", who, True)
        row("§6.1 Figure 60", f"{who}: static better at light load (D <= {at} s)", "tt", who,
            False)
    # Figure 61: "In lightly loaded conditions, jobs using SA have better execution time in static
    # workloads. From moderate to high load, the execution time of jobs using SA is better in
    # adaptive workloads."
    row("§6.1 Figure 61", "sa: execution time better in the static workload at light load", "te",
        "sa", False)
    row("§6.1 Figure 61", "sa: execution time better in the adaptive workload at "
        "moderate-to-high load", "te", "sa", True)
    # Figure 62: "For moderate to high loads, jobs using both SA and the user request have smaller
    # wait times in adaptive workloads."
    for who in ("sa", "user"):
        row("§6.1 Figure 62", f"{who}: wait smaller in the adaptive workload at moderate-to-high "
            "load", "wait", who, True)
    return rows


def sweep_rows(sw: pd.DataFrame, cond: str) -> list[dict[str, Any]]:
    """§6.2's statements about Figures 63, 65 and 66 (the kappa_L and kappa_sigma sweeps)."""
    kl = sw[sw["param"] == "kappa_L"].sort_values("value") if len(sw) else sw
    ks = sw[sw["param"] == "kappa_sigma"].sort_values("value") if len(sw) else sw
    top = kl[kl["value"] == kl["value"].max()] if len(kl) else kl
    every = {"phrase": "in_all", "threshold_source": "paper"}
    return [
        # §6.2.1: "SA still achieves considerably smaller turn-around time than the user request"
        # at every load; "the performance of the system as a whole degrades with the increase in
        # the load"
        claim_row(PAPER, "Figure 63", "SA better than user at every kappa_L", cond,
                  K.all_below_one(kl["relative_tt"] if len(kl) else []),
                  reproduced=float(kl["relative_tt"].max()) if len(kl) else None,
                  unit="max ratio", check=K.all_below_one, **every),
        claim_row(PAPER, "Figure 63", "system turn-around grows with kappa_L", cond,
                  K.rises_with(kl["value"] if len(kl) else [],
                               kl["user_geomean_tt"] if len(kl) else []), check=K.rises_with),
        # §6.2.2: "the offered load increases as the distribution of sigma grows when SA is used";
        # "the performance improvement delivered by SA decreases as the distribution of sigma
        # grows"; "SA is still able to improve over the user request even for workloads with very
        # high values of sigma"
        claim_row(PAPER, "Figure 65", "offered load with SA grows with kappa_sigma", cond,
                  K.rises_with(ks["value"] if len(ks) else [],
                               ks["sa_offered_load"] if len(ks) else []), check=K.rises_with),
        claim_row(PAPER, "Figure 66", "SA's advantage shrinks as kappa_sigma grows", cond,
                  K.rises_with(ks["value"] if len(ks) else [],
                               ks["relative_tt"] if len(ks) else []), check=K.rises_with),
        claim_row(PAPER, "Figure 66", "SA stays better than user at every kappa_sigma", cond,
                  K.all_below_one(ks["relative_tt"] if len(ks) else []),
                  check=K.all_below_one, **every),
        # §6.2.1: "the performance improvement achieved by SA degrades slowly as the load
        # increases. Even for extremely high loads (kappa_L = 4.0), SA still achieves considerably
        # smaller turn-around time than the user request."
        claim_row(PAPER, "Figure 63", "SA's relative turn-around rises with kappa_L", cond,
                  K.rises_with(kl["value"] if len(kl) else [],
                               kl["relative_tt"] if len(kl) else []), check=K.rises_with),
        claim_row(PAPER, "Figure 63", "SA considerably below the user at the largest kappa_L",
                  cond, K.significantly_below(top["sa_geomean_tt"].iloc[0] if len(top) else None,
                                              top["user_geomean_tt"].iloc[0] if len(top)
                                              else None), check=K.significantly_below),
        # §6.2.2: "the turn-around time of SA grows as the distribution of sigma increases ... the
        # user request is not affected by sigma in our model"
        claim_row(PAPER, "Figure 66a", "SA's turn-around rises with kappa_sigma", cond,
                  K.rises_with(ks["value"] if len(ks) else [],
                               ks["sa_geomean_tt"] if len(ks) else []), check=K.rises_with),
        claim_row(PAPER, "Figure 66a", "user turn-around about the same at every kappa_sigma",
                  cond, K.flat(ks["user_geomean_tt"] if len(ks) else []), check=K.flat),
    ]


def sa_within_best(best: float, sa: float, cond: str) -> dict[str, Any]:
    """Chapter 8: "SA is shown to be close (within 10%) to the performance achieved by the best
    request" (Table 13's own numbers give 13%)."""
    return claim_row(PAPER, "Table 13", "SA within 10% of the best request", cond,
                     K.within_percent(sa, best, 10), check=K.within_percent,
                     note="Chapter 8's words; the thesis' own Table 13 gives SA / best = 1.13")
