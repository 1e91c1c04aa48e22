"""Flurry detector: an injected single-user burst is found; cleaned logs give few candidates."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.traces.flurry import FlurrySettings, detect_flurries, plot_activity, remove_flurries
from schedlab.traces.swf import SWF_COLUMNS, read_swf


def background(n_users: int = 30, days: int = 120, seed: int = 3) -> pd.DataFrame:
    """A flurry-free log: users submitting a few jobs a day at random."""
    rng = np.random.default_rng(seed)
    n = n_users * days * 3
    t = np.sort(rng.uniform(0, days * 86400, n)).astype(np.int64)
    jobs = pd.DataFrame({c: np.full(n, -1, dtype=np.int64) for c in SWF_COLUMNS})
    jobs["job_id"] = np.arange(1, n + 1)
    jobs["submit_time"] = t
    jobs["user_id"] = rng.integers(1, n_users + 1, n)
    jobs["run_time"] = rng.integers(1, 3600, n)
    jobs["alloc_procs"] = rng.integers(1, 32, n)
    return jobs


def inject(jobs: pd.DataFrame, user: int, start: int, n: int = 1000) -> tuple[pd.DataFrame, int, int]:
    """Insert ``n`` near-identical jobs by ``user`` within 12 hours from ``start``; renumber the
    log in submit order (as the archive numbers jobs). Returns (log, first id, last id)."""
    burst = pd.DataFrame([jobs.iloc[0].to_dict()] * n).astype(jobs.dtypes.to_dict())
    burst["submit_time"] = start + np.linspace(0, 12 * 3600, n).astype(np.int64)
    burst["user_id"] = user
    burst["run_time"] = 60
    burst["alloc_procs"] = 1
    out = pd.concat([jobs.assign(_b=False), burst.assign(_b=True)], ignore_index=True)
    out = out.sort_values("submit_time", kind="stable").reset_index(drop=True)
    out["job_id"] = np.arange(1, len(out) + 1)
    ids = out.loc[out["_b"], "job_id"]
    return out.drop(columns="_b"), int(ids.min()), int(ids.max())


def test_injected_flurry_found():
    log, first, last = inject(background(), user=999, start=50 * 86400 + 3600)
    cand = detect_flurries(log)
    assert len(cand) == 1
    c = cand.iloc[0]
    assert (c.user_id, c.first_job, c.last_job, c.jobs) == (999, first, last, 1000)
    assert c.span_hours == pytest.approx(12, abs=0.01)


def test_burst_by_an_active_user_found_and_removed_only_on_request():
    base = background()
    log, first, last = inject(base, user=7, start=80 * 86400)
    cand = detect_flurries(log)
    assert cand["user_id"].tolist() == [7]
    assert cand.iloc[0].first_job <= first and cand.iloc[0].last_job >= last
    assert len(log) == len(base) + 1000  # detection removes nothing
    kept, removed = remove_flurries(log, cand)
    assert removed >= 1000 and len(kept) == len(log) - removed
    assert not ((kept["user_id"] == 7) & kept["job_id"].between(first, last)).any()


def test_no_flurry_in_background_and_empty_input():
    assert detect_flurries(background()).empty
    assert detect_flurries(background().iloc[:0]).empty


def test_bad_settings_and_columns():
    with pytest.raises(ConfigError):
        FlurrySettings(min_jobs=0)
    with pytest.raises(ConfigError, match="user_id"):
        detect_flurries(background().drop(columns="user_id"))


def test_plot(tmp_path):
    log, _, _ = inject(background(), user=999, start=10 * 86400)
    fig = plot_activity(log, detect_flurries(log))
    assert len(fig.axes[0].lines) >= 8


@pytest.mark.parametrize("name", ["KTH-SP2-1996-2.1-cln", "CTC-SP2-1996-3.1-cln",
                                  "SDSC-SP2-1998-4.2-cln"])
def test_real_cleaned_logs(mirror, name):
    jobs = read_swf(mirror / f"{name}.swf.gz").jobs
    assert len(detect_flurries(jobs)) <= 2
    log, first, last = inject(jobs, user=int(jobs["user_id"].max()) + 1,
                              start=int(jobs["submit_time"].median()))
    cand = detect_flurries(log)
    hit = cand[cand["user_id"] == int(jobs["user_id"].max()) + 1]
    assert len(hit) == 1 and (hit.iloc[0].first_job, hit.iloc[0].last_job) == (first, last)
