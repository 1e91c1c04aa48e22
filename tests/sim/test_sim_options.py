"""The engine's settings as data (schedlab.sim.options.SimOptions): validated values, settings
blocks with pins, no environment channel, and the run's options reaching the schedulers and their
forks (MachineView.options)."""

from __future__ import annotations

import dataclasses

import pytest

from schedlab.errors import ConfigError
from schedlab.sim import Alternative, SimJob, SimOptions, simulate
from schedlab.sim.options import DEFAULT_TIE_RULE, SIM_OPTION_KEYS, TIE_RULES
from schedlab.sim.schedulers.fcfs import FCFS
from schedlab.sim.schedulers.sa import SA

JOBS = [SimJob(1, 0, 10, 10, 4), SimJob(2, 10, 5, 5, 4)]


def test_defaults_values_and_immutability():
    assert SimOptions().tie_rule == DEFAULT_TIE_RULE == "per_event"  # pyss's order
    assert SIM_OPTION_KEYS == ("tie_rule",)
    for rule in TIE_RULES:
        assert SimOptions(tie_rule=rule).as_dict() == {"tie_rule": rule}
    with pytest.raises(ConfigError, match=r"unknown tie_rule 'random'"):
        SimOptions(tie_rule="random")  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        SimOptions().tie_rule = "completions_first"  # type: ignore[misc]


def test_a_settings_block_pins_over_the_options_it_is_applied_to():
    workflow = SimOptions(tie_rule="arrivals_first")
    assert workflow.pinned(None) == workflow.pinned({}) == workflow  # nothing pinned
    assert workflow.pinned({"tie_rule": "completions_first"}) == SimOptions("completions_first")
    assert SimOptions.from_mapping(None) == SimOptions()
    assert SimOptions.from_mapping({"tie_rule": "completions_first"}).tie_rule == "completions_first"
    with pytest.raises(ConfigError, match=r"^config/papers/x.yaml sim: unknown engine option\(s\) "
                                          r"\['order'\]; known: \['tie_rule'\]$"):
        workflow.pinned({"order": "fifo"}, "config/papers/x.yaml sim")
    with pytest.raises(ConfigError, match=r"^config sim: unknown tie_rule 'whenever'"):
        SimOptions.from_mapping({"tie_rule": "whenever"}, "config sim")


def test_the_environment_does_not_reach_the_engine(monkeypatch):
    monkeypatch.setenv("SCHEDLAB_TIE_RULE", "completions_first")
    assert simulate(JOBS, 4, FCFS()).settings["tie_rule"] == "per_event"
    res = simulate(JOBS, 4, FCFS(), options=SimOptions(tie_rule="arrivals_first"))
    assert res.settings["tie_rule"] == "arrivals_first"  # the result records its options


class Seen(FCFS):
    """FCFS that records the options the engine shows it."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[SimOptions] = []

    def on_arrival(self, ctx, job) -> None:
        self.seen.append(ctx.options)
        super().on_arrival(ctx, job)


@pytest.mark.parametrize("rule", TIE_RULES)
def test_schedulers_see_the_runs_options(rule):
    sched = Seen()
    simulate(JOBS, 4, sched, options=SimOptions(tie_rule=rule))
    assert sched.seen == [SimOptions(tie_rule=rule)] * len(JOBS)


@pytest.mark.parametrize("rule", ["completions_first", "per_event"])
def test_sag_forks_run_under_the_runs_options(monkeypatch, rule):
    """SAg (Cirne §2.1) forks the run for each request: the forks replay events in its order."""
    from schedlab.sim import fork

    seen, starts_from = [], fork.starts_from

    def spy(*args, **kw):
        seen.append(kw["options"])
        return starts_from(*args, **kw)

    monkeypatch.setattr(fork, "starts_from", spy)
    alts = (Alternative(2, 20, 20), Alternative(4, 10, 10))
    jobs = [SimJob(1, 0, 30, 30, 2), SimJob(2, 5, 20, 20, 2, alternatives=alts),
            SimJob(3, 5, 10, 10, 4, alternatives=alts)]
    simulate(jobs, 4, SA("g"), options=SimOptions(tie_rule=rule))
    assert seen and set(seen) == {SimOptions(tie_rule=rule)}
