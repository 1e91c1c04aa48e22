"""Published-vs-reproduced pivots of the report (schedlab.report.compare)."""

import math

import pandas as pd

from schedlab.report.compare import item_of_table, items_with_numbers, side_by_side
from schedlab.report.scorecard import claim_row, scorecard_frame, value_row


def _sc() -> pd.DataFrame:
    rows = [
        value_row("p", "Table 2", "mean wait", "KTH easy", 6806, 6843, "s"),
        value_row("p", "Table 2", "mean wait", "KTH flex", 6250, 5158, "s"),
        value_row("p", "Table 2", "mean bsld", "KTH easy", 88.9, 92.1, ""),
        value_row("p", "Table 2", "mean wait", "BLUE easy", 2083, None, "s"),
        claim_row("p", "Table 2", "best scheduler", "KTH", False, note="paper: maui; ours: flex"),
        value_row("p", "Table 9", "share", "all", 45.8, 52.5, "%"),
        value_row("p", "Table 9", "other", "all", 8.8, 12.5, "%"),
        value_row("p", "Table 9", "third", "all", 1.0, 2.0, "%"),
    ]
    return scorecard_frame(rows)


def test_side_by_side_has_the_papers_table_shape():
    pub, rep = side_by_side(_sc(), "Table 2")
    assert list(pub.index) == ["KTH easy", "KTH flex", "BLUE easy"]
    assert list(pub.columns) == ["mean wait (s)", "mean bsld"]
    assert pub.index.equals(rep.index) and list(pub.columns) == list(rep.columns)
    assert pub.loc["KTH easy", "mean wait (s)"] == 6806
    assert rep.loc["KTH flex", "mean wait (s)"] == 5158
    assert math.isnan(rep.loc["BLUE easy", "mean wait (s)"])  # not run here
    assert math.isnan(pub.loc["KTH flex", "mean bsld"])  # not published
    # the claim without numbers ("best scheduler") is not a cell
    assert "best scheduler" not in pub.columns


def test_single_condition_items_are_transposed():
    pub, rep = side_by_side(_sc(), "Table 9")
    assert list(pub.index) == ["share (%)", "other (%)", "third (%)"]
    assert list(rep["all"]) == [52.5, 12.5, 2.0]


def test_items_and_table_names():
    assert items_with_numbers(_sc()) == ["Table 2", "Table 9"]
    pub, rep = side_by_side(_sc(), "Table 77")
    assert pub.empty and rep.empty
    assert item_of_table("table13") == "Table 13"
    assert item_of_table("table3_SP2") == "Table 3"
    assert item_of_table("monthly") is None
