"""Talby & Feitelson 2005 scorecard rows (.scoring) on hand-made tables."""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

from schedlab.papers.talby2005 import scoring as card


def _table3(logs, vs_flex=75.0):
    return pd.DataFrame([{"log": log, "metric": metric, "version": "clean", "scheduler": s,
                          "share": v, "months": v / 10}
                         for log in logs for metric in ("wait", "bsld") for s, v in
                         (("maui", 70.0), ("flex", 30.0), ("easy", 0.0), ("conservative", 0.0),
                          ("tie", 0.0), ("maui_vs_flex", vs_flex))])


def test_the_pooled_75_row_names_the_logs_it_pools(repo):
    """The paper's 75% pools every month of the three logs: on every log the row says so; a run
    of KTH alone (the quick profile) pools KTH only and its condition says that, not 'every
    log'."""
    pub = yaml.safe_load((repo / "config/papers/talby2005.yaml").read_text())["published"]
    tol = lambda item: 0.15  # noqa: E731
    every = card._table3_rows(pub, _table3(["BLUE", "SDSP2", "KTH"]), "clean", "", tol)[-1]
    assert every["condition"] == "all months of every log and metric, pooled"
    kth = card._table3_rows(pub, _table3(["KTH"]), "clean", "", tol)[-1]
    assert kth["condition"] == ("all months of KTH only, both metrics, pooled (the paper pools "
                                "every log)")
    assert kth["reproduced"] == pytest.approx(75.0) and kth["verdict"] == "holds"
    none = card._table3_rows(pub, _table3([]).iloc[0:0], "clean", "", tol)[-1]
    assert none["condition"] == "all months of every log and metric, pooled"


STUDY_LOG = "Some-Site-log"


def _study(repo, monkeypatch):
    from schedlab import papers
    from schedlab.papers import Env, study_settings
    monkeypatch.chdir(repo)
    module = papers.load("talby2005")
    env = Env(trace_local=lambda n: True, machine_size=lambda n: 64)
    return module, module.settings({}, env), study_settings(module, "talby2005", {}, env,
                                                            STUDY_LOG)


def _table2(log, flex_wait):
    waits = {"conservative": 2000.0, "easy": 1900.0, "flex": flex_wait, "maui": 1050.0}
    return pd.DataFrame([{"log": log, "version": "clean", "scheduler": s, "wait": w,
                          "bsld": w / 100, "jobs": 10} for s, w in waits.items()])


def _verdicts(sc):
    return {(r.item, r.quantity, r.condition): r.verdict for r in sc.itertuples(index=False)}


def test_a_study_checks_the_papers_findings_on_the_study_log(repo, monkeypatch):
    """A study (with_log) scores the paper's findings that name no number of its own logs on
    the study log, keyed as on the paper's logs (the robustness matrix lines them up by the
    contract's log_names); the published values stay the paper's logs' own. Each claim is made to
    fail: Flex three times Maui is not 'comparable', a positive procs_median correlation is not
    'negative in every log'."""
    module, own, study = _study(repo, monkeypatch)
    assert module.log_names(study) == {STUDY_LOG: STUDY_LOG}
    assert set(module.log_names(own)) == {"BLUE", "SDSP2", "KTH"}
    assert module.log_names(own)["KTH"] == own.logs["KTH"][own.main_version]
    t7 = pd.DataFrame([{"log": STUDY_LOG, "version": "clean", "kind": "relative",
                        **dict.fromkeys(own.published["table7"]["columns"], -0.5),
                        "jobs": 0.4}])
    sc = module.scorecard(study, {"table2": _table2(STUDY_LOG, 1000.0), "table7": t7})
    v = _verdicts(sc)
    assert sc["tolerance"].isna().all()                     # claims only, no published value
    assert v[("Table 2", "Flex comparable to Maui (mean wait)", "every log")] == "holds"
    assert v[("Table 2", "Conservative and Easy typically behind Flex and Maui",
              "every log and metric")] == "holds"
    assert v[("Table 7", "procs_median (relative) negative in every log", "every log")] == "holds"
    assert v[("Table 7", "jobs (relative) positive in every log", "every log")] == "holds"
    assert ("§2.3", "about one month per year, Maui's mean wait 2-4 hours longer than Flex's",
            STUDY_LOG) in v
    bad = module.scorecard(study, {"table2": _table2(STUDY_LOG, 3000.0),
                                   "table7": t7.assign(procs_median=0.5)})
    w = _verdicts(bad)
    assert w[("Table 2", "Flex comparable to Maui (mean wait)", "every log")] == "fails"
    assert w[("Table 7", "procs_median (relative) negative in every log", "every log")] == "fails"
    # every study claim is a claim of the paper's own scorecard (per-log ones named by the log)
    own_keys = {(i, q, c) for i, q, c, t in zip(*(module.scorecard(own, {})[k] for k in (
        "item", "quantity", "condition", "tolerance")), strict=True) if t != t}
    for item, quantity, cond in v:
        named = "KTH" if cond == STUDY_LOG else cond
        assert (item, quantity, named) in own_keys, (item, quantity, cond)


def test_a_scheduler_that_won_no_month_has_no_gap_to_judge(repo, monkeypatch):
    """Table 4's "consistently very high" over the gaps that exist: on a log where Flex won no
    month (its average gap NaN, a dash in the paper's table) Maui's gap alone decides."""
    module, _, study = _study(repo, monkeypatch)
    key = ("Table 4", "monthly Flex-Maui gaps are consistently very high", "every log, average gaps")

    def verdict(maui_avg):
        t4 = pd.DataFrame([{"log": STUDY_LOG, "version": "clean", "flex_months": 0.0,
                            "flex_avg": float("nan"), "maui_months": 3.0, "maui_avg": maui_avg}])
        return _verdicts(module.scorecard(study, {"table4": t4}))[key]

    assert verdict(7.0) == "fails" and verdict(40.0) == "holds"

