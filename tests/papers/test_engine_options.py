"""Every paper that runs the engine takes its engine options from its settings: the workflow's
(config ``sim:``, ``Env.sim``) with the pins of its settings file's ``sim:`` blocks applied
(schedlab.sim.options.SimOptions). Each run below records the options of every engine it builds
(runs, forks, probes): they are the settings', never anything else."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.io import write_parquet
from schedlab.papers import Env, Inputs, load
from schedlab.sim import SimOptions
from schedlab.sim.engine import Engine
from schedlab.traces.swf import parse_swf_text

WORKFLOW = SimOptions(tie_rule="arrivals_first")  # the workflow's `sim:` in these tests
PINNED = SimOptions(tie_rule="completions_first")  # what Tang, Perković and Cirne's §5 pin


def env() -> Env:
    return Env(trace_local=lambda name: False, machine_size=lambda name: None, sim=WORKFLOW)


@pytest.fixture(autouse=True)
def in_repo(repo, monkeypatch):
    monkeypatch.chdir(repo)  # settings read config/papers/ from the workflow's directory


@pytest.fixture
def engines(monkeypatch):
    """The options of every engine built while the test runs."""
    seen: list[SimOptions] = []
    init = Engine.__init__

    def spy(self, jobs, machine_size, scheduler, allocation, options, *args, **kw):
        seen.append(options)
        init(self, jobs, machine_size, scheduler, allocation, options, *args, **kw)

    monkeypatch.setattr(Engine, "__init__", spy)
    return seen


def test_settings_resolve_the_pins_over_the_workflows_options():
    assert load("talby2005").settings({}, env()).sim == WORKFLOW.as_dict()  # no pin
    assert load("tang2013").settings({}, env()).sim == PINNED.as_dict()
    assert load("perkovic2000").settings({}, env()).sim == PINNED.as_dict()
    c = load("cirne2001").settings({}, env())
    assert c.single_target["sim"] == c.nas_validation["sim"] == PINNED.as_dict()
    assert c.offered_load["sim"] == WORKFLOW.as_dict()  # §6.2: the workflow's
    # an override pins as the file does; a bad one is one line naming the block and the key
    per_event = {"papers": {"tang2013": {"sim": {"tie_rule": "per_event"}}}}
    assert load("tang2013").settings(per_event, env()).sim == {"tie_rule": "per_event"}
    with pytest.raises(ConfigError, match=r"tang2013.yaml sim: unknown engine option\(s\) \['x'\]"):
        load("tang2013").settings({"papers": {"tang2013": {"sim": {"x": 1}}}}, env())


def _swf(n: int = 60, procs: int = 16, seed: int = 5) -> str:
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    submit = np.sort(rng.integers(0, 20 * 86400, n))
    run = rng.integers(60, 20000, n)
    size = rng.choice([1, 2, 4, 8, 16], n)
    lines = ["; UnixStartTime: 946684800", "; TimeZoneString: UTC", f"; MaxProcs: {procs}"]
    lines += [f"{i + 1} {submit[i]} -1 {run[i]} {size[i]} -1 -1 {size[i]} {run[i] * 2} -1 1 "
              f"{i % 5} 1 -1 1 -1 -1 -1" for i in range(n)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", ["sched", "pbas"])
def test_talby_runs_and_pbas_forks_follow_the_workflow(tmp_path, engines, kind):
    T = load("talby2005")
    s = T.settings({"quick": True}, env())
    point = next(p for p in T.points(s) if p.spec["kind"] == kind)
    trace = parse_swf_text(_swf())
    write_parquet(tmp_path / point.inputs[0], trace.jobs, {"swf_header": trace.header.to_dict()})
    T.run_point(s, point, Inputs(files={point.inputs[0]: tmp_path / point.inputs[0]}))
    assert len(engines) > (kind == "pbas") and set(engines) == {WORKFLOW}


def test_tang_runs_probes_and_table4_follow_the_pin(engines):
    from schedlab.papers.tang2013.config import LogSpec
    from schedlab.papers.tang2013.runs import iteration_seconds, run_sweep_point

    cfg = load("tang2013").settings({}, env())
    rng = np.random.default_rng(np.random.SeedSequence(7))
    est = rng.integers(600, 7200, 40)
    jobs = pd.DataFrame({"job_id": np.arange(40), "submit": np.sort(rng.integers(0, 20000, 40)),
                         "runtime": est // 2, "estimate": est, "procs": rng.integers(1, 17, 40)})
    spec = LogSpec("SP2", "synthetic", 40, 16, 1, "easy", "any", "Table 3", {}, False, None)
    run_sweep_point(jobs, spec, "bf0.5_w2", cfg)
    assert len(engines) > 1 and set(engines) == {PINNED}  # the run and its probes
    engines.clear()
    iteration_seconds(jobs, spec, [1, 2], SimOptions.from_mapping(cfg.sim))  # Table 4
    assert engines == [PINNED, PINNED]


def test_perkovic_runs_follow_the_pin(engines):
    from perkovic2000_cases import trace_table

    from schedlab.papers.perkovic2000.jobs import prepare_jobs
    from schedlab.papers.perkovic2000.runs import simulate
    from schedlab.papers.perkovic2000.sweep import RunPoint

    s = load("perkovic2000").settings({"quick": True}, env())
    jobs, _ = prepare_jobs(trace_table(40), None, 8, None)
    simulate(jobs, RunPoint(8, "base", "P", False), s, 1)
    assert set(engines) == {PINNED}


def test_cirne_single_target_follows_the_pin_and_the_sweep_the_workflow(engines):
    C = load("cirne2001")
    s = C.settings({"quick": True}, env())
    s = dataclasses.replace(
        s, single_target={**s.single_target, "experiments": 2, "targets_per_workload": 2,
                          "jobs_per_workload": 40},
        offered_load={**s.offered_load, "jobs_per_workload": 40})
    C.run_single_workload(s, 0)
    assert engines and set(engines) == {PINNED}
    engines.clear()
    C.run_sweep_point(s, "kappa_L", 1.0, 0)
    assert engines and set(engines) == {WORKFLOW}
    engines.clear()
    s = dataclasses.replace(s, attribution={
        "readings": {"pe": {"sim": {"tie_rule": "per_event"}}}, "workloads": 1,
        "targets_per_workload": 2, "jobs_per_workload": 40})
    C.run_point(s, next(p for p in C.points(s) if p.spec["kind"] == "attribution"), Inputs())
    assert engines and set(engines) == {SimOptions(tie_rule="per_event")}  # the reading's
