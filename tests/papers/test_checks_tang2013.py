"""Tang et al. 2013 claim checks (schedlab.papers.tang2013.checks): each one on hand-made numbers,
once failing and once holding."""

from __future__ import annotations

import pandas as pd

from schedlab.papers.tang2013 import checks as t
from schedlab.report import scorecard as S
from schedlab.report.vocabulary import PhraseCheck


def _table(wait: list[float], unfair: list[float]) -> pd.DataFrame:
    confs = ["BF=1/W=1", "BF=1/W=4", "BF=0.5/W=1", "BF=0.5/W=4"]
    return pd.DataFrame({"avg_wait_min": wait, "unfair_jobs": unfair}, index=confs)


CASES = [
    # BF 1 -> 0.5 takes 80 of the 90-min drop / only 10 of it
    # Fig. 3a (l. 206): "drops significantly as BF is tuned from 1 to 0.5 and then stays at the
    # same level when BF decreases further"
    (t.bf_half_gives_most_wait_drop, True, (100.0, 40.0, {0.25: 38.0, 0.0: 42.0})),
    (t.bf_half_gives_most_wait_drop, False, (100.0, 90.0, {0.25: 88.0, 0.0: 90.0})),  # no drop
    (t.bf_half_gives_most_wait_drop, False, (100.0, 40.0, {0.25: 20.0, 0.0: 18.0})),  # no stay
    # Fig. 4a-b: wait/slowdown fall toward SJF (a trend)
    (t.falls_toward_sjf, True, ([1.0, 0.75, 0.5, 0.25, 0.0], [77, 60, 56, 57, 50])),
    (t.falls_toward_sjf, False, ([1.0, 0.75, 0.5, 0.25, 0.0], [50, 60, 56, 70, 77])),
    # a trend, not a strict rise: one step down among five still holds; a flat or falling
    # series fails
    (t.unfair_rises_toward_sjf, True, ([1.0, 0.75, 0.5, 0.25, 0.0], [10, 40, 35, 80, 90])),
    (t.unfair_rises_toward_sjf, False, ([1.0, 0.75, 0.5, 0.25, 0.0], [10, 40, 5, 12, 8])),
    # Figs. 3d-4d (l. 215): "when BF is no less than 0.5, the loss of capacity shows a decreasing
    # trend as the window size increases" (BF = 0 is not claimed)
    (t.loc_falls_with_window, True, ({1.0: {1: 5.0, 2: 4.6, 3: 4.7, 4: 4.1}, 0.5: {1: 4.8, 2: 3.2},
                                      0.0: {1: 3.0, 2: 3.5}},)),
    (t.loc_falls_with_window, False, ({1.0: {1: 5.0, 2: 4.0}, 0.5: {1: 3.2, 2: 4.8}},)),
    # last below first but no decreasing trend (Spearman 0)
    (t.loc_falls_with_window, False, ({1.0: {1: 5.0, 2: 6.0, 3: 7.0, 4: 8.0, 5: 4.0}},)),
    (t.enhanced_lower_wait, True, (77.4, [68.4, 55.8, 52.5])),
    (t.enhanced_lower_wait, False, (77.4, [68.4, 80.0, 52.5])),
    (t.enhanced_raise_unfair, True, (14, [38, 45, 67])),
    (t.enhanced_raise_unfair, False, (14, [38, 12, 67])),
    (t.bf05_w4_extreme, True, (_table([77, 68, 56, 52], [14, 38, 45, 67]),)),
    (t.bf05_w4_extreme, False, (_table([77, 68, 50, 52], [14, 38, 45, 67]),)),
    (t.adaptive_fairer_than_bf05_w4, True, (67, [43, 26, 33])),
    (t.adaptive_fairer_than_bf05_w4, False, (67, [43, 70, 33])),
    (t.best_by_average_gain, True,
     ({"BF=1/W=4": -0.05, "W Adapt.": 0.12, "2D Adapt.": 0.10, "BF Adapt.": 0.04},
      ["W Adapt.", "2D Adapt."])),
    (t.best_by_average_gain, False,
     ({"BF=1/W=4": 0.2, "W Adapt.": 0.12, "2D Adapt.": 0.10}, ["W Adapt.", "2D Adapt."])),
    # Fig. 12a: BF/2D Adapt. above every static scheme; W Adapt. above them does not matter
    (t.named_adaptive_beat_static, True,
     ({"BF=1/W=4": -0.05, "BF=0.5/W=4": 0.10, "W Adapt.": 0.30, "BF Adapt.": 0.12,
       "2D Adapt.": 0.20}, ["BF Adapt.", "2D Adapt."], ["BF=1/W=4", "BF=0.5/W=4"])),
    (t.named_adaptive_beat_static, False,
     ({"BF=1/W=4": -0.05, "BF=0.5/W=4": 0.15, "BF Adapt.": 0.12, "2D Adapt.": 0.20},
      ["BF Adapt.", "2D Adapt."], ["BF=1/W=4", "BF=0.5/W=4"])),
    # Fig. 4a: W=4 lowest and W=1 highest on most BF lines
    (t.window_best_and_worst, True, ({1.0: {1: 77.4, 2: 70.0, 4: 68.4}, 0.5: {1: 55.8, 2: 54.0,
                                                                             4: 52.5}}, 4, 1)),
    (t.window_best_and_worst, False, ({1.0: {1: 77.4, 2: 66.0, 4: 68.4}, 0.5: {1: 55.8, 2: 51.0,
                                                                              4: 52.5}}, 4, 1)),
    # "a slight help": the best W > 1 within 15% below W = 1 (the paper's 77.4 -> 68.4 is)
    (t.window_slight_help, True, ({1.0: {1: 77.4, 4: 68.4}, 0.5: {1: 55.8, 4: 52.5}},)),
    (t.window_slight_help, False, ({1.0: {1: 77.4, 4: 40.0}, 0.5: {1: 55.8, 4: 60.0}},)),
    # unfair jobs rise with W on most BF lines
    (t.unfair_rises_with_window, True, ({1.0: {1: 10, 4: 18}, 0.5: {1: 39, 4: 49}},)),
    (t.unfair_rises_with_window, False, ({1.0: {1: 10, 4: 8}, 0.5: {1: 39, 4: 49},
                                          0.0: {1: 60, 4: 50}},)),
    # LoC: most enhanced cases below the base / every adaptive one
    (t.lower_than_base, True, (15.7, {"a": 12.4, "b": 15.8, "c": 13.9}, True)),
    (t.lower_than_base, False, (15.7, {"a": 12.4, "b": 15.8}, False)),
    # Fig. 12a UNFAIR+: static gains negative / adaptive not negative
    (t.gains_signed, True, ({"BF=1/W=4": -0.02, "BF=0.5/W=4": -0.1}, True)),
    (t.gains_signed, False, ({"BF Adapt.": 0.05, "W Adapt.": -0.01}, False)),
    # Fig. 3: "considerably" (a factor >= 1.3): the paper's own 245.2 -> 221.6 is not
    (t.window_helps_fcfs, True, ({1: 245.2, 4: 150.0},)),
    (t.window_helps_fcfs, False, ({1: 245.2, 4: 221.6},)),
    (t.burst_below, True, (0.1, 1 / 8)),
    (t.burst_below, False, (0.56, 1 / 8)),   # issue 16: 0.56 against the paper's "1/8"
    # Table 4 (l. 342): "increases substantially as the window size gets larger"
    (t.cost_grows_with_window, True, ([1.0, 2.0, 1.5, 5.0, 9.0],)),   # a trend, one step down
    (t.cost_grows_with_window, False, ([1.0, 1.05, 1.1, 1.1, 1.2],)),  # grows, not substantially
    (t.cost_grows_with_window, False, ([9.0, 5.0, 2.0, 2.0, 1.0],)),   # falls
    (t.fcfs_plus_backfilling, True, ((67.307633, 4.428072), (67.307633, 4.428072))),
    (t.fcfs_plus_backfilling, False, ((67.307633, 4.428072), (67.31, 4.428072))),
]


def test_each_case():
    for fn, expected, args in CASES:
        out = fn(*args)
        assert (out.holds if isinstance(out, PhraseCheck) else out) is expected, (fn.__name__, args)


def test_every_check_fails_and_holds_somewhere():
    assert S.uncovered_checks("tang2013", [(fn, e) for fn, e, _ in CASES]) == []


def test_missing_quantities_are_none():
    assert t.bf_half_gives_most_wait_drop(100.0, float("nan"), {0.25: 10.0}).holds is None
    assert t.bf_half_gives_most_wait_drop(100.0, 40.0, {}).holds is None
    assert t.loc_falls_with_window({1.0: {1: 5.0}}).holds is None
    assert t.cost_grows_with_window([]).holds is None
    assert t.unfair_rises_toward_sjf([1.0], [3]).holds is None
    assert t.burst_below(float("nan"), 1.0) is None
    assert t.fcfs_plus_backfilling((67.3, 4.4), (float("nan"), float("nan"))) is None
    assert t.best_by_average_gain({"W Adapt.": 0.1}, ["W Adapt.", "2D Adapt."]) is None
