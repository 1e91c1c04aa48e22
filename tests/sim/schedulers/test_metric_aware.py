"""Tang et al. 2013 metric-aware scheduler: eqs. 1-3, window search, LoC, probes, tuning."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.cli.main import main
from schedlab.errors import ConfigError
from schedlab.io import read_parquet
from schedlab.sim import SimJob, simulate
from schedlab.sim.options import SimOptions
from schedlab.sim.profile import ContiguousProfile, Profile
from schedlab.sim.schedulers import make_scheduler
from schedlab.sim.schedulers.metric_aware import (
    TIE_RULE,
    MetricAware,
    MetricAwareSimulator,
    Policy,
    Tuning,
    balanced_priority,
    earliest,
    fits_now,
    loss_of_capacity,
    monitor_series,
    new_profile,
    priority_order,
    schedule_pass,
    take,
    waiting_score,
    walltime_score,
    window_allocation,
    window_allocation_reference,
)
from schedlab.sim.state import Run


# ------------------------------------------------------------------ eqs. 1-3
def test_waiting_score_eq1_and_zero_case():
    assert waiting_score(np.array([0, 30, 60])).tolist() == [0, 50, 100]
    # maximum wait 0 (a job newly submitted to an empty queue): S_w = 0
    assert waiting_score(np.array([0.0])).tolist() == [0.0]
    assert waiting_score(np.array([0, 0])).tolist() == [0, 0]


def test_walltime_score_eq2_and_zero_cases():
    assert walltime_score(np.array([100, 200, 300])).tolist() == [100, 50, 0]
    assert walltime_score(np.array([500])).tolist() == [0]  # one job in the queue
    assert walltime_score(np.array([70, 70, 70])).tolist() == [0, 0, 0]  # max == min


def test_balanced_priority_eq3():
    waits, wt = np.array([0, 30, 60]), np.array([100, 200, 300])
    # BF = 0.5: 0.5*[0,50,100] + 0.5*[100,50,0]
    assert balanced_priority(waits, wt, 0.5).tolist() == [50, 50, 50]
    assert balanced_priority(waits, wt, 1.0).tolist() == [0, 50, 100]
    assert balanced_priority(waits, wt, 0.0).tolist() == [100, 50, 0]
    assert balanced_priority(waits, wt, 0.75).tolist() == [25, 50, 75]


def test_priority_order_fcfs_sjf_and_ties():
    submits, wt = np.array([0.0, 10.0, 20.0]), np.array([300.0, 200.0, 100.0])
    assert priority_order(30.0, submits, wt, 1.0).tolist() == [0, 1, 2]  # FCFS
    assert priority_order(30.0, submits, wt, 0.0).tolist() == [2, 1, 0]  # SJF
    # at t=20: S_w = [100, 50, 0], S_r = [0, 50, 100], so S_p = 50 for all: earlier submission first
    assert priority_order(20.0, submits, wt, 0.5).tolist() == [0, 1, 2]


# ------------------------------------------------------------------ Step 5 (Fig. 2 style)
def _fig2_profile() -> Profile:
    # 10 nodes; job 0 runs on 5 nodes until t=10
    return new_profile("any", 10, 0, [(10, 5, -1)])


# priority order: J1 (3 nodes, 30 s), J2 (7 nodes, 10 s), J3 (2 nodes, 30 s)
SIZES, DURS = [3, 7, 2], [30, 10, 30]


def test_window_search_beats_one_by_one():
    # one by one in priority order: J1 now, J2 at 10, J3 only at 20 -> makespan 50
    prof = _fig2_profile()
    ends = []
    for size, dur in zip(SIZES, DURS, strict=True):
        t, _ = earliest(prof, 0, size, dur)
        prof.reserve(t, dur, size)
        ends.append(t + dur)
    assert ends == [30.0, 20.0, 50.0]
    # as a group: J1 and J3 now, J2 at 30 -> makespan 40, the least over all 6 permutations
    plan = window_allocation(_fig2_profile(), 0, SIZES, DURS)
    assert plan == [(0, 0.0, -1), (2, 0.0, -1), (1, 30.0, -1)]
    assert max(t + DURS[i] for i, t, _ in plan) == 40.0


def test_schedule_pass_window_3_starts_more_jobs_than_window_1():
    submit, procs, est = [0, 1, 2], SIZES, DURS
    running = [(10, 5, -1)]
    w1 = schedule_pass(0, [0, 1, 2], submit, procs, est, running, 10, 1.0, 1, "easy", "any")
    w3 = schedule_pass(0, [0, 1, 2], submit, procs, est, running, 10, 1.0, 3, "easy", "any")
    assert w1 == [(0, -1)]  # J3 may not backfill: it would delay J2's reservation at t=10
    assert w3 == [(0, -1), (2, -1)]


def test_contiguous_window_allocation_first_fit():
    prof = new_profile("contiguous", 10, 0, [(10, 5, 0)])  # nodes 0-4 busy until 10
    assert isinstance(prof, ContiguousProfile)
    t, lo = earliest(prof, 0, 5, 5)
    assert (t, lo) == (0, 5)
    take(prof, t, 5, 5, lo)
    assert earliest(prof, 0, 6, 5) == (10, 0)
    assert fits_now(prof, 0, 1, 1) is None
    assert prof.free_at(0) == 0 and prof.free_at(5) == 5  # the counts of the one profile


# ------------------------------------------------------------------ eq. 4
def test_loss_of_capacity_hand_schedule():
    # N=10. A: 6 nodes [0,10). B: 8 nodes, submitted 0, runs [10,20). C: 2 nodes, submitted 5,
    # runs [20,25). Intervals: [0,5) idle 4, waiting B(8): delta 0. [5,10) idle 4, C(2) waits:
    # 4*5 = 20. [10,20) idle 2, C(2) waits: 2*10 = 20 (0 if "smaller" is strict). [20,25): none.
    submit, start = np.array([0, 0, 5]), np.array([0, 10, 20])
    end, procs = np.array([10, 20, 25]), np.array([6, 8, 2])
    assert loss_of_capacity(submit, start, end, procs, 10) == pytest.approx(40 / 250)
    assert loss_of_capacity(submit, start, end, procs, 10, strict=True) == pytest.approx(20 / 250)


def test_monitor_series_hand_values():
    submit, start = np.array([0.0, 0.0]), np.array([0.0, 3600.0])
    end, procs = np.array([7200.0, 5400.0]), np.array([4, 2])
    s = monitor_series(submit, start, end, procs, 8, 0.0, 7200.0)
    assert s["time"].tolist() == [0, 1800, 3600, 5400, 7200]
    assert s["queue_depth"].tolist() == [0, 1800, 0, 0, 0]
    assert s["util_instant"].tolist() == [0.5, 0.5, 0.75, 0.5, 0.0]
    # past hour at 5400: job 1 4 nodes x 3600 + job 2 2 nodes x 1800 over 8 x 3600
    assert s["util_1h"][3] == pytest.approx((4 * 3600 + 2 * 1800) / (8 * 3600))
    assert np.isnan(s["util_1h"][0])


# ------------------------------------------------------------------ fair start time probe
def _sjf_workload():
    # A fills the machine until 100; B (long) and then C (short) wait. SJF runs C first.
    submit = [0, 1, 2]
    runtime = [100, 100, 10]
    estimate = [100, 100, 10]
    procs = [10, 10, 10]
    return submit, runtime, estimate, procs


def test_probe_marks_job_overtaken_by_later_arrival_unfair_and_disturbs_nothing():
    sim = MetricAwareSimulator(*_sjf_workload(), 10, Policy(bf=0.0))
    res = sim.run()
    before = (res.start.copy(), res.end.copy())
    fair = sim.fair_start_times(res)
    assert res.start.tolist() == [0, 110, 100]
    assert np.array_equal(res.start, before[0]) and np.array_equal(res.end, before[1])
    again = sim.run()
    assert np.array_equal(again.start, res.start) and np.array_equal(again.end, res.end)
    assert fair[0] == 0 and fair[1] == 100  # B would have started at 100 without C
    assert int(np.sum(res.start > fair)) == 1
    fcfs = MetricAwareSimulator(*_sjf_workload(), 10, Policy(bf=1.0))
    r = fcfs.run()
    assert int(np.sum(r.start > fcfs.fair_start_times(r))) == 0


def test_probe_runtime_option_validated():
    sim = MetricAwareSimulator(*_sjf_workload(), 10, Policy())
    with pytest.raises(ConfigError, match="probe_runtime"):
        sim.fair_start_times(sim.run(), probe_runtime="oracle")
    with pytest.raises(ConfigError, match="probe_order"):
        sim.fair_start_times(sim.run(), probe_order="sorted")
    with pytest.raises(ConfigError, match="probe_policy"):
        sim.fair_start_times(sim.run(), probe_policy="sjf")


def test_probe_policy_fcfs_reading():
    # A fills the machine until 100; B (long, t=1) and D (short, t=3) wait; E (shorter, t=4)
    # arrives later. SJF (BF = 0) runs E 100-105, D 105-115, B 115-215.
    submit, runtime, estimate, procs = [0, 1, 3, 4], [100, 100, 10, 5], [100, 100, 10, 5], [10] * 4
    sim = MetricAwareSimulator(submit, runtime, estimate, procs, 10, Policy(bf=0.0))
    res = sim.run()
    assert res.start.tolist() == [0, 115, 105, 100]
    own = sim.fair_start_times(res)  # SJF in force; B alone at t=1 -> 100; D before B -> 100
    assert own[2] == 100 and own[1] == 100
    assert int(np.sum(res.start > own)) == 2  # B (115 > 100) and D (105 > 100)
    fcfs = sim.fair_start_times(res, probe_policy="fcfs")  # B at 100, D at 200: D is fair
    assert fcfs[1] == 100 and np.isnan(fcfs[2])
    assert int(np.sum(res.start > fcfs)) == 1


def test_probe_backfill_none_reading():
    # 10 nodes. A (6 nodes) runs 0-100 and X (2 nodes) 0-20; B (8 nodes, t=1) is the head,
    # reserved at 100. C (4 nodes, 50 s, t=2) could backfill at 20 when X ends (it would end
    # by 70, before B's reservation), but D (2 nodes, 80 s, t=15) arrives later and backfills
    # at 15, so at 20 only 2 nodes free up: C waits until B ends at 150.
    submit = [0, 0, 1, 2, 15]
    runtime = estimate = [100, 20, 50, 50, 80]
    procs = [6, 2, 8, 4, 2]
    sim = MetricAwareSimulator(submit, runtime, estimate, procs, 10, Policy(bf=1.0))
    res = sim.run()
    assert res.start.tolist() == [0, 0, 100, 150, 15]
    easy = sim.fair_start_times(res)  # with EASY in the probe C starts at 20: unfair
    assert easy[3] == 20 and int(np.sum(res.start > easy)) == 1
    none = sim.fair_start_times(res, probe_backfill="none")  # no backfilling: C after B, 150
    assert np.isnan(none[3]) and int(np.sum(res.start > none)) == 0
    with pytest.raises(ConfigError, match="probe_backfill"):
        sim.fair_start_times(res, probe_backfill="conservative")


def test_probe_order_frozen_equals_dynamic_under_fcfs_order():
    submit, runtime, estimate, procs = [0, 1, 3, 4], [100, 100, 10, 5], [100, 100, 10, 5], [10] * 4
    sim = MetricAwareSimulator(submit, runtime, estimate, procs, 10, Policy(bf=1.0))
    res = sim.run()
    a = sim.fair_start_times(res)
    b = sim.fair_start_times(res, probe_order="frozen")
    assert np.array_equal(np.isnan(a), np.isnan(b)) and np.allclose(a[~np.isnan(a)],
                                                                     b[~np.isnan(b)])


def test_policy_validation_one_line_errors():
    with pytest.raises(ConfigError, match="balance factor"):
        Policy(bf=1.5)
    with pytest.raises(ConfigError, match="backfilling"):
        Policy(backfill="slack")


# ------------------------------------------------------------------ adaptive tuning
def test_bf_tuning_switches_on_queue_depth_threshold():
    # a job fills the machine for 2 h while 3 jobs queue: depth passes 1 h at the 30-min checks
    # the queue drains at 7800; the check armed at 7200 fires at 9000 (depth 0): BF -> 1.
    # A last job arriving on the idle machine at 10000 re-arms the checks (no change then)
    submit = [0, 10, 20, 30, 10000]
    runtime = estimate = [7200, 100, 200, 300, 3600]
    sim = MetricAwareSimulator(submit, runtime, estimate, [4] * 5, 4, Policy(),
                               Tuning(qd_threshold=3600.0))
    res = sim.run()
    assert res.tunables[0][1:] == (1.0, 1)
    # at t=1800 the depth is 3*1800 - 60 >= 3600: BF -> 0.5; after the queue drains BF -> 1
    assert res.tunables[1] == (1800.0, 0.5, 1)
    assert res.tunables[2:] == [(9000.0, 1.0, 1)]
    assert res.start[4] == 10000


def test_window_tuning_on_10h_vs_24h_average():
    # busy for 20 h, then a lull: the 10 h average drops below the 24 h one -> W = 4
    submit = [0, 20 * 3600, 20 * 3600 + 1]
    runtime = estimate = [20 * 3600, 10 * 3600, 10 * 3600]
    sim = MetricAwareSimulator(submit, runtime, estimate, [4, 1, 1], 4, Policy(),
                               Tuning(adapt_window=True))
    res = sim.run()
    assert any(w == 4 for _, _, w in res.tunables)
    t_w4 = next(t for t, _, w in res.tunables if w == 4)
    assert t_w4 > 20 * 3600


# ------------------------------------------------------------------ registry, CLI, invariants
def _random_workload(seed: int, m: int = 120, n: int = 32):
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    submit = np.sort(rng.integers(0, 40000, m))
    procs = rng.integers(1, n + 1, m)
    estimate = rng.integers(60, 7200, m)
    runtime = np.maximum(1, (estimate * rng.uniform(0.1, 1.0, m)).astype(int))
    return submit, runtime, estimate, procs


@pytest.mark.parametrize(("backfill", "allocation", "bf", "w", "tuned"), [
    ("easy", "any", 0.5, 3, False),
    ("conservative", "contiguous", 0.75, 2, False),
    ("easy", "contiguous", 1.0, 1, True),
])
def test_registered_scheduler_gives_the_experiment_schedule(backfill, allocation, bf, w, tuned):
    """``make_scheduler("metric_aware", ...)`` on the engine under Tang's same-time order is the
    experiments' run (MetricAwareSimulator), job for job."""
    m, n = 120, 32
    submit, runtime, estimate, procs = _random_workload(20130904, m, n)
    tuning = Tuning(qd_threshold=20000.0, adapt_window=True) if tuned else None
    sim = MetricAwareSimulator(submit, runtime, estimate, procs, n,
                               Policy(bf, w, backfill, allocation), tuning)
    res = sim.run()
    jobs = [SimJob(i, int(submit[i]), int(runtime[i]), int(estimate[i]), int(procs[i]))
            for i in range(m)]
    sched = make_scheduler("metric_aware", bf=bf, window=w, backfill=backfill,
                           qd_threshold=20000.0 if tuned else None, adapt_window=tuned)
    eng = simulate(jobs, n, sched, allocation=allocation, options=SimOptions(tie_rule=TIE_RULE))
    assert eng.jobs["start"].tolist() == res.start.astype(int).tolist()
    assert eng.params["bf"] == bf and eng.params["window"] == w


def test_registry_variants_carry_the_papers_configurations():
    a = make_scheduler("metric_aware-bf0.5_w4")
    assert (a.policy.bf, a.policy.window, a.tuning.active) == (0.5, 4, False)
    d = make_scheduler("metric_aware-adapt-2d")
    assert d.tuning.qd_threshold == 400 * 60.0 and d.tuning.adapt_window
    assert make_scheduler("metric_aware-adapt-w", backfill="conservative").policy.backfill == \
        "conservative"


def test_cli_simulate_runs_the_metric_aware_policy(tmp_path, capsys):
    submit, runtime, estimate, procs = _random_workload(5, m=40, n=16)
    swf = tmp_path / "w.swf"
    swf.write_text("; MaxProcs: 16\n; UnixStartTime: 0\n" + "".join(
        f"{i + 1} {submit[i]} -1 {runtime[i]} {procs[i]} -1 -1 {procs[i]} {estimate[i]} -1 1 1 "
        "-1 -1 -1 -1 -1 -1\n" for i in range(40)))
    out = tmp_path / "jobs.parquet"
    assert main(["simulate", str(swf), "--scheduler", "metric_aware-bf0.5_w4", "--out", str(out),
                 "--tie-rule", TIE_RULE]) == 0
    df, _ = read_parquet(out)
    sim = MetricAwareSimulator(submit, runtime, estimate, procs, 16, Policy(0.5, 4))
    assert df["start"].tolist() == sim.run().start.astype(int).tolist()
    assert "mean wait" in capsys.readouterr().out


@pytest.mark.parametrize("backfill", ["easy", "conservative", "greedy"])
@pytest.mark.parametrize("allocation", ["any", "contiguous"])
def test_invariants_of_every_policy(backfill, allocation):
    """No start before submission, never more nodes (or an overlapping block) than the
    machine, every job finishes. (No bound by the first reservation: the metric-aware passes
    re-plan the whole queue, see the module docstring.)"""
    m, n = 150, 24
    submit, runtime, estimate, procs = _random_workload(77, m, n)
    for bf, w in ((1.0, 1), (1.0, 3), (0.5, 2)):
        sim = MetricAwareSimulator(submit, runtime, estimate, procs, n,
                                   Policy(bf, w, backfill, allocation),
                                   Tuning(qd_threshold=10000.0, adapt_window=True))
        res = sim.run()
        assert np.all(res.start >= sim.submit) and np.all(np.isfinite(res.end))
        assert np.all(res.end == res.start + sim.runtime)
        events = sorted([(t, p) for t, p in zip(res.start, procs, strict=True)]
                        + [(t, -p) for t, p in zip(res.end, procs, strict=True)],
                        key=lambda e: (e[0], e[1]))
        busy = np.cumsum([p for _, p in events])
        assert busy.max() <= n
        if allocation == "contiguous":
            lo = res.node
            assert np.all((lo >= 0) & (lo + procs <= n))
            for i in range(m):
                for k in range(i + 1, m):
                    overlap_t = res.start[i] < res.end[k] and res.start[k] < res.end[i]
                    overlap_n = lo[i] < lo[k] + procs[k] and lo[k] < lo[i] + procs[i]
                    assert not (overlap_t and overlap_n)


def test_contiguous_earliest_vectorized_equals_reference(monkeypatch):
    from schedlab.sim import profile

    monkeypatch.setattr(profile, "_VECTOR_MIN_RECTS", 0)  # the vectorized path on small profiles

    rng = np.random.default_rng(np.random.SeedSequence(22))
    for _ in range(60):
        n = int(rng.integers(8, 64))
        prof = ContiguousProfile(n, 0)
        for _ in range(int(rng.integers(0, 25))):
            size = int(rng.integers(1, n + 1))
            dur = int(rng.integers(1, 50))
            t, lo = prof.earliest_block_reference(size, dur, int(rng.integers(0, 30)))
            prof.reserve_block(t, dur, size, lo)
        for _ in range(10):
            now, size, dur = int(rng.integers(0, 60)), int(rng.integers(1, n + 1)), \
                int(rng.integers(1, 80))
            assert prof.earliest_block(size, dur, now) == \
                prof.earliest_block_reference(size, dur, now)


@pytest.mark.parametrize("contiguous", [False, True])
def test_window_search_cuts_keep_the_exhaustive_result(contiguous):
    """The branch-and-bound cuts (bound, early stop, identical jobs) return exactly the plan of
    trying every permutation, ties included, and leave the same reservations."""
    rng = np.random.default_rng(np.random.SeedSequence(2213))
    differs = 0
    for _ in range(150):
        n = int(rng.integers(4, 24))
        running = [(int(rng.integers(1, 40)), int(rng.integers(1, n // 2 + 1)), -1)
                   for _ in range(int(rng.integers(0, 3)))]
        if contiguous:
            lo, placed = 0, []
            for end, size, _ in running:
                if lo + size <= n:
                    placed.append((end, size, lo))
                    lo += size
            prof = new_profile("contiguous", n, 0, placed)
        else:
            prof = new_profile("any", n, 0, running)
        w = int(rng.integers(2, 6))
        # few distinct kinds so that identical jobs (the symmetry cut) are common
        sizes = [int(rng.choice([1, 2, n // 2, n])) for _ in range(w)]
        durs = [int(rng.choice([5, 10, 30])) for _ in range(w)]
        a, b = prof.copy(), prof.copy()
        plan = window_allocation(a, 0, sizes, durs)
        assert plan == window_allocation_reference(b, 0, sizes, durs)
        probe = [(t, int(s)) for t in range(0, 80, 5) for s in (1, n)]
        assert [earliest(a, t, s, 1) for t, s in probe] == [earliest(b, t, s, 1)
                                                             for t, s in probe]
        differs += plan != [(i, *earliest(prof.copy(), 0, sizes[i], durs[i])) for i in range(w)]
    assert differs > 0  # the search did reorder some windows: the comparison is not vacuous


# ------------------------------------------------------------------ base-schedule readings (issue 22)
def _sim(submit, runtime, estimate, procs, n, cancel=None, **policy):
    return MetricAwareSimulator(np.array(submit, float), np.array(runtime, float),
                                np.array(estimate, float), np.array(procs), n,
                                Policy(**policy), cancel=cancel)


def test_scheduling_interval_puts_passes_on_the_grid():
    # one node; A runs 0-5, B waits: event-driven B starts when A ends, with a 10-s interval
    # at the next grid point t0 + 10
    args = ([0, 1], [5, 5], [5, 5], [1, 1], 1)
    assert _sim(*args).run().start.tolist() == [0, 5]
    res = _sim(*args, sched_interval=10.0).run()
    assert res.start.tolist() == [0, 10]
    assert res.end.tolist() == [5, 15]
    with pytest.raises(ConfigError):
        Policy(sched_interval=-1.0)


def test_scheduling_interval_fair_start_probe_uses_the_grid():
    # B's probe at its submission (t = 1): A ends at 5, the next pass is at 10 = its real start
    sim = _sim([0, 1], [5, 5], [5, 5], [1, 1], 1, sched_interval=10.0)
    res = sim.run()
    fair = sim.fair_start_times(res)
    assert not (res.start > fair)[~np.isnan(fair)].any()


def test_greedy_backfilling_keeps_no_reservation():
    # two nodes; A (1 node, 100 s) runs, B (2 nodes) is blocked, C (1 node, 1000 s) arrives:
    # EASY protects B's reservation at 100 (C would delay it), greedy starts C at once
    args = ([0, 1, 2], [100, 10, 1000], [100, 10, 1000], [1, 2, 1], 2)
    easy = _sim(*args).run().start
    greedy = _sim(*args, backfill="greedy").run().start
    assert easy.tolist() == [0, 100, 110]
    assert greedy.tolist() == [0, 1002, 2]


def test_cancelled_job_withdraws_at_its_cancel_time():
    # one node; A runs 0-100; B (cancel at 50) waits and leaves; C starts when A ends
    sim = _sim([0, 1, 2], [100, 10, 10], [100, 10, 10], [1, 1, 1], 1,
               cancel=[-1, 50, np.nan])
    res = sim.run()
    assert res.withdrawn.tolist() == [False, True, False]
    assert res.start[1] == res.end[1] == 50
    assert res.start[2] == 100
    fair = sim.fair_start_times(res)
    assert np.isnan(fair[1])
    # a job that started before its cancel time is not withdrawn
    res2 = _sim([0], [10], [10], [1], 1, cancel=[5]).run()
    assert res2.withdrawn.tolist() == [False] and res2.start[0] == 0


def test_overrun_grace_allows_and_predicts_overruns():
    args = ([0, 1, 2], [110, 10, 10], [100, 10, 10], [1, 2, 1], 2)
    with pytest.raises(ConfigError):
        _sim(*args)
    # A overruns its estimate (ends at 110); at 100 the scheduler predicts A's end as 100 + 300
    res = _sim(*args, overrun_grace=300.0).run()
    assert res.end[0] == 110
    assert res.start[1] == 110  # B (2 nodes) starts when A really ends


def test_fork_without_per_job_table_gives_the_same_answer():
    """``simulate_from(per_job=False)`` (the fair-start probes) returns None and runs the same
    fork: the scheduler's record of the probed job's start equals the table's."""
    from schedlab.sim.fork import simulate_from
    from schedlab.sim.state import Snapshot

    jobs = [SimJob(0, 0, 100, 100, 10), SimJob(1, 1, 100, 100, 10), SimJob(2, 2, 10, 10, 10)]
    starts = []
    for per_job in (True, False):
        sched = MetricAware(bf=0.0)
        for j in jobs[1:]:
            sched.enqueue(j)
        run = Run(jobs[0], 0, 10, 100, 100, 100)
        snap = Snapshot(now=2, machine_size=10, allocation="any", running=(run,),
                        waiting=tuple(jobs[1:]), attempts={})
        out = simulate_from(snap, sched, sync=False, stop_when_started=[1],
                            options=SimOptions(tie_rule=TIE_RULE),
                            per_job=per_job)
        assert (out is None) == (not per_job)
        if out is not None:
            assert int(out.jobs.set_index("job_id").loc[1, "start"]) == sched.started_at[1]
        starts.append(sched.started_at[1])
    assert starts == [110, 110]  # SJF: the short job 2 first, then job 1


# ------------------------------------------------------------------ Steps 5-6 readings (issue 22)
def test_drain_rule_refuses_a_backfill_that_outlasts_the_reservation():
    # ten nodes; A (6 nodes) runs 0-100, B (8 nodes) is reserved at 100, C (2 nodes, 500 s)
    # arrives: EASY backfills C on the extra nodes (B still starts at 100); Cobalt's drain rule
    # refuses it (C would end at 502, after B's reserved start) and C waits for B to start
    args = ([0, 1, 2], [100, 100, 500], [100, 100, 500], [6, 8, 2], 10)
    assert _sim(*args).run().start.tolist() == [0, 100, 2]
    assert _sim(*args, backfill_rule="drain").run().start.tolist() == [0, 100, 100]
    # a short C (ends at 52 < 100) is backfilled under both
    short = ([0, 1, 2], [100, 100, 50], [100, 100, 50], [6, 8, 2], 10)
    assert _sim(*short, backfill_rule="drain").run().start.tolist() == [0, 100, 2]
    with pytest.raises(ConfigError, match="backfill_rule"):
        Policy(backfill_rule="shadow")


def test_sjf_backfill_order_tries_the_shortest_candidate_first():
    # ten nodes; A (6 nodes) runs 0-100, B (8 nodes) reserved at 100; C (4 nodes, 50 s) and
    # D (4 nodes, 20 s) arrive together, only one fits: priority (arrival) order backfills C,
    # SJF backfills D first (and C when D ends)
    args = ([0, 1, 2, 2], [100, 100, 50, 20], [100, 100, 50, 20], [6, 8, 4, 4], 10)
    assert _sim(*args).run().start.tolist() == [0, 100, 2, 52]
    assert _sim(*args, backfill_order="sjf").run().start.tolist() == [0, 100, 22, 2]


def test_machine_makespan_keeps_the_priority_order_below_the_machines_end():
    # ten nodes; A (4 nodes) runs 0-1000, E (2 nodes) 0-100; W = 2, window [P (6 nodes, 10 s),
    # Q (4 nodes, 200 s)] at t = 2: the window's own makespan prefers Q first (Q 2-202, P
    # 202-212 against P 100-110, Q 110-310); on the whole machine both end at A's 1000, the
    # tie keeps the priority order: P at 100, Q at 110
    args = ([0, 0, 1, 2], [1000, 100, 10, 200], [1000, 100, 10, 200], [4, 2, 6, 4], 10)
    assert _sim(*args, window=2).run().start.tolist() == [0, 0, 202, 2]
    machine = _sim(*args, window=2, window_makespan="machine").run().start.tolist()
    assert machine == [0, 0, 100, 110]


def test_window_floor_equals_the_exhaustive_search():
    rng = np.random.default_rng(np.random.SeedSequence(2214))
    for _ in range(60):
        n = int(rng.integers(4, 16))
        prof = new_profile("any", n, 0, [(int(rng.integers(1, 60)), int(rng.integers(1, n)), -1)])
        w = int(rng.integers(2, 5))
        sizes = [int(rng.choice([1, 2, n // 2, n])) for _ in range(w)]
        durs = [int(rng.choice([5, 10, 30])) for _ in range(w)]
        floor = float(rng.choice([-np.inf, 20, 40, 80]))
        a, b = prof.copy(), prof.copy()
        assert window_allocation(a, 0, sizes, durs, floor=floor) == \
            window_allocation_reference(b, 0, sizes, durs, floor)


def test_actual_running_ends_plan_with_the_real_end():
    # ten nodes; A (6 nodes) requests 1000 s but runs 100; B (8 nodes) reserved at A's end;
    # C (4 nodes, 300 s): planned with A's estimate B is reserved at 1000 and C is backfilled
    # at 2 (so B, free at 100, waits for C until 302); knowing A ends at 100 the scheduler
    # reserves B at 100, C would delay it and waits for B to end
    args = ([0, 1, 2], [100, 100, 300], [1000, 100, 300], [6, 8, 4], 10)
    assert _sim(*args).run().start.tolist() == [0, 302, 2]
    assert _sim(*args, running_ends="actual").run().start.tolist() == [0, 100, 200]


def test_actual_running_ends_in_a_probe_on_estimates():
    """Inside a fair-start probe on estimates every job runs for its estimate, so the "actual"
    ends are the estimated ones: the probe must not plan a running job as ended early (it
    would over-allocate the machine)."""
    # ten nodes; A (6 nodes, requests 1000 s, runs 100) and E (2 nodes, 0-150) run, B (8 nodes)
    # and D (10 nodes) arrive; D's probe (t = 2, on estimates) runs A until 1000: when E ends
    # at 150 the probe's scheduler must still count A's nodes as busy
    args = ([0, 0, 1, 2], [100, 150, 100, 50], [1000, 150, 100, 50], [6, 2, 8, 10], 10)
    sim = _sim(*args, running_ends="actual")
    res = sim.run()
    assert res.start.tolist() == [0, 0, 100, 200]
    fair = sim.fair_start_times(res)  # raised SimulationError (over-allocation) before
    assert fair[:2].tolist() == [0, 0] and np.isnan(fair[3])
