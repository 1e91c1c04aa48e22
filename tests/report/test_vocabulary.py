"""The papers' words as tests (schedlab.report.vocabulary): every phrase function fails, holds and
is tested at its threshold, and carries the phrase and the threshold's source."""

from __future__ import annotations

import math

import pytest

from schedlab.report import vocabulary as V
from schedlab.report.scorecard import DEFAULT_TOLERANCE


@pytest.mark.parametrize(("result", "expected"), [
    (V.similar(100.0, 115.0), True),            # at the threshold 1.15
    (V.similar(115.0, 100.0), True),            # symmetric
    (V.similar(100.0, 115.01), False),          # just past it
    (V.similar(9.0, 9.9), True),                # Talby's "similar" Flex gains
    (V.similar(-1.0, 1.0), False),              # opposite signs
    (V.similar(0.0, 0.0), True),
    (V.similar(None, 1.0), None),
    (V.slightly(110.0, 100.0), True),           # slightly above
    (V.slightly(115.0, 100.0), True),           # at the threshold
    (V.slightly(115.01, 100.0), False),         # more than slightly
    (V.slightly(100.0, 100.0), False),          # no difference is not "slightly worse"
    (V.slightly(95.0, 100.0), False),           # the wrong direction
    (V.slightly(95.0, 100.0, above=False), True),
    (V.slightly(math.nan, 100.0), None),
    (V.significantly(130.0, 100.0), True),      # at the threshold 1.30
    (V.significantly(129.99, 100.0), False),
    (V.significantly(40.0, 100.0, above=False), True),
    (V.significantly(40.0, 100.0), False),      # the wrong direction
    (V.significantly(-5.0, 100.0, above=False), False),  # opposite signs
    (V.significantly(1.0, None), None),
    (V.about(34.0, 40.0), True),                # at the band: 15% of 40 = 6
    (V.about(33.9, 40.0), False),
    (V.about(46.0, 40.0), True),
    (V.about(0.1, 0.0), True),                  # N = 0: absolute band
    (V.about(0.2, 0.0), False),
    (V.about(None, 40.0), None),
    (V.less_than(14.9, 15.0), True),
    (V.less_than(15.0, 15.0), False),           # strict at the paper's bound
    (V.less_than(None, 15.0), None),
    (V.within(110.0, 100.0, 10), True),         # at the paper's 10%
    (V.within(110.01, 100.0, 10), False),
    (V.within(1.0, 0.0, 10), None),
    (V.up_to([3.0, 12.75, 15.0], 15.0), True),
    (V.up_to([3.0, 12.75], 15.0), True),        # at the band: 15% below 15
    (V.up_to([3.0, 12.7], 15.0), False),        # the effect is smaller
    (V.up_to([3.0, 30.0], 15.0), False),        # the paper understated it
    (V.up_to([math.nan], 15.0), None),
    (V.in_all({"BF": True, "1/L": True}), True),
    (V.in_all({"BF": True, "1/L": False}), False),
    (V.in_all({"BF": True, "1/L": None}), None),   # a case not checked: no verdict
    (V.in_all([]), None),
    (V.for_most([True, True, False]), True),
    (V.for_most([True, False]), False),         # at the threshold: a half is not most
    (V.for_most([True, False, None]), False),
    (V.for_most([None]), None),
    (V.times(46.0, 10.0, 4.0), True),           # at the band: 4 x 1.15 = 4.6
    (V.times(49.0, 10.0, 4.0), False),          # Tang Table 2: 4.9 is not "four times"
    (V.times(49.0, 10.0, 5.0), True),
    (V.times(1.0, 0.0, 4.0), None),
    (V.increases_as([1, 2, 3, 4], [1.0, 3.0, 2.0, 4.0]), True),   # rho 0.8: a trend, not strict
    (V.increases_as([1, 2, 3, 4], [4.0, 3.0, 2.0, 1.0]), False),
    (V.increases_as([1, 2, 3, 4], [4.0, 3.0, 2.0, 1.0], decreasing=True), True),
    (V.increases_as([1, 2, 3, 4, 5], [2.0, 1.0, 3.0, 5.0, 4.0]), True),  # rho 0.8
    (V.increases_as([1, 2, 3, 4], [2.0, 1.0, 3.0, 2.5]), True),   # rho exactly 0.6
    (V.increases_as([1, 2, 3, 4], [1.0, 1.0, 1.0, 1.0]), None),   # no spread: no trend
    (V.increases_as([1], [1.0]), None),
])
def test_each_phrase_fails_holds_and_sits_at_its_threshold(result, expected):
    assert result.holds is expected, result.detail


def test_increases_as_at_the_threshold():
    # Spearman of (1,2,3,4) with ranks (2,1,4,3): rho = 0.6; (3,1,2,4): rho = 0.4
    assert V.increases_as([1, 2, 3, 4], [2.0, 1.0, 4.0, 3.0]).holds is True
    assert V.increases_as([1, 2, 3, 4], [3.0, 1.0, 2.0, 4.0]).holds is False
    # exactly 0.5 holds: x = 1..5 against ranks with d^2 = 10 -> rho = 1 - 60/120 = 0.5
    r = V.increases_as([1, 2, 3, 4, 5], [1.0, 4.0, 2.0, 5.0, 3.0])
    assert math.isclose(V._spearman([1, 2, 3, 4, 5], [1, 4, 2, 5, 3]), 0.5)
    assert r.holds is True
    r = V.increases_as([1, 2, 3, 4, 5], [3.0, 1.0, 2.0, 5.0, 4.0])  # rho 0.6
    assert r.holds is True


def test_every_check_names_its_phrase_and_threshold_source():
    checks = [V.similar(1.0, 1.0), V.slightly(2.0, 1.9), V.significantly(3.0, 1.0),
              V.about(1.0, 1.0), V.less_than(1.0, 2.0), V.within(1.0, 1.0, 10),
              V.up_to([1.0], 1.0), V.in_all([True]), V.for_most([True]), V.times(2.0, 1.0, 2.0),
              V.increases_as([1, 2], [1.0, 2.0])]
    assert [c.phrase for c in checks] == list(V.PHRASES)
    for c in checks:
        assert c.source == V.PHRASES[c.phrase].source
        assert c.detail.startswith(f"'{V.PHRASES[c.phrase].words[0]}' ({c.source} threshold)")
    assert V.less_than(1.0, 15.0).threshold == 15.0 and V.less_than(1.0, 15.0).source == "paper"
    assert V.within(1.0, 1.0, 10).threshold == 10 and V.similar(1, 1).threshold == 1.15


def test_one_table_of_thresholds():
    assert set(V.TESTS) == set(V.PHRASES)
    assert V.TOLERANCE == DEFAULT_TOLERANCE
    assert {p.source for p in V.PHRASES.values()} <= set(V.SOURCES)
    with pytest.raises(TypeError):
        V.PHRASES["similar"] = V.PHRASES["about"]  # frozen
    with pytest.raises(AttributeError):
        V.PHRASES["similar"].threshold = 2.0  # type: ignore[misc]
    rows = V.phrase_table()
    assert [r["phrase"] for r in rows] == list(V.PHRASES)
    assert all(r["rationale"] and r["test"] for r in rows)


def test_docs_table_lists_every_phrase_with_its_threshold(repo):
    text = (repo / "docs" / "scorecard.md").read_text()
    for r in V.phrase_table():
        line = next((ln for ln in text.splitlines() if ln.startswith(f"| `{r['phrase']}` |")), None)
        assert line, f"docs/scorecard.md lacks the phrase {r['phrase']}"
        assert f"| {r['threshold'] or '–'} | {r['source']} |" in line, line


def test_in_all_of_names_the_cases_phrase_and_its_source():
    """"In all algorithms, ... slightly decreases": every case's own test must hold; the row names
    the cases' phrase and its threshold source."""
    ok = V.in_all_of({"BF": V.slightly(9.5, 10.0, above=False),
                      "1/L": V.slightly(9.0, 10.0, above=False)})
    assert (ok.phrase, ok.holds, ok.source) == ("slightly", True, "ours")
    bad = V.in_all_of({"BF": V.slightly(9.5, 10.0, above=False),
                       "1/L": V.slightly(8.0, 10.0, above=False)})
    assert bad.holds is False and "1/L" in bad.detail
    paper = V.in_all_of({"BF": V.less_than(19_000, 20_000), "R": V.less_than(21_000, 20_000)})
    assert (paper.phrase, paper.holds, paper.source, paper.threshold) == \
        ("less_than", False, "paper", 20_000)
    assert V.in_all_of({}).phrase == "in_all" and V.in_all_of({}).holds is None
    assert V.in_all_of({"BF": V.less_than(1.0, 2.0)}).holds is True
    assert V.in_all_of({"BF": V.less_than(None, 2.0)}).holds is None
    with pytest.raises(ValueError, match="several phrases"):
        V.in_all_of({"a": V.similar(1.0, 1.0), "b": V.slightly(1.1, 1.0)})


def test_all_of_holds_only_when_every_part_holds():
    drop, stays = V.significantly(40.0, 100.0, above=False), V.similar(38.0, 40.0)
    both = V.all_of(drop, stays)
    assert both.holds is True and both.phrase == "significantly" and both.source == "ours"
    assert stays.detail in both.detail
    assert V.all_of(drop, V.similar(20.0, 40.0)).holds is False
    assert V.all_of(drop, V.similar(None, 40.0)).holds is None
    assert V.all_of(V.less_than(1.0, 2.0)).source == "paper"
    assert V.all_of(V.less_than(1.0, 2.0), V.similar(1.0, 1.0)).source == "ours"
