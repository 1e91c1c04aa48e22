"""Talby & Feitelson 2005 log-version experiment: modelled flurries (schedlab.papers.talby2005.flurries)."""

from __future__ import annotations

import pandas as pd

from schedlab.papers.talby2005 import flurries as F

NOTES = ["THIS IS A CLEANED VERSION OF THE LOG!\n"
         "The filters used to produce it were\n"
         "  user=7 and (job>=3 and job<=6) (2 jobs removed)\n"
         "  user=9 and (job>=5 and job<=9) (1 job removed)\n"
         "  job<=1 (1 jobs removed)"]


def trace():
    """Jobs 2, 3, 4, 7, 10 kept (1, 5, 6, 8, 9 removed); user 7 has two jobs, one completed."""
    ids = [2, 3, 4, 7, 10]
    return pd.DataFrame({"job_id": ids, "submit_time": [0, 100, 200, 500, 800],
                         "wait_time": 5, "run_time": [10, 20, 30, 40, 50],
                         "req_procs": [1, 2, 3, 4, 5], "req_time": 100,
                         "status": [1, 1, 5, 1, 1], "user_id": [1, 7, 7, 9, 1]})


def test_filters_parsed_in_header_order():
    users, head = F.cleaning_filters(NOTES)
    assert users == [F.FlurryFilter(7, 3, 6, 2), F.FlurryFilter(9, 5, 9, 1)]
    assert head == 1
    assert F.cleaning_filters(["an uncleaned log"]) == ([], 0)


def test_reinserted_jobs_fill_the_missing_numbers():
    out, rep = F.reinsert_flurries(trace(), NOTES, seed=1)
    new = out[~out["job_id"].isin(trace()["job_id"])].set_index("job_id")
    # user 7 takes the first two missing numbers in its range (5, 6); user 9 the next one (8)
    assert sorted(new.index) == [5, 6, 8]
    assert new.loc[[5, 6], "user_id"].tolist() == [7, 7] and new.loc[8, "user_id"] == 9
    # submit time interpolated between the neighbouring job numbers 4 (200 s) and 7 (500 s)
    assert new.loc[5, "submit_time"] == 300 and new.loc[6, "submit_time"] == 400
    # attributes drawn from the user's completed jobs only (user 7: job 3, 2 procs)
    assert new.loc[[5, 6], "req_procs"].tolist() == [2, 2]
    assert (new["status"] == 1).all() and (new["wait_time"] == -1).all()
    assert rep["reinserted"] == 3 and rep["not_reinserted_head"] == 1
    assert out["submit_time"].is_monotonic_increasing


def test_reinsertion_is_seeded():
    t = trace()
    t.loc[4, "user_id"] = 7   # user 7 now has two completed jobs to draw from
    a, _ = F.reinsert_flurries(t, NOTES, seed=3)
    b, _ = F.reinsert_flurries(t, NOTES, seed=3)
    pd.testing.assert_frame_equal(a, b)
