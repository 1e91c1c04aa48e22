"""The report: combined scorecard, HTML with every table and figure (checked in a real headless
Chromium when one is installed), the "Studies on other logs" section, and the `schedlab scorecard`
command."""

from __future__ import annotations

import functools
import http.server
import json
import math
import re
import shutil
import subprocess
import threading

import numpy as np
import pandas as pd
import pytest

from schedlab.cli.main import main
from schedlab.io import read_parquet, write_parquet
from schedlab.report.attribution import data_gap
from schedlab.report.html import build_report, combine_scorecards
from schedlab.report.plotting import new_figure, save_figure
from schedlab.report.scorecard import claim_row, scorecard_frame, value_row, with_cause
from schedlab.report.terminal import format_scorecard_terminal
from schedlab.traces.swf import parse_swf_text


def test_value_and_claim_rows():
    r = value_row("p", "Table 3", "mean wait", "BF=1", 77.4, 80.0, "min")
    assert r["verdict"] == "match" and math.isclose(r["relative_error"], (80.0 - 77.4) / 77.4)
    assert r["tolerance"] == 0.15
    assert value_row("p", "T", "q", "c", 10.0, 20.0)["verdict"] == "differs"
    assert value_row("p", "T", "q", "c", 10.0, None)["verdict"] == "fails"
    assert claim_row("p", "§5", "ordering", "c", True)["verdict"] == "holds"
    assert claim_row("p", "§5", "ordering", "c", False)["verdict"] == "fails"
    assert claim_row("p", "§5", "ordering", "c", None)["verdict"] == "fails"
    with pytest.raises(ValueError, match="unknown scorecard verdicts"):
        scorecard_frame([r | {"verdict": "great"}])


def make_results(root):
    """Two papers' outputs as the pipeline writes them: scorecard, a table, two figures."""
    sc1 = scorecard_frame([value_row("schroeder2004", "Figure 2", "mean slowdown", "rho=0.5",
                                     12.0, 13.0),
                           value_row("schroeder2004", "Figure 2", "mean slowdown", "rho=0.7",
                                     31.5, 27.25),
                           claim_row("schroeder2004", "§4", "Random worst", "2 hosts", True,
                                     headline=True, note="Random is worst at every load")])
    write_parquet(root / "schroeder2004" / "scorecard.parquet", sc1)
    write_parquet(root / "schroeder2004" / "tables" / "table1.parquet",
                  pd.DataFrame({"log": ["CTC"], "jobs": [1000], "scv": [43.2]}))
    for name in ("fig2", "fig3"):
        fig, ax = new_figure()
        ax.plot(np.arange(5), np.arange(5) ** 2)
        save_figure(fig, root / "schroeder2004" / "figures" / name)
    sc2 = scorecard_frame([claim_row("tang2013", "Table 3", "BF 0.5 lowers wait", "SP2", False,
                                     note="reason"),
                           claim_row("tang2013", "Table 2", "BG/P claim", "BG/P", None,
                                     not_run_reason="needs download", note="log ANL-Intrepid")])
    write_parquet(root / "tang2013" / "scorecard.parquet", sc2)
    return sc1, sc2


STUDY_SWF = "; MaxProcs: 16\n; UnixStartTime: 1000000000\n" + "".join(
    f"{i} {i * 600} -1 {100 * i} 4 -1 -1 4 {200 * i} -1 1 {i % 3} 1 -1 1 -1 -1 -1\n"
    for i in range(1, 11))


def make_study_results(root):
    """A log marked for study as the pipeline leaves it: its parsed and cleaned tables, and one
    paper's study outputs (a table, a figure, a scorecard with a value and a claim row,
    done.json)."""
    trace = parse_swf_text(STUDY_SWF, "Syn-1.swf")
    for kind in ("jobs", "clean"):
        write_parquet(root / "traces" / "Syn-1" / f"{kind}.parquet", trace.jobs,
                      {"swf_header": trace.header.to_dict()})
    base = root / "studies" / "Syn-1" / "talby2005"
    write_parquet(base / "tables" / "table2.parquet",
                  pd.DataFrame({"scheduler": ["easy", "flex"], "mean_wait_s": [12.5, 9.75],
                                "mean_wait_s (Talby KTH, raw log)": [6806.0, 6250.0]}))
    fig, ax = new_figure()
    ax.plot([0, 1], [1, 0])
    save_figure(fig, base / "figures" / "monthly_wait")
    write_parquet(base / "scorecard.parquet", scorecard_frame([
        value_row("talby2005", "Table 2", "mean wait KTH", "EASY", 6806.0, 12.5, "s"),
        claim_row("talby2005", "§2.3", "Flex beats EASY month by month", "clean log", True,
                  check="flex_beats_easy")]))
    (base / "done.json").write_text(json.dumps({
        "paper": "talby2005", "log": "Syn-1", "title": "Talby study title",
        "role": "what the study log replaces", "settings": {"scale": "quick"},
        "tables": ["table2"], "figures": ["monthly_wait"]}))


LONG = "x" * 180  # an unbreakable word, as long file names in notes are


def make_many_headlines(root, n: int = 24) -> pd.DataFrame:
    """A third paper as wide as the real ones: ``n`` headline claims (as many as the five papers'
    together), deviating with long causes of every status, one still not attributed, and notes with
    long unbreakable words."""
    rows = []
    for i in range(n):
        q = f"headline quantity {i} stated at some length, as the papers' claims are worded here"
        r = value_row("talby2005", f"Table {i % 4 + 2}", q, f"log {i} with a long condition name",
                      100.0, 140.0 + i, "s", headline=True, note=f"note {i} {LONG}")
        kind = ("explained", "partly", "data", "unexplained", "none")[i % 5]
        cause = f"cause {i}: the paper ran the raw log with its flurries, we run the cleaned one"
        ev = f"talby2005/tables/attr_log_version: reading {i} {LONG}"
        if kind == "explained":
            r = with_cause(r, cause, ev, "explained", 110.0)
        elif kind == "partly":
            r = with_cause(r, cause, ev, "partly", 115.0 + i / 2)
        elif kind == "data":
            r = data_gap(r, cause, "the raw log")
        elif kind == "unexplained":
            r = with_cause(r, f"not found: 2 readings tried ({i})", ev, "unexplained", 139.0 + i)
        rows.append(r)
    sc = scorecard_frame(rows)
    write_parquet(root / "talby2005" / "scorecard.parquet", sc)
    return sc


def build_with_study(tmp_path, studied: dict, many: bool = False):
    """Two papers' outputs and one studied log's, built into a report; (results dir, page path).
    ``many``: a third paper with as many headline claims as the real five."""
    res = tmp_path / "results"
    make_results(res)
    make_study_results(res)
    papers = ["schroeder2004", "tang2013"]
    if many:
        make_many_headlines(res)
        papers.append("talby2005")
    out = res / "report" / "index.html"
    build_report(res, papers, out, res / "scorecard.parquet", {}, studied_traces=studied)
    return res, out


def test_studies_section(tmp_path):
    res, out = build_with_study(tmp_path, {"Syn-1": None, "Other-2": 64})
    page = out.read_text()
    section = page[page.index('<section id="studies">'):]
    assert "Studies on other logs" in section and '<a href="#studies">' in page
    assert section.index("Log Syn-1") < section.index("Talby study title") < section.index(
        "Log Other-2")
    assert "The study log replaces what the study log replaces." in section
    assert "at scale quick" in section
    assert "Claims on this log (1 holds)" in section and "Flex beats EASY month by month" in section
    assert "mean wait KTH" not in section  # a value row: the paper's number is no target here
    assert "Table: table2" in section and "6,806" in section and "9.75" in section
    assert "jobs (cleaned log)" in section and ">16<" in section  # processors from the header
    assert "No study has been run on this log yet" in section  # Other-2 has no outputs
    assert (res / "report/figures/studies/Syn-1/talby2005/monthly_wait.pdf").exists()
    assert 'src="figures/studies/Syn-1/talby2005/monthly_wait.png"' in section
    assert page.count("<figure>") == 3
    # without studied traces the section is left out (the papers-only report)
    build_report(res, ["schroeder2004"], out, res / "scorecard.parquet", {})
    assert 'id="studies"' not in out.read_text()


def test_build_report_and_combined_scorecard(tmp_path):
    res = tmp_path / "results"
    sc1, sc2 = make_results(res)
    out = res / "report" / "index.html"
    build_report(res, ["schroeder2004", "tang2013", "cirne2001"], out, res / "scorecard.parquet",
                 {"schedlab_version": "test"})
    combined, meta = read_parquet(res / "scorecard.parquet")
    assert len(combined) == 5 and meta["schedlab_version"] == "test"
    pd.testing.assert_frame_equal(combined, combine_scorecards([sc1, sc2]))
    page = out.read_text()
    # The first section is the summary: counts per paper, the headline claims, the rules.
    first = page.index("<section")
    assert page.index('<section id="summary">') == first < page.index('<section id="schroeder2004">')
    summary = page[first:page.index("</section>", first)]
    assert "Headline claims" in summary and "Random is worst at every load" in summary
    assert "BF 0.5 lowers wait" not in summary  # not a headline
    assert "How verdicts and causes are decided" in summary and "default 15%" in summary
    # not_run rows: out of the paper's scorecard, at the end of the page with their reason
    tang = page[page.index('<section id="tang2013">'):page.index('<section id="cirne2001">')]
    assert "BG/P claim" not in tang and "1 rows not run here" in tang
    assert page.index('<section id="not-run">') > page.index('<section id="cirne2001">')
    assert "needs download; log ANL-Intrepid" in page[page.index('<section id="not-run">'):]
    assert page.count("<figure>") == 2
    assert (res / "report" / "figures" / "schroeder2004" / "fig2.png").exists()
    assert (res / "report" / "figures" / "schroeder2004" / "fig2.pdf").exists()
    assert "Table: table1" in page and "43.2" in page
    assert "No scorecard was produced" in page  # cirne2001 has no outputs here
    assert re.search(r"fails</span>", page)


def test_scorecard_cli_filters_and_colors(tmp_path, capsys):
    res = tmp_path / "results"
    make_results(res)
    build_report(res, ["schroeder2004", "tang2013"], res / "report" / "index.html",
                 res / "scorecard.parquet", {})
    assert main(["scorecard", "--file", str(res / "scorecard.parquet"), "--paper", "tang2013",
                 "--rows", "--color", "always"]) == 0
    out = capsys.readouterr().out
    assert "tang2013" in out and "schroeder2004" not in out
    assert "\x1b[31mfails" in out and "1 fails" in out
    # Default: the summary (counts per paper, headline claims with their reasons).
    assert main(["scorecard", "--file", str(res / "scorecard.parquet"), "--color", "never"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["paper", "match", "close", "differs", "holds", "fails", "not_run",
                                "rows"]
    assert lines[1].split() == ["schroeder2004", "2", "0", "0", "1", "0", "0", "3"]
    assert lines[2].split() == ["tang2013", "0", "0", "0", "0", "1", "1", "2"]
    assert "schroeder2004: headline claims" in out and "Random is worst at every load" in out
    assert "BF 0.5 lowers wait" not in out
    assert main(["scorecard", "--file", str(res / "scorecard.parquet"), "--verdict", "not_run",
                 "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "BG/P claim" in out and "BF 0.5" not in out and "1 not_run" in out
    assert main(["scorecard", "--file", str(res / "scorecard.parquet"), "--paper", "nope"]) == 2
    assert "no scorecard rows for paper(s) ['nope']" in capsys.readouterr().err
    assert main(["scorecard", "--file", str(tmp_path / "missing.parquet")]) == 2


def test_terminal_format_without_color():
    sc = scorecard_frame([value_row("p", "T1", "wait", "c", 2.0, 3.0)])
    text = format_scorecard_terminal(sc, color=False)
    assert "\x1b[" not in text and "+50.0%" in text and "differs" in text
    assert "unexplained  not yet attributed" in text  # the row's cause status, the gap marker


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")
def test_report_in_headless_chromium(tmp_path):
    _, out = build_with_study(tmp_path, {"Syn-1": None}, many=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(out.parent)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", f"--user-data-dir={tmp_path / 'chrome'}",
               "--window-size=1280,800", "--virtual-time-budget=10000", "--dump-dom", url]
        dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    finally:
        httpd.shutdown()
        httpd.server_close()
    body = re.search(r"<body([^>]*)>", dom)
    assert body, dom[:500]
    attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1)))
    assert attrs.get("figures") == "3"
    assert attrs.get("figures-loaded") == "3"  # every figure really loaded in the browser
    # the summary's counts and headline tables, three scorecards, Figure 2 and Tables 2-5 of the
    # third paper published beside reproduced (two tables each), table1, the studied log's
    # characteristics + its study's claims and table2, and the not-run rows
    assert int(attrs.get("tables", 0)) == 2 + 3 + 2 + 8 + 1 + 3 + 1
    # The first screen (1280 x 800) shows the summary: its top and its headline table start there,
    # and every headline claim's cause is on it (25 headline rows: 24 + Schroeder's one).
    assert 0 <= float(attrs["summary-top"]) < 800 and 0 < float(attrs["headlines-top"]) < 800
    assert attrs["causes"] == "25"
    assert 0 < float(attrs["causes-bottom"]) <= 800, attrs["causes-bottom"]
    # no horizontal scroll at 1280 px, however wide the scorecards and long the notes
    assert int(attrs["scroll-width"]) <= int(attrs["client-width"]), attrs
    pair = re.search(r'<h4>Figure 2</h4>\s*<div class="pair">(.*?)</div></div>', dom, re.S)
    assert pair and "Published" in pair.group(1) and "Reproduced here" in pair.group(1)
    assert "31.5" in pair.group(1) and "27.25" in pair.group(1)
    assert re.search(r'<section id="studies"><h2>Studies on other logs</h2>', dom)
    assert 'alt="monthly_wait"' in dom


def test_cirne_report_includes_the_workload_model_scorecard(tmp_path):
    from schedlab.report.html import collect
    sa = scorecard_frame([value_row("cirne2001", "Table 13", "geometric mean", "sa", 1429, 1431, "s")])
    models = scorecard_frame([value_row("cirne2001", "Table 2", "mean", "CTC", 10.0, 11.0, "")])
    write_parquet(tmp_path / "cirne2001" / "scorecard.parquet", sa)
    write_parquet(tmp_path / "models" / "cirne2001" / "scorecard.parquet", models)
    pr = collect(tmp_path, ["cirne2001"], {"cirne2001": ["models/cirne2001/scorecard.parquet"]})[0]
    assert list(pr.scorecard["item"]) == ["Table 13", "Table 2"]


def test_each_paper_opens_with_why_it_differs_and_its_claim_coverage(tmp_path):
    res = tmp_path / "results"
    make_results(res)
    sc = make_many_headlines(res, n=10)
    claims = tmp_path / "claims"
    claims.mkdir()
    (claims / "talby2005_claims.tsv").write_text(
        "id\tlocation\tline\tquote\trow\treason\n"
        f"a\tTable 2\t10\tq\tTable 2 | {sc.loc[0, 'quantity']}\t\n"
        "b\t§3\t11\tq\tTable 9 | gone\t\n"
        "c\t§4\t?\tNOT LOCATED: x\t\tdata unavailable offline\n")
    out = res / "report" / "index.html"
    build_report(res, ["schroeder2004", "tang2013", "talby2005"], out, res / "scorecard.parquet",
                 {}, claims_dir=claims)
    page = out.read_text()
    talby = page[page.index('<section id="talby2005">'):page.index("</section>",
                                                                     page.index('id="talby2005"'))]
    # the section opens with why it differs: counts by status, then the causes, largest first
    why = talby.index('<div class="why"><h3>Why it differs</h3>')
    assert why < talby.index("Scorecard: published vs reproduced")
    assert "10 rows close, differ or fail" in talby
    for status, n in (("explained", 2), ("partly", 2), ("unexplained", 2), ("data", 2),
                      ("not attributed", 2)):
        assert re.search(rf">{status}</span> {n}</span>", talby), status
    causes = re.findall(r"<li><b>(\d+)</b> (cause \d+)", talby)
    assert [c for _, c in causes] == ["cause 0", "cause 1", "cause 2", "cause 5", "cause 6",
                                      "cause 7"] and {n for n, _ in causes} == {"1"}
    assert "2 not attributed yet (the gap marker" in talby
    assert "3 found, 2 with a scorecard row, 1 not checkable (1 data unavailable offline), " \
           "1 not located in the text" in talby
    assert "1 name a row this scorecard lacks: b: Table 9 | gone" in talby
    summary = page[page.index('<section id="summary">'):page.index('<nav>')]
    assert "Claim inventories" in summary and "not checkable: data unavailable offline" in summary
    assert "explained: cause 0: the paper ran the raw log" in summary  # the headline's cause
    assert "not attributed yet" in summary


def test_causes_group_by_size():
    from schedlab.report.why import grouped_causes, why_counts
    base = value_row("p", "T", "q", "c", 100.0, 140.0)
    rows = [with_cause(base | {"condition": f"c{i}"}, cause, "e", "explained", 105.0)
            for i, cause in enumerate(["small", "big", "big", "mid", "mid", "big"])]
    rows.append(data_gap(base | {"condition": "d"}, "mid", "a log"))
    g = grouped_causes(scorecard_frame(rows))
    assert list(g["cause"]) == ["big", "mid", "small"] and list(g["rows"]) == [3, 3, 1]
    assert g.loc[1, "data"] == 1 and g.loc[1, "explained"] == 2
    counts = why_counts(scorecard_frame([*rows, value_row("p", "T", "q", "e", 1.0, 1.0)]))
    assert counts.loc["p", "explained"] == 6 and counts.loc["p", "deviating"] == 7


def test_scorecard_cli_shows_causes_and_coverage(tmp_path, capsys):
    res = tmp_path / "results"
    make_results(res)
    make_many_headlines(res, n=5)
    build_report(res, ["schroeder2004", "tang2013", "talby2005"], res / "report" / "index.html",
                 res / "scorecard.parquet", {})
    claims = tmp_path / "claims"
    claims.mkdir()
    (claims / "talby2005_claims.tsv").write_text(
        "id\tlocation\tline\tquote\trow\treason\n"
        "c\t§4\t?\tNOT LOCATED: x\t\tneeds a run we do not do: the full grid\n")
    assert main(["scorecard", "--file", str(res / "scorecard.parquet"), "--color", "never",
                 "--claims", str(claims)]) == 0
    out = capsys.readouterr().out
    assert "why it differs (close, differs, fails rows)" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("talby2005") and "   1   " in ln)
    assert line.split() == ["talby2005", "1", "1", "1", "1", "1", "5"]
    assert re.search(r"talby2005\s+1\s+0\s+1\s+1", out)  # found, with row, not checkable, not located
    assert "cause: explained: cause 0: the paper ran the raw log" in out
    assert "cause: not attributed yet" in out
