"""SITA cutoff search (§4.1, §4.4): each returned split satisfies its policy's definition."""

import numpy as np
import pytest

from schedlab.distserver import cutoffs as co
from schedlab.distserver.queueing import sita_policy


@pytest.fixture(scope="module")
def sample():
    # heavy-tailed, integer seconds (with repeated values) like a trace
    return np.ceil(np.random.default_rng(42).lognormal(6.0, 1.8, 1500))


def _all_splits(x):
    xs = np.unique(x)
    return xs[:-1]


def test_sweep_equals_direct_analysis(sample):
    load = 0.6
    sw = co.sweep_two_hosts(sample, load)
    lam = 2 * load / sample.mean()
    for i in (0, len(sw.cutoff) // 3, len(sw.cutoff) - 5):
        direct = sita_policy(lam, sample, [sw.cutoff[i]])
        if np.isfinite(direct["mean_slowdown"]):
            assert sw.slowdown[i] == pytest.approx(direct["mean_slowdown"])
        assert [sw.rho1[i], sw.rho2[i]] == pytest.approx(direct["host_rho"])
    np.testing.assert_array_equal(sw.cutoff, _all_splits(sample))


def test_sita_e_balances_load(sample):
    c = co.sita_e_cutoffs(sample, 2)[0]
    share = sample[sample <= c].sum() / sample.sum()
    for other in _all_splits(sample):
        assert abs(share - 0.5) <= abs(sample[sample <= other].sum() / sample.sum() - 0.5) + 1e-12
    sw = co.sweep_two_hosts(sample, 0.5)
    assert sw.cutoff[co.sita_e_index(sw)] == c
    c4 = co.sita_e_cutoffs(sample, 4)
    assert len(c4) == 3 and c4 == sorted(c4)
    host = np.searchsorted(c4, sample, side="left")
    shares = np.array([sample[host == k].sum() for k in range(4)]) / sample.sum()
    assert np.all(np.abs(shares - 0.25) <= sample.max() / sample.sum() + 1e-12)


@pytest.mark.parametrize("load", [0.3, 0.7, 0.9])
def test_sita_u_opt_is_the_feasible_minimum(sample, load):
    sw = co.sweep_two_hosts(sample, load)
    i = co.sita_u_opt(sw)
    lam = 2 * load / sample.mean()
    best = min(sita_policy(lam, sample, [c])["mean_slowdown"] for c in _all_splits(sample))
    assert sw.feasible[i]
    assert sw.slowdown[i] == pytest.approx(best)
    assert sw.slowdown[i] <= sw.slowdown[co.sita_e_index(sw)]


@pytest.mark.parametrize("load", [0.3, 0.7, 0.9])
def test_sita_u_fair_equalizes_slowdowns(sample, load):
    sw = co.sweep_two_hosts(sample, load)
    i = co.sita_u_fair(sw)
    gap = abs(sw.slowdown_short[i] - sw.slowdown_long[i])
    assert sw.feasible[i]
    assert gap == np.min(np.abs(sw.slowdown_short - sw.slowdown_long)[sw.feasible])
    # the class slowdowns cross inside the feasible range; the fair split sits at a crossing
    f = np.flatnonzero(sw.feasible)
    d = (sw.slowdown_short - sw.slowdown_long)[f]
    assert d.min() <= 0 <= d.max()
    cross = np.flatnonzero(np.sign(d[:-1]) != np.sign(d[1:]))
    assert gap <= min(max(abs(d[j]), abs(d[j + 1])) for j in cross)
    if load <= 0.7:  # away from saturation the discrete crossing is tight
        assert gap / sw.slowdown[i] < 0.05


def test_sita_u_unbalances_load_toward_host2(sample):
    """§4.3: both SITA-U policies underload Host 1 at moderate load."""
    sw = co.sweep_two_hosts(sample, 0.5)
    assert sw.load_fraction_host1[co.sita_u_opt(sw)] < 0.5
    assert sw.load_fraction_host1[co.sita_u_fair(sw)] < 0.5
    r = co.rule_of_thumb(sw, 0.5)
    assert abs(sw.load_fraction_host1[r] - 0.25) <= sample.max() / sample.sum()


def test_infeasible_load_raises():
    x = np.array([1.0, 1.0, 1.0, 1000.0])  # one job is > half the work
    sw = co.sweep_two_hosts(x, 0.99)
    assert not sw.feasible.any()
    with pytest.raises(ValueError, match="no feasible"):
        co.sita_u_opt(sw)


def test_simulated_sweep_picks_consistent_rows(sample):
    load = 0.6
    sw = co.sweep_two_hosts(sample, load)
    grid = co.candidate_grid(sw, 15)
    assert len(grid) >= 5 and np.all(np.isin(grid, sw.cutoff))
    lam = 2 * load / sample.mean()
    rng = np.random.default_rng(1)
    arrivals = [np.cumsum(rng.exponential(1 / lam, len(sample))) for _ in range(3)]
    df = co.simulated_sweep(arrivals, sample, grid)
    opt, fair = co.pick_simulated(df)
    assert df["slowdown"].iloc[opt] == df["slowdown"].min()
    gaps = (df["slowdown_short"] - df["slowdown_long"]).abs()
    assert gaps.iloc[fair] == gaps.min()
