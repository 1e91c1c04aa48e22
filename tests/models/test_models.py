"""Model fitting (Cirne §3.3): estimators recover known parameters; bad input is refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.models.arrival import (
    MINUTES_PER_DAY,
    PUBLISHED_POLYNOMIALS,
    fit_arrival_rate,
    scale_minute,
)
from schedlab.models.compare import comparison_tables, scorecard_rows
from schedlab.models.distributions import FitError, UniformLog, fit_gamma, fit_uniform_log
from schedlab.models.fit import fit_accuracy, fit_all, fit_cancellation, fit_requested_time
from schedlab.models.synth import WorkloadParams, arrival_instants, params_from_fits, rigid_workload
from schedlab.report.scorecard import scorecard_frame
from schedlab.traces.swf import SWF_COLUMNS

RNG = np.random.default_rng(2001)


def test_uniform_log_fit_recovers_parameters():
    d = UniformLog(0.1, -0.75)
    x = d.sample(RNG, 20000)
    f = fit_uniform_log(x)
    assert f.params["chi"] == pytest.approx(0.1, rel=0.03)
    assert f.params["rho"] == pytest.approx(-0.75, abs=0.03)
    assert f.gof["r2"] > 0.99 and f.gof["ks"] < 0.02


def test_gamma_mle_recovers_parameters():
    x = RNG.gamma(0.6, 0.6, 20000)
    f = fit_gamma(x)
    assert f.params["alpha"] == pytest.approx(0.6, rel=0.03)
    assert f.params["beta"] == pytest.approx(0.6, rel=0.05)


@pytest.mark.parametrize(("values", "msg"), [
    ([1.0, np.nan, 3.0], "NaN"), ([5.0] * 10, "equal"), ([3.0], "at least"), ([-1, 0], "only 0"),
])
def test_bad_samples(values, msg):
    with pytest.raises(FitError, match=msg):
        fit_uniform_log(values)
    with pytest.raises(FitError):
        fit_gamma(values)


def swf_frame(jobs: pd.DataFrame, cancelled_status: bool = True) -> pd.DataFrame:
    """SWF columns from a synthetic rigid workload (status 5 for cancelled jobs)."""
    out = pd.DataFrame({c: np.full(len(jobs), -1, dtype=np.int64) for c in SWF_COLUMNS})
    out["job_id"] = jobs["job_id"].to_numpy()
    out["submit_time"] = jobs["submit"].to_numpy()
    canc = jobs["cancel_time"].notna().to_numpy()
    lag = np.nan_to_num(jobs["cancel_time"].to_numpy() - jobs["submit"].to_numpy())
    out["wait_time"] = np.where(canc, np.round(lag).astype(np.int64), 0)
    out["run_time"] = np.where(canc, 0, jobs["runtime"].to_numpy())
    out["alloc_procs"] = out["req_procs"] = jobs["procs"].to_numpy()
    out["req_time"] = jobs["estimate"].to_numpy()
    out["status"] = np.where(canc, 5 if cancelled_status else 1, 1)
    return out


@pytest.fixture(scope="module")
def synthetic_log():
    p = WorkloadParams(machine_size=128)
    jobs, _ = rigid_workload(p, 20000, 7)
    return p, swf_frame(jobs)


def test_fit_all_recovers_rigid_model(synthetic_log):
    p, log = synthetic_log
    fits = fit_all(log, trace="synthetic", unix_start=0, tz="UTC", machine_size=128)
    assert fits["cancellation"].params["pc"] == pytest.approx(p.rigid.pc, abs=0.01)
    assert fits["cancellation"].params["chi_lc"] == pytest.approx(p.rigid.lc.chi, rel=0.05)
    acc = fits["accuracy"].params
    # the model's accuracy is a gamma truncated at 1, so the (untruncated) MLE is compared with
    # the MLE of a large truncated sample, not with alpha_a itself
    ref = RNG.gamma(p.rigid.alpha_a, p.rigid.beta_a, 400000)
    ref = fit_gamma(ref[ref <= 1]).params
    assert acc["alpha_a"] == pytest.approx(ref["alpha"], rel=0.05)
    assert acc["beta_a"] == pytest.approx(ref["beta"], rel=0.08)
    assert fits["requested_time"].params["chi_tr"] == pytest.approx(p.rigid.tr.chi, rel=0.05)
    assert fits["partition_size"].params["machine_size"] == 128
    params, notes = params_from_fits({k: v.to_dict() for k, v in fits.items()}, 128)
    assert params.rigid.pc == fits["cancellation"].params["pc"] and not notes
    assert params.rigid.arrival[0].procs == 128


def test_no_cancellations_and_missing_estimates(synthetic_log):
    _, log = synthetic_log
    r = fit_cancellation(log.assign(status=1))
    assert r.params["pc"] is None and "no cancelled" in r.notes[0]
    with pytest.raises(FitError, match="requested time"):
        fit_accuracy(log.assign(req_time=-1))
    with pytest.raises(FitError, match="missing"):
        fit_requested_time(log.assign(req_time=-1))
    with pytest.raises(FitError, match="NaN"):
        fit_all(log.assign(run_time=np.nan), trace="x", unix_start=0)
    with pytest.raises(FitError, match="model arrival"):
        fit_all(log.iloc[:50], trace="x", unix_start=0)  # a few hours: too few days


def test_unusable_model_recorded_not_faked(synthetic_log):
    _, log = synthetic_log
    fits = fit_all(log.assign(req_time=-1), trace="noest", unix_start=0, on_error="record")
    assert not fits["accuracy"].fitted and fits["accuracy"].params == {}
    assert "requested time" in fits["accuracy"].notes[0]
    assert fits["partition_size"].fitted and fits["arrival"].fitted
    from schedlab.errors import ConfigError

    with pytest.raises(ConfigError, match="not fitted"):
        params_from_fits({k: v.to_dict() for k, v in fits.items()}, 128)


def test_arrival_fit_recovers_polynomial_and_drops_outlier_day():
    truth = PUBLISHED_POLYNOMIALS[2]  # KTH, Table 3 (polyfit order)
    t = arrival_instants(truth, 1.0, 60 * 75, np.random.default_rng(3))  # about 60 days
    burst = 40 * 86400 + 19 * 3600 + np.linspace(0, 3600, 500)  # 500 jobs 19:00-20:00, day 40
    t = np.sort(np.concatenate([t, burst])).astype(np.int64)
    fit = fit_arrival_rate(t, "UTC")
    assert "1970-02-10" in fit.days_removed  # day 40 after 1970-01-01
    m = np.arange(MINUTES_PER_DAY)
    got = np.polynomial.polynomial.polyval(scale_minute(m.astype(float)), fit.coef)
    want = truth.rate_per_minute(m)
    assert np.max(np.abs(got - want)) < 0.25 * want.max()
    assert 4 <= fit.degree <= 20 and fit.r2 > 0.5


def test_published_polynomials_are_plausible_rates():
    """Table 3 read in polyfit order: positive rates of 0-0.6 jobs/minute all day."""
    m = np.arange(MINUTES_PER_DAY)
    for p in PUBLISHED_POLYNOMIALS:
        r = np.polynomial.polynomial.polyval(scale_minute(m.astype(float)), p.coef)
        assert r.min() > -0.01 and 0.05 < r.max() < 0.6, p.name


def test_comparison_tables_and_scorecard(synthetic_log):
    _, log = synthetic_log
    fits = {"T": {k: v.to_dict() for k, v in fit_all(log, trace="T", unix_start=0).items()}}
    published = {"table6": {"X": {"pb": 0.8}, "Y": {"pb": 0.7}},
                 "table8": {"X": {"r_a_te": 0.7, "r_a_tr": 0.2}},
                 "table2": {"X": {"days": 100, "excluded": 2}}}
    tables = comparison_tables(published, {"X": "T", "Y": None}, fits, {"T": {"jobs": len(log)}})
    t6 = tables["table6"].set_index("workload")
    assert t6.loc["X", "reproduced"] == pytest.approx(fits["T"]["partition_size"]["params"]["pb"])
    assert np.isnan(t6.loc["Y", "reproduced"])
    card = scorecard_frame(scorecard_rows(tables, fits, {"X": "T", "Y": None}))
    assert set(card.loc[card["condition"] == "Y", "verdict"]) == {"not_run"}
    assert "Table 8" in set(card["item"])
    claims = card[card["tolerance"].isna()].set_index("item")
    assert tuple(claims.loc["Table 8", ["phrase", "threshold_source"]]) == ("significantly", "ours")
    assert set(claims.loc["Table 6", "phrase"]) == {"for_most"}


def test_kth_reproduction(mirror):
    """Facts of the real KTH log the thesis also reports (Tables 6-7 are counts, not fits)."""
    from schedlab.traces.swf import read_swf

    trace = read_swf(mirror / "KTH-SP2-1996-2.1-cln.swf.gz")
    fits = fit_all(trace.jobs, trace="KTH", unix_start=trace.header.unix_start_time,
                   tz=trace.header.time_zone_string)
    p = fits["partition_size"].params
    assert p["pb"] == pytest.approx(0.7345, abs=0.002)  # Table 6: 73.45%
    assert p["non_pow2_square"] == pytest.approx(0.1788, abs=0.002)  # Table 7: 17.88%
    assert fits["accuracy"].params["r_a_te"] > fits["accuracy"].params["r_a_tr"]  # Table 8
    assert fits["cancellation"].params["pc"] is None  # KTH does not record cancellations


def test_select_period_local_dates(synthetic_log):
    from schedlab.models.fit import select_period

    _, log = synthetic_log  # submit times from Unix 0 = 1970-01-01 00:00 UTC
    sub = select_period(log, 0, "UTC", "1970-01-03", "1970-01-05")
    assert sub["submit_time"].min() >= 2 * 86400 and sub["submit_time"].max() < 4 * 86400
    assert len(sub) == int(((log["submit_time"] >= 2 * 86400) & (log["submit_time"] < 4 * 86400)).sum())
    with pytest.raises(FitError, match="no job"):
        select_period(log, 0, "UTC", "1999-01-01", "1999-02-01")
    with pytest.raises(FitError, match="UnixStartTime"):
        select_period(log, None, "UTC", "1970-01-01", "1970-01-02")


def test_sdsc_thesis_window(mirror):
    """SDSC Jan-May 1999 (the thesis' window): the least-squares uniform-log fit of partition
    size reproduces Table 5, and 7 February 1999 (§3.3.1: 592 jobs, 579 from one user, between
    18:30 and 19:30) is among the uncommon days removed."""
    from schedlab.models.fit import fit_arrival, fit_partition_size, select_period
    from schedlab.traces.swf import read_swf

    trace = read_swf(mirror / "SDSC-SP2-1998-4.2-cln.swf.gz")
    h = trace.header
    jobs = select_period(trace.jobs, h.unix_start_time, h.time_zone_string,
                         "1999-01-01", "1999-06-01")
    p = fit_partition_size(jobs).params
    assert p["chi_n"] == pytest.approx(0.1150, abs=0.002)
    assert p["rho_n"] == pytest.approx(0.2537, abs=0.005)
    assert p["pb"] == pytest.approx(0.8395, abs=0.002)
    arrival = fit_arrival(jobs, h.unix_start_time, h.time_zone_string)
    assert "1999-02-07" in arrival.params["days_removed"]


def test_derived_daily_jobs_are_our_check_not_a_published_row(synthetic_log):
    """Table 3 prints polynomials, not jobs per day: the integral is ours, so its rows are our
    checks; the numbers the thesis prints (Table 6) stay the paper's rows."""
    from schedlab.report.scorecard import is_our_check
    _, log = synthetic_log
    fits = {"T": {k: v.to_dict() for k, v in fit_all(log, trace="T", unix_start=0).items()}}
    tables = comparison_tables({"table6": {"CTC": {"pb": 0.8}}}, {"CTC": "T"}, fits,
                               {"T": {"jobs": len(log)}})
    card = scorecard_frame(scorecard_rows(tables, fits, {"CTC": "T"}))
    ours = card[is_our_check(card)]
    assert list(ours["item"].unique()) == ["our checks: Table 3 (mean daily jobs, derived)"]
    assert (ours["quantity"] == "jobs_per_day").all() and len(ours) == len(PUBLISHED_POLYNOMIALS)
    assert ours["note"].str.contains("derived, not printed in the thesis").all()
    assert not is_our_check(card[card["item"] == "Table 6"]).any()


def test_cancellation_rows_not_run_when_the_log_records_no_cancellations(synthetic_log):
    """Table 4's pc and §3.3.2's lag fit: a log without status-5 jobs gives no value, which is
    missing data (not_run, a listed reason), not a failed reproduction; with them, value rows."""
    _, log = synthetic_log
    published = {"table4": {"CTC": {"pc": 0.1222}},
                 "cancellation_lag": {"CTC": {"chi_lc": 0.06421, "rho_lc": -0.318}}}
    for status, expected in ((1, {"not_run"}), (None, {"match", "close", "differs"})):
        jobs = log.assign(status=status) if status is not None else log
        assert (jobs["status"] == 5).any() == (status is None)
        fits = {"T": {k: v.to_dict() for k, v in fit_all(jobs, trace="T", unix_start=0).items()}}
        tables = comparison_tables(published, {"CTC": "T"}, fits, {"T": {"jobs": len(jobs)}})
        card = scorecard_frame(scorecard_rows(tables, fits, {"CTC": "T"}))
        rows = card[card["item"].isin(["Table 4", "§3.3.2 (lag fit)"])]
        assert len(rows) == 3 and set(rows["verdict"]) <= expected, rows["verdict"].tolist()
        if status is not None:
            assert rows["note"].str.startswith("data unavailable offline; the archive's").all()


def test_deviating_fits_carry_the_log_version_as_a_data_cause(synthetic_log):
    """A fitted parameter far from the thesis' says why (explained = data: the thesis' version of
    the log is not available); one that matches carries no cause."""
    _, log = synthetic_log
    fits = {"T": {k: v.to_dict() for k, v in fit_all(log, trace="T", unix_start=0).items()}}
    pb = fits["T"]["partition_size"]["params"]["pb"]
    for published, explained in ((pb, ""), (pb * 3, "data")):
        tables = comparison_tables({"table6": {"CTC": {"pb": published}}}, {"CTC": "T"}, fits,
                                   {"T": {"jobs": len(log)}})
        card = scorecard_frame(scorecard_rows(tables, fits, {"CTC": "T"}))
        row = card[card["item"] == "Table 6"].iloc[0]
        assert row["explained"] == explained
        if explained:
            assert row["verdict"] == "differs" and "older or shorter version" in row["cause"]
            assert row["evidence"] == "needs the thesis' version of the CTC log (Table 1)"
