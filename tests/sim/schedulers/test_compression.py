"""The compression readings of conservative backfilling (:mod:`schedlab.sim.schedulers.compression`):
hand-worked workloads where each option changes a start exactly as its definition says, in both
implementations and in every policy that compresses (Flex, Perković's orders with guarantees)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.sim import SimJob, SimOptions, simulate
from schedlab.sim.errors import SimulationError
from schedlab.sim.schedulers.compression import COMPRESS_ON, COMPRESS_PASSES
from schedlab.sim.schedulers.conservative import Conservative, ListConservative
from schedlab.sim.schedulers.flex import Flex
from schedlab.sim.schedulers.perkovic import perkovic

IMPLEMENTATIONS = [Conservative, ListConservative]


def _starts(sched, jobs, tie_rule: str = "per_event") -> dict[int, int]:
    res = simulate(jobs, 4, sched, options=SimOptions(tie_rule=tie_rule),
                   record_timeline=False).jobs
    return dict(zip(res.job_id.tolist(), res.start.tolist(), strict=True))


# 4 processors. Job ids: 0 = X, 1 = A, 2 = J, 3 = K, 4 = L.
X = SimJob(0, 0, 6, 6, 1)      # 1 proc, ends exactly at its estimate (6)
A = SimJob(1, 0, 2, 10, 3)     # 3 procs, estimate 10, ends early at 2
J = SimJob(2, 1, 3, 3, 4)      # 4 procs for 3 s
K = SimJob(3, 1, 4, 4, 1)      # 1 proc for 4 s, ends at its estimate
L = SimJob(4, 3, 3, 3, 4)      # 4 procs for 3 s, arrives after the early end


@pytest.mark.parametrize("tie_rule", ["per_event", "completions_first"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_every_compresses_after_a_termination_at_the_estimate(impl, tie_rule):
    """``compress_on``: "early" compresses only when a job ends before its estimate, "every" at
    every termination (pyss's ``new_events_on_job_termination`` -> ``_reschedule_jobs``).

    Worked by hand. t=0: X (1 proc, [0,6)) and A (3 procs, planned [0,10)) start. t=1: J (4 procs,
    3 s) fits only when all four are free: at 10, reserved [10,13); K (1 proc, 4 s) fits in X's
    processor after X's end: [6,10). t=2: A ends early, releasing 3 processors over [2,10). The
    pass goes in submission order: J first, which still cannot run before 10 (only 3 free during
    [2,6) because of X, and [6,10) because of K); then K, which moves to [2,6) and starts. That
    vacates [6,10) with all four processors free, but J was already visited. t=6: X and K end
    exactly at their estimates, releasing nothing. Under "early" there is no compression: J
    starts at its reservation, 10 (the machine idles during [6,10)). Under "every" the
    termination's pass moves J to 6, when it starts."""
    jobs = [X, A, J, K]
    early = _starts(impl(compress_on="early", compress_passes="one"), jobs, tie_rule)
    every = _starts(impl(compress_on="every", compress_passes="one"), jobs, tie_rule)
    assert early == {0: 0, 1: 0, 2: 10, 3: 2}
    assert every == {0: 0, 1: 0, 2: 6, 3: 2}


@pytest.mark.parametrize("tie_rule", ["per_event", "completions_first"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_until_stable_promotes_again_from_the_head(impl, tie_rule):
    """``compress_passes``: "one" pass in submission order, or "until_stable": Cirne §2.2.1, the
    first job that fits is promoted, "this may create another available slot. Such a slot is
    backfilled in the same way. The process stops only when no more backfilling can be done".

    The workload of the previous test plus L (4 procs, 3 s, ending at its estimate) arriving at
    t=3. Worked by hand. At t=2 (A's early end) one pass moves K to [2,6) and leaves J at
    [10,13), as above. Until stable, the search starts again from the head after K's move: J now
    fits in the slot K vacated, [6,9), and moves there; then no job can move. t=3: L arrives; with
    J at [6,9) its first fit is [9,12): J starts at 6, L at 9, under either trigger (nothing can
    move after an until-stable compression). With a single pass J is still at 10 when L arrives,
    and L's first fit is [6,9), the slot J could not take; at t=6 (X, K end at their estimates) J
    cannot move (only [9,10) is free before its reservation, 1 s for a 3 s job). L starts at 6 and
    ends at its estimate, 9: under "early" J starts at its reservation, 10; under "every" L's
    termination gets a pass, which moves J to 9."""
    jobs = [X, A, J, K, L]
    expect_one = {"early": {0: 0, 1: 0, 2: 10, 3: 2, 4: 6}, "every": {0: 0, 1: 0, 2: 9, 3: 2, 4: 6}}
    for on in COMPRESS_ON:
        one = _starts(impl(compress_on=on, compress_passes="one"), jobs, tie_rule)
        stable = _starts(impl(compress_on=on, compress_passes="until_stable"), jobs, tie_rule)
        assert one == expect_one[on], on
        assert stable == {0: 0, 1: 0, 2: 6, 3: 2, 4: 9}, on


def test_every_policy_that_compresses_follows_the_readings():
    """The same two hand-worked workloads under Flex without slack measured from the plan (which
    is conservative backfilling: flex.py docstring) and Perković's D order with guarantees
    (conservative backfilling, §2), each with the options passed: the same starts of J."""
    cases = [([X, A, J, K], "early", "one", 10), ([X, A, J, K], "every", "one", 6),
             ([X, A, J, K, L], "early", "one", 10), ([X, A, J, K, L], "every", "one", 9),
             ([X, A, J, K, L], "early", "until_stable", 6)]
    for jobs, on, passes, j_start in cases:
        flex = Flex(slack_factor=0, slack_reference="plan", compress_on=on,
                    compress_passes=passes)
        pk = perkovic("D", compress_on=on, compress_passes=passes)
        for sched in (flex, pk):
            assert _starts(sched, jobs, "completions_first")[J.job_id] == j_start, (
                sched.name, on, passes)


workloads = st.lists(
    st.tuples(st.integers(0, 20), st.integers(1, 60), st.integers(0, 200), st.integers(1, 8)),
    min_size=1, max_size=40,
)  # fmt: skip


@pytest.mark.parametrize("tie_rule", ["completions_first", "per_event"])
@settings(max_examples=40, deadline=None)
@given(spec=workloads)
def test_until_stable_makes_the_trigger_irrelevant(tie_rule, spec):
    """After an ``until_stable`` compression no job can move, and only a released slot makes one
    movable again: ``every`` and ``early`` give the same schedule (module docstring)."""
    jobs, t = [], 0
    for i, (gap, run, over, procs) in enumerate(spec):
        t += gap
        jobs.append(SimJob(i, t, run, run + over * (i % 2), procs))  # half end at the estimate
    a, b = (simulate(jobs, 8, Conservative(compress_on=on, compress_passes="until_stable"),
                     options=SimOptions(tie_rule=tie_rule)).jobs for on in COMPRESS_ON)
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("make", [Conservative, ListConservative, Flex,
                                  lambda **kw: perkovic("D", **kw)])
def test_unknown_readings_are_refused(make):
    with pytest.raises(SimulationError, match="compress_on must be one of"):
        make(compress_on="late")
    with pytest.raises(SimulationError, match="compress_passes must be one of"):
        make(compress_passes="two")
    assert set(COMPRESS_PASSES) == {"one", "until_stable"}
