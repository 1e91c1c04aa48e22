"""Talby & Feitelson 2005 attribution tables (schedlab.papers.talby2005.attribution)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest
import yaml

from schedlab.papers.talby2005 import attribution as A
from schedlab.papers.talby2005 import months
from schedlab.papers.talby2005.config import resolve_settings

REPO = Path(__file__).resolve().parents[2]

READINGS = {"conservative": {"scheduler": "conservative"}, "flex": {"scheduler": "flex"},
            "easy_a": {"scheduler": "easy"}, "easy_b": {"scheduler": "easy"},
            "maui_a": {"scheduler": "maui"}}
PUB = {
    "table2": {"wait": {"L": {"conservative": 100.0, "easy": 100.0, "flex": 50.0, "maui": 50.0}},
               "bsld": {"L": {"conservative": 10.0, "easy": 10.0, "flex": 5.0, "maui": 5.0}}},
    "table3": {"wait": {"L": {"conservative": [0, 0], "easy": [0, 0], "flex": [1, 50],
                              "maui": [1, 50]}},
               "bsld": {"L": {"conservative": [0, 0], "easy": [0, 0], "flex": [1, 50],
                              "maui": [1, 50]}},
               "maui_vs_flex_share": 50},
}


def sums(waits, bslds, jobs=(2, 2)):
    """Monthly sums for months m1, m2 with the given monthly means."""
    return pd.DataFrame({"month": ["m1", "m2"], "jobs": list(jobs),
                         "wait_sum": [w * n for w, n in zip(waits, jobs, strict=True)],
                         "bsld_sum": [b * n for b, n in zip(bslds, jobs, strict=True)]})


def runs():
    return {
        ("L", "conservative", "drop"): sums([100, 100], [10, 10]),
        ("L", "flex", "drop"): sums([40, 60], [4, 6]),          # wins m1
        ("L", "easy_a", "drop"): sums([100, 100], [10, 10]),    # exact Table 2 EASY
        ("L", "easy_b", "drop"): sums([50, 50], [5, 5]),        # equal to maui: ties
        ("L", "maui_a", "drop"): sums([50, 50], [5, 5]),        # wins m2
        ("L", "easy_a", "keep"): sums([300, 300], [30, 30]),
    }


def test_month_sums_round_trip():
    jobs = pd.DataFrame({"month": ["a", "a", "b"], "wait": [1.0, 3.0, 5.0],
                         "bounded_slowdown": [1.0, 2.0, 4.0]})
    s = months.month_sums(jobs)
    assert s["jobs"].tolist() == [2, 1] and s["wait_sum"].tolist() == [4.0, 5.0]
    assert A.overall(s) == (3.0, pytest.approx(7 / 3), 3)
    assert A.monthly_from_sums(s, min_jobs=2)["wait"].tolist() == [2.0]


def test_runs_table_errors_against_the_read_scheduler():
    t = A.runs_table(runs(), READINGS, PUB["table2"]).set_index(["reading", "cancelled"])
    assert t.loc[("easy_a", "drop"), "wait_err"] == 0.0
    assert t.loc[("easy_a", "keep"), "wait_err"] == pytest.approx(2.0)
    assert t.loc[("flex", "drop"), "role"] == "flex"


def test_pair_fit_prefers_the_pair_closer_to_both_tables():
    detail, fit = A.easy_maui_tables(runs(), READINGS, "drop", PUB)
    assert set(fit["easy_reading"]) == {"easy_a", "easy_b"}
    d = detail.set_index("easy_reading")
    # easy_b schedules as maui: every month's best is tied for EASY/Maui in m2 -> nobody's win
    assert d.loc["easy_b", "wait_tie"] == 50.0 and d.loc["easy_b", "wait_maui"] == 0.0
    assert d.loc["easy_a", "wait_maui"] == 50.0 and d.loc["easy_a", "wait_flex"] == 50.0
    assert d.loc["easy_a", "wait_maui_vs_flex"] == 50.0
    assert d.loc["easy_a", "t3_err"] == 0.0 and d.loc["easy_a", "t2_err"] == 0.0
    assert fit.iloc[0]["easy_reading"] == "easy_a" and fit.iloc[0]["rank"] == 1
    assert fit.set_index("easy_reading").loc["easy_b", "score"] > 0


def test_cancelled_and_slack_tables():
    r = runs() | {("L", "flex_slack1", "drop"): sums([50, 50], [5, 5]),
                  ("L", "flex_slack2", "drop"): sums([75, 75], [5, 5])}
    rdf = A.runs_table(r, READINGS, PUB["table2"])
    c = A.cancelled_table(rdf, ["easy_a"]).set_index(["cancelled", "log"])
    assert c.loc[("drop", "all"), "err"] == 0.0 and c.loc[("keep", "L"), "wait_err"] == 2.0
    s = A.slack_table(rdf, "drop").set_index(["slack_factor", "log"])
    assert s.loc[(1.0, "all"), "wait_err"] == 0.0 and s.loc[(2.0, "L"), "wait_err"] == 0.5


CFG = dataclasses.replace(
    resolve_settings(yaml.safe_load((REPO / "config/papers/talby2005.yaml").read_text())),
    cancelled="drop",
    scheduler_options={"conservative": {}, "easy": {}, "maui": {}, "flex": {"slack_factor": 1.0}},
    attribution={"readings": READINGS | {"flex": {"scheduler": "flex",
                                                  "options": {"slack_factor": 1.0}}}},
    published=PUB | {"table4": {"raw": {"L": {"flex_avg": 50, "flex_max": 50,
                                               "maui_avg": 20, "maui_max": 20}},
                                "clean": {}}})


def test_table3_grid_by_cut_slack_and_maui():
    r = runs() | {("L", "flex_slack1", "drop"): sums([40, 60], [4, 6]),      # = main flex
                  ("L", "flex_slack0", "drop"): sums([60, 60], [6, 6]),      # Maui wins both
                  **{(lg, rd, "drop+separate_months"): v for (lg, rd, c), v in runs().items()
                     if c == "drop"}}
    detail, fit = A.table3_tables(r, CFG)
    d = detail.set_index(["cut", "slack_factor", "maui_reading"]).sort_index()
    # the main Flex reading and flex_slack1 are the same factor: one row, not two
    assert len(d.loc[("one_run", 1.0)]) == 1
    assert d.loc[("one_run", 0.0, "maui_a"), "wait_maui"] == 100.0
    assert d.loc[("one_run", 1.0, "maui_a"), "wait_maui"] == 50.0
    assert d.loc[("separate", 1.0, "maui_a"), "t3_err"] == 0.0
    assert set(detail["cut"]) == {"one_run", "separate"}
    # published: Flex and Maui win half of the months each -> slack 1 fits, slack 0 does not
    f = fit.set_index(["cut", "slack_factor"])
    assert f.loc[("one_run", 1.0), "score"] == 0.0 < f.loc[("one_run", 0.0), "score"]
    assert fit.iloc[0]["slack_factor"] == 1.0


def test_slack_fit_table2_and_table4():
    cfg = dataclasses.replace(CFG, scheduler_options=CFG.scheduler_options | {"maui": {}},
                              attribution={"readings": READINGS})
    r = runs() | {("L", "flex_slack1", "drop"): sums([40, 60], [4, 6]),
                  ("L", "flex_slack0", "drop"): sums([60, 60], [6, 6])}
    s = A.slack_fit(r, cfg).set_index(["slack_factor", "log"])
    # slack 1: Flex wins m1 by 25% (50 vs 40), Maui wins m2 by 20% (50 vs 60)
    assert s.loc[(1.0, "L"), "t4_flex_avg"] == 25.0 and s.loc[(1.0, "L"), "t4_maui_avg"] == 20.0
    assert s.loc[(1.0, "L"), "t4_err"] == (25 + 25 + 0 + 0) / 4
    # slack 0 wins no month: its gaps count as 0 against the published 50%
    assert s.loc[(0.0, "L"), "t4_err"] == (50 + 50 + 0 + 0) / 4
    assert s.loc[(1.0, "all"), "score"] < s.loc[(0.0, "all"), "score"]


def test_variant_table_side_by_side():
    r = runs() | {("L", "easy_a", "drop+flurries"): sums([80, 80], [8, 8], jobs=(3, 3))}
    rdf = A.runs_table(r, READINGS, PUB["table2"])
    v = A.variant_table(rdf, CFG).set_index("reading")
    assert list(v.index) == ["easy_a"]   # only readings run under more than one variant
    assert v.loc["easy_a", "clean"] == 100.0 and v.loc["easy_a", "flurries"] == 80.0
    assert v.loc["easy_a", "flurries_err"] == pytest.approx(-0.2)
    assert v.loc["easy_a", "flurries_jobs"] == 6
    # variant runs stay out of the cancelled-rule table
    assert "drop+flurries" not in set(A.cancelled_table(rdf, ["easy_a"])["cancelled"])
