"""Schroeder & Harchol-Balter (2004): the readings behind deviating rows (service order, M/G/h
factor) by lookup, and the C90-number rows marked ``data`` when no reading explains them."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.papers.schroeder2004.causes import c90_gaps, other_factor, readings
from schedlab.report.attribution import attribute_rows
from schedlab.report.scorecard import claim_row, scorecard_frame

P = "schroeder2004"


def row(item, quantity, holds, rep, order="shuffled", note=""):
    return claim_row(P, item, quantity, f"CTC; service order {order}", holds, reproduced=rep,
                     note=note)


def test_a_reading_explains_a_failing_claim_only_when_the_claim_holds_under_it():
    rows = [row("Fig 2", "SITA-E beats LWL", False, 0.9),
            row("Fig 3", "LWL beats SITA-E at low load", False, 0.8),
            row("Fig 8", "analysis agrees with simulation (LWL by M/G/h with factor (1+C²)/2)",
                False, 1.4, note="policies Random, Least-Work-Left, SITA-E")]
    trace = [row("Fig 2", "SITA-E beats LWL", True, 2.1, "trace"),
             row("Fig 3", "LWL beats SITA-E at low load", False, 0.7, "trace")]
    mgh = [row("Fig 8", "analysis agrees with simulation (LWL by M/G/h with factor "
                        "E[X²]/E[X]²)", False, 1.9, note="policies Random, Least-Work-Left")]
    frame = readings(rows, {"trace": trace}, mgh, "M/G/h factor E[X²]/E[X]²")
    out = {r["item"]: r for r in attribute_rows(rows, frame)}
    assert out["Fig 2"]["explained"] == "explained" and "trace order" in out["Fig 2"]["evidence"]
    assert out["Fig 3"]["explained"] == "unexplained"
    assert "trace order" in out["Fig 3"]["evidence"] and "fails" in out["Fig 3"]["evidence"]
    assert out["Fig 8"]["explained"] == "unexplained"
    assert "E[X²]/E[X]²" in out["Fig 8"]["evidence"]
    scorecard_frame(out.values())


def test_c90_rows_no_reading_explains_are_data():
    rows = [row("§1.4", "SITA-U-fair improves ... by more than an order of magnitude", False, 0.3),
            row("§4.2 / Fig 4", "ranges from 4 to 10", True, 4.0),
            row("Fig 2", "SITA-E beats LWL", False, 0.9)]
    out = c90_gaps(rows, "CTC", 5.4)
    assert out[0]["explained"] == "data" and "C90" in out[0]["evidence"]
    assert out[1]["explained"] == "" and out[2]["cause"] == "not yet attributed"
    scorecard_frame(out)


@pytest.mark.parametrize(("slowdown", "offset"), [("response", 1.0), ("wait", 0.0)])
def test_the_printed_mgh_factor_doubles_lwls_wait(slowdown, offset):
    a = pd.DataFrame({"policy": ["Least-Work-Left", "Random"], "mean_wait": [100.0, 300.0],
                      "mean_slowdown": [offset + 5.0, 9.0], "mean_response": [1100.0, 1300.0]})
    paper = other_factor(a, slowdown, "standard")
    assert list(paper["mean_wait"]) == [200.0, 300.0]
    assert list(paper["mean_slowdown"]) == [offset + 10.0, 9.0]
    assert list(paper["mean_response"]) == [1200.0, 1300.0]
    back = other_factor(paper, slowdown, "paper")
    pd.testing.assert_frame_equal(back, a)


def test_rows_no_reading_was_tried_on_name_what_would_test_them():
    from schedlab.papers.schroeder2004.causes import untried
    from schedlab.report.scorecard import value_row
    rows = [value_row(P, "Table 1", "min_service", "CTC IBM-SP2", 1, 2, tolerance=0.01),
            row("Fig 7", "SITA-U beats LWL at load 0.6-0.9", False, 0.8),
            row("Fig 2", "Random highest", True, 1.8)]
    out = untried(rows)
    assert out[0]["explained"] == "data" and "log version" in out[0]["cause"]
    assert out[1]["explained"] == "unexplained" and out[1]["evidence"].startswith("not tried: ")
    assert "12-hour limit" in out[1]["evidence"] and out[2] == rows[2]
    scorecard_frame(out)


def test_the_causes_name_the_workloads_log_not_ctc_on_a_study():
    """On a study log the causes name that log, its C² and the study's way to the untried run;
    on the paper's own log they read as before (CTC, C² 5.4, smaller gains)."""
    from schedlab.papers.schroeder2004.causes import log_label, untried
    assert log_label("CTC-SP2-1996-3.1-cln") == "CTC" and log_label("HPC2N-2002-2.2-cln") == "HPC2N"
    c90 = [row("§4.2 / Fig 4", "ranges from 4 to 10", False, 2.0)]
    own = c90_gaps(c90, "CTC", 5.42)[0]["cause"]
    assert "the CTC log's 8-processor jobs (C² 5.4), whose gains are smaller" in own
    study = c90_gaps(c90, "HPC2N", 3.72)[0]["cause"]
    assert "HPC2N log's" in study and "C² 3.7" in study and "CTC" not in study
    assert "smaller" not in c90_gaps(c90, "X", 60.0)[0]["cause"]
    fig7 = [row("Fig 7", "SITA-U beats LWL at load 0.6-0.9", False, 0.8)]
    out = untried(fig7, "HPC2N", study=True)[0]
    assert "HPC2N" in out["cause"] and "CTC" not in out["cause"] + out["evidence"]
    assert "studies: {schroeder2004" in out["evidence"]
    assert "--config 'papers=" in untried(fig7)[0]["evidence"]
    trace = [row("Fig 2", "SITA-E beats LWL", True, 2.1, "trace")]
    frame = readings([row("Fig 2", "SITA-E beats LWL", False, 0.9)], {"trace": trace}, [], "",
                     "HPC2N")
    assert set(frame["cause"]) == {"the paper's Poisson runs are read as i.i.d. service times "
                                   "(Theorem 1's assumption); the trace order keeps HPC2N's "
                                   "serial correlation"}
