"""Hand-worked cases of the waking rules of :mod:`schedlab.sim.cbf_stable` (Cirne 2001 §2.2.1's
compression until stable): each puts a job exactly on the boundary of one rule, so that the
promotion Cirne's reading makes is missed if the rule is made one unit stricter. Checked by
mutating the kernel: ``r > b + 1``, ``r < e`` and ``d < spans[q]`` (for room given back between
compressions and for room a promotion gave back, each), ``p < mf`` (the latter), the end of the
hull of the room given back cut by one, and the hull not recorded each fail a case here. Each
history is replayed on the kernel arrays; at every compression the result must equal the literal
reading (rounds of one promotion from the head, ``_reference``) and the hand-worked starts.
"""

from __future__ import annotations

import numpy as np
from test_cbf_stable import _reference  # tests/sim is on sys.path (pytest rootdir mode)

from schedlab.sim import cbf_kernel as K


def _replay(size: int, ops: list[tuple]) -> dict[int, int]:
    """Run ``ops`` (``("arrive", now, procs, estimate)``: job ``i`` (1-based, arrivals only)
    queued and placed first fit; ``("give", now, end, procs)``: ``procs`` given back on
    ``[now, end)``, then a compression until stable, checked against the literal reading),
    starting due jobs before and after each. Returns job id -> start (of the jobs started) or
    reservation (of the jobs still queued)."""
    prof, queue, meta = K.new_state(size, 0, 64)
    out = np.zeros(64, dtype=np.int64)
    jid = 0
    starts: dict[int, int] = {}

    def start_due(now: int) -> None:
        c = K.due(prof, queue, meta, now, False, True, True, out)
        assert c >= 0
        starts.update((j, now) for j in out[:c].tolist())

    for op in ops:
        now = op[1]
        K.advance(prof, meta, now)
        start_due(now)
        if op[0] == "arrive":
            jid += 1
            K.arrive(prof, queue, meta, now, False, True, op[2], op[3], jid)
        else:
            assert K.release(prof, meta, now, now, op[2], op[3], size) == 0
            ref = tuple(x.copy() for x in (prof, queue, meta))
            want = _reference(*ref, now)
            assert K.compress(prof, queue, meta, now, True, True) == want
            m, n = meta[K.M], meta[K.N]
            np.testing.assert_array_equal(queue[: K.CLEAN, :m], ref[1][: K.CLEAN, :m])
            np.testing.assert_array_equal(prof[:2, :n], ref[0][:2, :n])
        start_due(now)
    m = meta[K.M]
    return starts | dict(zip(queue[K.JID, :m].tolist(), queue[K.RES, :m].tolist(), strict=True))


def test_room_given_back_wakes_a_job_reserved_just_after_it():
    """``r > b`` (room given back between compressions, hull ``[8, 45)``): 8 processors; job 1
    starts at 3 and ends at once; job 2 (5 procs, estimate 6) runs [3, 9); job 3 (1 proc) starts
    at 6; job 4 (3 procs, 6) finds 2 free until 9: reserved at 9. At 8 job 3 ends early: 3 free
    from 8, and job 4 (``r = 9 = b + 1``) moves to 8."""
    ops = [("arrive", 3, 7, 24), ("give", 3, 27, 7), ("arrive", 3, 5, 6), ("arrive", 6, 1, 39),
           ("arrive", 6, 3, 6)]
    assert _replay(8, ops)[4] == 9
    assert _replay(8, [*ops, ("give", 8, 45, 1)])[4] == 8


def test_a_promotion_wakes_a_job_reserved_at_the_end_of_its_old_slot_with_mf_procs():
    """``p <= mf`` and ``r <= e`` (room a promotion gave back): 2 processors; job 1 (2 procs)
    runs [1, 11); job 2 (1 proc, 9) is reserved at 11, job 3 (2 procs, 8) at 20 (1 free on
    [11, 20)). Job 1 ends at 6: job 2 moves to 6, giving back 1 processor on ``[b, e) = [15,
    20)``, where the most free is then ``mf = 2``: job 3 (``p = mf``, ``r = e``) moves to 15."""
    ops = [("arrive", 1, 2, 10), ("arrive", 4, 1, 9), ("arrive", 4, 2, 8)]
    assert _replay(2, ops) == {1: 1, 2: 11, 3: 20}
    assert _replay(2, [*ops, ("give", 6, 11, 2)]) == {1: 1, 2: 6, 3: 15}
    assert _replay(2, [*ops, ("give", 6, 11, 2), ("give", 8, 15, 1)]) == {1: 1, 2: 6, 3: 8}


def test_a_promotion_wakes_a_job_reserved_just_after_the_room_it_gave_back():
    """``r > b`` (room a promotion gave back): 2 processors; job 1 ends at 3; job 2 (1 proc, 10)
    runs [5, 15); job 3 (2 procs, 1) is reserved at 15, job 4 (1 proc, 16) at 16. Job 2 ends at
    9: job 3 moves to 9, giving back ``[b, e) = [15, 16)``; job 4 (``r = 16 = b + 1``) then
    moves to 10."""
    ops = [("arrive", 0, 2, 15), ("give", 3, 15, 2), ("arrive", 5, 1, 10), ("arrive", 5, 2, 1),
           ("arrive", 8, 1, 16)]
    assert _replay(2, ops) == {1: 0, 2: 5, 3: 15, 4: 16}
    assert _replay(2, [*ops, ("give", 9, 15, 1)]) == {1: 0, 2: 5, 3: 9, 4: 10}


def test_room_given_back_wakes_a_later_job_whose_estimate_equals_the_run():
    """``d <= spans[q]`` (the job reserved after the room, ``r > e``): 2 processors; job 1 (2
    procs) runs [12, 36); 1 processor is given back on [18, 21); job 2 (1 proc, 5) fits nowhere
    before 36. At 20 another is given back on [20, 25): the run with 1 free meeting it is
    [20, 25), 5 long, and job 2 (``d = 5``) moves to 20."""
    ops = [("arrive", 12, 2, 24), ("give", 18, 21, 1), ("arrive", 19, 1, 5)]
    assert _replay(2, ops) == {1: 12, 2: 36}
    assert _replay(2, [*ops, ("give", 20, 25, 1)]) == {1: 12, 2: 20}


def test_a_promotion_wakes_a_later_job_whose_estimate_equals_the_run():
    """``d <= spans[q]`` (room a promotion gave back, ``r > e``): 2 processors; job 2 (2 procs)
    runs [17, 33); job 3 (1 proc, 24) is reserved at 33, job 4 (2 procs, 8) at 57, job 5 (1
    proc, 4) at 33, job 6 (1 proc, 24) at 65. Two processors given back on [21, 23) move
    nothing (runs 2 long); one on [23, 27) makes a run of 4: job 5 moves to 23, giving back
    ``[33, 37)``, whose run with 1 free is [33, 57), 24 long: job 6 (``d = 24``) moves to 33."""
    ops = [("arrive", 2, 2, 15), ("arrive", 8, 2, 16), ("arrive", 17, 1, 24),
           ("arrive", 17, 2, 8), ("arrive", 20, 1, 4), ("arrive", 20, 1, 24), ("give", 21, 23, 2)]
    assert _replay(2, ops) == {1: 2, 2: 17, 3: 33, 4: 57, 5: 33, 6: 65}
    assert _replay(2, [*ops, ("give", 23, 27, 1)]) == {1: 2, 2: 17, 3: 33, 4: 57, 5: 23, 6: 33}


def test_proofs_survive_compressions_that_move_nothing():
    """The proofs carried between compressions: a compression that moves nothing leaves every
    job proven, and an arrival placed first fit is proven too; only room given back wakes."""
    ops = [("arrive", 0, 2, 10), ("arrive", 1, 1, 4), ("arrive", 1, 2, 3)]
    prof, queue, meta = K.new_state(2, 0, 64)
    for i, (_, now, procs, est) in enumerate(ops, 1):
        K.arrive(prof, queue, meta, now, False, True, procs, est, i)
    assert queue[K.CLEAN, 1:3].tolist() == [1, 1] and meta[K.CLEAN_OK] == 0  # none yet
    assert K.compress(prof, queue, meta, 1, True, True) == 0
    assert meta[K.CLEAN_OK] == 1 and meta[K.GB] > meta[K.GE]  # proven, nothing pending
    assert K.release(prof, meta, 2, 2, 10, 1, 2) == 0
    assert (meta[K.GB], meta[K.GE]) == (2, 10)  # the hull of the room given back
    # job 2 moves to 2, giving back [10, 14), where job 3 then fits
    assert K.compress(prof, queue, meta, 2, True, True) == 2
    assert queue[K.RES, :3].tolist() == [0, 2, 10]
