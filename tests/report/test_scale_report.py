"""The report with both scales (report/html.py, report/scale_view.py): it leads with the
paper-scale scorecard when one exists and says so in its first screen, with the "Scale sensitivity"
section when the default's exists too, and is a single run's report otherwise."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_report import make_results

import schedlab.report.html as report_html
from schedlab.io import read_parquet, write_parquet
from schedlab.report.html import build_report
from schedlab.report.plotting import new_figure, save_figure
from schedlab.report.scale_causes import FIELDS
from schedlab.report.scorecard import claim_row, scorecard_frame, value_row

PAPERS = ["schroeder2004", "tang2013"]


def make_paper_scale(res):
    """The paper-scale run's outputs (results/paper-scale/): Schroeder's slowdown at rho=0.7 now
    out of tolerance (match -> differs: one flip), its table with another number, a figure."""
    root = res / "paper-scale"
    sc = scorecard_frame([
        value_row("schroeder2004", "Figure 2", "mean slowdown", "rho=0.5", 12.0, 13.0),
        value_row("schroeder2004", "Figure 2", "mean slowdown", "rho=0.7", 31.5, 20.0),
        claim_row("schroeder2004", "§4", "Random worst", "2 hosts", True, headline=True,
                  note="Random is worst at every load")])
    write_parquet(root / "schroeder2004" / "scorecard.parquet", sc,
                  {"settings": {"scale": "paper", "replications": 100}})
    write_parquet(root / "schroeder2004" / "tables" / "table1.parquet",
                  pd.DataFrame({"log": ["CTC"], "jobs": [1000], "scv": [77.7]}))
    fig, ax = new_figure()
    ax.plot(np.arange(3), np.arange(3))
    save_figure(fig, root / "schroeder2004" / "figures" / "fig2")
    tang = read_parquet(res / "tang2013" / "scorecard.parquet")[0]
    write_parquet(root / "tang2013" / "scorecard.parquet", tang, {"settings": {"scale": "paper"}})
    return root


def default_run(res, other: bool):
    """The report as the default run builds it (the paper-scale scorecard an input if ``other``)."""
    sc, _ = read_parquet(res / "schroeder2004" / "scorecard.parquet")
    write_parquet(res / "schroeder2004" / "scorecard.parquet", sc,
                  {"settings": {"scale": "default", "replications": 20}})
    build_report(res, PAPERS, res / "report" / "index.html", res / "scorecard.parquet",
                 {"schedlab_version": "test"}, scale="default", root=res,
                 other_scorecards={"paper": res / "paper-scale" / "scorecard.parquet"}
                 if other else None, out_sensitivity=res / "scale_sensitivity.parquet")
    return (res / "report" / "index.html").read_text()


def paper_run(res, other: bool):
    """The report as the paper-scale run builds it (the default's scorecard an input if ``other``)."""
    build_report(res, PAPERS, res / "report" / "index.html",
                 res / "paper-scale" / "scorecard.parquet", {"schedlab_version": "test"},
                 scale="paper", root=res / "paper-scale",
                 other_scorecards={"default": res / "scorecard.parquet"} if other else None,
                 out_sensitivity=res / "scale_sensitivity.parquet")
    return (res / "report" / "index.html").read_text()


def check_leads_with_paper_scale(page: str, res, default_beside: bool) -> None:
    """The first screen says the paper scale leads; the papers' sections are the paper scale's."""
    assert '<p class="scale-lead">' in page
    lead = page.index('<p class="scale-lead">')
    assert lead < page.index('<section id="summary">')
    assert "Scorecard at the papers' own scale" in page[lead:page.index("</p>", lead)]
    assert "77.7" in page and "43.2" not in page  # the paper-scale run's table, not the default's
    if default_beside:
        assert "default scale beside it" in page and "1 verdict flip." in page
        section = page[page.index('<section id="scale-sensitivity">'):]
        assert "Rows whose verdict flips (1)" in section
        assert "match → differs; cause: " in section  # its cause: recorded, or not attributed
        assert "value 27.25 → 20 against published 31.5" in section
        assert "settings: replications 20→100" in section
    else:
        assert "no default-scale scorecard yet" in page
        assert 'id="scale-sensitivity"' not in page


def test_without_a_paper_scale_the_report_is_a_single_runs(tmp_path):
    res = tmp_path / "results"
    make_results(res)
    page = default_run(res, other=False)
    assert 'class="scale-lead"' not in page and 'id="scale-sensitivity"' not in page
    assert "43.2" in page and not (res / "scale_sensitivity.parquet").exists()
    _, meta = read_parquet(res / "scorecard.parquet")
    assert meta["scale"] == "default" and meta["settings"]["schroeder2004"]["replications"] == 20


def test_the_report_leads_with_the_paper_scale_whichever_run_builds_it(tmp_path):
    res = tmp_path / "results"
    make_results(res)
    make_paper_scale(res)
    # the paper-scale run first: no default-scale scorecard yet
    check_leads_with_paper_scale(paper_run(res, other=False), res, default_beside=False)
    assert not (res / "scale_sensitivity.parquet").exists()
    _, meta = read_parquet(res / "paper-scale" / "scorecard.parquet")
    assert meta["scale"] == "paper" and meta["settings"]["schroeder2004"]["replications"] == 100
    # then the default run: it leads with the paper scale, the default beside it
    by_default = default_run(res, other=True)
    check_leads_with_paper_scale(by_default, res, default_beside=True)
    table, _ = read_parquet(res / "scale_sensitivity.parquet")
    assert int(table["flipped"].sum()) == 1 and len(table) == 5
    assert "match → differs; cause: not attributed; value 27.25" in by_default  # none recorded
    assert (res / "report" / "figures" / "schroeder2004" / "fig2.png").exists()
    # a rerun of the paper-scale run builds the same page
    assert paper_run(res, other=True) == by_default


def test_the_lead_check_fails_on_a_report_that_leads_with_its_own_run(tmp_path, monkeypatch):
    res = tmp_path / "results"
    make_results(res)
    make_paper_scale(res)
    paper_run(res, other=False)
    monkeypatch.setattr(report_html, "lead_scale", lambda scales: next(iter(scales)))
    with pytest.raises(AssertionError):
        check_leads_with_paper_scale(default_run(res, other=True), res, default_beside=True)


@pytest.mark.parametrize("run", ["default", "paper"])
def test_the_rules_script_reads_the_other_scale_from_its_inputs(repo, tmp_path, monkeypatch, run):
    """scripts/build_report.py (the job of rule report) as report.smk calls it, in a scratch
    results tree with both scales: the run's root is its scorecard's folder, the other scale comes
    from input ``other_scale`` and output ``sensitivity`` receives the table."""
    import runpy
    from types import SimpleNamespace

    from snakemake.iocontainers import Namedlist

    monkeypatch.chdir(tmp_path)
    res = tmp_path / "results"
    make_results(res)
    make_paper_scale(res)
    default_run(res, other=False)  # each scale's merged scorecard, as its earlier run left it
    paper_run(res, other=False)
    own, other = {"default": ("results", "paper"), "paper": ("results/paper-scale", "default")}[run]
    root_of = {"default": "results", "paper": "results/paper-scale"}
    # the flip's cause, recorded as config/scale_causes.tsv records it (report.smk's input)
    causes = tmp_path / "scale_causes.tsv"
    causes.write_text("\t".join(FIELDS) + "\n" + "\t".join([
        "schroeder2004", "Figure 2", "mean slowdown", "rho=0.7", "explained", "replications: 100",
        "'papers={schroeder2004: {replications: 100}}'", "differs", "20", "test"]) + "\n")
    sm = SimpleNamespace(
        rule="report", wildcards={}, log=[str(tmp_path / "report.log")],
        input=Namedlist(fromdict={"claims": [],
                                  "other_scale": [f"{root_of[other]}/scorecard.parquet"],
                                  "scale_causes": [str(causes)]}),
        output=Namedlist(fromdict={"html": "results/report/index.html",
                                   "scorecard": f"{own}/scorecard.parquet",
                                   "sensitivity": "results/scale_sensitivity.parquet"}),
        params=SimpleNamespace(papers=PAPERS, studied_traces={}, extra_scorecards={}, scale=run,
                               other_scales=[other]))
    runpy.run_path(str(repo / "scripts" / "build_report.py"), init_globals={"snakemake": sm})
    check_leads_with_paper_scale((res / "report" / "index.html").read_text(), res,
                                 default_beside=True)
    table, _ = read_parquet(res / "scale_sensitivity.parquet")
    assert int(table["flipped"].sum()) == 1
    assert "cause: explained by replications: 100: the default run with only replications: 100 " \
        "gives differs, 20" in (res / "report" / "index.html").read_text()
    assert read_parquet(tmp_path / own / "scorecard.parquet")[1]["scale"] == run
