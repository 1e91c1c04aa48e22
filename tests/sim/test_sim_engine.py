"""Engine: machine accounting, tie rule, cancellations, timers, kills/requeue, moldable starts,
contiguous allocation and forks (simulate_from)."""

from __future__ import annotations

import pytest

from schedlab.sim import Alternative, Scheduler, SimJob, SimulationError, Start, simulate
from schedlab.sim.fork import simulate_from
from schedlab.sim.machine import ContiguousMachine
from schedlab.sim.options import SimOptions
from schedlab.sim.schedulers import make_scheduler
from schedlab.sim.schedulers.easy import EASY


class Greedy(Scheduler):
    """Starts everything it is told to, in arrival order, without checking capacity."""

    name = "greedy"

    def __init__(self):
        self.queue = []

    def on_arrival(self, ctx, job):
        self.queue.append(job)

    def on_cancel(self, ctx, job, run):
        if run is None:
            self.queue.remove(job)

    def schedule(self, ctx):
        starts, self.queue = [Start(j) for j in self.queue], []
        return starts


def test_over_allocation_raises_naming_job_and_time():
    jobs = [SimJob(1, 0, 10, 10, 3), SimJob(2, 5, 10, 10, 2)]
    with pytest.raises(SimulationError, match=r"t=5: job 2: over-allocation"):
        simulate(jobs, 4, Greedy())


def test_starting_a_job_twice_raises():
    class Twice(Greedy):
        def schedule(self, ctx):
            return [Start(j) for j in ctx.waiting.values()] + [
                Start(r.job) for r in ctx.running.values()
            ]

    with pytest.raises(SimulationError, match="which is running"):
        simulate([SimJob(1, 0, 10, 10, 1), SimJob(2, 3, 10, 10, 1)], 4, Twice())


def test_job_wider_than_machine_and_deadlock_are_errors():
    with pytest.raises(SimulationError, match="needs 5 processors"):
        simulate([SimJob(1, 0, 1, 1, 5)], 4, Greedy())

    class Lazy(Greedy):
        def schedule(self, ctx):
            return []

    with pytest.raises(SimulationError, match="left 1 job"):
        simulate([SimJob(1, 0, 1, 1, 1)], 4, Lazy())


def test_estimate_enforced_and_records():
    res = simulate([SimJob(1, 10, 50, 20, 2)], 4, Greedy()).jobs.iloc[0]
    assert (res.start, res.end, res.runtime, bool(res.killed)) == (10, 30, 20, True)
    res = simulate([SimJob(1, 10, 50, 20, 2)], 4, Greedy(), enforce_estimate=False).jobs.iloc[0]
    assert res.end == 60


def test_metrics_columns_per_job():
    res = simulate([SimJob(1, 0, 5, 5, 4), SimJob(2, 0, 100, 100, 4)], 4, make_scheduler("fcfs"))
    j = res.jobs.set_index("job_id")
    assert j.wait[2] == 5 and j.response[2] == 105
    assert j.bounded_slowdown[1] == 1.0  # 5 / max(5, 10) < 1 -> bounded to 1
    assert j.bounded_slowdown[2] == pytest.approx(1.05)
    tl = res.timeline
    assert list(tl.time) == [0, 5, 105]
    assert list(tl.waiting) == [1, 0, 0] and list(tl.queue_depth) == [0, 0, 0]


class Recorder(Greedy):
    def __init__(self):
        super().__init__()
        self.log = []

    def on_arrival(self, ctx, job):
        self.log.append(("arrive", ctx.now, job.job_id, ctx.free))
        super().on_arrival(ctx, job)

    def on_completion(self, ctx, run, killed):
        self.log.append(("end", ctx.now, run.job.job_id, ctx.free))


@pytest.mark.parametrize("rule", ["completions_first", "arrivals_first"])
def test_tie_rule(rule):
    jobs = [SimJob(1, 0, 10, 10, 4), SimJob(2, 10, 5, 5, 4)]
    sched = Recorder()
    simulate(jobs, 4, sched, options=SimOptions(tie_rule=rule))
    at10 = [e[:3] for e in sched.log if e[1] == 10]
    if rule == "completions_first":
        assert at10 == [("end", 10, 1), ("arrive", 10, 2)]
    else:
        assert at10 == [("arrive", 10, 2), ("end", 10, 1)]


@pytest.mark.parametrize("rule", ["completions_first", "arrivals_first"])
def test_options_passed_on_positionally_right_after_the_scheduler(rule):
    """The run's options are ``simulate``'s fourth argument (docs/engine.md, the tie rule's
    route: each hop passes them straight on) and the engine holds them as given."""
    jobs = [SimJob(1, 0, 10, 10, 4), SimJob(2, 10, 5, 5, 4)]
    by_position, by_keyword = Recorder(), Recorder()
    res = simulate(jobs, 4, by_position, SimOptions(tie_rule=rule))
    simulate(jobs, 4, by_keyword, options=SimOptions(tie_rule=rule))
    assert by_position.log == by_keyword.log
    assert res.settings["tie_rule"] == rule



class PassRecorder(Recorder):
    """Logs every hook and every scheduling pass (time, free processors)."""

    def on_completion(self, ctx, run, killed):
        self.log.append(("end", ctx.now, run.job.job_id, ctx.free))

    def on_cancel(self, ctx, job, run):
        self.log.append(("cancel", ctx.now, job.job_id, ctx.free))
        if run is None:
            self.queue.remove(job)

    def on_timer(self, ctx, key):
        self.log.append(("timer", ctx.now, key, ctx.free))

    def schedule(self, ctx):
        self.log.append(("pass", ctx.now, None, ctx.free))
        return []


def test_per_event_order_is_pyss_order():
    # at t=10: job 1 reaches its estimate (planned end), job 2 ends early (estimate 50),
    # jobs 3 and 4 arrive, job 5 is cancelled while waiting, a timer fires
    jobs = [
        SimJob(1, 0, 10, 10, 1),
        SimJob(2, 0, 10, 50, 1),
        SimJob(3, 10, 5, 5, 1),
        SimJob(4, 10, 5, 5, 1),
        SimJob(5, 5, 5, 5, 1, cancel_time=10),
    ]

    class Starter(PassRecorder):
        def on_arrival(self, ctx, job):
            super().on_arrival(ctx, job)
            if job.job_id == 5:
                ctx.set_timer(10, "t")

        def schedule(self, ctx):
            last = self.log[-1][0] if self.log else None
            super().schedule(ctx)
            if ctx.now == 0 or last == "timer":
                starts, self.queue = [Start(j) for j in self.queue], []
                return starts
            return []

    sched = Starter()
    sched.log = []
    res = simulate(jobs, 4, sched, options=SimOptions(tie_rule="per_event"), record_timeline=True)
    at10 = [e for e in sched.log if e[1] == 10]
    assert at10 == [
        ("end", 10, 1, 3),  # planned end: released before the submissions (pyss's profile)
        ("arrive", 10, 3, 3),
        ("pass", 10, None, 3),
        ("arrive", 10, 4, 3),
        ("pass", 10, None, 3),
        ("pass", 10, None, 3),  # the planned end's own pass, in start order
        ("end", 10, 2, 4),  # early end, then its pass
        ("pass", 10, None, 4),
        ("cancel", 10, 5, 4),
        ("pass", 10, None, 4),
        ("timer", 10, "t", 4),
        ("pass", 10, None, 4),
    ]
    assert list(res.timeline.time) == [0, 5, 10, 15]  # one row per event time
    assert res.jobs.set_index("job_id").start[3] == 10


def test_per_event_starts_on_processors_of_a_planned_end():
    # job 1 ends at its estimate at t=10 exactly when job 2 arrives: pyss starts job 2 in the
    # submission's pass, before the termination event, and so does the engine
    jobs = [SimJob(1, 0, 10, 10, 4), SimJob(2, 10, 5, 5, 4)]
    for rule in ("per_event", "completions_first"):
        res = simulate(jobs, 4, make_scheduler("conservative"),
                       options=SimOptions(tie_rule=rule)).jobs
        assert list(res.start) == [0, 10]


def test_cancellation_of_waiting_and_running_jobs():
    jobs = [
        SimJob(1, 0, 100, 100, 4, cancel_time=30),  # cancelled while running
        SimJob(2, 5, 10, 10, 4, cancel_time=20),  # cancelled while waiting
        SimJob(3, 6, 10, 10, 4),
    ]
    res = simulate(jobs, 4, make_scheduler("fcfs")).jobs.set_index("job_id")
    assert bool(res.cancelled[1]) and res.end[1] == 30 and res.runtime[1] == 30
    assert bool(res.cancelled[2]) and res.start[2] == -1
    assert res.start[3] == 30


def test_timers_fire_in_order():
    class Timed(Greedy):
        def __init__(self):
            super().__init__()
            self.fired = []

        def on_arrival(self, ctx, job):
            super().on_arrival(ctx, job)
            ctx.set_timer(ctx.now + 7, "b")
            ctx.set_timer(ctx.now + 7, "a")

        def on_timer(self, ctx, key):
            self.fired.append((ctx.now, key))

    s = Timed()
    simulate([SimJob(1, 3, 100, 100, 1)], 2, s)
    assert s.fired == [(10, "b"), (10, "a")]


class Speculator(Scheduler):
    """Starts every job with kill_at = now + 10 the first time, without limit afterwards."""

    name = "spec"

    def __init__(self):
        self.queue, self.killed = [], []

    def on_arrival(self, ctx, job):
        self.queue.append(job)

    def on_killed(self, ctx, run):
        self.killed.append((ctx.now, run.job.job_id, run.attempt))
        super().on_killed(ctx, run)

    def schedule(self, ctx):
        starts, free = [], ctx.free
        while self.queue and self.queue[0].procs <= free:
            j = self.queue.pop(0)
            free -= j.procs
            first = ctx.waiting[j.job_id] is not None and j.job_id not in {
                k[1] for k in self.killed
            }
            starts.append(Start(j, kill_at=ctx.now + 10 if first else None, tag="spec"))
        return starts


def test_kill_at_kills_and_requeues():
    s = Speculator()
    res = simulate([SimJob(1, 0, 25, 100, 2), SimJob(2, 0, 5, 100, 2)], 4, s)
    j = res.jobs.set_index("job_id")
    assert s.killed == [(10, 1, 0)]
    assert j.first_start[1] == 0 and j.start[1] == 10 and j.end[1] == 35
    assert j.attempts[1] == 2 and j.wasted_proc_seconds[1] == 20
    assert j.end[2] == 5 and j.attempts[2] == 1 and j.wasted_proc_seconds[2] == 0


def test_moldable_alternative_is_used():
    job = SimJob(1, 0, 100, 120, 2, alternatives=(Alternative(4, 50, 60), Alternative(2, 100, 120)))

    class Wide(Greedy):
        def schedule(self, ctx):
            return [Start(j, alternative=j.alternatives[0]) for j in ctx.waiting.values()]

    r = simulate([job], 4, Wide()).jobs.iloc[0]
    assert (r.procs, r.runtime, r.estimate, r.end, r.alternative) == (4, 50, 60, 50, 0)
    assert job.scaled(1) == Alternative(1, 200, 240)


def test_contiguous_machine_first_fit_and_fragmentation():
    m = ContiguousMachine(8)
    assert m.allocate(3, None, "a") == 0
    assert m.allocate(2, None, "b") == 3
    m.release(3, 0, "a")
    assert m.blocks() == [(0, 3), (5, 3)] and m.free == 6 and not m.fits(4)
    with pytest.raises(SimulationError, match="no contiguous block"):
        m.allocate(4, None, "c")
    with pytest.raises(SimulationError, match="not all free"):
        m.allocate(2, 4, "d")
    m.release(2, 3, "b")
    assert m.blocks() == [(0, 8)]
    # engine: at 10 four processors are free but in two blocks of 2 -> a 4-wide job waits
    jobs = [SimJob(1, 0, 10, 10, 2), SimJob(2, 0, 30, 30, 2), SimJob(3, 0, 10, 10, 2),
            SimJob(4, 0, 30, 30, 2), SimJob(5, 1, 5, 5, 4)]  # fmt: skip
    anyway = simulate(jobs, 8, make_scheduler("fcfs")).jobs.set_index("job_id")
    contig = simulate(jobs, 8, make_scheduler("fcfs"), allocation="contiguous").jobs
    assert anyway.start[5] == 10
    assert contig.set_index("job_id").start[5] == 30
    with pytest.raises(SimulationError, match="allocation"):
        simulate(jobs, 8, make_scheduler("fcfs"), allocation="torus")


def test_fork_fair_start_time_without_later_arrivals():
    """Tang §4.2 fair start time: from the state at a job's submission, no later arrivals."""
    jobs = [SimJob(1, 0, 50, 100, 4), SimJob(2, 1, 10, 10, 4), SimJob(3, 2, 10, 10, 2)]

    fair: dict[int, int] = {}

    class Probe(EASY):
        def on_arrival(self, ctx, job):
            super().on_arrival(ctx, job)
            fork = simulate_from(ctx.snapshot(), self.fork(), sync=False,
                                 stop_when_started=[job.job_id])  # fmt: skip
            fair[job.job_id] = int(fork.jobs.set_index("job_id").start[job.job_id])

    real = simulate(jobs, 4, Probe()).jobs.set_index("job_id")
    # planned with estimates: job 1 expected to end at 100 -> job 2 at 100, job 3 at 110
    assert fair == {1: 0, 2: 100, 3: 110}
    assert real.start.to_dict() == {1: 0, 2: 50, 3: 60}  # the real run is untouched
    # a fork with a fresh scheduler of another policy, synced from the snapshot
    snap_jobs = []

    class Snap(EASY):
        def on_arrival(self, ctx, job):
            super().on_arrival(ctx, job)
            if job.job_id == 3:
                snap_jobs.append(ctx.snapshot())

    simulate(jobs, 4, Snap())
    out = simulate_from(snap_jobs[0], make_scheduler("fcfs"), runtimes="actual").jobs
    assert out.set_index("job_id").start.to_dict() == {1: 0, 2: 50, 3: 60}
