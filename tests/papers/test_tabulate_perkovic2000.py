"""Perković & Keleher 2000: shape groups, job preparation, Tables 1-3 and the §8 readings."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from perkovic2000_cases import CFG, trace_table

from schedlab.papers.perkovic2000.jobs import prepare_jobs, shape_groups
from schedlab.papers.perkovic2000.runs import (
    SECTION8_COLUMNS,
    add_metrics,
    queue_length_max,
    section8_metrics,
)
from schedlab.papers.perkovic2000.tabulate import (
    guarantee_ratios,
    section8_table,
    table1,
    table2,
    table3,
)


def test_shape_groups_and_table2():
    table = pd.DataFrame({"procs": [1, 1, 8, 8, 2, 16], "estimate": [10, 100, 10, 100, 50, 1000],
                          "overestimation": [1.0, 50.0, 2.0, np.nan, 3.0, 9.0]})
    g = shape_groups(table, "estimate")  # median procs 5, median estimate 75
    assert list(g) == ["SN", "LN", "SW", "LW", "SN", "LW"]
    g2 = shape_groups(table, "overestimation")  # median 3.0; NaN counts as short
    assert list(g2) == ["SN", "LN", "SW", "SW", "SN", "LW"]
    with pytest.raises(ValueError):
        shape_groups(table, "width")


def test_prepare_jobs_tables_and_guarantee_ratios():
    tr = trace_table()
    jobs, report = prepare_jobs(tr, None, 8, 40)
    assert len(jobs) == 40 and report["dropped_subset"] == 20
    assert (jobs["runtime"] >= 1).all() and (jobs["estimate"] >= jobs["runtime"]).all()
    t2 = table2(jobs)
    assert t2.groupby("grouping")["jobs"].sum().tolist() == [40, 40]
    assert t2["zero_runtime_jobs"].sum() == 2 * int((jobs["log_runtime"] == 0).sum())
    pub = CFG["published"]["table1"]
    t1 = table1(tr, jobs, [8, 16], pub, 430)
    row = t1.set_index("quantity")
    assert row.loc["Number of jobs", "reproduced"] == 40
    assert row.loc["Median overestimation factor", "reproduced"] == pytest.approx(
        np.nanmedian(jobs["estimate"] / jobs["log_runtime"].where(jobs["log_runtime"] > 0)))
    # Table 3 by hand: guaranteed delays 10, 40; actual 5, 10 -> ratios 2, 4
    done = pd.DataFrame({"submit": [0, 0, 0], "guaranteed_start": [0, 10, 40], "start": [0, 5, 10]})
    done = add_metrics(done.assign(end=[1, 6, 11], runtime=[1, 1, 1]))
    assert list(guarantee_ratios(done)) == [2.0, 4.0]
    t3 = table3(done).set_index("statistic")["reproduced"]
    assert t3["Average"] == 3.0 and t3["Median"] == 3.0


def test_queue_length_max_and_section8_readings_by_hand():
    jobs = pd.DataFrame({"submit": [0, 1, 2, 10], "start": [0, 5, 6, 10], "end": [9, 7, 70, 11]})
    assert queue_length_max(jobs) == 2
    assert queue_length_max(jobs, "end") == 3           # [2, 7): jobs 0, 1 and 2 in the schedule
    m = section8_metrics(jobs.assign(wait=jobs["start"] - jobs["submit"]))  # waits 0, 4, 4, 0
    assert m["jobs_delayed"] == 2 and m["jobs_delayed_over_10s"] == 0
    assert m["max_queue_with_running"] == 3 and set(m) == set(SECTION8_COLUMNS)
    summary = pd.DataFrame({"machine": 430, "experiment": "base", "group": "all",
                            "algorithm": ["BF", "R/L-NG", "R/L-NG"],
                            **{c: [30_000, 20_000, 21_000] for c in SECTION8_COLUMNS}})
    t = section8_table(summary, 430, CFG["published"]).set_index("reading")
    assert t.loc["wait > 0 s (default)", "R/L-NG"] == 20_500   # mean over seeds
    assert t.loc["wait > 0 s (default)", "smallest by"] == "R/L-NG"
    assert t.loc["wait > 0 s (default)", "smallest"] == 20_000     # over runs, not seed means
    assert t.loc["waiting jobs (default)", "largest"] == 30_000
    assert t.loc["waiting jobs (default)", "published"] == "~1,000"
    assert math.isnan(t.loc["wait > 0 s (default)", "1/L"])
