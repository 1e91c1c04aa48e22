"""Conservative backfilling's compression until stable (Cirne 2001 §2.2.1) with the woken-job
rounds of :mod:`schedlab.sim.cbf_stable` against two plain references, start for start:

* the literal reading on the same arrays: rounds of ``_pass(first_only=True)`` from the head of the
  queue, level runs rebuilt each round, until no job moves (:func:`_reference`), compared after
  every compression of random kernel states (profile, queue, stamps), with the proofs carried
  over from the previous compressions and with none (every job woken);
* the list implementation (``ListConservative``:
  :func:`schedlab.sim.schedulers.compression.compress` on the list profile), compared by whole simulations of random workloads with early ends, under
  ``compress_on`` early and every, both same-time orders and several machine sizes.

Random streams: numpy ``SeedSequence`` with the recorded entropy :data:`ENTROPY`.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from schedlab.sim import SimJob, SimOptions, simulate
from schedlab.sim import cbf_kernel as K
from schedlab.sim.schedulers.conservative import Conservative, ListConservative

ENTROPY = 20261127
SIZES = (1, 3, 8, 16, 100)


@njit(cache=True, nogil=True)
def _reference(prof, queue, meta, now):
    """Cirne's reading literally: promote the first job that can move, search again from the
    head, until none can (one ``_pass`` per promotion, nothing carried between them)."""
    moves = 0
    while K._pass(prof, queue, meta, now, True, -1):
        moves += 1
    return moves


def _rng(*key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(ENTROPY, spawn_key=key))


def _estimate(rng: np.random.Generator) -> int:
    return int(rng.choice([1, 2, 3, 5, 8, 13, 40, 100]) * rng.integers(1, 4))


def _kernel_case(rng: np.random.Generator, size: int, events: int = 60) -> int:
    """One random history on the kernel arrays: queued arrivals, starts at the reservations, ends
    at the estimate or early (the rest of the slot released); after each early end both
    compressions run on copies and must leave identical states. Returns the promotions seen."""
    prof, queue, meta = K.new_state(size, 0, 8)
    jobs: dict[int, tuple[int, int]] = {}  # job id -> (procs, estimate)
    running: list[tuple[int, int]] = []  # (estimate end, procs)
    now, jid, promoted = 0, 0, 0

    def start_due() -> None:
        out = np.zeros(meta[K.M] + 1, dtype=np.int64)
        c = K.due(prof, queue, meta, now, False, True, True, out)
        assert c >= 0
        running.extend((now + jobs[j][1], jobs[j][0]) for j in out[:c].tolist())

    for _ in range(int(rng.integers(events // 3, events))):
        now += int(rng.integers(0, 4))
        if meta[K.NEXT] >= 0:
            now = min(now, int(meta[K.NEXT]))  # no reservation is skipped
        prof = K.grown(prof, K.capacity_needed(meta[K.M] + 1, len(running) + 1))
        queue = K.grown(queue, meta[K.M] + 1)
        K.advance(prof, meta, now)
        running = [r for r in running if r[0] > now]  # ended at their estimate
        start_due()
        early = [r for r in running if r[0] > now + 1]
        if early and rng.random() < 0.35:  # an early end: the rest of its slot is released
            end, procs = early[int(rng.integers(len(early)))]
            running.remove((end, procs))
            assert K.release(prof, meta, now, now, end, procs, size) == 0
            a, b, c = (tuple(x.copy() for x in (prof, queue, meta)) for _ in range(3))
            c[2][K.CLEAN_OK] = 0  # the same compression with no proofs carried over
            got = K._until_stable(*a, now)
            want = _reference(*b, now)
            assert got == want == K._until_stable(*c, now)
            n, m = b[2][K.N], b[2][K.M]
            for x in (a, c):
                np.testing.assert_array_equal(x[0][:2, :n], b[0][:2, :n])
                np.testing.assert_array_equal(x[1][: K.CLEAN, :m], b[1][: K.CLEAN, :m])
                for f in (K.N, K.M, K.STAMP):  # (PMV, LOOSE: caches, compress resets LOOSE)
                    assert x[2][f] == b[2][f]
            assert a[1][K.CLEAN, :m].all() and a[2][K.CLEAN_OK] == 1  # every job has a proof
            prof, queue, meta = a
            K._set_next(queue, meta)
            promoted += got
            start_due()
            continue
        procs, est = int(rng.integers(1, size + 1)), _estimate(rng)
        jid += 1
        jobs[jid] = (procs, est)
        K.arrive(prof, queue, meta, now, False, True, procs, est, jid)
        start_due()
    return promoted


def test_pruned_rounds_equal_the_literal_reading_on_kernel_states():
    promoted = 0
    for case in range(300):
        rng = _rng(0, case)
        promoted += _kernel_case(rng, SIZES[case % len(SIZES)])
    assert promoted > 300  # the cases exercise promotions, many of them chained


def _workload(rng: np.random.Generator, size: int) -> list[SimJob]:
    jobs, t = [], 0
    for jid in range(int(rng.integers(15, 45))):
        t += int(rng.integers(0, 5))
        est = _estimate(rng)
        run = est if rng.random() < 0.3 else int(rng.integers(1, est + 1))  # early ends
        jobs.append(SimJob(jid, t, run, est, int(rng.integers(1, size + 1))))
    return jobs


def _starts(sched, jobs, size: int, tie_rule: str) -> list[int]:
    res = simulate(jobs, size, sched, options=SimOptions(tie_rule=tie_rule),
                   record_timeline=False).jobs.sort_values("job_id")
    return res.start.tolist()


@pytest.mark.parametrize("compress_on", ["early", "every"])
def test_simulations_equal_the_list_implementation(compress_on):
    for case in range(150):
        rng = _rng(1, case)
        size = SIZES[case % len(SIZES)]
        tie_rule = ("per_event", "completions_first")[case % 2]
        jobs = _workload(rng, size)
        opts = {"compress_on": compress_on, "compress_passes": "until_stable"}
        got = _starts(Conservative(**opts), jobs, size, tie_rule)
        want = _starts(ListConservative(**opts), jobs, size, tie_rule)
        assert got == want, f"case {case}"
