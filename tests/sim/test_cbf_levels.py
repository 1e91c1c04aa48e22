"""The level runs of conservative backfilling's compiled compression (schedlab.sim.cbf_levels): an
upper bound of the longest span with a job's processors free before a time, never below the
exact one (brute force over the availability list), and tight enough to prune."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.sim import cbf_kernel as k
from schedlab.sim.cbf_levels import levels_reset, record_increase, window_possible


def _state(size: int, steps: list[tuple[int, int, int]]):
    """A kernel profile on ``size`` processors from ``(start, end, busy)`` reservations."""
    prof, _, meta = k.new_state(size, 0, capacity=64)
    for start, end, busy in steps:
        assert k.add(prof, meta, start, end, -busy, size) == 0
    return prof, meta


def _longest(prof, meta, procs: int, x: int) -> int:
    """Brute force: the longest span within [now, x) with ``procs`` free throughout."""
    best, run = 0, None
    for start, end, free in k.profile_view(prof, meta).segments():
        if start >= x:
            break
        if free >= procs:
            run = start if run is None else run
            best = max(best, min(end, x) - run)
        else:
            run = None
    return best


def test_hand_worked_profile():
    # 8 processors: 2 free in [0,10), all 8 in [10,14), 3 in [14,20), 8 from 20 on
    prof, meta = _state(8, [(0, 10, 6), (14, 20, 5)])
    levels_reset(prof, meta)
    assert not window_possible(prof, meta, 4, 5, 20)  # >= 4 free: only [10,14), 4 long
    assert window_possible(prof, meta, 4, 4, 20)
    assert window_possible(prof, meta, 2, 20, 20)  # >= 2 free throughout [0,20)
    assert not window_possible(prof, meta, 2, 21, 20)
    assert window_possible(prof, meta, 2, 11, 11)
    assert not window_possible(prof, meta, 2, 12, 11)  # only [0,11) counts
    # a bound, not the exact answer: 3 processors are free for 10 s at most ([10,20)), but level
    # 2 (>= 2 free) spans [0,20)
    assert _longest(prof, meta, 3, 20) == 10
    assert window_possible(prof, meta, 3, 15, 20)


def test_an_increase_during_the_pass_reaches_the_bound():
    # 8 processors, all busy in [0,30): the prefix entries (extended by the first query) see no
    # window; 8 processors given back in [2,9) make one, 7 long
    prof, meta = _state(8, [(0, 30, 8)])
    levels_reset(prof, meta)
    assert not window_possible(prof, meta, 8, 7, 30)
    assert k.add(prof, meta, 2, 9, 8, 8) == 0
    record_increase(prof, meta, 2, 9, 8)
    assert window_possible(prof, meta, 8, 7, 30)
    assert not window_possible(prof, meta, 8, 8, 30)
    assert not window_possible(prof, meta, 8, 7, 2)  # the new run starts at 2


changes = st.lists(
    st.tuples(st.integers(0, 40), st.integers(1, 15), st.integers(-8, 8)), min_size=1, max_size=25
)
queries = st.lists(st.tuples(st.integers(1, 8), st.integers(1, 20), st.integers(1, 60)),
                   min_size=1, max_size=10)


@settings(max_examples=80, deadline=None)
@given(changes, changes, queries)
def test_never_below_the_exact_longest_window(before, during, qs):
    """Whatever changes a pass makes (decreases unrecorded, increases recorded as compression
    does), a span that exists is never ruled out."""
    size = 8
    prof, meta = _state(size, [(0, 60, size)])  # busy until 60, then changed at random
    for start, dur, delta in before:
        k.add(prof, meta, start, start + dur, delta, size)  # refused when it would overflow
    levels_reset(prof, meta)
    for procs in (1, 2, 4, 8):  # every level's prefix entries read before the changes
        window_possible(prof, meta, procs, 10**6, 60)
    for start, dur, delta in during:
        if k.add(prof, meta, start, start + dur, delta, size) == 0 and delta > 0:
            record_increase(prof, meta, start, start + dur, delta)
        for procs, d, x in qs:
            assert window_possible(prof, meta, procs, d, x) or _longest(prof, meta, procs, x) < d


@settings(max_examples=60, deadline=None)
@given(changes, st.lists(st.tuples(st.integers(1, 9), st.integers(1, 20)), min_size=1,
                         max_size=6))
def test_first_fits_are_sacb_first_fits(before, requests):
    import numpy as np

    from schedlab.sim.schedulers.sa import INF, first_fit

    size = 8
    prof, meta = _state(size, [])
    for start, dur, delta in before:
        k.add(prof, meta, start, start + dur, delta, size)
    view = k.profile_view(prof, meta)
    procs = np.array([p for p, _ in requests], dtype=np.int64)
    durs = np.array([d for _, d in requests], dtype=np.int64)
    got = k.first_fits(prof, meta, procs, durs)
    for (p, d), g in zip(requests, got.tolist(), strict=True):
        want = first_fit(np.asarray(view.t, float), np.asarray(view.free), p, float(d))
        assert (INF if g < 0 else g) == want
