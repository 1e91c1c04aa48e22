"""Cirne 2001 load attribution (schedlab.papers.cirne2001.load): D before each target's arrival and
its user turn-around on a hand-worked workload, the table's weighting, the readings' workloads."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.models.arrival import PUBLISHED_POLYNOMIALS
from schedlab.papers import cirne2001 as C
from schedlab.papers.cirne2001.load import load_table, workload_loads

SA_YAML = Path(__file__).resolve().parents[2] / "config/papers/cirne2001_sa.yaml"


def _hand_workload():
    """10 processors. Job 1 (t=0) holds all 10 for 100 s of a 200 s request; job 2 (t=10) all 10
    for 50 s; job 3 (t=20) 5 processors for 10 s; job 4 (t=30) is cancelled at t=31 (no target).
    D before each arrival (§5.3.3): job 1: 0; job 2: 10 (200 - 10) / 10 = 190; job 3: (10 (200 -
    20) + 10 * 50) / 10 = 230. Job 1 ends at 100, job 2 moves up to [100, 150), job 3 to
    [150, 160): turn-arounds 100, 140, 140."""
    jobs = pd.DataFrame({"job_id": [1, 2, 3, 4], "submit": [0, 10, 20, 30],
                         "runtime": [100, 50, 10, 5], "estimate": [200, 50, 10, 5],
                         "procs": [10, 10, 5, 1], "cancel_time": [np.nan, np.nan, np.nan, 31.0]})
    return C.workload_from_tables(jobs, jobs[["job_id", "procs", "runtime", "estimate"]], 10)


def test_workload_loads_hand_worked():
    row = workload_loads(_hand_workload(), 10)
    assert row["targets"] == 3 and row["jobs"] == 4
    assert row["D_median"] == 190 and row["D_last"] == 230
    assert row["D_below_110k"] == row["D_below_500k_first_1000"] == 1.0
    assert row["mean_log_user_tt"] == pytest.approx(np.log([100, 140, 140]).mean())
    # offered load: (100 * 10 + 50 * 10 + 10 * 5 + 5 * 1) / (10 processors * 30 s)
    assert row["offered_load"] == pytest.approx(1555 / 300)
    assert row["jobs_per_day"] == pytest.approx(3 / 30 * 86400)


def test_load_table_weights_polynomials_equally():
    """Polynomial A: two workloads with D below 500,000 s for 0% and 100% of their targets and
    geometric mean turn-arounds of 100 and 400 s; B: one at 100% and 800 s. Each polynomial
    weighs the same: 0.75 (not 2/3) and sqrt(200 * 800) = 400 s."""
    cols = {"jobs": 10, "targets": 8, "days": 1.0, "jobs_per_day": 10.0, "offered_load": 1.0,
            "D_median": 0.0, "D_last": 0.0, "mean_log_user_tt_first_1000": 0.0,
            **{f"D_below_{d}k{s}": 1.0 for d in (110, 200) for s in ("", "_first_1000")},
            "D_below_500k_first_1000": 1.0}
    df = pd.DataFrame([{**cols, "polynomial": "A", "workload": 0, "D_below_500k": 0.0,
                        "mean_log_user_tt": math.log(100)},
                       {**cols, "polynomial": "A", "workload": 1, "D_below_500k": 1.0,
                        "mean_log_user_tt": math.log(400)},
                       {**cols, "polynomial": "B", "workload": 0, "D_below_500k": 1.0,
                        "mean_log_user_tt": math.log(800)}])
    s = C.resolve_settings(yaml.safe_load(SA_YAML.read_text()))
    t = load_table({"r": df}, s.published, 500, np.random.default_rng(1), 200).set_index(
        "reading")
    assert t.loc["r", "D_below_500k"] == pytest.approx(0.75)
    assert t.loc["r", "user_gm_tt_s"] == pytest.approx(400)
    assert t.loc["r", "D_below_500k_A"] == pytest.approx(0.5)
    assert t.loc["r", "D_below_500k_ci_low"] <= 0.75 <= t.loc["r", "D_below_500k_ci_high"]
    assert t.loc["r", "D_below_500k_ci_low"] == pytest.approx(0.5)  # A resampled: 0, 0.5 or 1
    assert t.loc["thesis", "D_below_500k"] == 0.60 and t.loc["thesis", "user_gm_tt_s"] == 2878
    # Table 1 jobs / Table 2 days times 500/O, averaged over the four logs
    logs = [7995 / 78 * 500 / 120, 79279 / 339 * 500 / 430, 28479 / 745 * 5, 16376 / 150 * 500 / 128]
    assert t.loc["thesis", "jobs_per_day"] == pytest.approx(np.mean(logs))


def test_readings_share_seeds_and_scale_the_rate():
    s = C.resolve_settings(yaml.safe_load(SA_YAML.read_text()))
    la = {"jobs_per_workload": 150, "workloads_per_polynomial": 1,
          "readings": {"printed": {},
                       "daily": {"rigid": {"arrival_normalisation": "log_daily_count"}}}}
    s = dataclasses.replace(s, load_attribution=la)
    a, meta = C.run_load_reading(s, "printed", None)
    b, _ = C.run_load_reading(s, "daily", None)
    assert list(a["polynomial"]) == list(b["polynomial"]) == ["ANL", "CTC", "KTH", "SDSC"]
    assert meta["jobs"] == 150 and (a["jobs"] == 150).all()
    for poly, x, y in zip(PUBLISHED_POLYNOMIALS, a.itertuples(), b.itertuples(), strict=True):
        assert y.arrival_scale == pytest.approx(
            x.arrival_scale * poly.jobs_per_day / poly.daily_integral())
        assert x.targets == y.targets  # the same jobs (cancellations are another stream)
    assert (b["days"] > a["days"]).all()  # about half the rate: longer spans
    with pytest.raises(ConfigError, match="no reading 'zzz'"):
        C.run_load_reading(s, "zzz", None)
    s = dataclasses.replace(s, load_attribution={**la, "workloads_per_polynomial": 0})
    with pytest.raises(ConfigError, match="workloads_per_polynomial"):
        C.run_load_reading(s, "printed", None)
