"""The scorecard's verdict rules (issue 16): each rule has a case where it gives each outcome, so a
rule changed to a constant fails here; claim-check registration and coverage."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedlab.report import scorecard as S
from schedlab.report.scorecard import claim_row, scorecard_frame, tolerance_for, value_row


@pytest.mark.parametrize(("published", "reproduced", "tol", "verdict"), [
    (100.0, 115.0, 0.15, "match"),      # exactly at the tolerance
    (100.0, 85.0, 0.15, "match"),
    (100.0, 115.1, 0.15, "close"),      # just past it
    (100.0, 130.0, 0.15, "close"),      # at 2 x tolerance
    (100.0, 130.1, 0.15, "differs"),
    (100.0, 69.0, 0.15, "differs"),
    (100.0, 105.0, 0.01, "differs"),    # the row's own tolerance is used
    (-0.2, 0.2, 5.0, "differs"),        # opposite signs never match, whatever the tolerance
    (0.0, 0.1, 0.15, "match"),          # published 0: absolute tolerance
    (0.0, 0.2, 0.15, "close"),
    (0.0, 0.5, 0.15, "differs"),
])
def test_value_verdicts(published, reproduced, tol, verdict):
    r = value_row("p", "T", "q", "c", published, reproduced, tolerance=tol)
    assert r["verdict"] == verdict
    assert r["tolerance"] == tol


def test_a_published_zero_reads_a_band_in_the_rows_unit():
    """One month won of 31 (3.2%) against a published 0%: the absolute 0.15 reads it as
    'differs'; the paper's resolution (one month, zero_band=100/31) as a match, two as close."""
    assert value_row("p", "T", "q", "c", 0.0, 100 / 31, "%")["verdict"] == "differs"
    r = value_row("p", "T", "q", "c", 0.0, 100 / 31, "%", zero_band=100 / 31)
    assert r["verdict"] == "match" and r["tolerance"] == pytest.approx(100 / 31)
    assert value_row("p", "T", "q", "c", 0.0, 200 / 31, "%", zero_band=100 / 31)["verdict"] == "close"
    assert value_row("p", "T", "q", "c", 10.0, 11.0, "%", zero_band=5.0)["tolerance"] == 0.15
    scorecard_frame([r])   # the frame checker recomputes the same verdict


def test_a_row_capped_at_close_never_matches():
    """at_most_close: a value that would match is close (check 'at most close', reason in the
    note); a differing value still differs; the frame checker rejects a capped row marked match."""
    r = value_row("p", "T", "q", "c", 0.15, 0.15, at_most_close="not in the paper's tables")
    assert (r["verdict"], r["check"]) == ("close", S.AT_MOST_CLOSE)
    assert r["note"] == "at most close: not in the paper's tables"
    r2 = value_row("p", "T", "q", "c", 0.15, 0.15, at_most_close="x", not_run_reason="needs download")
    assert r2["verdict"] == "not_run" and r2["note"].startswith("needs download")
    assert value_row("p", "T", "q", "c", 0.15, 0.5, at_most_close="x")["verdict"] == "differs"
    assert value_row("p", "T", "q", "c", 0.15, 0.15)["verdict"] == "match"
    df = pd.DataFrame([r | {"verdict": "match"}], columns=S.COLUMNS)
    assert any("numbers give close" in p for p in S.inconsistent_rows(df))


def test_default_tolerance_is_15_percent():
    assert value_row("p", "T", "q", "c", 100.0, 114.0)["verdict"] == "match"
    assert value_row("p", "T", "q", "c", 100.0, 116.0)["verdict"] == "close"
    assert S.DEFAULT_TOLERANCE == 0.15


def test_missing_reproduced_value_fails_unless_a_listed_reason():
    r = value_row("p", "T", "q", "c", 10.0, None)
    assert r["verdict"] == "fails" and "no reproduced value" in r["note"]
    r = value_row("p", "T", "q", "c", 10.0, math.nan, not_run_reason="needs download")
    assert r["verdict"] == "not_run" and r["note"].startswith("needs download")
    with pytest.raises(ValueError, match="not one of"):
        value_row("p", "T", "q", "c", 10.0, None, not_run_reason="for CPU")
    with pytest.raises(ValueError, match="needs a published number"):
        value_row("p", "T", "q", "c", None, 1.0)


def test_claim_rules():
    assert claim_row("p", "T", "q", "c", True)["verdict"] == "holds"
    assert claim_row("p", "T", "q", "c", False)["verdict"] == "fails"
    r = claim_row("p", "T", "q", "c", None)
    assert r["verdict"] == "fails" and "could not be checked" in r["note"]
    r = claim_row("p", "T", "q", "c", None, not_run_reason="data unavailable offline")
    assert r["verdict"] == "not_run"
    with pytest.raises(ValueError):
        claim_row("p", "T", "q", "c", None, not_run_reason="slow")
    # A sign disagreement is never `holds`.
    r = claim_row("p", "T", "q", "c", True, published=0.05, reproduced=-0.3)
    assert r["verdict"] == "fails" and "opposite signs" in r["note"]
    assert claim_row("p", "T", "q", "c", True, published=0.05, reproduced=0.3)["verdict"] == "holds"


def test_tolerance_for():
    assert tolerance_for(None, "Table 2") == 0.15
    assert tolerance_for(0.1, "Table 2") == 0.1
    spec = {"default": 0.2, "Table 3": 0.05, "Table 3 (SP2)": 0.07}
    assert tolerance_for(spec, "Table 2") == 0.2
    assert tolerance_for(spec, "Table 3 (BGP)") == 0.05
    assert tolerance_for(spec, "Table 3 (SP2)") == 0.07
    assert tolerance_for({"Table 3": 0.05}, "Table 9") == 0.15


def test_claim_check_registry_and_coverage():
    @S.claim_check("unit-test-paper")
    def bigger(a: float, b: float) -> bool:
        return a > b

    cases = [(bigger, bigger(2, 1)), (bigger, bigger(1, 2))]
    assert S.uncovered_checks("unit-test-paper", cases) == []
    assert S.uncovered_checks("unit-test-paper", cases[:1]) == ["bigger: never False"]
    assert S.uncovered_checks("unit-test-paper", []) == ["bigger: never False",
                                                         "bigger: never True"]
    assert claim_row("p", "T", "q", "c", True, check=bigger)["check"] == "bigger"
    del S.CLAIM_CHECKS["unit-test-paper"]


def test_summary_headlines_and_order():
    sc = scorecard_frame([
        claim_row("a", "T", "q1", "c", None, not_run_reason="needs download", headline=True),
        value_row("a", "T", "q2", "c", 1.0, 1.0, headline=True),
        value_row("a", "T", "q3", "c", 1.0, 5.0),
        claim_row("b", "T", "q4", "c", False, headline=True),
    ])
    s = S.verdict_summary(sc)
    assert list(s.index) == ["a", "b"]
    assert s.loc["a", "match"] == 1 and s.loc["a", "differs"] == 1 and s.loc["a", "not_run"] == 1
    assert s.loc["b", "fails"] == 1 and s.loc["a", "rows"] == 3
    h = S.headlines(sc)
    assert list(h["quantity"]) == ["q2", "q1", "q4"]   # not_run last within its paper
    assert h["headline"].all()


def test_no_headline_row_gives_no_headlines():
    """A scorecard without a headline row (a study's, a new paper's) has an empty headline list,
    not an error from ordering no rows."""
    sc = scorecard_frame([value_row("a", "T", "q", "c", 1.0, 1.0)])
    h = S.headlines(sc)
    assert h.empty and list(h.columns) == list(sc.columns)


def test_frame_types_and_unknown_verdict():
    sc = scorecard_frame([value_row("a", "T", "q", "c", 1.0, 1.0)])
    assert list(sc.columns) == S.COLUMNS
    assert sc["headline"].dtype == bool and sc["tolerance"].dtype == "float64"
    with pytest.raises(ValueError, match="unknown scorecard verdicts"):
        scorecard_frame([value_row("a", "T", "q", "c", 1.0, 1.0) | {"verdict": "ok"}])
    assert isinstance(sc, pd.DataFrame)


def test_model_claim_checks_both_ways():
    """The chapter-3 model claims of the Cirne thesis (schedlab.models.compare)."""
    from schedlab.models import compare as C

    cases = [
        (C.accuracy_tracks_runtime, C.accuracy_tracks_runtime(0.4, 0.1)),
        (C.accuracy_tracks_runtime, C.accuracy_tracks_runtime(0.1, 0.4)),
        (C.power_of_two_dominates, C.power_of_two_dominates(0.8)),
        (C.power_of_two_dominates, C.power_of_two_dominates(0.3)),
        (C.uncommon_day_excluded, C.uncommon_day_excluded("1999-01-02", ["1999-01-02"])),
        (C.uncommon_day_excluded, C.uncommon_day_excluded("1999-01-02", ["1999-03-04"])),
    ]
    assert [e for _, e in cases] == [True, False, True, False, True, False]
    names = {"accuracy_tracks_runtime", "power_of_two_dominates", "uncommon_day_excluded"}
    missing = [m for m in S.uncovered_checks("cirne2001", cases) if m.split(":")[0] in names]
    assert missing == []
    assert C.accuracy_tracks_runtime(None, 0.1) is None


@pytest.mark.parametrize(("override", "message"), [
    ({"verdict": "match"}, "but the numbers give differs"),       # a looser tolerance than stated
    ({"tolerance": 0.5}, "but the numbers give match"),            # the stated tolerance is used
    ({"verdict": "not_run"}, "without a listed reason"),
])
def test_frame_rejects_rows_that_break_the_rules(override, message):
    row = value_row("a", "T", "q", "c", 100.0, 140.0)    # differs at 15%
    assert row["verdict"] == "differs"
    with pytest.raises(ValueError, match=message):
        scorecard_frame([row | override])


def test_frame_rejects_holds_with_opposite_signs():
    row = claim_row("a", "T", "q", "c", False, published=0.2, reproduced=-0.1)
    with pytest.raises(ValueError, match="opposite signs"):
        scorecard_frame([row | {"verdict": "holds"}])
    assert len(scorecard_frame([row])) == 1


def test_our_checks_are_counted_apart_from_the_papers_rows():
    from schedlab.report.claims import coverage, parse_inventory
    from schedlab.report.why import why_counts
    sc = scorecard_frame([
        value_row("a", "T", "q1", "c", 1.0, 1.0),
        claim_row("a", S.our_check("T"), "CI within ±0.03", "c", False),
        claim_row("a", "T", "q2", "c", False),
        value_row("b", "T", "q3", "c", 1.0, 5.0),
    ])
    assert list(S.is_our_check(sc)) == [False, True, False, False]
    s = S.verdict_summary(sc)
    assert list(s.index) == ["a", "a (our checks)", "b"]
    assert s.loc["a", "fails"] == 1 and s.loc["a (our checks)", "fails"] == 1
    assert s.loc["a", "rows"] == 2
    w = why_counts(sc)
    assert list(w.index) == list(s.index) and w.loc["a (our checks)", "deviating"] == 1
    # the paper's inventory neither needs nor may claim our own checks
    inv = parse_inventory("id\tlocation\tline\tquote\trow\treason\n"
                          "x\t§1\t1\tq two fails\tT | q2\t\n", "inv.tsv")
    assert coverage("a", inv, sc).unlisted == []
    assert coverage("a", [], sc).unlisted == ["T | q2"]
