"""The scorecard's cause columns (cause, evidence, explained) and phrase columns: every rejection
of the frame checker has a failing case, and the rows it accepts."""

from __future__ import annotations

import math

import pytest

from schedlab.report import scorecard as S
from schedlab.report.scorecard import (
    NOT_ATTRIBUTED,
    claim_row,
    reading_status,
    scorecard_frame,
    value_row,
    with_cause,
)
from schedlab.report.vocabulary import similar


def differs() -> dict:
    return value_row("a", "Table 2", "mean wait", "KTH easy", 100.0, 140.0, "s")  # +40%


def test_deviating_rows_get_the_gap_marker_and_others_none():
    r = differs()
    assert r["verdict"] == "differs"
    assert {k: r[k] for k in NOT_ATTRIBUTED} == NOT_ATTRIBUTED
    assert math.isnan(r["evidence_value"]) and r["evidence_verdict"] == ""
    close = value_row("a", "T", "q", "c", 100.0, 120.0)
    assert close["verdict"] == "close" and close["explained"] == "unexplained"
    failing = claim_row("a", "T", "q", "c", False)
    assert failing["cause"] == NOT_ATTRIBUTED["cause"]
    for ok in (value_row("a", "T", "q", "c", 100.0, 101.0), claim_row("a", "T", "q", "c", True),
               claim_row("a", "T", "q", "c", None, not_run_reason="needs download")):
        assert ok["cause"] == ok["evidence"] == ok["explained"] == ""
    sc = scorecard_frame([differs(), close, failing])
    assert list(sc.columns) == S.COLUMNS and (sc["explained"] == "unexplained").all()


def test_the_gap_marker_leaves_a_row_whose_verdict_changed():
    r = claim_row("a", "T", "q", "KTH", None)  # fails, marked
    moved = r | {"verdict": "not_run", "note": "needs a larger run; KTH only"}
    sc = scorecard_frame([moved])
    assert sc.loc[0, "cause"] == "" and sc.loc[0, "explained"] == ""


@pytest.mark.parametrize("blank", ["cause", "evidence", "explained"])
def test_frame_rejects_a_deviating_row_without_its_cause(blank):
    with pytest.raises(ValueError, match="without cause, evidence and explained"):
        scorecard_frame([differs() | {blank: ""}])


def test_frame_rejects_an_unknown_explained_value():
    with pytest.raises(ValueError, match="is not one of"):
        scorecard_frame([differs() | {"explained": "mostly"}])


def test_explained_value_row_needs_the_reading_within_tolerance():
    ok = with_cause(differs(), "raw log", "t/attr: raw -> 110 s", "explained", 110.0)
    assert ok["evidence_verdict"] == "match"
    assert len(scorecard_frame([ok])) == 1
    with pytest.raises(ValueError, match="gives partly"):  # 120: half the gap, not within 15%
        with_cause(differs(), "raw log", "t/attr: raw -> 120 s", "explained", 120.0)
    with pytest.raises(ValueError, match="without the reading's value"):
        with_cause(differs(), "raw log", "t/attr", "explained")
    # the frame checker recomputes, whatever the row claims
    with pytest.raises(ValueError, match="gives partly"):
        scorecard_frame([ok | {"evidence_value": 120.0, "evidence_verdict": ""}])


def test_partly_needs_half_the_gap_closed_and_not_more():
    ok = with_cause(differs(), "slack", "t/attr_slack: f=2 -> 120 s", "partly", 120.0)
    assert ok["evidence_verdict"] == "close" and len(scorecard_frame([ok])) == 1
    # exactly half the gap (140 -> 120 of 40) is partly; just less is not
    with pytest.raises(ValueError, match="neither"):
        with_cause(differs(), "slack", "t/attr_slack: f=2 -> 120.1 s", "partly", 120.1)
    with pytest.raises(ValueError, match="gives explained"):
        with_cause(differs(), "slack", "t/attr_slack: f=3 -> 105 s", "partly", 105.0)
    # overshooting past the published value counts by distance: 82 is 18 from 100 (<= 20)
    assert with_cause(differs(), "c", "e", "partly", 82.0)["explained"] == "partly"


def test_unexplained_must_not_hide_an_explaining_reading():
    tried = with_cause(differs(), "not found", "t/attr: a -> 135 s, b -> 131 s", "unexplained",
                       131.0)
    assert len(scorecard_frame([tried])) == 1
    with pytest.raises(ValueError, match="explained=unexplained but the reading's value 112"):
        scorecard_frame([tried | {"evidence_value": 112.0, "evidence_verdict": "match"}])
    with pytest.raises(ValueError, match="gives partly"):
        with_cause(differs(), "not found", "t/attr: a -> 119 s", "unexplained", 119.0)


def test_evidence_verdict_must_follow_from_the_value():
    ok = with_cause(differs(), "c", "e", "unexplained", 131.0)
    assert ok["evidence_verdict"] == "differs"
    with pytest.raises(ValueError, match="evidence_verdict match but the reading's value 131"):
        scorecard_frame([ok | {"evidence_verdict": "match"}])
    with pytest.raises(ValueError, match="on a value row"):
        scorecard_frame([ok | {"evidence_verdict": "holds"}])
    with pytest.raises(ValueError, match="is not one of"):
        scorecard_frame([ok | {"evidence_verdict": "great"}])


def test_claim_rows_are_explained_by_a_flip():
    row = claim_row("a", "Table 3", "Maui wins most months", "KTH", False)
    ok = with_cause(row, "month cut", "t/attr_table3: calendar months -> holds", "explained",
                    evidence_verdict="holds")
    assert len(scorecard_frame([ok])) == 1
    with pytest.raises(ValueError, match="the claim does not hold under the reading"):
        with_cause(row, "month cut", "t/attr_table3: calendar months -> fails", "explained",
                   evidence_verdict="fails")
    with pytest.raises(ValueError, match="explained=unexplained but the claim holds"):
        with_cause(row, "c", "e", "unexplained", evidence_verdict="holds")
    with pytest.raises(ValueError, match="on a claim row"):
        with_cause(row, "c", "e", "unexplained", evidence_verdict="match")


def test_claim_rows_with_numbers_can_be_partly_explained():
    row = claim_row("a", "Table 4", "gaps average 30-55%", "all logs", False, 42.5, 80.0, "%")
    ok = with_cause(row, "raw log", "t/attr: raw -> 60 %", "partly", 60.0, "fails")
    assert len(scorecard_frame([ok])) == 1
    with pytest.raises(ValueError, match="neither"):
        with_cause(row, "raw log", "t/attr: raw -> 70 %", "partly", 70.0, "fails")
    # a claim without numbers cannot be partly explained
    bare = claim_row("a", "T", "q", "c", False)
    with pytest.raises(ValueError, match="without the reading's value"):
        with_cause(bare, "c", "e", "partly", evidence_verdict="fails")


def test_data_needs_no_numbers():
    row = with_cause(differs(), "the paper's raw log", "needs the PSC C90 log", "data")
    assert len(scorecard_frame([row])) == 1


def test_reading_status_rules():
    assert reading_status(100.0, 140.0, 0.15, 115.0) == "explained"
    assert reading_status(100.0, 140.0, 0.15, 115.1) == "partly"
    assert reading_status(100.0, 140.0, 0.15, 120.0) == "partly"
    assert reading_status(100.0, 140.0, 0.15, 120.1) == ""
    assert reading_status(100.0, 140.0, 0.15, math.nan) == ""
    assert reading_status(100.0, math.nan, 0.15, 110.0) == "explained"  # no value reproduced
    assert reading_status(100.0, math.nan, 0.15, 125.0) == ""
    assert reading_status(math.nan, math.nan, math.nan, math.nan, True) == "explained"
    assert reading_status(math.nan, math.nan, math.nan, math.nan, False) == ""
    assert reading_status(-0.2, 0.3, 5.0, 0.1) == ""  # opposite signs never match


def test_phrase_columns_are_checked_against_the_vocabulary():
    row = claim_row("a", "§5", "P and R similar", "CTC", similar(10.0, 10.9))
    assert row["phrase"] == "similar" and row["threshold_source"] == "ours"
    assert row["verdict"] == "holds" and row["check"] == "vocabulary.similar"
    assert row["note"].startswith("'similar' (ours threshold): ratio 1.09")
    assert len(scorecard_frame([row])) == 1
    with pytest.raises(ValueError, match="not in the vocabulary"):
        scorecard_frame([row | {"phrase": "roughly"}])
    with pytest.raises(ValueError, match="has a threshold of source 'ours', not 'paper'"):
        scorecard_frame([row | {"threshold_source": "paper"}])
    with pytest.raises(ValueError, match="threshold_source 'mine' is not one of"):
        scorecard_frame([row | {"threshold_source": "mine"}])
    failing = claim_row("a", "§5", "P and R similar", "CTC", similar(10.0, 13.0))
    assert failing["verdict"] == "fails" and failing["explained"] == "unexplained"


def test_a_value_row_testing_about_n_uses_the_vocabulary_band():
    ok = value_row("a", "Abstract", "gain", "all", 35.0, 30.0, "%", phrase="about",
                   threshold_source="ours")
    assert ok["verdict"] == "match" and len(scorecard_frame([ok])) == 1
    loose = value_row("a", "Abstract", "gain", "all", 35.0, 30.0, "%", tolerance=0.25,
                      phrase="about", threshold_source="ours")
    with pytest.raises(ValueError, match=r"band 0\.15, not the row's tolerance 0\.25"):
        scorecard_frame([loose])
    # a table value without a phrase keeps its own tolerance
    assert len(scorecard_frame([loose | {"phrase": "", "threshold_source": ""}])) == 1
