"""Schroeder & Harchol-Balter 2004 applied to a new log (schedlab.trace_studies.schroeder2004)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from test_trace_studies_framework import assert_deterministic, study_inputs

from schedlab.trace_studies import load, study_settings
from schedlab.trace_studies.schroeder2004 import choose_procs


def test_tables_are_deterministic_and_consistent(repo):
    t = assert_deterministic(repo, "schroeder2004", {"min_jobs": 50, "max_jobs": 150,
                                                     "service_orders": ["trace", "shuffled"]})
    t1, sd = t["table1"], t["slowdown"]
    assert t1.loc[0, "source"] == "this log" and t1.loc[0, "subset"] == "jobs using 8 processors"
    assert t1.loc[0, "jobs"] == 150
    # the paper's own logs as labelled reference rows (its Table 1)
    ctc = t1[t1["source"] == "Schroeder 2004 Table 1 (CTC IBM-SP2)"]
    assert len(ctc) == 1 and ctc["scv"].iloc[0] == 5.42
    assert sd[["mean_slowdown", "mean_response"]].notna().all().all()
    assert (sd["mean_slowdown"] >= 1).all()  # slowdown = response / service
    # §3.1: Least-Work-Left and Central-Queue are the same schedule
    assert set(sd["service_order"]) == {"trace", "shuffled"}
    by = sd.set_index(["service_order", "load", "policy"])["mean_slowdown"]
    for (order, rho), _ in sd.groupby(["service_order", "load"]):
        assert np.isclose(by[order, rho, "Least-Work-Left"], by[order, rho, "Central-Queue"])
    # common random numbers: every policy's mean slowdown grows with the load
    for _, g in sd[sd["cutoff_method"].isin(["", "analytic"])].groupby(["service_order",
                                                                         "policy"]):
        assert g.sort_values("load")["mean_slowdown"].is_monotonic_increasing
    # the same service times in another order: the same mean service, other slowdowns
    assert not np.allclose(by["trace"].to_numpy(), by["shuffled"].to_numpy())
    # the analytic mean slowdown is there for the policies the paper analyses
    an = sd.dropna(subset=["analysis_mean_slowdown"])["policy"].unique()
    assert {"Random", "Least-Work-Left", "SITA-E"} <= set(an)
    assert set(t["cutoffs"]["load"]) == set(sd["load"])
    # the compact table holds the same numbers, one column per load
    wide = t["mean_slowdown"].set_index(["service_order", "hosts", "policy"])
    assert list(wide.columns) == [f"rho={x:g}" for x in sorted(sd["load"].unique())]
    lwl = sd[(sd["service_order"] == "trace") & (sd["policy"] == "Least-Work-Left")]
    assert wide.loc[("trace", 2, "Least-Work-Left")].tolist() == lwl["mean_slowdown"].tolist()
    assert ("trace", 2, "SITA-U-opt") in wide.index and wide.notna().all().all()


def test_figures(repo):
    t = assert_deterministic(repo, "schroeder2004", {"min_jobs": 50, "max_jobs": 100,
                                                     "service_orders": ["trace", "shuffled"],
                                                     "hosts": [2, 4]})
    assert set(t["slowdown"]["hosts"]) == {2, 4}
    assert set(load("schroeder2004").figures(t)) == {"fig2", "fig3", "fig4", "fig5",
                                                     "fig2_shuffled", "fig3_shuffled",
                                                     "fig4_shuffled"}


def test_processor_class_and_fallback(repo):
    m = load("schroeder2004")
    jobs = study_inputs(repo, "schroeder2004").jobs
    s = study_settings(m, "quick", {"min_jobs": 10})
    assert choose_procs(jobs, s) == [8]
    mode = int(pd.Series(jobs["req_procs"]).value_counts().idxmax())
    assert choose_procs(jobs, s | {"procs": [3]}) == [mode]  # no 3-processor job: the mode
    assert choose_procs(jobs, s | {"procs": [3], "fallback_to_mode": False}) == [3]
