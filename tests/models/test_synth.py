"""Synthetic workloads (Cirne Tables 11-12): samples follow the model, constraints, seeding."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from scipy import stats

from schedlab.errors import ConfigError
from schedlab.io import write_parquet
from schedlab.models.arrival import MINUTES_PER_DAY, PUBLISHED_POLYNOMIALS, ArrivalPolynomial
from schedlab.models.distributions import UniformLog
from schedlab.models.downey import c_max, speedup
from schedlab.models.synth import (
    ALT_COLUMNS,
    JOB_COLUMNS,
    WorkloadParams,
    apply_moldability,
    arrival_instants,
    arrival_scale,
    closest_power_of_two,
    moldable_workload,
    params_from_dict,
    rigid_workload,
)

SEED = 20010601


@pytest.fixture(scope="module")
def workload():
    return moldable_workload(params_from_dict({"moldability": {"condition_on_request": True}}),
                             4000, SEED)


def test_downey_hand_values():
    # sigma = 0: linear up to A, then flat (thesis §3.4.3 / Fig. 31)
    assert np.allclose(speedup([1, 10, 60, 100], 60, 0.0), [1, 10, 60, 60])
    # S(1) = 1 for every case, S = A beyond c_max
    for s in (0.3, 1.0, 2.5):
        assert speedup(1, 60, s) == pytest.approx(1.0)
        assert speedup(c_max(60, s) + 1, 60, s) == pytest.approx(60.0)
    # sigma = 1, n = A: A*n / (A + (n-1)/2) = 3600 / 89.5
    assert speedup(60, 60, 1.0) == pytest.approx(3600 / 89.5)
    # sigma = 2, n = 10: n A (s+1) / (s (n + A - 1) + A) = 1800 / 198
    assert speedup(10, 60, 2.0) == pytest.approx(1800 / 198)
    assert c_max(60, 0.5) == 119 and c_max(60, 2.0) == pytest.approx(60 + 120 - 2)


def test_speedup_monotone_and_bounded():
    n = np.arange(1, 400)
    for A in (2.0, 17.3, 150.0):
        for s in (0.0, 0.4, 1.0, 1.7, 4.0):
            S = speedup(n, A, s)
            assert np.all(np.diff(S) >= -1e-9) and S.max() <= A + 1e-9


def test_contract_columns(workload):
    jobs, alts = workload
    assert list(jobs.columns[: len(JOB_COLUMNS)]) == JOB_COLUMNS
    assert list(alts.columns) == ALT_COLUMNS
    assert jobs["submit"].is_monotonic_increasing
    assert (jobs["estimate"] >= jobs["runtime"]).all() and (jobs["runtime"] >= 1).all()


def test_alternatives_respect_model(workload):
    jobs, alts = workload
    j = jobs.set_index("job_id").loc[alts["job_id"]]
    n = alts["procs"].to_numpy()
    assert np.all(j["c_min"].to_numpy() <= n) and np.all(n <= j["c_max"].to_numpy())
    te = j["L"].to_numpy() / speedup(n, j["A"].to_numpy(), j["sigma"].to_numpy())
    assert np.all(np.abs(alts["runtime"].to_numpy() - np.maximum(1, te)) <= 0.5 + 1e-9)
    # the user's request is one of the alternatives, and v <= c_u
    pairs = set(zip(alts["job_id"], alts["procs"], strict=True))
    assert all((a, b) in pairs for a, b in zip(jobs["job_id"], jobs["procs"], strict=True))
    v = alts.groupby("job_id").size()
    assert (v.to_numpy() <= jobs.set_index("job_id").loc[v.index, "c_u"].to_numpy()).all()
    assert jobs.attrs["info"]["moldability"]["widened"] == 0


def test_rigid_samples_match_model():
    p = WorkloadParams()
    jobs, _ = rigid_workload(p, 6000, SEED)
    r = p.rigid
    assert stats.kstest(jobs["tr"], r.tr.cdf).pvalue > 0.01
    trunc = stats.gamma(r.alpha_a, scale=r.beta_a)
    assert stats.kstest(jobs["accuracy"], lambda x: trunc.cdf(x) / trunc.cdf(1.0)).pvalue > 0.01
    assert np.allclose(jobs["te"], jobs["tr"] * jobs["accuracy"])
    frac = jobs["cancel_time"].notna().mean()
    assert abs(frac - r.pc) < 4 * np.sqrt(r.pc * (1 - r.pc) / len(jobs))
    lag = (jobs["cancel_time"] - jobs["submit"]).dropna()
    assert stats.kstest(lag, r.lc.cdf).pvalue > 0.01
    pow2 = (jobs["procs"] & (jobs["procs"] - 1)) == 0
    # P(power of two) = pb + (1 - pb) * P(uniform-log draw already a power of two)
    n_int = np.arange(1, 200)
    pmf = r.n.cdf(n_int) - r.n.cdf(n_int - 1)
    p_native = pmf[(n_int & (n_int - 1)) == 0].sum()
    expect = r.pb + (1 - r.pb) * p_native
    assert abs(pow2.mean() - expect) < 4 * np.sqrt(expect * (1 - expect) / len(jobs))


def test_moldability_marginals():
    jobs, _ = moldable_workload(params_from_dict({"moldability": {"condition_on_request": True}}),
                                6000, SEED + 1)
    p = WorkloadParams().moldability
    assert p.condition_on_request is False  # the default (evidence in schedlab.models.synth)
    # c_u: 5% ones, the rest ceil of a uniform-log conditioned on > 1
    assert abs((jobs["c_u"] == 1).mean() - p.p_cu1) < 0.015
    assert jobs["sigma"].min() >= 0
    # c_min = 1 for about rho = 62.8% of unconditioned draws (§5.3.1: 62.6%); conditioning on
    # c_min <= n raises it a little
    assert 0.72 < (jobs["c_min"] == 1).mean() < 0.82
    free = params_from_dict({"moldability": {"condition_on_request": False}})
    jobs, alts = moldable_workload(free, 6000, SEED + 1)
    assert abs((jobs["c_min"] == 1).mean() - p.c_min.rho) < 0.02
    j = jobs.set_index("job_id").loc[alts["job_id"]]
    n = alts["procs"].to_numpy()
    assert np.all((j["c_min"].to_numpy() <= n) & (n <= j["c_max"].to_numpy()))


def test_arrivals_follow_polynomial():
    poly = PUBLISHED_POLYNOMIALS[1]  # CTC
    t = arrival_instants(poly, 1.0, 20000, np.random.default_rng(SEED))
    minute = (t // 60).astype(int) % MINUTES_PER_DAY
    rate = poly.rate_per_minute(np.arange(MINUTES_PER_DAY))
    cdf = np.concatenate([[0], np.cumsum(rate) / rate.sum()])
    assert stats.kstest(minute + 0.5, lambda x: np.interp(x, np.arange(1441), cdf)).pvalue > 0.01


def test_byte_reproducible(tmp_path):
    a = moldable_workload(None, 500, 99)
    b = moldable_workload(None, 500, np.random.SeedSequence(99))
    for i, frame in enumerate((a[0], b[0])):
        write_parquet(tmp_path / f"{i}.parquet", frame.drop(columns=[]), {"seed": 99})
    assert (tmp_path / "0.parquet").read_bytes() == (tmp_path / "1.parquet").read_bytes()
    assert a[1].equals(b[1])
    c = moldable_workload(None, 500, 100)
    assert not c[0]["submit"].equals(a[0]["submit"])


def test_kappa_L_scales_requests_and_arrivals():
    base, _ = rigid_workload(WorkloadParams(), 3000, 5)
    p2 = params_from_dict({"rigid": {"kappa_L": 2.0}})
    fast, _ = rigid_workload(p2, 3000, 5)
    assert np.allclose(fast["tr"], 2 * base["tr"])
    assert fast["submit"].iloc[-1] < 0.6 * base["submit"].iloc[-1]


def test_closest_power_of_two():
    assert closest_power_of_two(np.array([1, 2, 3, 5, 6, 11, 12, 100])).tolist() == \
        [1, 2, 4, 4, 8, 8, 16, 128]


def test_bad_parameters():
    with pytest.raises(ConfigError, match="n_jobs"):
        rigid_workload(WorkloadParams(), 0, 1)
    with pytest.raises(ConfigError, match=r"unknown parameter rigid\.bogus"):
        params_from_dict({"rigid": {"bogus": 1}})
    with pytest.raises(ConfigError, match="pc"):
        params_from_dict({"rigid": {"pc": 1.5}})
    jobs, _ = rigid_workload(WorkloadParams(machine_size=64), 50, 3)
    with pytest.raises(ConfigError, match="procs"):
        apply_moldability(jobs.assign(procs=0), WorkloadParams(machine_size=64), 1)


def test_small_machine_caps_sizes():
    p = params_from_dict({"machine_size": 16})
    jobs, alts = moldable_workload(p, 1000, 11)
    assert jobs["procs"].max() <= 16 and alts["procs"].max() <= 16
    assert UniformLog(0.12, 0.2).sample_int(np.random.default_rng(1), 100, high=16).max() <= 16


def test_cli_synth_writes_readable_files(tmp_path, capsys):
    from schedlab.cli.main import main
    from schedlab.io import read_parquet
    from schedlab.traces.swf import read_swf

    assert main(["synth", str(tmp_path / "w"), "--n-jobs", "300", "--seed", "4"]) == 0
    jobs, meta = read_parquet(tmp_path / "w" / "jobs.parquet")
    alts, _ = read_parquet(tmp_path / "w" / "alternatives.parquet")
    swf = read_swf(tmp_path / "w" / "workload.swf")
    assert meta["seed_entropy"] == 4 and len(jobs) == 300 == swf.n_jobs
    assert (swf.jobs["req_procs"].to_numpy() == jobs["procs"].to_numpy()).all()
    assert set(alts["job_id"]) == set(jobs["job_id"])
    assert main(["synth", str(tmp_path / "x"), "--n-jobs", "0"]) == 2
    assert "argument --n-jobs: must be >= 1" in capsys.readouterr().err


def test_kind_per_job_rounds_every_request_of_power_of_two_jobs():
    """§5.3.2 reading: a power-of-2 job's requests are all powers of two (so at most 9 on 500
    processors); a non-power-of-2 job's extra sizes are never rounded."""
    p = params_from_dict({"moldability": {"kind": "per_job"}})
    jobs, alts = moldable_workload(p, 4000, SEED + 2)
    own = jobs.set_index("job_id")["procs"]
    is_p2 = lambda x: (x & (x - 1)) == 0  # noqa: E731
    a = alts.assign(user_p2=is_p2(own.loc[alts["job_id"]].to_numpy()))
    assert is_p2(a.loc[a["user_p2"], "procs"]).all()
    assert a[a["user_p2"]].groupby("job_id").size().max() <= 9
    assert (~is_p2(a.loc[~a["user_p2"], "procs"])).any()
    # per_request (default) rounds each size independently: power-of-2 jobs get odd sizes too
    _, alts2 = moldable_workload(WorkloadParams(), 4000, SEED + 2)
    b = alts2.assign(user_p2=is_p2(own.loc[alts2["job_id"]].to_numpy()))
    assert (~is_p2(b.loc[b["user_p2"], "procs"])).any()
    with pytest.raises(ConfigError, match="kind"):
        params_from_dict({"moldability": {"kind": "sometimes"}})


def test_arrival_factor_scales_the_rate_only():
    fast, finfo = rigid_workload(WorkloadParams(), 3000, SEED)
    slow, info = rigid_workload(params_from_dict({"rigid": {"arrival_factor": 0.5}}), 3000, SEED)
    span = lambda j: j["submit"].iloc[-1] - j["submit"].iloc[0]  # noqa: E731
    assert 1.7 < span(slow) / span(fast) < 2.3
    assert np.array_equal(slow["estimate"], fast["estimate"])  # requested times unchanged
    assert info["arrival_polynomial"] == finfo["arrival_polynomial"]
    assert info["arrival_scale"] == pytest.approx(finfo["arrival_scale"] / 2)
    with pytest.raises(ConfigError, match="arrival_factor"):
        params_from_dict({"rigid": {"arrival_factor": 0}})


def test_published_polynomials_integrate_to_about_twice_the_logs_daily_counts():
    """Table 3 read in arrivals per minute, over a day, vs Table 1 jobs / Table 2 days."""
    integral = {p.name: p.daily_integral() for p in PUBLISHED_POLYNOMIALS}
    logs = {p.name: p.jobs_per_day for p in PUBLISHED_POLYNOMIALS}
    assert logs == pytest.approx({"ANL": 7995 / 78, "CTC": 79279 / 339, "KTH": 28479 / 745,
                                  "SDSC": 16376 / 150})
    assert integral == pytest.approx({"ANL": 194.9, "CTC": 454.7, "KTH": 75.6, "SDSC": 209.9},
                                     abs=0.1)
    assert all(1.85 < integral[k] / logs[k] < 2.0 for k in logs)
    p = PUBLISHED_POLYNOMIALS[0]
    assert ArrivalPolynomial.from_dict(p.to_dict()) == p


# A constant rate of 0.5 (arrivals per unit), fitted to a log of 360 jobs/day on 100 processors:
# read per minute a day holds 720 arrivals on its own machine, 3,600 on 500 processors (P/O = 5).
FLAT = ArrivalPolynomial("flat", (0.5,), 100, 360.0)
FLAT_READINGS = [  # (rigid overrides, arrivals per day on the 500-processor machine)
    ({}, 3600.0),
    ({"arrival_unit": "ten_minutes"}, 360.0),
    ({"arrival_unit": "hour"}, 60.0),
    ({"arrival_normalisation": "log_daily_count"}, 1800.0),  # 360/day x P/O
    ({"arrival_normalisation": "log_daily_count", "arrival_unit": "hour"}, 1800.0),
    ({"scale_to_machine": False}, 720.0),
    ({"arrival_factor": 0.5, "kappa_L": 2.0}, 3600.0),
]


@pytest.mark.parametrize(("rigid", "per_day"), FLAT_READINGS)
def test_arrival_readings_hand_values(rigid, per_day):
    p = replace(params_from_dict({"rigid": rigid}), machine_size=500)
    p = replace(p, rigid=replace(p.rigid, arrival=(FLAT,)))
    assert arrival_scale(p, FLAT) * 0.5 * MINUTES_PER_DAY == pytest.approx(per_day)
    jobs, info = rigid_workload(p, 4000, SEED)
    assert info["arrival_scale"] == pytest.approx(per_day / 720.0)
    days = (jobs["submit"].iloc[-1] - jobs["submit"].iloc[0]) / 86400
    assert 3999 / days == pytest.approx(per_day, rel=0.06)  # Poisson: sd 1.6%


def test_arrival_readings_bad_values():
    with pytest.raises(ConfigError, match="arrival_unit"):
        params_from_dict({"rigid": {"arrival_unit": "second"}})
    with pytest.raises(ConfigError, match="arrival_normalisation"):
        params_from_dict({"rigid": {"arrival_normalisation": "weekly"}})
    with pytest.raises(ConfigError, match="accuracy_above_1"):
        params_from_dict({"rigid": {"accuracy_above_1": "wrap"}})
    unknown = {"name": "x", "coef": [0.1], "procs": 10}  # a polynomial without its log's count
    with pytest.raises(ConfigError, match="x has no jobs_per_day"):
        params_from_dict({"rigid": {"arrival": [unknown],
                                    "arrival_normalisation": "log_daily_count"}})


def test_accuracy_above_1_redraw_or_clip():
    """gamma(0.6, scale 0.6): P(a > 1) = 0.088; redrawn, the mean is E[a | a <= 1] = 0.247; clipped,
    E[min(a, 1)] = 0.313 and te = tr for the clipped jobs."""
    g = stats.gamma(0.6, scale=0.6)
    above = float(g.sf(1.0))
    mean_redraw = float(g.expect(lambda x: x, ub=1.0) / g.cdf(1.0))
    mean_clip = float(g.expect(lambda x: x, ub=1.0) + above)
    assert (round(above, 3), round(mean_redraw, 3), round(mean_clip, 3)) == (0.088, 0.247, 0.313)
    redraw, _ = rigid_workload(WorkloadParams(), 20000, SEED)
    clip, _ = rigid_workload(params_from_dict({"rigid": {"accuracy_above_1": "clip"}}), 20000, SEED)
    assert redraw["accuracy"].max() < 1 and clip["accuracy"].max() == 1
    assert (clip["accuracy"] == 1).mean() == pytest.approx(above, abs=0.01)
    assert redraw["accuracy"].mean() == pytest.approx(mean_redraw, abs=0.005)
    assert clip["accuracy"].mean() == pytest.approx(mean_clip, abs=0.005)
    one = clip["accuracy"] == 1
    assert np.allclose(clip.loc[one, "te"], clip.loc[one, "tr"])
    assert np.array_equal(clip["submit"], redraw["submit"])  # arrivals are another stream
