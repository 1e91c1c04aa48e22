"""The recorded causes of scale flips (report/scale_causes.py): read with one-line errors, held
against the rows they name (a stale record explains nothing), shown in the scale-sensitivity table
and by ``schedlab scale-sensitivity``; every check made to fail on purpose."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from test_scale_sensitivity import (
    SETTINGS_DEFAULT,
    SETTINGS_PAPER,
    default_card,
    paper_card,
    row,
    write_roots,
)

import schedlab.report.scale_causes as sc
import schedlab.report.scale_sensitivity as ss
from schedlab.cli.main import main
from schedlab.errors import ConfigError
from schedlab.papers import PAPERS
from schedlab.pipeline.config import check_config

HEADER = "\t".join(sc.FIELDS)
#: The flip "turn-around" explained; "SA beats rigid" recorded as explained by a run whose verdict
#: is not the paper scale's (stale); "same" (no flip) recorded: ignored.
ENTRIES = [
    ["p", "Table 13", "turn-around", "L=1", "explained", "single_target.jobs_per_workload: 10000",
     "'papers={p: {single_target: {jobs_per_workload: 10000}}}'", "match", "1198 s",
     "abc1234, 2026-11-27, 900 s"],
    ["p", "Sec. 5", "SA beats rigid", "", "explained", "loads: 6 values",
     "'papers={p: {loads: [0.05, 0.1]}}'", "holds", "", "abc1234, 2026-11-27, 300 s"],
    ["p", "Table 2", "same", "", "unexplained", "seed: 8", "'papers={p: {seed: 8}}'", "match", "",
     "abc1234"],
]


def causes_text(entries=ENTRIES) -> str:
    return "\n".join(["# a comment", HEADER, *("\t".join(e) for e in entries)]) + "\n"


def table(entries=ENTRIES):
    causes = sc.parse_scale_causes(causes_text(entries), "causes.tsv")
    return ss.scale_sensitivity(default_card(), paper_card(), SETTINGS_DEFAULT, SETTINGS_PAPER,
                                causes)


def check(t) -> None:
    ta, sa = row(t, "turn-around"), row(t, "SA beats rigid")
    assert ta["cause"] == (
        "explained by single_target.jobs_per_workload: 10000: the default run with only "
        "single_target.jobs_per_workload: 10000 gives match, 1198 s (`--config 'papers={p: "
        "{single_target: {jobs_per_workload: 10000}}}'`; abc1234, 2026-11-27, 900 s)")
    assert ta["reason"].startswith("differs → match; cause: explained by ")
    # the record gave holds; the paper scale gives fails: not attributed, and why
    assert sa["cause"].startswith("not attributed (stale record: ")
    assert sa["cause"].endswith("the paper scale now fails)")
    assert row(t, "same")["cause"] == ""  # no flip, no cause
    counts = ss.flip_counts(t).set_index("paper")
    assert (counts.loc["p", "flips"], counts.loc["p", "explained"]) == (2, 1)


def test_recorded_causes_are_held_against_their_rows():
    check(table())


def test_an_unexplained_record_lists_what_was_tried():
    entries = [ENTRIES[0], ["p", "Sec. 5", "SA beats rigid", "", "unexplained",
                            "loads: 6 values -> holds; seed: 8 -> holds", "'papers={p: {seed: 8}}'",
                            "holds", "", "abc1234"]]
    sa = row(table(entries), "SA beats rigid")
    assert sa["cause"] == "unexplained: tried loads: 6 values -> holds; seed: 8 -> holds (abc1234)"
    assert not sc.is_explained(sa["cause"])


def _mutants():
    real = sc.cause_text
    return {
        # a stale record trusted
        "stale trusted": lambda row, e: real({**row, "verdict_paper": e["evidence_verdict"]}, e)
        if e else real(row, e),
        # every flip called not attributed
        "never explained": lambda row, e: sc.NOT_ATTRIBUTED,
    }


@pytest.mark.parametrize("name", list(_mutants()))
def test_every_check_fails_on_a_mutant(monkeypatch, name):
    monkeypatch.setattr(ss, "cause_text", _mutants()[name])
    with pytest.raises(AssertionError):
        check(table())


@pytest.mark.parametrize("lines, message", [
    ([], "causes.tsv: empty"),
    (["paper\titem"], "causes.tsv:1: the header must be"),
    ([HEADER, "p\tT\tq"], "causes.tsv:2: 3 fields, expected 10"),
    ([HEADER, "\t".join([*ENTRIES[0][:4], "maybe", *ENTRIES[0][5:]])],
     "causes.tsv:2: explained: 'maybe', not one of explained, unexplained"),
    ([HEADER, "\t".join([*ENTRIES[0][:7], "better", *ENTRIES[0][8:]])],
     "causes.tsv:2: evidence_verdict: 'better'"),
    ([HEADER, "\t".join([*ENTRIES[0][:5], "", *ENTRIES[0][6:]])], "causes.tsv:2: setting: empty"),
    ([HEADER, "\t".join(ENTRIES[0]), "\t".join(ENTRIES[0])],
     "causes.tsv:3: a second entry for p | Table 13 | turn-around | L=1"),
])
def test_a_malformed_file_is_one_line_naming_the_line(lines, message):
    with pytest.raises(ConfigError) as e:
        sc.parse_scale_causes("\n".join(lines), "causes.tsv")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_cli_shows_the_causes_and_a_bad_file_is_exit_2(tmp_path, capsys):
    d, p = write_roots(tmp_path)
    f = tmp_path / "causes.tsv"
    f.write_text(causes_text())
    assert main(["scale-sensitivity", str(d), str(p), "--causes", str(f)]) == 0
    out = capsys.readouterr().out
    assert "turn-around [L=1]: differs → match; cause: explained by single_target" in out
    assert out.splitlines()[0].split()[:5] == ["paper", "rows", "at_both", "flips", "explained"]
    assert main(["scale-sensitivity", str(d), str(p), "--causes", str(tmp_path / "none.tsv")]) == 0
    assert "cause: not attributed" in capsys.readouterr().out
    f.write_text(HEADER + "\nbad\n")
    assert main(["scale-sensitivity", str(d), str(p), "--causes", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("schedlab: error: ") and "causes.tsv:2: 1 fields" in err


def test_the_shipped_records_are_well_formed_and_rerunnable(repo):
    """Every record of config/scale_causes.tsv names a paper, and its override is a valid
    workflow config (the run it records can be made again)."""
    causes = sc.read_scale_causes(Path(repo) / sc.SCALE_CAUSES)
    assert causes, "no cause recorded"
    base = yaml.safe_load((Path(repo) / "config/config.yaml").read_text())
    for key, e in causes.items():
        assert key[0] in PAPERS, key
        name, _, value = e["override"].strip("'").partition("=")
        assert name == "papers" and value, e["override"]
        check_config({**base, "papers": yaml.safe_load(value)},
                     Path(repo) / "workflow/schemas/config.schema.yaml", Path(repo) / "config/papers")
