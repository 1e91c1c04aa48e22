"""The availability profile (Cirne §2.2.2 availability list) against a brute-force timeline."""

from __future__ import annotations

from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.sim import Profile, SimulationError
from schedlab.sim.options import SimOptions

CIRNE_FIG3 = [(1, 4, 0), (4, 6, 2), (6, 8, 1), (8, 9, 0), (9, 13, 4), (13, float("inf"), 6)]


def cirne_profile() -> Profile:
    p = Profile(6, 1)
    for start, end, free in CIRNE_FIG3[:-1]:
        p.reserve(start, int(end) - start, 6 - free)
    return p


def test_cirne_availability_list_round_trip():
    assert cirne_profile().segments() == CIRNE_FIG3


def test_earliest_start_first_fit():
    p = cirne_profile()
    assert p.earliest_start(2, 2) == 4  # [4,6) has 2 free
    assert p.earliest_start(2, 3) == 9  # [6,8) has only 1
    assert p.earliest_start(1, 4) == 4  # [4,6) 2 free, [6,8) 1 free
    assert p.earliest_start(5, 1) == 13
    assert p.earliest_start(4, 10, after=10) == 10


def test_earliest_start_needs_whole_duration():
    p = cirne_profile()
    # 1 processor: [4,6) 2 free, [6,8) 1 free, [8,9) 0 -> a 4-long job cannot start at 4
    assert p.fits(1, 4, 4) is True  # [4,8) has >= 1 free throughout
    assert p.fits(1, 4, 5) is False  # reaches [8,9)
    assert p.earliest_start(1, 5) == 9


def test_over_allocation_raises_and_leaves_profile_intact():
    p = cirne_profile()
    with pytest.raises(SimulationError, match="over-allocation"):
        p.reserve(3, 3, 1)  # [3,4) has 0 free
    assert p.segments() == CIRNE_FIG3
    with pytest.raises(SimulationError):
        p.release(13, 5, 1)  # more than the machine


def test_advance_and_copy():
    p = cirne_profile()
    q = p.copy()
    p.advance(7)
    assert p.segments()[0] == (7, 8, 1)
    assert q.segments() == CIRNE_FIG3
    assert p.free_at(20) == 6


ops = st.lists(
    st.tuples(st.integers(1, 8), st.integers(1, 9), st.integers(0, 25), st.booleans()),
    min_size=1,
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(ops)
def test_profile_matches_brute_force(script):
    size, horizon = 8, 400
    p, ref, held = Profile(size, 0), [size] * horizon, []
    for procs, dur, after, undo in script:
        if undo and held:
            s, d, q = held.pop(0)
            p.release(s, d, q)
            for x in range(s, s + d):
                ref[x] += q
            continue
        s = p.earliest_start(procs, dur, after)
        expect = next(
            x for x in range(after, horizon) if all(ref[y] >= procs for y in range(x, x + dur))
        )
        assert s == expect
        p.reserve(s, dur, procs)
        held.append((s, dur, procs))
        for x in range(s, s + dur):
            ref[x] -= procs
        assert [p.free_at(x) for x in range(horizon)] == ref
        assert all(a != b for a, b in zip(p.free, p.free[1:], strict=False))
        # the cached prefix maxima are a valid prefix after every change
        assert p._pm == list(accumulate(p.free, max))[: len(p._pm)]
        assert p.prefix_max() == list(accumulate(p.free, max))


@settings(max_examples=60, deadline=None)
@given(ops, st.integers(1, 8), st.integers(1, 9), st.integers(0, 30))
def test_earliest_move_equals_release_and_replace(script, procs, dur, after):
    p = Profile(8, 0)
    for q, d, a, _ in script:
        p.reserve(p.earliest_start(q, d, a), d, q)
    s = p.earliest_start(procs, dur, after)
    p.reserve(s, dur, procs)
    moved = p.earliest_move(procs, dur, s)
    q = p.copy()
    q.release(s, dur, procs)
    assert moved == q.earliest_start(procs, dur)
    for latest in range(0, s + 2):
        assert p.earliest_move(procs, dur, s, latest) == (moved if moved <= latest else s)
    assert p.segments() != q.segments()  # earliest_move did not touch p


@settings(max_examples=60, deadline=None)
@given(ops, st.integers(1, 8), st.integers(1, 9), st.integers(0, 30), st.integers(0, 12))
def test_shift_equals_release_and_reserve(script, procs, dur, after, now):
    p = Profile(8, 0)
    for q, d, a, _ in script:
        p.reserve(p.earliest_start(q, d, a), d, q)
    s = p.earliest_start(procs, dur, after)
    p.reserve(s, dur, procs)
    p.advance(min(now, s))
    p.prefix_max()  # a warm cache must be truncated by the move
    moved = p.earliest_move(procs, dur, s)
    ref = p.copy()
    ref.release(s, dur, procs)
    ref.reserve(moved, dur, procs)
    assert p.move_earlier(procs, dur, s, None) == moved
    assert p.segments() == ref.segments()
    assert p.prefix_max() == list(accumulate(p.free, max))


# --- the compiled kernels (schedlab.sim.cbf_kernel) against the list Profile -------------------
def _kernel_segments(prof, meta) -> list[tuple[int, float, int]]:
    from schedlab.sim.cbf_kernel import profile_view

    return profile_view(prof, meta).segments()


@settings(max_examples=60, deadline=None)
@given(ops, st.integers(0, 30))
def test_kernel_profile_matches_list_profile(script, now):
    from schedlab.sim import cbf_kernel as k

    size = 8
    p = Profile(size, 0)
    prof, _, meta = k.new_state(size, 0, capacity=4)
    held = []
    for procs, dur, after, undo in script:
        prof = k.grown(prof, int(meta[k.N]) + 4)
        if undo and held:
            s, d, q = held.pop(0)
            p.release(s, d, q)
            assert k.add(prof, meta, s, s + d, q, size) == 0
        else:
            s = p.earliest_start(procs, dur, after)
            assert k.earliest_start(prof, meta, procs, dur, after) == s
            p.reserve(s, dur, procs)
            assert k.add(prof, meta, s, s + dur, -procs, size) == 0
            held.append((s, dur, procs))
        assert _kernel_segments(prof, meta) == p.segments()
        # the cached prefix maxima are a valid prefix after every change
        assert prof[k.PM, : meta[k.PMV]].tolist() == p.prefix_max()[: meta[k.PMV]]
        for s, d, q in held:  # the compression step's query, every reservation
            assert k.earliest_move(prof, meta, q, d, s, s) == p.earliest_move(q, d, s)
    p.advance(now)
    k.advance(prof, meta, now)
    assert _kernel_segments(prof, meta) == p.segments()
    n = int(meta[k.N])
    k.prefix_max(prof, meta, n)
    assert prof[k.PM, :n].tolist() == p.prefix_max()


def test_kernel_refuses_over_allocation_and_leaves_profile_intact():
    from schedlab.sim import cbf_kernel as k

    prof, _, meta = k.new_state(6, 1)
    for start, end, free in CIRNE_FIG3[:-1]:
        assert k.add(prof, meta, start, int(end), free - 6, 6) == 0
    assert _kernel_segments(prof, meta) == CIRNE_FIG3
    assert k.add(prof, meta, 3, 6, -1, 6) == 1  # [3,4) has 0 free
    assert k.add(prof, meta, 13, 18, 1, 6) == 1  # more than the machine
    assert k.release(prof, meta, 1, 9, 13, 3, 6) == 1
    assert _kernel_segments(prof, meta) == CIRNE_FIG3
    assert k.release(prof, meta, 1, 9, 13, 2, 6) == 0  # 4 + 2 free: allowed
    assert _kernel_segments(prof, meta)[-2:] == [(8, 9, 0), (9, float("inf"), 6)]


def test_conservative_release_over_machine_is_an_error():
    from schedlab.sim.schedulers.conservative import Conservative

    class _Ctx:  # the parts of MachineView that the hooks read
        allocation, machine_size, now, running = "any", 4, 0, {}

    class _Run:
        procs, expected_end = 1, 10

    sched = Conservative()
    with pytest.raises(SimulationError, match="over-allocation"):
        sched.on_completion(_Ctx(), _Run(), False)  # nothing was reserved: 5 of 4 free


# the compiled conservative backfilling against the list implementation, with withdrawn jobs
# (waiting and running), under every event order and every compression reading (the four
# combinations of compress_on and compress_passes); SA (a subclass planning on the view) too
READINGS = [("every", "one"), ("early", "one"), ("early", "until_stable"),
            ("every", "until_stable")]
cons_workloads = st.lists(
    st.tuples(st.integers(0, 20), st.integers(1, 60), st.integers(0, 200), st.integers(1, 8),
              st.one_of(st.none(), st.integers(0, 150))),
    min_size=1, max_size=40,
)  # fmt: skip


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("tie_rule", ["completions_first", "arrivals_first", "per_event"])
@settings(max_examples=40, deadline=None)
@given(spec=cons_workloads)
def test_compiled_conservative_equals_list_implementation(tie_rule, reading, spec):
    import pandas as pd

    from schedlab.sim import SimJob, simulate
    from schedlab.sim.schedulers.conservative import Conservative, ListConservative

    jobs, t = [], 0
    for i, (gap, run, over, procs, cancel) in enumerate(spec):
        t += gap
        jobs.append(SimJob(i, t, run, run + over, procs,
                           cancel_time=None if cancel is None else t + cancel))  # fmt: skip
    on, passes = reading
    fast = Conservative(record_reservations=True, compress_on=on, compress_passes=passes)
    ref = ListConservative(record_reservations=True, compress_on=on, compress_passes=passes)
    a = simulate(jobs, 8, fast, options=SimOptions(tie_rule=tie_rule)).jobs
    b = simulate(jobs, 8, ref, options=SimOptions(tie_rule=tie_rule)).jobs
    pd.testing.assert_frame_equal(a, b)
    assert fast.first_reservations == ref.first_reservations


def test_conservative_refuses_fractional_times():
    from schedlab.sim import SimJob, simulate
    from schedlab.sim.schedulers.conservative import Conservative, ListConservative

    jobs = [SimJob(0, 0, 5, 10, 2), SimJob(1, 1, 5, 7.5, 2)]
    with pytest.raises(SimulationError, match=r"job 1: times must be whole seconds"):
        simulate(jobs, 4, Conservative())
    assert simulate(jobs, 4, ListConservative()).jobs.start.tolist() == [0, 1]


WARM_THEN_SIMULATE = """
import json
from schedlab.sim import SimJob, simulate
from schedlab.sim import cbf_kernel as k
from schedlab.sim.options import SimOptions
from schedlab.sim.schedulers.conservative import Conservative
names = ("add", "arrive", "release", "due", "advance", "compress", "withdraw")
k.warm()
before = {n: len(getattr(k, n).signatures) for n in names}
jobs = [SimJob(i, 3 * i, 5 + i % 4, 10 + i % 3, 1 + i % 3) for i in range(30)]
for on in ("early", "every"):
    for passes in ("one", "until_stable"):
        for rule in ("per_event", "completions_first"):
            simulate(jobs, 4, Conservative(compress_on=on, compress_passes=passes),
                     options=SimOptions(tie_rule=rule))
after = {n: len(getattr(k, n).signatures) for n in names}
print(json.dumps([before, after]))
"""


def test_warm_compiles_every_kernel_conservative_calls():
    """``make setup`` runs ``cbf_kernel.warm()`` so that the first simulation loads the kernels
    from numba's cache: in a fresh process, after ``warm()`` every kernel conservative backfilling
    calls has a compiled signature, and simulations under every compression reading and tie rule
    compile none more (a kernel compiled at run time would cost a user seconds)."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", WARM_THEN_SIMULATE], capture_output=True,
                         text=True, check=True).stdout
    before, after = json.loads(out.strip().splitlines()[-1])
    assert all(before.values()), before
    assert after == before
