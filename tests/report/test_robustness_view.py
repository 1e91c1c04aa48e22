"""The robustness matrix drawn: the heatmap's cells, colours and own-log mark; the terminal table."""

from __future__ import annotations

import re

import pytest
from robustness_cards import P, cards

from schedlab.report import robustness as R
from schedlab.report import robustness_view as V

COLORS = {"holds": "#00aa00", "fails": "#aa0000", "not_run": "#777777"}


@pytest.mark.parametrize(("verdict", "checked", "label"), [
    ("holds", True, "holds"), ("fails", True, "fails"), ("fails", False, "n/c"),
    ("not_run", False, "n/c"), ("", False, "")])
def test_cell_label(verdict, checked, label):
    assert V.cell_label(verdict, checked) == label


def test_column_name_marks_the_own_log():
    assert V.column_name("SDSC", True) == "SDSC (own)"
    assert V.column_name("SDSC", False) == "SDSC"
    assert V.column_name("KTH+SDSC+BLUE", True) == "own: 3 logs"


def matrix():
    return R.build_matrix(cards({"a": True, "b": True}, {"KTH": {"a": False, "b": None}}))


def test_heatmap_cells_take_the_verdict_colours_and_the_own_log_is_marked():
    page = V.heatmap_html(matrix(), P, COLORS)
    assert page.count("<tr>") == 3   # a header and two claims
    heads = re.findall(r'<th class="(own|log)" title="[^"]*">([^<]*)</th>', page)
    assert heads == [("own", "SDSC-SP2 (own)"), ("log", "KTH")]
    cells = re.findall(r'<td class="cell( own)?( nc)?" style="background:(#\w+)" title="[^"]*">'
                       r"([^<]*)</td>", page)
    assert cells == [(" own", "", "#00aa00", "holds"), ("", "", "#aa0000", "fails"),
                     (" own", "", "#00aa00", "holds"), ("", " nc", "#aa0000", "n/c")]
    assert "<td>0/1</td>" in page and "own log only" in page


def test_section_gives_the_size_and_a_heatmap_per_paper():
    page = V.robustness_section(matrix(), COLORS, {P: "Talby & Feitelson 2005"})
    assert 'id="robustness"' in page and "2 claims × 2 log columns; studied logs: KTH." in page
    assert page.count('<table class="robustness"') == 1
    assert ("<details><summary><b>Talby &amp; Feitelson 2005</b>: 2 claims: 1 own log only, "
            "1 not checked elsewhere</summary>") in page


def test_reading_line_counts_claims_by_reading():
    m = R.build_matrix(cards({"a": True, "b": True, "c": False},
                             {"KTH": {"a": True, "b": False, "c": True}}))
    assert V.reading_line(m, P) == "3 claims: 1 general, 1 own log only, 1 elsewhere only"


def test_terminal_table_lists_claims_by_log():
    text = V.format_terminal(matrix())
    lines = text.splitlines()
    assert lines[0] == "robustness matrix: 2 claims x 2 log columns"
    assert lines[2] == f"{P} (2 claims: 1 own log only, 1 not checked elsewhere)"
    assert "SDSC-SP2 (own)" in lines[3] and "KTH" in lines[3]
    assert re.search(r"§4 \| a \| all logs\s+holds\s+fails\s+0/1\s+own log only", text)
    assert re.search(r"§4 \| b \| all logs\s+holds\s+n/c\s+0/0\s+not checked elsewhere", text)
    assert V.format_terminal(matrix().iloc[:0]) == "robustness matrix: no claims"


def test_report_shows_the_matrix_after_the_summary_once_it_is_built(tmp_path):
    from robustness_cards import card

    from schedlab.io import write_parquet
    from schedlab.report.html import build_report

    res = tmp_path / "results"
    write_parquet(res / P / "scorecard.parquet", card({"a": True, "b": True}))
    out = res / "report" / "index.html"
    build_report(res, [P], out, res / "scorecard.parquet", {})
    assert 'id="robustness"' not in out.read_text()
    write_parquet(res / "robustness.parquet", matrix())
    build_report(res, [P], out, res / "scorecard.parquet", {})
    page = out.read_text()
    assert page.index('id="summary"') < page.index('id="robustness"') < page.index("<nav>")
    assert '<table class="robustness" data-paper="talby2005">' in page
    assert "Talby" in page[page.index('id="robustness"'):page.index("<nav>")]
    assert '<a href="#robustness">robustness</a>' in page
