"""Distributed-server simulator: hand-worked schedules, tie rules, LWL ≡ Central-Queue, no overlap."""

import numpy as np
import pytest

from schedlab.distserver.simulate import POLICIES, fcfs_hosts, simulate
from schedlab.distserver.workload import (
    poisson_arrivals,
    scaled_trace_arrivals,
    select_jobs,
    unit_exponential_gaps,
)
from schedlab.errors import ConfigError


def _reference_fcfs(arrival, service, host, h):
    free = [0.0] * h
    start = np.empty(len(arrival))
    for i, (a, x, k) in enumerate(zip(arrival, service, host, strict=True)):
        start[i] = max(a, free[k])
        free[k] = start[i] + x
    return start, start + service


def _workload(n=400, seed=0, integer=False):
    rng = np.random.default_rng(seed)
    if integer:  # many exact ties between arrivals and completions
        return np.cumsum(rng.integers(0, 3, n)).astype(float), rng.integers(1, 8, n).astype(float)
    return np.cumsum(rng.exponential(1.0, n)), rng.pareto(1.5, n) + 0.1


def _run(policy, a, x, h, seed=0):
    kw = {"rng": np.random.default_rng(seed)}
    if policy == "sita":
        kw["cutoffs"] = list(np.quantile(x, np.arange(1, h) / h) + 1e-9)
    if policy == "sita_groups":
        kw |= {"cutoffs": [float(np.median(x))], "short_hosts": 1}
    return simulate(a, x, h, policy, **kw)


def test_hand_worked_lwl_and_round_robin():
    a = np.array([0.0, 1.0, 2.0, 3.0])
    x = np.array([10.0, 1.0, 1.0, 1.0])
    s = simulate(a, x, 2, "lwl")
    assert s.host.tolist() == [0, 1, 1, 1]  # host 1 frees at 2.0 exactly: idle for the arrival at 2
    assert s.end.tolist() == [10.0, 2.0, 3.0, 4.0]
    rr = simulate(a, x, 2, "round_robin")
    assert rr.host.tolist() == [0, 1, 0, 1]
    assert rr.start.tolist() == [0.0, 1.0, 10.0, 3.0]
    assert rr.slowdown.tolist() == [1.0, 1.0, 9.0, 1.0]
    sq = simulate(a, x, 2, "shortest_queue")
    assert sq.host.tolist() == [0, 1, 1, 1]  # host 0 holds one job, host 1 none at each arrival


def test_shortest_queue_differs_from_lwl():
    a = np.array([0.0, 0.0, 0.0, 1.0])
    x = np.array([100.0, 1.0, 1.0, 1.0])
    # t=0: job0->h0, job1->h1 (0 jobs), job2: both hold one job -> lowest number h0
    assert simulate(a, x, 2, "shortest_queue").host.tolist() == [0, 1, 0, 1]
    assert simulate(a, x, 2, "lwl").host.tolist() == [0, 1, 1, 1]


def test_sita_assignment_boundaries():
    a = np.arange(5.0)
    x = np.array([1.0, 5.0, 5.5, 10.0, 11.0])
    s = simulate(a, x, 3, "sita", cutoffs=[5.0, 10.0])
    assert s.host.tolist() == [0, 0, 1, 1, 2]
    with pytest.raises(ConfigError):
        simulate(a, x, 3, "sita", cutoffs=[10.0, 5.0])
    with pytest.raises(ConfigError):
        simulate(a, x, 3, "sita", cutoffs=[5.0])


@pytest.mark.parametrize("integer", [False, True])
def test_fcfs_vectorized_equals_reference(integer):
    a, x = _workload(500, 1, integer)
    host = np.random.default_rng(2).integers(0, 3, len(a))
    s, e = fcfs_hosts(a, x, host, 3)
    rs, re = _reference_fcfs(a, x, host, 3)
    np.testing.assert_allclose(s, rs, rtol=0, atol=1e-7)
    np.testing.assert_allclose(e, re, rtol=0, atol=1e-7)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("integer", [False, True])
def test_host_never_runs_two_jobs_at_once(policy, integer):
    a, x = _workload(600, 3, integer)
    h = 4
    s = _run(policy, a, x, h)
    assert set(np.unique(s.host)) <= set(range(h))
    np.testing.assert_allclose(s.end - s.start, x, rtol=1e-12, atol=1e-9)
    assert np.all(s.start >= a - 1e-9)
    for k in range(h):
        idx = np.flatnonzero(s.host == k)
        order = idx[np.argsort(s.start[idx], kind="stable")]
        # tolerance: 1e-7 s of floating-point rounding in the vectorized Lindley sums
        assert np.all(s.start[order][1:] >= s.end[order][:-1] - 1e-7)
        assert np.all(np.diff(order) > 0)  # FCFS: served in arrival order


@pytest.mark.parametrize("integer", [False, True])
@pytest.mark.parametrize("h", [1, 2, 5])
def test_lwl_equals_central_queue_job_for_job(integer, h):
    a, x = _workload(800, 10 + h, integer)
    lwl = simulate(a, x, h, "lwl")
    cq = simulate(a, x, h, "central_queue")
    np.testing.assert_array_equal(lwl.host, cq.host)
    np.testing.assert_array_equal(lwl.start, cq.start)  # bit for bit
    np.testing.assert_array_equal(lwl.end, cq.end)
    # and both equal FCFS per host on LWL's assignment (vectorized Lindley, up to rounding)
    _, e = fcfs_hosts(a, x, lwl.host, h)
    np.testing.assert_allclose(e, lwl.end, rtol=0, atol=1e-7)


def test_sita_groups_keeps_classes_apart():
    a, x = _workload(300, 4)
    c = float(np.median(x))
    s = simulate(a, x, 5, "sita_groups", cutoffs=[c], short_hosts=2)
    assert np.all(s.host[x <= c] < 2)
    assert np.all(s.host[x > c] >= 2)


def test_random_is_seeded_and_errors():
    a, x = _workload(50, 5)
    r1 = simulate(a, x, 3, "random", rng=np.random.default_rng(9))
    r2 = simulate(a, x, 3, "random", rng=np.random.default_rng(9))
    np.testing.assert_array_equal(r1.host, r2.host)
    with pytest.raises(ConfigError):
        simulate(a, x, 3, "random")
    with pytest.raises(ConfigError, match="unknown policy"):
        simulate(a, x, 3, "fastest")
    with pytest.raises(ValueError):
        simulate(a[::-1], x, 3, "lwl")


def test_arrivals_hit_the_load():
    gaps = unit_exponential_gaps(200_000, np.random.SeedSequence(5))
    a = poisson_arrivals(gaps, 2.0)
    assert 1 / np.diff(a).mean() == pytest.approx(2.0, rel=0.01)
    submit = np.array([0.0, 10.0, 40.0, 40.0, 100.0])
    s = scaled_trace_arrivals(submit, 0.5)
    assert np.diff(s).mean() == pytest.approx(2.0)
    np.testing.assert_allclose(s, submit * 0.08)


def test_select_jobs_counts_every_rule():
    import pandas as pd
    jobs = pd.DataFrame({"submit_time": [5, 1, 3, 4, 6], "run_time": [10, 20, -1, 0, 7],
                         "alloc_procs": [8, 8, 8, -1, 4], "req_procs": [8, 8, 8, 8, 4]})
    with pytest.raises(ConfigError):
        select_jobs(jobs, procs=[8])  # only 2 usable jobs
    jobs = pd.concat([jobs] * 2, ignore_index=True)
    st = select_jobs(jobs, procs=[8])
    assert st.report == {"trace_jobs": 10, "subset_jobs": 8, "dropped_unknown_or_zero_run_time": 4,
                         "jobs": 4}
    assert st.service.tolist() == [20.0, 20.0, 10.0, 10.0]  # submit order 1, 1, 5, 5
    first, second = st.halves()
    assert first.service.tolist() == [20.0, 20.0] and second.service.tolist() == [10.0, 10.0]
    alt1, _ = st.halves("alternate")
    assert alt1.service.tolist() == [20.0, 10.0]
