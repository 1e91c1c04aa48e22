"""A paper's study (the contract's ``with_log`` at the ``study`` scale, :mod:`schedlab.papers`): the
study log replaces the paper's own in the settings and the points, the (log, paper) pairs come from
the registry, and each paper's study of a small real log gives its declared tables, figures, a
scorecard with judged claim rows and a ``done.json``."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from schedlab import papers
from schedlab.errors import ConfigError
from schedlab.io import read_parquet, write_json, write_parquet
from schedlab.models.fit import fit_all
from schedlab.papers import PAPERS, Env, study_logs, study_pairs, study_settings, trace_jobs
from schedlab.papers.runner import run_paper
from schedlab.report.scorecard import COLUMNS
from schedlab.traces.swf import header_metadata, parse_swf_to_parquet

REPO = Path(__file__).resolve().parents[2]
#: the small log of the studies: the first jobs of KTH's cleaned log under a name of its own
LOG, SOURCE, JOBS, MACHINE = "KTH-first-3000", "KTH-SP2-1996-2.1-cln", 3000, 100
ENV = Env(trace_local=lambda n: True, machine_size=lambda n: MACHINE)


def _settings(paper: str, log: str = LOG, scale: str = "quick"):
    return study_settings(papers.load(paper), paper, {"studies": {paper: {"scale": scale}}}, ENV,
                          log)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_study_log_replaces_the_papers_own(monkeypatch, paper):
    monkeypatch.chdir(REPO)
    module = papers.load(paper)
    own = set(module.logs(module.settings({}, ENV)))
    s = _settings(paper, scale="study")
    assert s.scale == "study" and module.logs(s) == (LOG,) and LOG not in own
    files = {f for p in module.points(s) for f in p.inputs}
    assert files and files <= {trace_jobs(LOG), f"results/models/{LOG}"}, files
    assert module.extra_targets(s) == ()
    assert type(s).from_dict(s.to_dict()) == s  # the rules' params give the same settings back


def test_a_tang_study_leaves_out_the_job_selection_attribution(monkeypatch):
    """Its readings weigh SP2's published Table 3: the paper's own run has the points, a study
    has none (and its four tables are empty, the search cap and base readings kept)."""
    monkeypatch.chdir(REPO)
    module = papers.load("tang2013")
    sel = {"SP2/attribution_records", "SP2/attribution_runnable"}
    assert sel <= {p.id for p in module.points(module.settings({}, ENV))}
    study = {p.id for p in module.points(_settings("tang2013", scale="study"))}
    assert not sel & study and {"SP2/attribution_base", "SP2/search_cap"} <= study


def test_the_study_scale_follows_quick_and_the_studies_overrides(monkeypatch):
    monkeypatch.chdir(REPO)
    module = papers.load("perkovic2000")
    assert study_settings(module, "perkovic2000", {}, ENV, LOG).max_jobs == 6000  # scale study
    assert study_settings(module, "perkovic2000", {"quick": True}, ENV, LOG).max_jobs == 1000
    config = {"studies": {"perkovic2000": {"max_jobs": 50}},
              "papers": {"perkovic2000": {"max_jobs": 7}}}  # the paper's own overrides: not here
    assert study_settings(module, "perkovic2000", config, ENV, LOG).max_jobs == 50
    no_size = Env(trace_local=lambda n: True, machine_size=lambda n: None)
    with pytest.raises(ConfigError, match=f"perkovic2000 study of {LOG}: the registry gives no "
                                          "machine_size"):
        study_settings(module, "perkovic2000", {}, no_size, LOG)


def test_study_pairs_are_the_marked_logs_at_hand_by_every_paper():
    entries = {"A": True, "B": False, "C": True, "D": True}
    registry = _Registry(entries)
    env = Env(trace_local=lambda n: n != "D", machine_size=lambda n: 8)
    assert study_logs({}, registry, env) == ["A", "C"]
    assert study_pairs({}, registry, env) == [(log, p) for log in ("A", "C") for p in PAPERS]
    assert study_pairs({"study_traces": ["B"]}, registry, env, ("tang2013",)) == [("B", "tang2013")]
    with pytest.raises(ConfigError, match="config study_traces: X not in the registry"):
        study_logs({"study_traces": ["X"]}, registry, env)


class _Registry:
    def __init__(self, marked: dict[str, bool]) -> None:
        self._marked = marked

    def names(self) -> list[str]:
        return list(self._marked)

    def __contains__(self, name: object) -> bool:
        return name in self._marked

    def __getitem__(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(study=self._marked[name])


@pytest.fixture(scope="module")
def root(mirror, tmp_path_factory) -> Path:
    """A results tree holding the small log's job table and its fitted chapter-3 models."""
    root = tmp_path_factory.mktemp("study")
    whole = root / "whole.parquet"
    parse_swf_to_parquet(mirror / f"{SOURCE}.swf.gz", whole,
                         lambda trace: header_metadata(trace) | {"trace": SOURCE})
    jobs, meta = read_parquet(whole)
    jobs = jobs.head(JOBS)
    write_parquet(root / trace_jobs(LOG), jobs, meta | {"trace": LOG})
    h = meta["swf_header"]
    for name, fit in fit_all(jobs, trace=LOG, machine_size=MACHINE,
                             unix_start=h.get("UnixStartTime"), tz=h.get("TimeZoneString")).items():
        write_json(root / "results/models" / LOG / f"{name}.json", fit.to_dict())
    return root


@pytest.mark.slow
@pytest.mark.parametrize("paper", PAPERS)
def test_a_study_gives_the_papers_tables_and_a_scorecard(monkeypatch, root, paper):
    monkeypatch.chdir(REPO)
    module = papers.load(paper)
    s = _settings(paper)
    tables = run_paper(module, paper, s, root / "results", root=root, log=LOG)
    out = root / "results/studies" / LOG / paper
    declared = module.outputs(s)
    assert set(tables) == set(declared.tables)
    assert all((out / "tables" / f"{t}.parquet").is_file() for t in declared.tables)
    assert all((out / "figures" / f"{f}.png").is_file() for f in declared.figures)
    card = pd.read_parquet(out / "scorecard.parquet")
    assert list(card.columns) == COLUMNS and set(card["paper"]) == {paper}
    claims = card[card["check"].fillna("") != ""]
    assert claims["verdict"].isin(["holds", "fails"]).any(), claims["verdict"].value_counts()
    done = json.loads((out / "done.json").read_text())
    assert done["log"] == LOG and done["role"] == module.study_role and done["paper"] == paper
    assert done["tables"] == list(tables) and done["settings"]["scale"] == "quick"
