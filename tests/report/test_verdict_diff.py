"""Two scorecards side by side (report/verdict_diff.py and ``schedlab scorecard-diff``)."""

from __future__ import annotations

from schedlab.cli.main import main
from schedlab.io import write_parquet
from schedlab.report.scorecard import claim_row, scorecard_frame, value_row
from schedlab.report.verdict_diff import explained_counts, verdict_changes, verdict_counts


def _before():
    return scorecard_frame([
        value_row("p", "Table 1", "wait", "KTH", 100.0, 101.0),          # match
        value_row("p", "Table 1", "wait", "CTC", 100.0, 200.0),          # differs
        claim_row("p", "Sec. 3", "A beats B", "", True),                 # holds
        claim_row("p", "Sec. 3", "dup", "", True),                       # holds (1st of 2)
        claim_row("p", "Sec. 3", "dup", "", False),                      # fails (2nd of 2)
        value_row("p", "Table 2", "gone", "", 1.0, 1.0),
    ])


def _after():
    return scorecard_frame([
        value_row("p", "Table 1", "wait", "KTH", 100.0, 101.0),
        value_row("p", "Table 1", "wait", "CTC", 100.0, 110.0),          # differs -> match
        claim_row("p", "Sec. 3", "A beats B", "", False),                # holds -> fails
        claim_row("p", "Sec. 3", "dup", "", True),
        claim_row("p", "Sec. 3", "dup", "", True),                       # fails -> holds
        value_row("q", "Table 9", "new", "", 1.0, 1.0),
    ])


def test_changes_are_matched_by_key_and_occurrence():
    ch = verdict_changes(_before(), _after()).set_index(["paper", "quantity", "condition"])
    assert ch.loc[("p", "wait", "KTH"), "change"] == "same"
    assert ch.loc[("p", "wait", "CTC"), ["verdict_before", "verdict_after"]].tolist() == [
        "differs", "match"]
    assert ch.loc[("p", "A beats B", ""), "change"] == "changed"
    dup = ch.loc[("p", "dup", "")]
    assert dup["change"].tolist() == ["same", "changed"]
    assert ch.loc[("p", "gone", ""), "change"] == "removed"
    assert ch.loc[("q", "new", ""), "change"] == "added"
    assert len(ch) == 7


def test_counts_before_and_after_per_paper():
    vc = verdict_counts(_before(), _after()).set_index(["paper", "verdict"])
    assert vc.loc[("p", "match"), ["before", "after", "delta"]].tolist() == [2, 2, 0]
    assert vc.loc[("p", "differs"), ["before", "after"]].tolist() == [1, 0]
    assert vc.loc[("p", "fails"), ["before", "after"]].tolist() == [1, 1]
    assert vc.loc[("q", "match"), ["before", "after"]].tolist() == [0, 1]
    ec = explained_counts(_before(), _after()).set_index(["paper", "explained"])
    # deviating rows carry the gap marker (unexplained) when nobody attributed them
    assert ec.loc[("p", "unexplained"), ["before", "after"]].tolist() == [2, 1]


def test_cli_prints_the_diff_and_refuses_a_missing_file(tmp_path, capsys):
    b, a = tmp_path / "b.parquet", tmp_path / "a.parquet"
    write_parquet(b, _before())
    write_parquet(a, _after())
    assert main(["scorecard-diff", str(b), str(a)]) == 0
    out = capsys.readouterr().out
    assert "p | Sec. 3 | A beats B: holds -> fails" in out
    assert "q | Table 9 | new: (new) -> match" in out
    assert "rows whose verdict changed or which one side lacks: 5" in out
    assert main(["scorecard-diff", str(b), str(a), "--paper", "q"]) == 0
    assert "A beats B" not in capsys.readouterr().out
    assert main(["scorecard-diff", str(tmp_path / "none.parquet"), str(a)]) == 2
    assert "none.parquet" in capsys.readouterr().err
