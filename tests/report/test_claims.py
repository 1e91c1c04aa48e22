"""Claim inventories (schedlab.report.claims): the loader's one-line errors, coverage against a
scorecard, and the shipped inventories (they load, their quotes are in the papers' texts, and the
rows they name exist in the run's scorecards)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schedlab.errors import ConfigError
from schedlab.papers import PAPERS, Env, load
from schedlab.report.claims import (
    PAPER_TEXTS,
    coverage,
    coverage_table,
    inventory_path,
    load_inventory,
    parse_inventory,
    quote_at,
)
from schedlab.report.html import collect
from schedlab.report.scorecard import claim_row, scorecard_frame, value_row

HEADER = "id\tlocation\tline\tquote\trow\treason\n"


def inv(*lines: str) -> list:
    return parse_inventory(HEADER + "".join(ln + "\n" for ln in lines), "x_claims.tsv")


def test_entries_with_a_row_or_a_reason():
    claims = inv("# a comment",
                 "s3.2-worst\t§3.2\t120\tRandom is by far the worst\tFig 2 | Random worst\t",
                 "s1-c90\t§1\t?\tNOT LOCATED: C90 factors\t\tdata unavailable offline",
                 "s5-big\t§5\t200\tmany hosts\t\tneeds a run we do not do: 1000 hosts x 30 seeds")
    assert [c.id for c in claims] == ["s3.2-worst", "s1-c90", "s5-big"]
    assert claims[0].key == ("Fig 2", "Random worst") and claims[0].file_line == 3
    assert claims[1].line is None and claims[2].reason_class == "needs a run we do not do"


@pytest.mark.parametrize(("line", "message"), [
    ("a\t§1\t3\tq\t\t", r"x_claims.tsv:2: row: give exactly one of row"),
    ("a\t§1\t3\tq\tT | q\tdata unavailable offline", "give exactly one of row"),
    ("a\t§1\t3\tq\t\tslow", r"reason: reason 'slow' is not one of"),
    ("a\t§1\t3\tq\t\tneeds a run we do not do", "must name the run"),
    ("a\t§1\t3\tq\t\tdata unavailable offline: C90", "only 'needs a run we do not do' takes"),
    ("A b\t§1\t3\tq\tT | q\t", r"id: 'A b' is not a short id"),
    ("a\t\t3\tq\tT | q\t", "location: empty"),
    ("a\t§1\tx\tq\tT | q\t", "line: 'x' is not a line number"),
    ("a\t§1\t?\tour words\tT | q\t", "needs a quote starting 'NOT LOCATED:'"),
    ("a\t§1\t3\t\tT | q\t", "quote: empty"),
    ("a\t§1\t3\tq\tT only\t", "is not 'item | quantity'"),
    ("a\t§1\t3\tq\tT | q", "5 tab-separated fields, expected 6"),
])
def test_loader_rejects_with_one_line(line, message):
    with pytest.raises(ConfigError, match=message) as e:
        inv(line)
    assert "\n" not in str(e.value)


def test_duplicate_ids_and_header():
    with pytest.raises(ConfigError, match=r":3: id: 'a' already used on line 2"):
        inv("a\t§1\t3\tq\tT | q\t", "a\t§2\t4\tq\tT | q\t")
    with pytest.raises(ConfigError, match=":1: header must be"):
        parse_inventory("id\tquote\n", "x_claims.tsv")
    with pytest.raises(ConfigError, match="no header line"):
        parse_inventory("# nothing\n", "x_claims.tsv")
    with pytest.raises(ConfigError, match="no claim inventory"):
        load_inventory(Path("/nonexistent/x_claims.tsv"))


def test_coverage_counts_and_names_absent_rows():
    sc = scorecard_frame([
        claim_row("p", "Fig 2", "Random worst", "CTC", True),
        claim_row("p", "Fig 2", "Random worst", "C90", None, not_run_reason="data unavailable offline"),
        claim_row("p", "§4", "fair", "CTC", False),
        value_row("p", "Table 1", "jobs", "CTC", 10.0, 10.0),
        claim_row("q", "§1", "other paper", "x", True)])
    claims = inv("a\tFig. 2\t10\tq\tFig 2 | Random worst\t",
                 "b\t§3\t11\tq\tFig 3 | gone\t",
                 "c\t§3\t12\tq\tFig 2 | Random worst | XYZ\t",
                 "d\t§1\t?\tNOT LOCATED: x\t\tdata unavailable offline",
                 "e\t§1\t13\tq\t\tnot a finding about the experiments",
                 "f\t§1\t14\tq\t\tneeds a run we do not do: the full grid")
    cov = coverage("p", claims, sc)
    assert (cov.claims, cov.rows, cov.not_checkable, cov.not_located) == (6, 3, 3, 1)
    assert cov.by_reason == {"data unavailable offline": 1,
                             "not a finding about the experiments": 1,
                             "needs a run we do not do": 1}
    assert cov.missing_rows == ["b: Fig 3 | gone", "c: Fig 2 | Random worst | XYZ"]
    assert cov.unlisted == ["§4 | fair"]  # a claim row of p no entry names; value rows are not
    t = coverage_table({"p": cov})
    assert t.loc[0, "claims found"] == 6 and t.loc[0, "naming an absent row"] == 2
    assert coverage("p", claims, None).missing_rows == []
    # a quantity ending in * names every quantity it begins
    star = coverage("p", inv("g\tFig. 2\t10\tq\tFig 2 | Random *\t",
                             "h\t§4\t11\tq\t§4 | fai*\t",
                             "i\t§4\t12\tq\t§4 | xyz*\t"), sc)
    assert star.unlisted == [] and star.missing_rows == ["i: §4 | xyz*"]


def test_quotes_are_found_at_their_lines():
    lines = ["Title", "We find that **SA** is “much better” than the user’s request,",
             "and that it  scales."]
    claims = inv("a\t§1\t2\tSA is \"much better\" than the user's request\tT | q\t",
                 "b\t§1\t2\tmuch better ... it scales\tT | q\t",
                 "c\t§1\t3\tmuch better\tT | q\t",  # the quote is above its line
                 "d\t§1\t2\tit scales ... much better\tT | q\t")
    assert [quote_at(lines, c) for c in claims] == [True, True, False, False]
    assert not quote_at(lines, inv("e\t§1\t9\tTitle\tT | q\t")[0])


SHARED = Path(__file__).resolve().parents[3] / "shared" / "papers"
TEXTS = SHARED if SHARED.is_dir() else Path("/work/shared/papers")


@pytest.mark.parametrize("paper", PAPERS)
def test_shipped_inventory_loads_and_quotes_its_paper(paper, repo):
    claims = load_inventory(inventory_path(paper, repo / "config" / "papers"))
    assert claims, f"{paper}: empty inventory"
    text = TEXTS / PAPER_TEXTS[paper]
    if not text.is_file():
        pytest.skip(f"the paper's text is not here ({text})")
    lines = text.read_text(encoding="utf-8").splitlines()
    wrong = [f"{c.id} (line {c.line})" for c in claims if c.line is not None
             and not quote_at(lines, c)]
    assert not wrong, f"{paper}: quotes not at their lines: {wrong}"


@pytest.mark.parametrize("paper", PAPERS)
def test_shipped_inventory_names_rows_of_the_runs_scorecard(paper, repo, monkeypatch):
    """Against the scorecards of a run in this checkout (the paper's, with the ones the report
    adds to it: the scorecards among the contract's extra_targets, e.g. Cirne's workload models)."""
    path = repo / "results" / paper / "scorecard.parquet"
    if not path.is_file():
        pytest.skip(f"no {path.relative_to(repo)} (run `snakemake {paper}` first)")
    monkeypatch.chdir(repo)  # settings read config/papers/ from the workflow's directory
    module = load(paper)
    s = module.settings({}, Env(trace_local=lambda name: True, machine_size=lambda name: None))
    extra = [str(Path(t).relative_to("results")) for t in module.extra_targets(s)
             if t.endswith("scorecard.parquet")]
    sc = collect(repo / "results", [paper], {paper: extra})[0].scorecard
    cov = coverage(paper, load_inventory(inventory_path(paper, repo / "config" / "papers")), sc)
    assert cov.missing_rows == [], cov.missing_rows
    assert cov.unlisted == [], cov.unlisted
