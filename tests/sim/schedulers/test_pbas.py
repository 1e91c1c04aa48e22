"""PBAS and WBAS (Talby & Feitelson 2005 §3, §4.2) on small hand-built workloads."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.sim import SimJob, simulate
from schedlab.sim.options import SimOptions
from schedlab.sim.schedulers import make_scheduler
from schedlab.sim.schedulers.flex import Flex
from schedlab.sim.schedulers.switching import PBAS, WBAS


def _workload(n=120, size=16, seed=5):
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    t, jobs = 0, []
    for i in range(n):
        t += int(rng.integers(0, 400))
        est = int(rng.integers(60, 3000))
        run = int(rng.integers(1, est + 1))
        jobs.append(SimJob(i, t, run, est, int(rng.integers(1, size + 1))))
    return jobs, size


def _cands(*names):
    return [(n, (lambda n=n: Flex() if n == "flex" else make_scheduler(n))) for n in names]


@pytest.mark.parametrize("tie_rule", ["per_event", "completions_first", "arrivals_first"])
@pytest.mark.parametrize(("cand", "metric"), [("maui", "resp"), ("maui", "bsld"), ("maui", "util"),
                                              ("easy", "resp"), ("easy", "util")])
def test_identical_candidates_never_switch(cand, metric, tie_rule):
    # The fork of an inactive candidate must score exactly like the real (active) copy over each
    # frame, under every event order; any difference would make PBAS switch. (Holds for policies
    # whose plan is a function of the waiting jobs; conservative and Flex keep history a fork's
    # sync re-plans, so their forks may differ.)
    jobs, size = _workload(200)
    pb = PBAS(_cands(cand, cand), 1800, metric)
    res = simulate(jobs, size, pb, record_timeline=False, options=SimOptions(tie_rule=tie_rule))
    ref = simulate(jobs, size, _cands(cand)[0][1](), record_timeline=False,
                   options=SimOptions(tie_rule=tie_rule))
    assert pb.switches == 0 and pb.frames_forked > 0
    assert res.jobs["start"].tolist() == ref.jobs["start"].tolist()


@pytest.mark.parametrize("tie_rule", ["completions_first", "per_event"])
def test_forks_follow_the_runs_event_order(monkeypatch, tie_rule):
    from schedlab.sim.schedulers import switching

    seen, fork = [], switching.simulate_from

    def spy(*args, **kw):
        seen.append(kw["options"].tie_rule)
        return fork(*args, **kw)

    monkeypatch.setattr(switching, "simulate_from", spy)
    jobs, size = _workload(80)
    simulate(jobs, size, PBAS(_cands("fcfs", "easy"), 900, "util"), record_timeline=False,
             options=SimOptions(tie_rule=tie_rule))
    assert seen and set(seen) == {tie_rule}


def test_single_candidate_is_that_scheduler():
    jobs, size = _workload(60)
    res = simulate(jobs, size, PBAS(_cands("flex"), 600, "resp"), record_timeline=False)
    ref = simulate(jobs, size, Flex(), record_timeline=False)
    assert res.jobs["start"].tolist() == ref.jobs["start"].tolist()


def test_switches_to_the_better_utilization():
    # 4 processors. A wide job blocks the head; FCFS leaves 3 processors idle that EASY backfills.
    # FCFS is active first; after the first frame the EASY fork shows higher utilization.
    jobs = [SimJob(0, 0, 1000, 1000, 1), SimJob(1, 1, 500, 500, 4)]
    jobs += [SimJob(2 + k, 2 + k, 50, 50, 1) for k in range(6)]
    pb = PBAS(_cands("fcfs", "easy"), 100, "util")
    res = simulate(jobs, 4, pb, record_timeline=False)
    assert pb.switches >= 1 and pb.shares()["easy"] > 0
    starts = dict(zip(res.jobs["job_id"], res.jobs["start"], strict=True))
    assert starts[2] < starts[1]          # backfilled after the switch to EASY
    assert starts[2] >= 100               # but not during the first (FCFS) frame


def test_pbas_is_deterministic_and_shares_add_up():
    jobs, size = _workload(80)
    runs = []
    for _ in range(2):
        pb = PBAS(_cands("flex", "maui"), 900, "resp")
        runs.append((simulate(jobs, size, pb, record_timeline=False).jobs, pb))
    assert runs[0][0].equals(runs[1][0])
    assert sum(runs[0][1].shares().values()) == pytest.approx(1.0)


def test_wbas_moving_average_and_choice():
    # MAF 2: AP = AP/2 + P/2. Frame 1 (narrow jobs) keeps Maui; frame 2's wide arrivals push
    # AP_last above AP, so Flex is activated.
    jobs = [SimJob(0, 0, 10, 10, 1), SimJob(1, 10, 10, 10, 1),
            SimJob(2, 150, 10, 10, 4), SimJob(3, 160, 10, 10, 4)]
    wb = WBAS(_cands("flex", "maui"), 100, 2)
    simulate(jobs, 4, wb, record_timeline=False)
    assert wb.ap == pytest.approx(((1 * 0.5 + 1 * 0.5) * 0.5 + 4 * 0.5) * 0.5 + 4 * 0.5)
    assert wb.switches == 1 and wb.names[wb.active] == "flex"


def test_bad_parameters():
    with pytest.raises(ValueError, match="metric"):
        PBAS(_cands("flex", "maui"), 60, "wait")
    with pytest.raises(ValueError, match="MAF"):
        WBAS(_cands("flex", "maui"), 60, 0.5)
    with pytest.raises(ValueError, match="time frame"):
        PBAS(_cands("flex", "maui"), 0, "util")
    with pytest.raises(ValueError, match="flex then maui"):
        WBAS(["maui", "flex"])


def test_registry_names_and_candidate_options():
    # make_scheduler("pbas"/"wbas") with candidates by name and per-candidate options schedules as
    # the same policies given candidate factories.
    jobs, size = _workload(100)
    opts = {"flex": {"slack_factor": 0.5}, "maui": {"xfactor_weight": 100.0}}
    facts = [("flex", lambda: Flex(slack_factor=0.5)),
             ("maui", lambda: make_scheduler("maui", xfactor_weight=100.0))]
    for reg, direct in [
        (make_scheduler("pbas", metric="util", time_frame=1800, candidate_options=opts),
         PBAS(facts, 1800, "util")),
        (make_scheduler("wbas", maf=3, time_frame=1800, candidate_options=opts),
         WBAS(facts, 1800, 3)),
    ]:
        a = simulate(jobs, size, reg, record_timeline=False)
        b = simulate(jobs, size, direct, record_timeline=False)
        assert a.jobs["start"].tolist() == b.jobs["start"].tolist()
        assert reg.switches == direct.switches and reg.switches > 0
        assert reg.params()["candidate_options"] == opts


def test_defaults_are_the_papers_best_configurations():
    # Table 5 "Resp 12-Hour", Table 8 "7500 MAF 1 Day"
    pb = make_scheduler("pbas").params()
    assert (pb["candidates"], pb["time_frame"], pb["metric"]) == (["flex", "maui"], 43200, "resp")
    wb = make_scheduler("wbas").params()
    assert (wb["candidates"], wb["time_frame"], wb["maf"]) == (["flex", "maui"], 86400, 7500.0)


@pytest.mark.parametrize("name", ["pbas", "wbas"])
def test_cli_simulate(tmp_path, capsys, name):
    # `schedlab simulate --scheduler pbas|wbas`: the engine's per-job table, the run's parameters in
    # the metadata, the same schedule as make_scheduler with the defaults.
    from schedlab.cli.main import main
    from schedlab.cli.sim import load_sim_jobs
    from schedlab.io import read_parquet

    jobs, _ = _workload(60)
    swf = tmp_path / "w.swf"
    swf.write_text("; MaxProcs: 16\n; UnixStartTime: 0\n" + "".join(
        f"{j.job_id + 1} {j.submit} -1 {j.runtime} {j.procs} -1 -1 {j.procs} {j.estimate} -1 1 "
        f"1 -1 -1 -1 -1 -1 -1\n" for j in jobs))
    out = tmp_path / "jobs.parquet"
    assert main(["simulate", str(swf), "--scheduler", name, "--out", str(out)]) == 0
    assert f"scheduler              {name}" in capsys.readouterr().out
    df, meta = read_parquet(out)
    norm, _, _ = load_sim_jobs(str(swf))
    ref = simulate(norm.jobs, 16, make_scheduler(name), record_timeline=False)
    assert df["start"].tolist() == ref.jobs["start"].tolist()
    assert list(df.columns) == list(ref.jobs.columns)
    assert meta["scheduler"] == name and meta["params"] == make_scheduler(name).params()
