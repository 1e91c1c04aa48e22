"""Talby & Feitelson 2005 attribution tables (schedlab.papers.talby2005_attribution)."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.papers import talby2005_attribution as A

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
    s = A.month_sums(jobs)
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
