"""Talby & Feitelson 2005: a study simulates only its log's first months (study_months)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from schedlab import papers
from schedlab.papers import Env, study_settings
from schedlab.papers.talby2005.points import MONTH_S, first_months

REPO = Path(__file__).resolve().parents[2]
LOG = "Some-Site-log"
ENV = Env(trace_local=lambda n: True, machine_size=lambda n: 64)


def test_first_months_keeps_the_jobs_submitted_before_the_cut():
    trace = pd.DataFrame({"submit_time": [100, 100 + MONTH_S - 1, 100 + MONTH_S, 100 + 5 * MONTH_S]})
    assert list(first_months(trace, 1)["submit_time"]) == [100, 100 + MONTH_S - 1]
    assert len(first_months(trace, 2)) == 3
    assert first_months(trace, None) is trace


def test_a_study_caps_its_months_and_the_papers_own_points_do_not(monkeypatch):
    monkeypatch.chdir(REPO)
    module = papers.load("talby2005")
    own = module.settings({}, ENV)
    assert own.max_months is None
    assert all("max_months" not in p.spec for p in module.points(own))
    study = study_settings(module, "talby2005", {}, ENV, LOG)
    assert study.max_months == study.study_months == 12
    assert {p.spec["max_months"] for p in module.points(study)} == {12}
    quick = study_settings(module, "talby2005", {"quick": True}, ENV, LOG)
    assert {p.spec["max_months"] for p in module.points(quick)} == {3}
    whole = study_settings(module, "talby2005", {"studies": {"talby2005": {"study_months": None}}},
                           ENV, LOG)
    assert all("max_months" not in p.spec for p in module.points(whole))
