"""Theorem 1 (P–K) and the M/G/h approximation: hand-computed values and long simulations.

Simulation tolerance: 5% relative on the mean waiting time, with a fixed seed and 300 000 jobs at
ρ = 0.7 (the batch-means standard error there is about 1–2%).
"""

import math

import numpy as np
import pytest

from schedlab.distserver import queueing as q
from schedlab.distserver.simulate import simulate

TOL = 0.05


def test_moments_hand_example():
    m = q.Moments.of(np.array([1.0, 2.0, 4.0]))
    assert m.n == 3
    assert m.mean == pytest.approx(7 / 3)
    assert m.second == pytest.approx(21 / 3)
    assert m.inv_mean == pytest.approx((1 + 0.5 + 0.25) / 3)
    assert m.scv == pytest.approx(7 / (49 / 9) - 1)
    with pytest.raises(ValueError):
        q.Moments.of(np.array([1.0, 0.0]))


def test_pk_hand_values():
    # M/M/1, λ=0.5, E[X]=1, E[X²]=2: E[W] = 0.5·2 / (2·0.5) = 1
    assert q.pk_mean_wait(0.5, 1.0, 2.0) == pytest.approx(1.0)
    # M/D/1, λ=0.5, X=1: E[W] = 0.5 / (2·0.5) = 0.5
    assert q.pk_mean_wait(0.5, 1.0, 1.0) == pytest.approx(0.5)
    # λ=0.001, X ∈ {1, 1000} equally likely: E[X]=500.5, E[X²]=500000.5, ρ=0.5005
    assert q.pk_mean_wait(0.001, 500.5, 500000.5) == pytest.approx(500.0005 / 0.999)
    assert q.pk_mean_wait(1.0, 1.0, 1.0) == math.inf


def test_theorem1_slowdown_and_queue():
    m = q.Moments.of(np.array([1.0, 1000.0]))
    r = q.mg1(0.001, m, slowdown="wait")
    w = 0.001 * 500000.5 / (2 * (1 - 0.5005))
    assert r["mean_wait"] == pytest.approx(w)
    assert r["mean_slowdown"] == pytest.approx(w * (1 + 0.001) / 2)
    assert r["mean_queue"] == pytest.approx(0.001 * w)
    assert q.mg1(0.001, m)["mean_slowdown"] == pytest.approx(1 + w * 1.001 / 2)
    with pytest.raises(ValueError):
        q.slowdown_from_wait(1.0, 1.0, "bogus")


def test_erlang_c_and_mmh_hand_values():
    # M/M/2 with a = λE[X] = 1 (ρ = 0.5): C = 1/3, E[Q] = C ρ/(1-ρ) = 1/3
    assert q.erlang_c(2, 1.0) == pytest.approx(1 / 3)
    assert q.mmh_mean_queue(1.0, 1.0, 2) == pytest.approx(1 / 3)
    # h = 1: C = ρ, E[Q] = ρ²/(1-ρ)
    assert q.erlang_c(1, 0.7) == pytest.approx(0.7)
    assert q.mmh_mean_queue(0.7, 1.0, 1) == pytest.approx(0.49 / 0.3)
    assert q.erlang_c(3, 3.5) == 1.0


def test_mgh_reduces_to_pk_for_one_host():
    m = q.Moments.of(np.array([1.0, 3.0, 10.0, 50.0]))
    lam = 0.5 / m.mean
    pk_queue = lam * q.pk_mean_wait(lam, m.mean, m.second)
    assert q.mgh_mean_queue(lam, m, 1) == pytest.approx(pk_queue)
    assert q.mgh_mean_queue(lam, m, 1, factor="paper") == pytest.approx(2 * pk_queue)
    assert q.lwl_policy(lam, m, 1)["mean_wait"] == pytest.approx(q.pk_mean_wait(lam, m.mean,
                                                                               m.second))


def test_random_and_sita_analysis_consistent():
    x = np.array([1.0, 2.0, 50.0, 100.0])
    m = q.Moments.of(x)
    lam = 0.6 * 2 / m.mean
    assert q.random_policy(lam, m, 2) == q.mg1(lam / 2, m)
    r = q.sita_policy(lam, x, [2.0])
    h1 = q.mg1(lam / 2, q.Moments.of(x[:2]))
    h2 = q.mg1(lam / 2, q.Moments.of(x[2:]))
    assert r["mean_slowdown"] == pytest.approx(0.5 * h1["mean_slowdown"] + 0.5 * h2["mean_slowdown"])
    assert r["host_rho"] == pytest.approx([h1["rho"], h2["rho"]])


def _poisson(n, lam, seed):
    return np.cumsum(np.random.default_rng(seed).exponential(1 / lam, size=n))


def test_mm1_simulation_matches_pk():
    n, lam = 300_000, 0.7
    rng = np.random.default_rng(20040101)
    x = rng.exponential(1.0, size=n)
    s = simulate(_poisson(n, lam, 1), x, 1, "round_robin")
    assert s.wait.mean() == pytest.approx(q.pk_mean_wait(lam, 1.0, 2.0), rel=TOL)


def test_md1_simulation_matches_pk_and_slowdown():
    n, lam = 300_000, 0.7
    x = np.ones(n)
    s = simulate(_poisson(n, lam, 2), x, 1, "lwl")
    w = q.pk_mean_wait(lam, 1.0, 1.0)
    assert s.wait.mean() == pytest.approx(w, rel=TOL)
    assert s.slowdown.mean() == pytest.approx(q.mg1(lam, q.Moments.of(x[:10]))["mean_slowdown"],
                                              rel=TOL)


def test_mm2_lwl_simulation_matches_erlang_c():
    """LWL ≡ M/G/h; with exponential service the approximation is exact (factor 1)."""
    n, lam = 200_000, 1.4
    x = np.random.default_rng(7).exponential(1.0, size=n)
    s = simulate(_poisson(n, lam, 3), x, 2, "lwl")
    assert s.wait.mean() * lam == pytest.approx(q.mmh_mean_queue(lam, 1.0, 2), rel=TOL)
