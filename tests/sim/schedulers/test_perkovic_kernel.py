"""Perković's compiled planning passes (schedlab.sim.schedulers.perkovic_kernel) give the schedule
of the list-profile passes they replace, job for job, under every compression reading
(``compress_on`` x ``compress_passes``), with and without adaptation, speculation and guarantees."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.sim.profile import Profile
from schedlab.sim.schedulers import queue_orders as qo
from schedlab.sim.schedulers import speculative as sp
from schedlab.sim.schedulers.compression import COMPRESS_ON, COMPRESS_PASSES, compress
from schedlab.sim.schedulers.perkovic import Perkovic, PKConfig
from schedlab.sim.schedulers.perkovic_kernel import ORDER_CODES, compress_greedy, sort_order
from schedlab.sim.schedulers.perkovic_runs import pk_jobs, run_engine

READINGS = [(on, passes) for on in COMPRESS_ON for passes in COMPRESS_PASSES]


class ListPerkovic(Perkovic):
    """Reference: the passes on the list profile (:class:`~schedlab.sim.profile.Profile`), as
    written before they were compiled: :func:`.compression.compress` without adaptation, each job
    re-planned by :meth:`_plan` with it, and the -NG plan by :meth:`_plan_queue`."""

    moves = 0

    def _compress(self, prof, now, order):
        resv = self.resv
        passes = self.cfg.compress_passes
        if self.cfg.adaptation != "greedy":
            waiting = ((k, r[2], r[1], r[0]) for k in order for r in (resv[k],))
            for k, s2 in compress(prof, now, waiting, passes):
                _, d, p = resv[k]
                resv[k] = (s2, d, p)
                ListPerkovic.moves += 1
            return
        moved = True
        while moved:
            moved = False
            for k in order:
                s, d, p = resv[k]
                if s <= now:
                    continue
                prof.release(s, d, p)
                r = self._plan(prof, k, now, latest=s)
                prof.reserve(*r)
                resv[k] = r
                if r != (s, d, p):
                    ListPerkovic.moves += 1
                    if passes == "until_stable":
                        moved = True
                        break

    def _plan_compiled(self, now, order):
        procs = [self.p[k] for k in order]
        return self._plan_queue(now, order, np.minimum.accumulate(procs[::-1])[::-1].tolist())


def _workload(seed: int, n: int = 120):
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.integers(0, 1500, n))
    runtime = rng.integers(1, 400, n)
    estimate = runtime * rng.integers(1, 6, n)
    estimate[::5] = runtime[::5]  # terminations at the estimate: "every" differs from "early"
    estimate[::9] = 9000  # long estimates, for test runs
    procs = rng.integers(1, 9, n)
    return submit, runtime, estimate, procs


VARIANTS = {
    "base": ("none", None),
    "half": ("half", None),
    "greedy": ("greedy", None),
    "greedy_spec": ("greedy", sp.Speculation(0.3, test_runs=True, min_estimate_s=1000,
                                              length_s=20, max_length_s=60)),
}


def _run(cls, cfg, seed):
    jobs = pk_jobs(*_workload(seed))
    return run_engine(jobs, 8, cls(cfg, np.random.SeedSequence(7), n_jobs=len(jobs)))


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("order", ["1/L", "D", "R"])
def test_compiled_passes_give_the_list_schedule(reading, variant, order):
    adaptation, spec = VARIANTS[variant]
    cfg = PKConfig(qo.QueueOrder(order, True, 0.0), spec, adaptation,
                   compress_on=reading[0], compress_passes=reading[1])
    ListPerkovic.moves = 0
    for seed in (1, 2, 3):
        fast, ref = _run(Perkovic, cfg, seed), _run(ListPerkovic, cfg, seed)
        assert fast.keys() == ref.keys()
        for name in ref:
            np.testing.assert_array_equal(fast[name], ref[name], err_msg=f"{name}, seed {seed}")
    assert ListPerkovic.moves > 0  # compressions moved jobs: the comparison is not vacuous


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("order", ["1/L", "D", "R"])
def test_compiled_no_guarantee_plan_gives_the_list_schedule(variant, order):
    adaptation, spec = VARIANTS[variant]
    cfg = PKConfig(qo.QueueOrder(order, False, 1e-6), spec, adaptation)
    for seed in (1, 2):
        fast, ref = _run(Perkovic, cfg, seed), _run(ListPerkovic, cfg, seed)
        for name in ref:
            np.testing.assert_array_equal(fast[name], ref[name], err_msg=f"{name}, seed {seed}")


@pytest.mark.parametrize("until_stable", [False, True])
def test_greedy_compression_by_hand(until_stable):
    """4 processors, now 0, a running job on all 4 until 10. A (2 wide for 10 s, or 4 wide for
    5 s) is reserved 2 wide at 20: given back, it first fits at 10 either way and takes the least
    end, 4 wide (end 15), a switch of width; B (2 wide only) then moves from 20 to 15."""
    prof = Profile(4, 0)
    prof.reserve(0, 10, 4)  # the running job
    prof.reserve(20, 10, 2)  # A
    prof.reserve(20, 10, 2)  # B
    new, switched = compress_greedy(prof, 0, [(20, 10, 2), (20, 10, 2)],
                                    [[(2, 10), (4, 5)], [(2, 10)]], [2, 2], until_stable)
    assert new == [(10, 5, 4), (15, 10, 2)]
    assert switched == [True, False]
    assert prof.t == [0, 15, 25] and prof.free == [0, 2, 4]  # A, then B on 2 of 4


@pytest.mark.parametrize("order", sorted(ORDER_CODES))
@pytest.mark.parametrize("weight", [0.0, 1e-6])
def test_sort_order_is_sort_queue(order, weight):
    """The compiled queue sort gives :func:`.queue_orders.sort_queue`'s order, ties included
    (few distinct submit times, estimates, priorities and draws), on a subset of the jobs."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        n = int(rng.integers(1, 60))
        submit = rng.integers(0, 5, n).astype(float)
        est = rng.choice([0.0, 1.0, 60.0, 3600.0], n)
        prio = rng.integers(1, 4, n).astype(float)
        ks = rng.permutation(n)[: int(rng.integers(1, n + 1))]
        rnd = rng.choice([0.0, 0.25, 0.5], len(ks))
        want = ks[qo.sort_queue(order, submit[ks], est[ks], prio[ks], rnd, 10, weight)]
        got = sort_order(ORDER_CODES[order], ks.astype(np.int64), submit, est, prio, rnd, 10,
                         weight)
        assert got.tolist() == want.tolist()
