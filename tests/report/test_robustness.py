"""The robustness matrix (docs/robustness.md): claim rows only, one cell per claim and log, the
paper's own log marked, the per-claim counts and readings (each made to come out every way), and a
new registry log getting its column from its scorecard alone."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from robustness_cards import P, card, cards

from schedlab.errors import ConfigError
from schedlab.io import read_parquet, write_parquet
from schedlab.report import robustness as R
from schedlab.report.scorecard import claim_row, scorecard_frame


def test_claim_key_names_the_row_as_the_inventories_do():
    assert R.claim_key("Table 3", "EASY < CONS") == "Table 3 | EASY < CONS"
    assert R.claim_key("Table 3", "EASY < CONS", "SP2") == "Table 3 | EASY < CONS | SP2"
    assert R.claim_key("Fig 2", "q", "CTC-SP2-1996-3.1-cln, 8 processors", ["CTC-SP2-1996-3.1-cln"]) \
        == "Fig 2 | q | <log>, 8 processors"


def test_a_condition_naming_the_log_is_one_claim_across_logs():
    """Schroeder's conditions begin with the log's registry name: the same claim on two logs is
    one row of the heatmap, not two half-empty ones."""
    def named(log: str) -> pd.DataFrame:
        return scorecard_frame([claim_row(P, "Fig 2", "Random worst", f"{log}, 2 hosts", True)])

    m = R.build_matrix([R.Card(P, "A+B", True, named("A-1"), ("A-1", "B-1")),
                        R.Card(P, "HPC2N", False, named("HPC2N"))])
    assert list(m["claim"]) == ["Fig 2 | Random worst | <log>, 2 hosts"] * 2
    assert R.size(m) == (1, 2)


TALBY_NAMES = {"BLUE": "SDSC-BLUE-2000-4.2-cln", "KTH": "KTH-SP2-1996-2.1-cln"}


def _per_log(cells: dict[str, bool | None], extra: tuple[tuple[str, bool], ...] = ()
             ) -> pd.DataFrame:
    return scorecard_frame([claim_row(P, "§2.3", "catastrophic month", c, v)
                            for c, v in cells.items()]
                           + [claim_row(P, "Table 2", q, "every log", v) for q, v in extra])


def test_a_claim_on_each_of_the_papers_logs_lines_up_with_the_studied_log():
    """Talby names its logs KTH and BLUE (the contract's log_names): each per-log claim is that
    log's own cell under one key, and the study's row naming its registry log is the same claim;
    a claim naming no log stays in the joined column. BLUE inside SDSC-BLUE-... is not a name."""
    own = R.Card(P, "SDSC-BLUE-2000-4.2-cln+KTH-SP2-1996-2.1-cln", True,
                 _per_log({"BLUE": True, "KTH": False}, (("q", True),)), TALBY_NAMES)
    study = R.Card(P, "HPC2N-2002-2.2-cln", False,
                   _per_log({"HPC2N-2002-2.2-cln": True}, (("q", False),)))
    m = R.build_matrix([own, study])
    key = "§2.3 | catastrophic month | <log>"
    cells = m[m["claim"] == key].set_index("log")["verdict"].to_dict()
    assert cells == {"SDSC-BLUE-2000-4.2-cln": "holds", "KTH-SP2-1996-2.1-cln": "fails",
                     "HPC2N-2002-2.2-cln": "holds"}
    assert list(m.loc[m["claim"] == "Table 2 | q | every log", "log"]) == \
        ["SDSC-BLUE-2000-4.2-cln+KTH-SP2-1996-2.1-cln", "HPC2N-2002-2.2-cln"]
    assert R.claim_key("§2.3", "q", "SDSC-BLUE-2000-4.2-cln", TALBY_NAMES) == \
        "§2.3 | q | SDSC-BLUE-2000-4.2-cln"
    assert R.named_logs("KTH and BLUE", TALBY_NAMES) == list(TALBY_NAMES.values())[::-1]
    c = R.claim_counts(m).set_index("claim").loc[key]
    assert (c["own"], c["reading"]) == ("fails", "elsewhere only")


@pytest.mark.parametrize(("verdicts", "checked", "expected"), [
    (["holds", "holds"], [True, True], "holds"),
    (["holds", "fails"], [True, True], "fails"),
    (["holds", "fails"], [True, False], "holds"),
    (["not_run", "fails"], [False, False], "not_run"),
    ([], [], ""),
])
def test_own_reading_of_several_own_cells(verdicts, checked, expected):
    own = pd.DataFrame({"verdict": verdicts, "checked": checked})
    assert R.own_reading(own) == expected


def test_claim_rows_leave_out_value_rows_and_our_checks():
    c = R.claim_rows(card({"a": True, "b": False}))
    assert list(c["quantity"]) == ["a", "b"]
    assert c["tolerance"].isna().all()


@pytest.mark.parametrize(("verdict", "note", "checked"), [
    ("holds", "", True), ("fails", "", True), ("fails", "could not be checked: a quantity is "
                                                        "missing", False),
    ("not_run", "needs download", False)])
def test_a_cell_is_checked_only_when_the_claim_was_tested(verdict, note, checked):
    assert R.is_checked(verdict, note) is checked


def test_card_rows_keep_the_scorecards_verdict_value_and_note():
    m = R.card_rows(R.Card(P, "KTH", False, card({"a": True, "b": None})))
    assert list(m.columns) == R.COLUMNS
    assert list(m["verdict"]) == ["holds", "fails"]
    assert list(m["checked"]) == [True, False]
    assert m["value"].iloc[0] == 1.0 and math.isnan(m["value"].iloc[1])
    assert m["note"].iloc[1].startswith("could not be checked")
    assert set(m["log"]) == {"KTH"} and not m["own_log"].any()


def test_card_rows_ignore_another_papers_rows():
    sc = pd.concat([card({"a": True}), card({"z": True}, paper="tang2013")], ignore_index=True)
    assert list(R.card_rows(R.Card(P, "KTH", False, sc))["claim"]) == ["§4 | a | all logs"]


def test_matrix_orders_papers_claims_and_logs_own_first():
    m = R.build_matrix([R.Card(P, "ZZZ", False, card({"b": True, "a": True})),
                        R.Card(P, "AAA", False, card({"a": False})),
                        R.Card(P, "SDSC-SP2", True, card({"a": True, "b": True})),
                        R.Card("schroeder2004", "SDSC-SP2", True, card({"x": True},
                                                                       "schroeder2004"))])
    assert list(dict.fromkeys(m["paper"])) == ["schroeder2004", P]
    t = m[m["paper"] == P]
    assert list(dict.fromkeys(t["claim"])) == ["§4 | a | all logs", "§4 | b | all logs"]
    assert list(t.loc[t["claim"] == "§4 | a | all logs", "log"]) == ["SDSC-SP2", "AAA", "ZZZ"]
    assert R.size(m) == (3, 3)   # 3 claims; own log, AAA, ZZZ (the two papers share SDSC-SP2)


def test_a_claim_twice_on_one_log_is_an_error():
    twice = card({"a": True}, extra=[claim_row(P, "§4", "a", "all logs", False)])
    with pytest.raises(ConfigError, match="claim '§4 \\| a \\| all logs' has 2 rows"):
        R.build_matrix([R.Card(P, "KTH", False, twice)])


@pytest.mark.parametrize(("own", "studies", "expected"), [
    ("holds", ["holds", "holds"], "general"),
    ("holds", ["holds", "fails"], "mixed"),
    ("holds", ["fails", "fails"], "own log only"),
    ("holds", [], "not checked elsewhere"),
    ("fails", ["holds", "fails"], "elsewhere only"),
    (None, ["holds"], "elsewhere only"),
    ("fails", ["fails", "fails"], "fails everywhere"),
    ("fails", [], "not on own log"),
    ("not_run", ["fails"], "not on own log"),
    (None, [], "not on own log"),
])
def test_reading(own, studies, expected):
    assert R.reading(own, studies) == expected


def test_counts_hold_on_and_reading_per_claim():
    m = R.build_matrix(cards({"a": True, "b": True, "c": True, "d": False},
                             {"KTH": {"a": True, "b": True, "c": None, "d": True},
                              "CTC": {"a": True, "b": False, "c": None, "d": True}}))
    c = R.claim_counts(m).set_index("claim")
    a, b, cc, d = (c.loc[f"§4 | {q} | all logs"] for q in "abcd")
    assert (a["holds_on"], a["reading"]) == ("2/2", "general")
    assert (b["holds_on"], b["reading"]) == ("1/2", "mixed")
    # not checkable on either log: counted as unchecked, not as failing
    assert (cc["logs"], cc["checked"], cc["holds_on"], cc["reading"]) == \
        (2, 0, "0/0", "not checked elsewhere")
    assert (d["own"], d["reading"]) == ("fails", "elsewhere only")


def test_aggregation_reads_a_verdict_changed_on_one_log():
    """A claim general on two logs stops being general when one log's verdict turns to fails:
    the counts read the verdicts, not a fixed answer."""
    m = R.build_matrix(cards({"a": True}, {"KTH": {"a": True}, "CTC": {"a": True}}))
    assert R.claim_counts(m)["reading"].tolist() == ["general"]
    broken = m.copy()
    broken.loc[broken["log"] == "CTC", "verdict"] = "fails"
    c = R.claim_counts(broken).iloc[0]
    assert (c["holds"], c["holds_on"], c["reading"]) == (1, "1/2", "mixed")


def test_wide_has_one_column_per_log_and_blank_where_a_log_has_no_row():
    m = R.build_matrix(cards({"a": True, "b": True}, {"KTH": {"a": False}}))
    w = R.wide(m)
    assert list(w.columns) == [("SDSC-SP2", True), ("KTH", False)]
    assert w.loc[(P, "§4 | a | all logs"), ("KTH", False)] == "fails"
    assert w.loc[(P, "§4 | b | all logs"), ("KTH", False)] == ""


def test_select_by_paper_and_log_keeps_the_own_column():
    m = R.build_matrix(cards({"a": True}, {"KTH": {"a": True}, "CTC": {"a": False}}))
    s = R.select(m, [P], ["KTH"])
    assert set(zip(s["log"], s["own_log"], strict=True)) == {("SDSC-SP2", True), ("KTH", False)}
    assert R.select(m, ["tang2013"]).empty


@pytest.mark.parametrize(("papers", "logs", "message"), [
    (["talby"], [], "unknown paper 'talby'; known: schroeder2004"),
    ([], ["NOPE"], "log 'NOPE' is not in the robustness matrix; it has: CTC, KTH, SDSC-SP2"),
])
def test_select_refuses_unknown_names_in_one_line(papers, logs, message):
    m = R.build_matrix(cards({"a": True}, {"KTH": {"a": True}, "CTC": {"a": False}}))
    with pytest.raises(ConfigError, match=message) as e:
        R.select(m, papers, logs)
    assert "\n" not in str(e.value)


def test_matrix_inputs_list_own_scorecards_and_each_study_pair_of_a_paper_run():
    files = R.matrix_inputs([("HPC2N", P), ("HPC2N", "cirne2001"), ("New", P)], [P, "tang2013"])
    assert files["own"] == [f"results/{P}/scorecard.parquet", "results/tang2013/scorecard.parquet"]
    assert files["studies"] == [f"results/studies/HPC2N/{P}/done.json",
                                f"results/studies/New/{P}/done.json"]
    assert R.matrix_inputs([("L", P)], [P], study_file="scorecard.parquet")["studies"] == \
        [f"results/studies/L/{P}/scorecard.parquet"]


def test_a_new_registry_log_gets_its_column_from_its_scorecard_alone(tmp_path):
    """A scratch results tree: the paper's own scorecard, a study on a registry log, and a log
    added by one registry entry whose study wrote its scorecard: the new log is a column of the
    matrix with its verdicts; a study without a scorecard is listed, not an error."""
    write_parquet(tmp_path / P / "scorecard.parquet", card({"a": True, "b": True}))
    for log, h in {"HPC2N-2002-2.2-cln": {"a": True, "b": False},
                   "MySite-2024-1": {"a": False, "b": True}}.items():
        write_parquet(tmp_path / "studies" / log / P / "scorecard.parquet", card(h))
    (tmp_path / "studies" / "CTC" / P).mkdir(parents=True)
    pairs = [("HPC2N-2002-2.2-cln", P), ("MySite-2024-1", P), ("CTC", P), ("MySite-2024-1", "x")]
    found, missing = R.collect(tmp_path, pairs, {P: ["SDSC-SP2-1998-4.2-cln", "KTH-SP2-1996-2.1-cln"]})
    m = R.build_matrix(found)
    assert missing == [f"CTC/{P}"]
    assert R.log_columns(m) == [("SDSC-SP2-1998-4.2-cln+KTH-SP2-1996-2.1-cln", True),
                                ("HPC2N-2002-2.2-cln", False), ("MySite-2024-1", False)]
    w = R.wide(m)
    assert list(w[("MySite-2024-1", False)]) == ["fails", "holds"]
    assert R.size(m) == (2, 3)
    write_parquet(tmp_path / "robustness.parquet", m)
    pd.testing.assert_frame_equal(read_parquet(tmp_path / "robustness.parquet")[0], m)
