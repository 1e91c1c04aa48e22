"""The engine's pause-and-fork primitive (:class:`schedlab.sim.fork.Simulation`, issue 18): a run
paused before an arrival and resumed is the uninterrupted run, under every tie rule; a fork is
independent of its base and, with the next arrival replaced, is the run of the changed workload."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from schedlab.sim.engine import simulate
from schedlab.sim.errors import SimulationError
from schedlab.sim.fork import Simulation
from schedlab.sim.job import Alternative, SimJob
from schedlab.sim.options import TIE_RULES, SimOptions
from schedlab.sim.schedulers import make_scheduler

MACHINE = 16
COLS = ["job_id", "start", "end", "procs", "cancelled", "alternative"]


def _jobs(seed: int, n: int = 80) -> list[SimJob]:
    """Random moldable jobs with early ends, same-second events and cancellations."""
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.integers(0, n * 25, n)) // 10 * 10  # many equal submit times
    out = []
    for j in range(n):
        procs = int(rng.integers(1, MACHINE + 1))
        est = int(rng.integers(1, 40)) * 10
        run = max(1, int(est * rng.uniform(0.1, 1.0)))
        alts = tuple(Alternative(p, max(1, run * procs // p), max(1, est * procs // p))
                     for p in sorted({procs, int(rng.integers(1, MACHINE + 1))}))
        cancel = int(submit[j] + rng.integers(1, 400)) if rng.random() < 0.1 else None
        out.append(SimJob(j, int(submit[j]), run, est, procs, cancel_time=cancel,
                          alternatives=alts if len(alts) > 1 else ()))
    return out


def _frame(res) -> pd.DataFrame:
    return res.jobs[COLS].reset_index(drop=True)


@pytest.mark.parametrize("tie_rule", TIE_RULES)
@pytest.mark.parametrize("policy", ["conservative", "sa", "easy"])
def test_paused_and_resumed_run_is_the_uninterrupted_run(tie_rule, policy):
    jobs = _jobs(1)
    whole = simulate(jobs, MACHINE, make_scheduler(policy), options=SimOptions(tie_rule=tie_rule),
                     record_timeline=False)
    sim = Simulation(jobs, MACHINE, make_scheduler(policy), options=SimOptions(tie_rule=tie_rule))
    pauses = 0
    for j in jobs[5::7]:
        assert sim.run(stop_before=j.job_id)
        assert sim.now == j.submit and j.job_id not in sim.ctx.waiting
        sim.fork().run()  # a fork run to the end leaves the base untouched
        pauses += 1
    assert sim.run() is False
    pd.testing.assert_frame_equal(_frame(sim.result()), _frame(whole))
    assert pauses >= 10 and sim.result().jobs["start"].ge(0).sum() > 60


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_fork_with_the_next_arrival_replaced_is_the_changed_workload(tie_rule):
    jobs = _jobs(2)
    for k in (10, 33, 61):
        sim = Simulation(jobs, MACHINE, make_scheduler("conservative"),
                         options=SimOptions(tie_rule=tie_rule))
        sim.run(stop_before=jobs[k].job_id)
        other = replace(jobs[k], procs=MACHINE, runtime=7, estimate=9, alternatives=())
        fork = sim.fork(other)
        assert fork.run(until_started=[other.job_id])
        changed = simulate([*jobs[:k], other, *jobs[k + 1:]], MACHINE,
                           make_scheduler("conservative"), options=SimOptions(tie_rule=tie_rule),
                           record_timeline=False).jobs
        assert fork.start(other.job_id) == changed["start"].iloc[k]
        fork2 = sim.fork(other)
        fork2.run()
        pd.testing.assert_frame_equal(fork2.result().jobs[COLS], changed[COLS])
        sim.run()  # the base is still the original workload
        base = simulate(jobs, MACHINE, make_scheduler("conservative"),
                        options=SimOptions(tie_rule=tie_rule),
                        record_timeline=False)
        pd.testing.assert_frame_equal(_frame(sim.result()), _frame(base))


def test_deadline_and_until_started():
    jobs = [SimJob(1, 0, 100, 100, 16), SimJob(2, 10, 5, 5, 16)]
    sim = Simulation(jobs, MACHINE, make_scheduler("conservative"))
    sim.run(stop_before=2)
    assert sim.fork().run(until_started=[2], deadline=99) is False  # starts at 100
    f = sim.fork()
    assert f.run(until_started=[2], deadline=100) and f.start(2) == 100
    assert f.run(until_started=[2])  # already started: nothing to do


def test_misuse_is_refused():
    jobs = [SimJob(1, 0, 100, 100, 16), SimJob(2, 10, 5, 5, 16), SimJob(3, 20, 5, 5, 16)]
    sim = Simulation(jobs, MACHINE, make_scheduler("conservative"),
                     options=SimOptions(tie_rule="per_event"))
    sim.run(stop_before=3)
    with pytest.raises(SimulationError, match="already arrived"):
        sim.run(stop_before=2)
    with pytest.raises(SimulationError, match="not the next arrival"):
        sim.fork(replace(jobs[1], procs=1))
    sim.run(until_started=[2])
    with pytest.raises(SimulationError, match="cannot go on"):
        sim.run()
