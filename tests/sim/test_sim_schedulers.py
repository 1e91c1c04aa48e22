"""Baseline schedulers: Cirne Figures 3-4 exactly, hand-built EASY cases, property tests."""

from __future__ import annotations

from heapq import heappush

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.sim import TIE_RULES, SimJob, simulate
from schedlab.sim.options import SimOptions
from schedlab.sim.schedulers import SCHEDULERS, make_scheduler
from schedlab.sim.schedulers.conservative import Conservative, ListConservative
from schedlab.sim.schedulers.easy import EASY
from schedlab.sim.schedulers.maui import Maui

# --- Cirne (2001) §2.2.1, Figures 3 and 4 -------------------------------------------------------
# The figures are drawings (not in the text). The instance below is the only one with at most 6
# processors and durations <= 12 whose first-fit placement gives the availability list the thesis
# prints for Figure 3 (§2.2.2) *and* whose compression after A ends at time 2 does what the text
# says for Figure 4 (B right after C, D follows B, E starts immediately and ends before B starts);
# found by exhaustive search. All jobs are submitted at time 1 in the order A, B, C, D, E.
A, B, C, D, E = 1, 2, 3, 4, 5
FIG3_AVAILABILITY = [(1, 4, 0), (4, 6, 2), (6, 8, 1), (8, 9, 0), (9, 13, 4), (13, float("inf"), 6)]


def cirne_jobs(a_runtime: int) -> list[SimJob]:
    #       id  submit runtime   estimate procs
    return [
        SimJob(A, 1, a_runtime, 5, 4),
        SimJob(B, 1, 2, 2, 5),
        SimJob(C, 1, 3, 3, 2),
        SimJob(D, 1, 5, 5, 2),
        SimJob(E, 1, 1, 1, 4),
    ]


class _Recording(Conservative):
    """Conservative that records its availability list after the arrivals at time 1."""

    def schedule(self, ctx):
        starts = super().schedule(ctx)
        if ctx.now == 1:
            self.fig3 = self.profile.segments()
            self.fig3_res = dict(self.res)
        return starts


def test_cirne_figure3_allocation_list():
    sched = _Recording()
    res = simulate(cirne_jobs(a_runtime=5), 6, sched).jobs.set_index("job_id")
    assert sched.fig3 == FIG3_AVAILABILITY
    # C is placed before B: at time 1 the free processors cannot hold B but can hold C
    assert res.start.to_dict() == {A: 1, B: 6, C: 1, D: 8, E: 8}


def test_cirne_figure4_compression_when_a_ends_at_2():
    res = simulate(cirne_jobs(a_runtime=1), 6, Conservative()).jobs.set_index("job_id")
    start, end = res.start.to_dict(), res.end.to_dict()
    assert end[A] == 2
    assert start[B] == end[C] == 4  # B back-filled to start immediately after C
    assert start[D] == end[B] == 6  # D "follows" B
    assert start[E] == 2 and end[E] <= start[B]  # E backfilled all the way to start now
    assert start == {A: 1, B: 4, C: 1, D: 6, E: 2}


# --- EASY hand-built cases (Talby & Feitelson §2.1) ---------------------------------------------
# 10 processors. R runs on 6 until 100 (its estimate); head H needs 8 -> shadow time 100, extra
# nodes 10 - 8 = 2 at the shadow time; 4 processors are free now.
def easy_case(*extra: SimJob) -> pd.DataFrame:
    jobs = [SimJob(0, 0, 100, 100, 6), SimJob(1, 1, 50, 50, 8), *extra]
    sched = EASY(record_reservations=True)
    res = simulate(jobs, 10, sched).jobs.set_index("job_id")
    assert sched.head_reservations[1] == 100
    assert res.start[1] == 100  # the head is never delayed
    return res


def test_easy_condition1_ends_by_shadow_time():
    # 4 processors > 2 extra nodes, but it terminates by the shadow time (2 + 98 = 100)
    res = easy_case(SimJob(2, 2, 98, 98, 4))
    assert res.start[2] == 2


def test_easy_condition2_uses_extra_nodes():
    # runs past the shadow time but needs <= min(free=4, extra=2)
    res = easy_case(SimJob(2, 2, 500, 500, 2))
    assert res.start[2] == 2


def test_easy_refuses_job_that_would_delay_head():
    # 3 <= 4 free now, but 3 > 2 extra nodes and it would still run at the shadow time
    res = easy_case(SimJob(2, 2, 500, 500, 3), SimJob(3, 3, 99, 99, 4))
    assert res.start[2] == 150  # after the head (100 + 50)
    # ... and an estimate ending just after the shadow time is refused too (3 + 99 > 100)
    assert res.start[3] == 150
    # extra nodes are used up: two condition-2 jobs of 2 cannot both go
    res = easy_case(SimJob(2, 2, 500, 500, 2), SimJob(3, 3, 500, 500, 2))
    assert res.start[2] == 2 and res.start[3] == 150


def test_easy_arrival_only_does_not_backfill_on_completion():
    # Job 3 cannot backfill when it arrives (1 processor free); when job 0 ends early at 10 the
    # usual EASY backfills it (condition 1: 10 + 50 <= shadow 200); Talby's literal reading only
    # checks jobs on submission, so job 3 waits until the head has started and it is the head.
    jobs = [
        SimJob(0, 0, 10, 100, 4),  # ends early at 10
        SimJob(1, 0, 200, 200, 5),
        SimJob(2, 1, 50, 50, 9),  # head: shadow time 200
        SimJob(3, 2, 50, 50, 2),
    ]
    every = simulate(jobs, 10, EASY()).jobs.set_index("job_id")
    literal = simulate(jobs, 10, EASY(backfill="arrival_only")).jobs.set_index("job_id")
    assert every.start[3] == 10
    assert literal.start[3] == 250
    assert every.start[2] == literal.start[2] == 200


def test_easy_readings_every_event_completion_queue_and_rescan_agree():
    # "new job on arrival, whole queue on a completion" and "whole queue at every event" (no
    # shortcut) give the same schedule as the default; the literal arrival-only reading differs.
    rng = np.random.default_rng(11)
    jobs = random_jobs(rng, 120, 16)
    base = simulate(jobs, 16, EASY()).jobs
    for mode in ("completion_queue", "every_event_rescan"):
        pd.testing.assert_frame_equal(simulate(jobs, 16, EASY(backfill=mode)).jobs, base)
    assert not simulate(jobs, 16, EASY(backfill="arrival_only")).jobs.start.equals(base.start)


def test_maui_fcfs_weights_equal_easy_and_xfactor_reorders():
    rng = np.random.default_rng(7)
    jobs = random_jobs(rng, 60, 16)
    easy = simulate(jobs, 16, EASY()).jobs
    maui = simulate(jobs, 16, Maui()).jobs
    pd.testing.assert_frame_equal(easy, maui)
    xf = simulate(jobs, 16, Maui(queue_time_weight=0, xfactor_weight=1)).jobs
    assert not xf.start.equals(easy.start)


def random_jobs(rng: np.random.Generator, n: int, size: int) -> list[SimJob]:
    submit = np.cumsum(rng.integers(0, 40, n))
    runtime = rng.integers(1, 300, n)
    estimate = runtime + rng.integers(0, 300, n)
    procs = rng.integers(1, size + 1, n)
    return [
        SimJob(i, int(s), int(r), int(e), int(p))
        for i, (s, r, e, p) in enumerate(zip(submit, runtime, estimate, procs, strict=True))
    ]


# --- property tests --------------------------------------------------------------------------
workloads = st.lists(
    st.tuples(
        st.integers(0, 50),  # inter-arrival
        st.integers(1, 60),  # runtime
        st.integers(0, 60),  # estimate - runtime (may be cut: runtime > estimate handled below)
        st.integers(1, 8),  # procs
    ),
    min_size=1,
    max_size=25,
)


def build(spec) -> list[SimJob]:
    jobs, t = [], 0
    for i, (gap, run, over, procs) in enumerate(spec):
        t += gap
        jobs.append(SimJob(i, t, run, max(1, run + over - 10), procs))
    return jobs


def check_common(jobs: list[SimJob], res: pd.DataFrame, size: int) -> None:
    by_id = {j.job_id: j for j in jobs}
    assert (res.start >= res.submit).all()
    assert (res.end >= 0).all(), "every job finishes"
    for row in res.itertuples():
        j = by_id[row.job_id]
        assert row.end - row.start == min(j.runtime, j.estimate)
    # capacity never exceeded: sweep starts (+) and ends (-), ends first at equal times
    ev = sorted(
        [(e, -p) for e, p in zip(res.end, res.procs, strict=True)]
        + [(s, p) for s, p in zip(res.start, res.procs, strict=True)]
    )
    used = 0
    for _, d in ev:
        used += d
        assert used <= size


SIZE = 8


@pytest.mark.parametrize("tie_rule", TIE_RULES)
@pytest.mark.parametrize("name", list(SCHEDULERS))
@settings(max_examples=40, deadline=None)
@given(spec=workloads)
def test_invariants_every_scheduler(name, tie_rule, spec):
    jobs = build(spec)
    res = simulate(jobs, SIZE, make_scheduler(name), options=SimOptions(tie_rule=tie_rule)).jobs
    check_common(jobs, res, SIZE)


@pytest.mark.parametrize("tie_rule", TIE_RULES)
@settings(max_examples=40, deadline=None)
@given(spec=workloads)
def test_fcfs_never_reorders(tie_rule, spec):
    jobs = build(spec)
    res = simulate(jobs, SIZE, make_scheduler("fcfs"), options=SimOptions(tie_rule=tie_rule)).jobs
    assert res.start.is_monotonic_increasing


@pytest.mark.parametrize("tie_rule", TIE_RULES)
@settings(max_examples=40, deadline=None)
@given(spec=workloads)
def test_easy_head_never_later_than_its_reservation(tie_rule, spec):
    jobs = build(spec)
    sched = EASY(record_reservations=True)
    res = simulate(jobs, SIZE, sched,
                   options=SimOptions(tie_rule=tie_rule)).jobs.set_index("job_id")
    for jid, shadow in sched.head_reservations.items():
        assert res.start[jid] <= shadow


@pytest.mark.parametrize("tie_rule", TIE_RULES)
@settings(max_examples=40, deadline=None)
@given(spec=workloads)
def test_conservative_never_later_than_first_reservation(tie_rule, spec):
    jobs = build(spec)
    sched = Conservative(record_reservations=True)
    res = simulate(jobs, SIZE, sched,
                   options=SimOptions(tie_rule=tie_rule)).jobs.set_index("job_id")
    assert set(sched.first_reservations) == set(res.index)
    for jid, first in sched.first_reservations.items():
        assert res.start[jid] <= first


class NaiveConservative(ListConservative):
    """Reference: compression re-places every waiting job with release + earliest_start, in
    arrival order; under ``until_stable`` it starts again from the head after every move."""

    def _compress(self, p, now):
        self.dirty = False
        moved = True
        while moved:
            moved = False
            for jid, job in self.queue.items():
                s = self.res[jid]
                if s <= now:
                    continue
                p.release(s, job.estimate, job.procs)
                s2 = p.earliest_start(job.procs, job.estimate, now)
                p.reserve(s2, job.estimate, job.procs)
                if s2 != s:
                    self.res[jid] = s2
                    self.seq += 1
                    heappush(self.due, (s2, self.seq, jid))
                    if self.until_stable:
                        moved = True
                        break


READINGS = [("every", "one"), ("early", "one"), ("early", "until_stable")]


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("tie_rule", ["completions_first", "per_event"])
@settings(max_examples=40, deadline=None)
@given(spec=st.lists(st.tuples(st.integers(0, 20), st.integers(1, 60), st.integers(0, 200),
                               st.integers(1, 8)), min_size=1, max_size=40))  # fmt: skip
def test_conservative_pruning_is_exact(tie_rule, reading, spec):
    jobs, t = [], 0
    for i, (gap, run, over, procs) in enumerate(spec):
        t += gap
        jobs.append(SimJob(i, t, run, run + over, procs))  # estimates well above runtimes
    on, passes = reading
    fast = simulate(jobs, SIZE, Conservative(compress_on=on, compress_passes=passes),
                    options=SimOptions(tie_rule=tie_rule)).jobs
    naive = simulate(jobs, SIZE, NaiveConservative(compress_on=on, compress_passes=passes),
                     options=SimOptions(tie_rule=tie_rule)).jobs
    pd.testing.assert_frame_equal(fast, naive)


@pytest.mark.mirror
@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("tie_rule", ["completions_first", "per_event"])
def test_conservative_pruning_is_exact_on_a_real_log(mirror, tie_rule, reading):
    # the first 4,000 jobs of CTC-SP2 (long queues, many early ends): every pruning rule and the
    # dominance between jobs are exercised thousands of times (benchmarks/golden_schedules.py
    # checks whole logs)
    from schedlab.traces.lookup import load_trace
    from schedlab.traces.normalize import normalize

    tr = load_trace("CTC-SP2-1996-3.1-cln")
    norm = normalize(tr.jobs.iloc[:4000], tr.header)
    on, passes = reading
    fast = simulate(norm.jobs, norm.machine_size,
                    Conservative(compress_on=on, compress_passes=passes),
                    options=SimOptions(tie_rule=tie_rule)).jobs
    naive = simulate(norm.jobs, norm.machine_size,
                     NaiveConservative(compress_on=on, compress_passes=passes),
                     options=SimOptions(tie_rule=tie_rule)).jobs
    assert (fast.start != fast.submit).sum() > 1000  # a loaded stretch: many jobs wait
    pd.testing.assert_frame_equal(fast, naive)
