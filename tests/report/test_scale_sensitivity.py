"""The scale-sensitivity table (report/scale_sensitivity.py) and ``schedlab scale-sensitivity`` on
two small hand-made scorecards, every check made to fail on purpose."""

from __future__ import annotations

import pandas as pd
import pytest

import schedlab.report.scale_sensitivity as ss
from schedlab.cli.main import main
from schedlab.io import read_parquet, write_parquet
from schedlab.report.scorecard import claim_row, scorecard_frame, value_row

NEEDS = "needs a larger run"
#: Each paper's settings as its two runs recorded them (the default scale, the paper scale).
SETTINGS_DEFAULT = {
    "p": {"scale": "default", "single_target": {"experiments": 15000, "jobs_per_workload": 1000},
          "loads": [0.1, 0.5], "seed": 7},
    "q": {"scale": "default", "max_jobs": 5000},
}
SETTINGS_PAPER = {
    "p": {"scale": "paper", "single_target": {"experiments": 360000, "jobs_per_workload": 10000},
          "loads": [0.05, 0.1, 0.2, 0.5, 0.9, 0.95], "seed": 7},
    "q": {"scale": "paper", "max_jobs": None, "sweep_seeds": 3},
}


def default_card() -> pd.DataFrame:
    return scorecard_frame([
        value_row("p", "Table 13", "turn-around", "L=1", 1264.0, 883.0, "s"),     # differs
        claim_row("p", "Sec. 5", "SA beats rigid", "", True),                      # holds
        value_row("p", "Table 18", "sign", "", 1.0, None, not_run_reason=NEEDS),  # not_run
        value_row("p", "Table 2", "same", "", 10.0, 10.0),                         # match
        value_row("q", "Fig. 5", "gone at paper scale", "", 2.0, 2.0),             # match
    ])


def paper_card() -> pd.DataFrame:
    return scorecard_frame([
        value_row("p", "Table 13", "turn-around", "L=1", 1264.0, 1204.0, "s"),    # match: flip
        claim_row("p", "Sec. 5", "SA beats rigid", "", False),                     # fails: flip
        value_row("p", "Table 18", "sign", "", 1.0, 3.0),                          # not_run -> differs
        value_row("p", "Table 2", "same", "", 10.0, 10.0),                         # match
        value_row("q", "Fig. 9", "new at paper scale", "", 1.0, 1.0),              # match
    ])


def table() -> pd.DataFrame:
    return ss.scale_sensitivity(default_card(), paper_card(), SETTINGS_DEFAULT, SETTINGS_PAPER)


def row(t: pd.DataFrame, quantity: str) -> dict:
    rows = t[t["quantity"] == quantity].to_dict("records")
    assert len(rows) == 1, rows
    return rows[0]


def check_table(t: pd.DataFrame) -> None:
    """What the table must say of the hand-made scorecards (the checks the mutants must break)."""
    assert list(t.columns) == ss.COLUMNS
    ta = row(t, "turn-around")
    assert (ta["verdict_default"], ta["verdict_paper"], ta["flipped"]) == ("differs", "match", True)
    assert ta["reason"].startswith("differs → match; cause: not attributed; value 883 → 1204 s "
                                   "against published 1264; ")
    assert row(t, "SA beats rigid")["flipped"]
    # a not_run at one scale is listed, never counted as a flip
    sign = row(t, "sign")
    assert (sign["verdict_default"], sign["verdict_paper"]) == ("not_run", "differs")
    assert not sign["flipped"] and "(not_run: not a flip)" in sign["reason"]
    assert not row(t, "same")["flipped"]
    # a row at one scale only: listed with the side it is on, no flip
    gone, new = row(t, "gone at paper scale"), row(t, "new at paper scale")
    assert (gone["present"], gone["flipped"], gone["verdict_paper"]) == ("default only", False, "")
    assert (new["present"], new["flipped"], new["verdict_default"]) == ("paper only", False, "")
    assert gone["reason"].startswith("only at the default scale")
    assert new["reason"].startswith("only at the paper scale")
    # the reason states the paper's settings that differ, from the runs' recorded settings
    assert ta["settings"] == ("loads [0.1, 0.5]→6 values 0.05..0.95, "
                              "single_target.experiments 15000→360000, "
                              "single_target.jobs_per_workload 1000→10000")
    assert ta["reason"].endswith("settings: " + ta["settings"])
    assert new["settings"] == "max_jobs 5000→null, sweep_seeds unset→3"
    # no cause recorded: a flip says so, any other row has none
    assert ta["cause"] == "not attributed" and row(t, "same")["cause"] == ""
    assert "; cause: not attributed; value 883" in ta["reason"]
    counts = ss.flip_counts(t).set_index("paper")
    assert counts.loc["p"].to_dict() == {"rows": 4, "at_both": 4, "flips": 2, "explained": 0,
                                         "not_run_changes": 1, "default_only": 0, "paper_only": 0}
    assert counts.loc["q"].to_dict() == {"rows": 2, "at_both": 0, "flips": 0, "explained": 0,
                                         "not_run_changes": 0, "default_only": 1, "paper_only": 1}
    assert counts.loc["all", "flips"] == 2 and counts.loc["all", "rows"] == 6


def test_the_table_of_two_hand_made_scorecards():
    check_table(table())


def _mutants():
    real_diff = ss.settings_diff
    return {
        # a verdict change involving not_run counted as a flip
        "not_run flips": ("is_flip", lambda a, b: isinstance(a, str) and isinstance(b, str)
                          and a != b and "" not in (a, b)),
        # nothing ever flips
        "no flips": ("is_flip", lambda a, b: False),
        # the settings compared at the top level only (a nested block as a whole)
        "shallow diff": ("settings_diff", lambda a, b, path="": [
            (k, a.get(k, ss.MISSING), b.get(k, ss.MISSING)) for k in sorted({*a, *b})
            if k != "scale" and a.get(k, ss.MISSING) != b.get(k, ss.MISSING)]),
        # the run's own scale name counted as a setting that differs
        "scale compared": ("NOT_COMPARED", ()),
        # the settings diff silently empty
        "no settings": ("settings_diff", lambda a, b, path="": real_diff({}, {})),
    }


@pytest.mark.parametrize("name", list(_mutants()))
def test_every_check_fails_on_a_mutant(monkeypatch, name):
    attr, mutant = _mutants()[name]
    monkeypatch.setattr(ss, attr, mutant)
    with pytest.raises(AssertionError):
        check_table(table())


def test_a_paper_whose_settings_one_run_lacks_says_so():
    t = ss.scale_sensitivity(default_card(), paper_card(), {}, SETTINGS_PAPER)
    assert set(t["settings"]) == {"settings not recorded by both runs"}
    assert row(t, "turn-around")["reason"].endswith("settings not recorded by both runs")


def test_settings_diff_is_deep_and_names_missing_keys():
    d = ss.settings_diff({"scale": "default", "a": {"b": 1, "c": [1, 2]}, "d": 1.0},
                         {"scale": "paper", "a": {"b": 2, "c": [1, 2], "e": None}, "d": 1})
    assert d == [("a.b", 1, 2), ("a.e", ss.MISSING, None)]
    assert ss.diff_text(d) == "a.b 1→2, a.e unset→null"
    assert ss.diff_text(d, 1) == "a.b 1→2 (+1 more)"
    assert ss.diff_text([]) == "no setting differs"


def test_settings_diff_goes_into_lists_of_mappings_of_one_length():
    logs = [{"label": "SP2", "jobs": 5000}, {"label": "BGP", "jobs": 3000}]
    more = [{"label": "SP2", "jobs": 5000}, {"label": "BGP", "jobs": 9300}]
    assert ss.settings_diff({"log_specs": logs}, {"log_specs": more}) == [
        ("log_specs[1].jobs", 3000, 9300)]
    # another length, or items that are not mappings: the list as a whole
    assert ss.settings_diff({"l": logs}, {"l": more[:1]}) == [("l", logs, more[:1])]
    assert ss.settings_diff({"w": [1, 4]}, {"w": [1, 5]}) == [("w", [1, 4], [1, 5])]


def test_report_scorecards_and_the_lead_scale():
    have = {"results/scorecard.parquet"}
    exists = have.__contains__
    assert ss.report_scorecards("paper", exists) == {
        "default": "results/scorecard.parquet", "paper": "results/paper-scale/scorecard.parquet"}
    assert ss.report_scorecards("default", exists) == {"default": "results/scorecard.parquet"}
    assert ss.report_scorecards("quick", lambda f: True) == {"quick": "results/scorecard.parquet"}
    both = ss.report_scorecards("default", lambda f: True)
    assert list(both) == ["default", "paper"] and ss.lead_scale(both) == "paper"
    assert ss.lead_scale(["default"]) == "default" and ss.lead_scale(["quick"]) == "quick"


def write_roots(tmp_path, settings_in_merged: bool = True):
    """Two runs' roots: merged scorecards, and per-paper scorecards recording the settings."""
    d, p = tmp_path / "results", tmp_path / "results" / "paper-scale"
    for root, card, settings in ((d, default_card(), SETTINGS_DEFAULT),
                                 (p, paper_card(), SETTINGS_PAPER)):
        write_parquet(root / "scorecard.parquet", card,
                      {"settings": settings} if settings_in_merged else {})
        for paper, s in settings.items():
            write_parquet(root / paper / "scorecard.parquet", card[card["paper"] == paper],
                          {"settings": s})
    return d, p


@pytest.mark.parametrize("merged", [True, False])
def test_the_runs_settings_are_read_from_the_merged_or_the_papers_scorecards(tmp_path, merged):
    d, p = write_roots(tmp_path, merged)
    check_table(ss.from_roots(d, p))


def test_cli_prints_the_flips_and_writes_the_table(tmp_path, capsys):
    d, p = write_roots(tmp_path)
    out = tmp_path / "sens.parquet"
    none = str(tmp_path / "no-causes.tsv")
    assert main(["scale-sensitivity", str(d), str(p), "--out", str(out), "--causes", none]) == 0
    text = capsys.readouterr().out
    assert "verdict flips between the default and the paper scale: 2" in text
    assert "p | Table 13 | turn-around [L=1]: differs → match; cause: not attributed; value 883 → " \
        "1204 s" in text
    assert "gone at paper scale" not in text  # not a flip
    check_table(read_parquet(out)[0])
    assert main(["scale-sensitivity", str(d), str(p), "--all"]) == 0
    text = capsys.readouterr().out
    assert "rows whose verdict or presence differs: 5" in text and "gone at paper scale" in text
    assert main(["scale-sensitivity", str(d), str(p), "--paper", "q"]) == 0
    assert "verdict flips between the default and the paper scale: 0" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["{tmp}/nowhere", "{tmp}/results/paper-scale"], "nowhere: no such results directory"),
    (["{tmp}", "{tmp}/results/paper-scale"], "scorecard.parquet: no merged scorecard"),
    (["{tmp}/results", "{tmp}/results/paper-scale", "--paper", "x"], "no scorecard rows for"),
    (["{tmp}/results", "{tmp}/results/paper-scale", "--out", "{tmp}/results"], "directory"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    write_roots(tmp_path)
    assert main(["scale-sensitivity", *(a.format(tmp=tmp_path) for a in args)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("schedlab: error: ") and message in err and err.count("\n") == 1
