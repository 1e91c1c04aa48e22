"""Flex (slack-based backfilling, Talby & Feitelson 2005 §2.1): hand cases and properties."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.sim import SimJob, simulate
from schedlab.sim.schedulers import make_scheduler
from schedlab.sim.schedulers.flex import Flex, FlexJob, FlexPlanner


def run_flex(jobs, size, **kw):
    """Tiny reference event loop: completions at t before arrivals at t. Returns starts, planner."""
    planner = FlexPlanner(size, **kw)
    runtime = {j[0]: j[4] for j in jobs}
    events = [(j[1], 1, j[0], j) for j in jobs]
    heapq.heapify(events)
    starts, guarantees, deadlines = {}, {}, {}
    while events:
        t, kind, jid, j = heapq.heappop(events)
        if kind == 0:
            started = planner.finish(jid, t)
        else:
            fj = FlexJob(jid, j[1], j[2], j[3])
            started = planner.arrive(fj, t)
            guarantees[jid], deadlines[jid] = fj.guarantee, fj.deadline
        for s in started:
            starts[s] = t
            heapq.heappush(events, (t + runtime[s], 0, s, None))
    return starts, guarantees, deadlines


# (job_id, submit, procs, estimate, runtime) on a 2-processor machine:
# A fills the machine until 100; B (2 procs) is reserved at 100; C (1 proc, 10 s) arrives.
HAND = [(1, 0, 2, 100, 100), (2, 1, 2, 100, 100), (3, 2, 1, 10, 10)]


def test_slack_zero_is_conservative_on_hand_case():
    # Putting C before B would start B at 110 > its guarantee 100: infeasible with no slack, so C
    # goes after B, exactly where conservative backfilling puts it.
    starts, g, _ = run_flex(HAND, 2, slack_factor=0.0)
    assert starts == {1: 0, 2: 100, 3: 200}
    assert g == {1: 0, 2: 100, 3: 200}


def test_slack_lets_short_job_jump_and_bounds_the_delay():
    # With a 50 s slack B may be delayed to 110 (<= 150), and C at 100 is cheaper in total wait.
    starts, _, d = run_flex(HAND, 2, slack_factor=1.0, slack_base="constant", slack_constant=50)
    assert starts == {1: 0, 2: 110, 3: 100}
    assert starts[2] <= d[2] == 150
    # A 5 s slack is not enough: B would be delayed 10 s.
    starts, _, d = run_flex(HAND, 2, slack_factor=1.0, slack_base="constant", slack_constant=5)
    assert starts == {1: 0, 2: 100, 3: 200}


def test_cost_bsld_and_estimate_base_run():
    starts, _, d = run_flex(HAND, 2, slack_factor=1.0, slack_base="estimate", cost="bsld")
    # slack of B = its estimate (100): C may go first.
    assert starts[3] == 100 and starts[2] == 110 <= d[2]


def test_bad_options_raise():
    with pytest.raises(ValueError, match="slack_base"):
        FlexPlanner(4, slack_base="nope")
    with pytest.raises(ValueError, match="cost"):
        FlexPlanner(4, cost="nope")


job_lists = st.lists(
    st.tuples(st.integers(0, 200), st.integers(1, 4), st.integers(1, 60), st.integers(0, 60)),
    min_size=1, max_size=25)


def _jobs(raw):
    out = []
    for i, (sub, procs, est, run) in enumerate(sorted(raw)):
        out.append((i, sub, procs, est, max(1, min(run, est))))
    return out


@settings(max_examples=60, deadline=None)
@given(job_lists, st.sampled_from([0.0, 0.5, 2.0]), st.sampled_from(["mean_wait", "estimate"]),
       st.sampled_from(["wait", "bsld", "delay"]))
def test_never_delayed_beyond_slack_and_capacity(raw, factor, base, cost):
    jobs = _jobs(raw)
    starts, g, d = run_flex(jobs, 4, slack_factor=factor, slack_base=base, cost=cost)
    assert set(starts) == {j[0] for j in jobs}
    for jid, sub, *_ in jobs:
        assert sub <= starts[jid] <= d[jid]
        if factor == 0.0:
            assert starts[jid] <= g[jid]
    # capacity is never exceeded
    edges = sorted({starts[j[0]] for j in jobs})
    for t in edges:
        used = sum(j[2] for j in jobs if starts[j[0]] <= t < starts[j[0]] + j[4])
        assert used <= 4


def _random_jobs(seed, n=25):
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    t, jobs = 0, []
    for i in range(n):
        t += int(rng.integers(0, 50))
        est = int(rng.integers(1, 80))
        jobs.append(SimJob(i, t, int(rng.integers(1, est + 1)), est, int(rng.integers(1, 5))))
    return jobs


@pytest.mark.parametrize("seed", range(40))
def test_slack_zero_plan_reference_is_conservative_backfilling(seed):
    # No slack measured from the current plan: never delay any reservation = conservative (the
    # engine's implementation, compression included), start for start.
    jobs = _random_jobs(seed)
    flex = simulate(jobs, 4, Flex(slack_factor=0.0, slack_reference="plan"), record_timeline=False)
    cons = simulate(jobs, 4, make_scheduler("conservative"), record_timeline=False)
    assert flex.jobs["start"].tolist() == cons.jobs["start"].tolist()


def test_engine_adapter_options_are_validated():
    with pytest.raises(ValueError, match="slack_reference"):
        Flex(slack_reference="nope")
