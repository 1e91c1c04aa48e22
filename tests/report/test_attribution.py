"""Attribution as data (schedlab.report.attribution): the long frame and the lookup that fills a
row's cause, evidence and explained from the numbers."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedlab.report.attribution import (
    attribute_rows,
    attribution_frame,
    data_gap,
    needs_run,
    starting_from,
)
from schedlab.report.scorecard import NOT_ATTRIBUTED, claim_row, scorecard_frame, value_row

KEY = {"paper": "talby2005", "item": "Table 2", "quantity": "mean wait", "condition": "KTH easy"}
SRC = "talby2005/tables/attr_log_version"


def reading(name: str, value: float, baseline: float = 9000.0, cause: str = "c", **kw) -> dict:
    return KEY | {"reading": name, "cause": cause, "value": value, "baseline": baseline,
                  "source": SRC} | kw


def row(reproduced: float = 9000.0) -> dict:
    return value_row("talby2005", "Table 2", "mean wait", "KTH easy", 6000.0, reproduced, "s")


def test_an_explaining_reading_fills_cause_and_evidence():
    att = attribution_frame([
        reading("exact estimates", 8000.0, cause="estimates"),
        reading("flurries modelled back in", 6039.0, cause="the paper ran the raw log"),
        reading("both", 6500.0, cause="raw log and estimates")])
    [r] = attribute_rows([row()], att)
    assert r["explained"] == "explained" and r["cause"] == "the paper ran the raw log"
    assert r["evidence"] == f"{SRC}: flurries modelled back in -> 6039 s (+1%)"
    assert r["evidence_value"] == 6039.0 and r["evidence_verdict"] == "match"
    assert len(scorecard_frame([r])) == 1


def test_half_the_gap_is_partly_and_nothing_is_unexplained_with_every_reading():
    [r] = attribute_rows([row()], attribution_frame([reading("a", 8000.0), reading("b", 7400.0)]))
    assert r["explained"] == "partly" and r["evidence"] == f"{SRC}: b -> 7400 s (+23%)"
    [r] = attribute_rows([row()], attribution_frame([reading("a", 8000.0), reading("b", 9600.0)]))
    assert r["explained"] == "unexplained"
    assert r["cause"] == "not found: 2 readings tried, none closes half the gap"
    assert r["evidence"] == f"{SRC}: a -> 8000 s (+33%), b -> 9600 s (+60%)"
    assert r["evidence_value"] == 8000.0  # the closest, which the checker re-tests
    assert len(scorecard_frame([r])) == 1


def test_rows_without_readings_keep_the_gap_marker_and_matches_are_left_alone():
    other = value_row("talby2005", "Table 2", "mean wait", "KTH flex", 6000.0, 9000.0, "s")
    match = value_row("talby2005", "Table 2", "mean wait", "KTH easy", 6000.0, 6100.0, "s")
    att = attribution_frame([reading("a", 6000.0, baseline=6100.0)])
    r1, r2 = attribute_rows([other, match], att)
    assert {k: r1[k] for k in NOT_ATTRIBUTED} == NOT_ATTRIBUTED
    assert r2 == match
    assert attribute_rows([other], attribution_frame([]))[0] == other


def test_a_reading_from_another_baseline_is_an_error():
    with pytest.raises(ValueError, match="baseline 8000 is not the row's reproduced 9000"):
        attribute_rows([row()], attribution_frame([reading("a", 6000.0, baseline=8000.0)]))


def test_claim_rows_flip_under_a_reading():
    claim = claim_row("talby2005", "Table 3", "Maui wins about 70%", "every log and metric",
                      False, 70.0, 45.0, "%")
    key = {k: claim[k] for k in ("paper", "item", "quantity", "condition")}
    att = attribution_frame([
        key | {"reading": "weeks", "cause": "c1", "value": 50.0, "baseline": 45.0,
               "holds": False, "source": "talby2005/tables/attr_table3"},
        key | {"reading": "calendar months, ties split", "cause": "ties are split",
               "value": 66.0, "baseline": 45.0, "holds": True,
               "source": "talby2005/tables/attr_table3"}])
    [r] = attribute_rows([claim], att)
    assert r["explained"] == "explained" and r["cause"] == "ties are split"
    assert r["evidence"].endswith("calendar months, ties split -> 66 % (-6%), holds")
    assert r["evidence_verdict"] == "holds"
    [r] = attribute_rows([claim], att[att["reading"] == "weeks"])
    assert r["explained"] == "unexplained" and r["evidence_verdict"] == "fails"
    assert len(scorecard_frame([r])) == 1


def test_the_frame_rejects_bad_rows_with_one_line():
    with pytest.raises(ValueError, match="missing field"):
        attribution_frame([{"paper": "p"}])
    with pytest.raises(ValueError, match="empty cause"):
        attribution_frame([reading("a", 1.0, cause=" ")])
    with pytest.raises(ValueError, match="reading 'a' twice"):
        attribution_frame([reading("a", 1.0), reading("a", 2.0)])
    df = attribution_frame([reading("a", 1.0)])
    assert df["holds"].dtype == "boolean" and pd.isna(df.loc[0, "holds"])


def test_data_and_needs_run():
    r = data_gap(row(), "the paper ran the raw KTH log", "the raw KTH log")
    assert r["explained"] == "data" and r["evidence"] == "needs the raw KTH log"
    r = needs_run(row(), "a year of BG/P", "the whole Intrepid year", "3 CPU-h")
    assert r["explained"] == "unexplained"
    assert r["evidence"] == "not tried: needs the whole Intrepid year (3 CPU-h)"
    assert math.isnan(r["evidence_value"]) and len(scorecard_frame([r])) == 1


def test_only_readings_that_start_from_the_rows_value_are_kept():
    """starting_from: a reading whose baseline is the row's reproduced value is kept (a claim:
    both NaN); one whose experiment started elsewhere, or naming no row, is left out."""
    claim = claim_row("talby2005", "Table 3", "c", "all", False)
    kept = starting_from([reading("a", 6100.0, baseline=9000.0 * (1 + 1e-12)),
                          reading("b", 6100.0, baseline=8000.0),
                          reading("c", 6100.0) | {"condition": "SDSP2 easy"},
                          {"paper": "talby2005", "item": "Table 3", "quantity": "c",
                           "condition": "all", "reading": "d", "cause": "x", "value": math.nan,
                           "baseline": math.nan, "holds": True, "source": SRC}],
                         [row(), claim])
    assert [r["reading"] for r in kept] == ["a", "d"] and kept[0]["baseline"] == 9000.0
    [r, c] = attribute_rows([row(), claim], attribution_frame(kept))
    assert r["explained"] == "explained" and c["explained"] == "explained"


def test_a_stated_cause_is_not_overwritten_by_the_lookup():
    stated = data_gap(row(), "another machine's log", "the Intrepid log")
    [r] = attribute_rows([stated], attribution_frame([reading("a", 6000.0)]))
    assert r["explained"] == "data" and r["cause"] == "another machine's log"


def test_not_looked_up_names_rows_whose_evidence_cites_a_table_without_a_reading():
    from schedlab.report.attribution import not_looked_up

    row = {"paper": "p", "item": "T2", "quantity": "wait", "condition": "KTH"}
    card = pd.DataFrame([row | {"evidence": "p/tables/attr: x -> 1"},
                         row | {"condition": "BLUE", "evidence": "needs the C90 log"}])
    table = attribution_frame([row | {"reading": "x", "cause": "c", "value": 1.0,
                                      "baseline": 2.0, "holds": None, "source": "p/tables/attr"}])
    assert not_looked_up(card, table) == []
    assert not_looked_up(card, table.iloc[0:0]) == ["T2 | wait | KTH"]
