"""Perković & Keleher 2000 schedulers: hand cases for every queue order, guarantees vs -NG,
speculation kill/requeue, test runs, adaptation, starvation bound, and random-workload properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.sim.job import Alternative, SimJob
from schedlab.sim.profile import Profile
from schedlab.sim.schedulers import adaptation as adapt
from schedlab.sim.schedulers import queue_orders as qo
from schedlab.sim.schedulers import speculative as sp
from schedlab.sim.schedulers.perkovic import Perkovic, PKConfig
from schedlab.sim.schedulers.perkovic_runs import pk_jobs, run_engine, simulate_pk
from schedlab.sim.schedulers.speculative import hole, hole_released

SEED = np.random.SeedSequence(7)


def run(jobs, machine, cfg, seed=SEED):
    submit, runtime, estimate, procs = (np.array(c, dtype=float) for c in zip(*jobs, strict=True))
    return simulate_pk(submit, runtime, estimate, procs.astype(int), machine, cfg, seed)


def run_with(jobs, machine, cfg):
    """(per-job arrays, the scheduler after the run)."""
    sched = Perkovic(cfg, SEED, n_jobs=len(jobs))
    return run_engine(pk_jobs(*zip(*jobs, strict=True)), machine, sched), sched


# ------------------------------------------------------------------------------ profile
def test_hole_from_the_origin():
    p = Profile(4, 0)
    p.reserve(0, 10, 3)      # 1 free on [0,10)
    p.reserve(20, 5, 4)      # 0 free on [20,25)
    assert hole(p, 1) == 20 and hole(p, 2) == 0
    p.advance(25)
    assert hole(p, 4) == math.inf


def test_hole_released_by_hand():
    """1 free on [0,10), 0 on [20,25); giving back a 3-wide slot [0,10) or a 4-wide [20,25)."""
    p = Profile(4, 0)
    p.reserve(0, 10, 3)
    p.reserve(20, 5, 4)
    assert hole_released(p, 2, 0, 10, 3) == 20  # [0,10) now has 4 free
    assert hole_released(p, 4, 0, 10, 3) == 20
    assert hole_released(p, 4, 5, 10, 3) == 0  # [0,5) keeps its 1 free
    assert hole_released(p, 1, 20, 25, 4) == math.inf
    assert hole_released(p, 2, 20, 25, 4) == 0  # the slot lies after the shortage at 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 20), st.integers(1, 4)),
                min_size=1, max_size=8), st.integers(0, 7), st.integers(1, 4))
def test_hole_released_equals_release_thenhole(slots, which, procs):
    """The hole once a held slot is given back, read without giving it back."""
    p = Profile(4, 0)
    held = []
    for s, d, q in slots:
        if p.fits(q, s, d):
            p.reserve(s, d, q)
            held.append((s, d, q))
    s, d, q = held[which % len(held)]
    got = hole_released(p, procs, s, s + d, q)
    before = (list(p.t), list(p.free))
    p.release(s, d, q)
    assert got == hole(p, procs)
    p.reserve(s, d, q)
    assert (p.t, p.free) == before  # release and reserve again: the same profile


# ------------------------------------------------------------------------------ queue orders
def test_sort_queue_criteria_by_hand():
    submit = np.array([0.0, 1.0, 2.0])
    est = np.array([100.0, 10.0, 50.0])
    prio = np.array([1.0, 3.0, 3.0])
    rnd = np.array([0.9, 0.2, 0.5])
    order = {o: list(qo.sort_queue(o, submit, est, prio, rnd, now=10.0)) for o in qo.ORDERS}
    assert order["D"] == [0, 1, 2]                  # longest delay first
    assert order["P"] == [1, 2, 0]                  # 3, 3 (tie: earlier submit), 1
    assert order["R"] == [0, 2, 1]
    assert order["1/L"] == [1, 2, 0]
    assert order["P/L"] == [1, 2, 0]                # 0.3, 0.06, 0.01
    assert order["R/L"] == [1, 2, 0]                # 0.02, 0.01, 0.009
    tie = qo.sort_queue("1/L", np.array([5.0, 1.0]), np.array([10.0, 10.0]), z2 := np.zeros(2), z2, 9)
    assert list(tie) == [1, 0]                      # equal criterion: earlier submission first


def test_weight_overrides_criterion_after_bound():
    est = np.array([1000.0, 10.0])
    z = np.zeros(2)
    w = 1e-5
    bound = qo.starvation_bound(qo.criterion_range("1/L", 10, 1000), w)
    assert bound == pytest.approx((1 / 10 - 1 / 1000) / w)
    late = np.array([0.0, bound + 1])     # job 1 submitted more than the bound after job 0
    early = np.array([0.0, bound / 2])
    assert list(qo.sort_queue("1/L", late, est, z, z, bound + 5, weight=0)) == [1, 0]
    assert list(qo.sort_queue("1/L", late, est, z, z, bound + 5, weight=w)) == [0, 1]
    assert list(qo.sort_queue("1/L", early, est, z, z, bound + 5, weight=w)) == [1, 0]
    assert qo.starvation_bound(1.0, 0.0) == math.inf


def test_default_weight_and_labels():
    assert qo.default_weight("R", 10800, 86400) == pytest.approx(0.5 / 86400)
    assert qo.default_weight("1/L", 10800, 86400) == pytest.approx(1 / 10800 / 86400)
    assert qo.label("D") == "BF" and qo.label("R/L", False) == "R/L-NG"
    assert qo.slug("P/L", False) == "P_L-NG"
    with pytest.raises(ValueError):
        qo.QueueOrder("X")


# Three full-width jobs wait behind a job that ends early: the queue order alone decides who
# runs first. X: 4 procs, estimate 100, runtime 50.  J1 (est 50), J2 (est 10), J3 (est 30).
FULL_WIDTH = [(0, 50, 100, 4), (1, 50, 50, 4), (2, 10, 10, 4), (3, 30, 30, 4)]


@pytest.mark.parametrize("guarantees", [True, False])
def test_arrival_and_shortest_first_orders_by_hand(guarantees):
    d = run(FULL_WIDTH, 4, PKConfig(qo.QueueOrder("D", guarantees)))
    assert list(d["start"]) == [0, 50, 100, 110]
    s = run(FULL_WIDTH, 4, PKConfig(qo.QueueOrder("1/L", guarantees)))
    # compression (or re-planning) at t=50 in order J2, J3, J1
    assert list(s["start"]) == [0, 90, 50, 60]
    if guarantees:
        assert list(d["guaranteed_start"]) == [0, 100, 150, 160]
        assert list(s["guaranteed_start"]) == [0, 100, 150, 160]


@pytest.mark.parametrize("order", ["P", "R", "P/L", "R/L"])
def test_random_orders_follow_their_criterion(order):
    """With equal estimates, P/L ~ P and R/L ~ R; the run order is the drawn priority order."""
    jobs = [(0, 50, 100, 4)] + [(1 + k, 10, 10, 4) for k in range(6)]
    res, sched = run_with(jobs, 4, PKConfig(qo.QueueOrder(order, False)))
    starts = res["start"][1:]
    assert sorted(starts) == [50 + 10 * k for k in range(6)]
    if order in ("P", "P/L"):
        # a higher fixed priority always runs earlier (ties: earlier submission)
        prio = sched.prio[1:]
        ranking = sorted(range(6), key=lambda k: (-prio[k], k))
        assert list(np.argsort(starts)) == ranking
    else:
        # random re-drawn each pass: deterministic under the seed, differs from arrival order
        again = run(jobs, 4, PKConfig(qo.QueueOrder(order, False)))
        assert list(again["start"]) == list(res["start"])


# ------------------------------------------------------------------------------ speculation
# machine 4: A (2 procs, 1000 s) runs; B (4 procs, est 100) is reserved at 1000; C (2 procs,
# estimate 2000, runtime 1500) cannot start before 1100, but the 1000 s hole fits a speculation.
SPEC_JOBS = [(0, 1000, 1000, 2), (0, 100, 100, 4), (0, 1500, 2000, 2)]


@pytest.mark.parametrize("guarantees", [True, False])
def test_speculative_overrun_is_killed_requeued_and_next_speculation_is_the_mean(guarantees):
    cfg = PKConfig(qo.QueueOrder("D", guarantees), sp.Speculation(percentage=0.3))
    res, sched = run_with(SPEC_JOBS, 4, cfg)
    assert res["spec_starts"][2] == 1 and res["kills"][2] == 1
    assert res["first_start"][2] == 0                       # speculated at once, grown to the hole
    assert res["wasted_proc_s"][2] == 2 * 1000              # killed at 1000 = end of the hole
    assert sched.spec_base[2] == sp.next_speculation(1000, 2000) == 1500
    assert res["start"][2] == 1100 and res["end"][2] == 2600   # then its regular (guaranteed) slot
    assert not res["speculative"][2]
    if guarantees:
        assert res["guaranteed_start"][2] == 1100


def test_successful_speculation_releases_the_guaranteed_copy():
    jobs = [(0, 1000, 1000, 2), (0, 100, 100, 4), (0, 700, 2000, 2), (5, 50, 50, 2)]
    res = run(jobs, 4, PKConfig(qo.QueueOrder("D", True), sp.Speculation(percentage=0.3)))
    assert res["speculative"][2] and res["start"][2] == 0 and res["end"][2] == 700
    assert res["kills"][2] == 0
    # the reservation C held at 1100 is free again: nothing waits for it
    assert res["end"].max() == 1100


def test_test_run_for_long_job_that_cannot_be_speculated():
    # hole of 600 s for 2 procs; D estimated 5 h (> 3 h): speculation needs 0.5 * 18000 s -> a
    # test run of min(600, 900) = 600 s; E (same) runs 2000 s and is killed after its test run.
    base = [(0, 600, 600, 2), (0, 100, 100, 4)]
    ok = run([*base, (0, 200, 18000, 2)], 4,
             PKConfig(qo.QueueOrder("D", True), sp.Speculation(0.5, test_runs=True)))
    assert ok["test_runs"][2] == 1 and ok["start"][2] == 0 and ok["end"][2] == 200
    bad = run([*base, (0, 2000, 18000, 2)], 4,
              PKConfig(qo.QueueOrder("D", True), sp.Speculation(0.5, test_runs=True)))
    assert bad["test_runs"][2] == 1 and bad["kills"][2] == 1 and bad["first_start"][2] == 0
    assert bad["wasted_proc_s"][2] == 2 * 600 and bad["start"][2] == 700
    none = run([*base, (0, 200, 18000, 2)], 4,
               PKConfig(qo.QueueOrder("D", True), sp.Speculation(0.5, test_runs=False)))
    assert none["test_runs"][2] == 0 and none["start"][2] == 700


def test_speculation_rules():
    s = sp.Speculation(0.25, test_runs=True)
    assert sp.initial_speculation(400, 0.25) == 100
    assert sp.speculated_time(100, 50, 400) is None
    assert sp.speculated_time(100, 250, 400) == 250 and sp.speculated_time(100, 1e9, 400) == 400
    assert sp.test_run_length(s, 4 * 3600, 2000, 0) == 900
    assert sp.test_run_length(s, 4 * 3600, 200, 0) is None
    assert sp.test_run_length(s, 2 * 3600, 2000, 0) is None
    assert sp.test_run_length(s, 4 * 3600, 2000, 1) is None
    with pytest.raises(ValueError):
        sp.Speculation(0)


# ------------------------------------------------------------------------------ adaptation
def test_constant_efficiency_alternatives():
    job = SimJob(0, 0, 100, 400, 8)
    assert job.scaled(4) == Alternative(4, 200, 800)
    assert SimJob(1, 0, 100, 300, 5).scaled(3) == Alternative(3, 167, 500)  # up, exactly
    assert adapt.fixed_width(1, "half") == 1 and adapt.fixed_width(7, "half") == 4
    assert adapt.fixed_width(16, "quarter") == 4 and adapt.fixed_width(4, "quarter") == 2
    assert adapt.greedy_widths(4, 8) == [4, 2, 8] and adapt.greedy_widths(1, 1) == [1]
    assert adapt.widened_width(4, 8, 2) == 8 and adapt.widened_width(8, 8, 2) is None


def test_half_size_and_widening_by_hand():
    jobs = [(0, 100, 100, 4)]
    half = run(jobs, 4, PKConfig(qo.QueueOrder("D"), adaptation="half"))
    assert half["run_procs"][0] == 2 and half["end"][0] == 200      # twice as long on half
    wide = run(jobs, 4, PKConfig(qo.QueueOrder("D"), adaptation="half", widening=True))
    assert wide["widened"][0] and wide["run_procs"][0] == 4 and wide["end"][0] == 100
    # greedy on an idle machine takes the double-size alternative (least response time)
    greedy = run([(0, 100, 100, 2)], 4, PKConfig(qo.QueueOrder("D", False), adaptation="greedy"))
    assert greedy["run_procs"][0] == 4 and greedy["end"][0] == 50


# ------------------------------------------------------------------------------ starvation
def adversarial(n_short=200):
    """A machine-wide job W behind an endless stream of short narrow jobs (always one running)."""
    jobs = [(0, 10, 10, 1), (1, 100, 100, 4)]
    jobs += [(5 * k + 2, 10, 10, 1) for k in range(n_short)]
    return jobs


def test_no_guarantee_shortest_first_starves_without_weight():
    res = run(adversarial(), 4, PKConfig(qo.QueueOrder("1/L", False, weight=0.0)))
    assert res["start"][1] >= 5 * 199  # W waits until the stream is over


@pytest.mark.parametrize("order", ["1/L", "P/L", "R/L", "R", "P"])
def test_no_guarantee_never_starves_past_weight_bound(order):
    jobs = adversarial()
    est = [j[2] for j in jobs]
    w = 1e-2
    res = run(jobs, 4, PKConfig(qo.QueueOrder(order, False, weight=w)))
    bound = qo.starvation_bound(qo.criterion_range(order, min(est), max(est)), w)
    # after the bound no later job overtakes W; the jobs already running (<= 10 s) drain first
    assert res["start"][1] <= 1 + bound + max(est[:1] + est[2:])
    assert bound < 5 * 199  # the bound is binding in this workload


# ------------------------------------------------------------------------------ properties
job_lists = st.lists(st.tuples(st.integers(0, 300), st.integers(1, 200), st.integers(0, 300),
                               st.integers(1, 6)), min_size=1, max_size=25)


@settings(max_examples=25, deadline=None)
@given(job_lists, st.sampled_from(qo.ORDERS), st.booleans(),
       st.sampled_from([None, 0.3, 0.8]), st.sampled_from(["none", "half", "greedy"]),
       st.booleans())
def test_random_workloads_are_valid(raw, order, guarantees, pct, adaptation, widening):
    jobs = [(s, r, r + extra, p) for s, r, extra, p in raw]
    machine = 6
    spec = sp.Speculation(pct, test_runs=True, min_estimate_s=100, length_s=5,
                          max_length_s=20) if pct else None
    cfg = PKConfig(qo.QueueOrder(order, guarantees, 0.0 if guarantees else 1e-4), spec,
                   adaptation, widening)
    res = run(jobs, machine, cfg)
    submit = np.array([j[0] for j in jobs], dtype=float)
    assert np.all(res["start"] >= submit)
    assert np.all(np.isfinite(res["end"])) and np.all(res["end"] >= res["start"])
    # capacity never exceeded by the final runs
    ev = sorted([(s, p) for s, p in zip(res["start"], res["run_procs"], strict=True)] +
                [(e, -p) for e, p in zip(res["end"], res["run_procs"], strict=True)],
                key=lambda x: (x[0], x[1]))
    used = 0
    for _, d in ev:
        used += d
        assert used <= machine
    if guarantees:
        assert np.all(res["start"] <= res["guaranteed_start"] + 1e-9)
