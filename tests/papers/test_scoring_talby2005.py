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
