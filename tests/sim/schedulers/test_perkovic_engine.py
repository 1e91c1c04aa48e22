"""The Perković & Keleher family as a policy of the shared engine: the registry / CLI entries give the
paper driver's schedule, and invariants hold for every variant (issue 18)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schedlab.cli.main import main
from schedlab.io import read_parquet
from schedlab.sim.engine import simulate
from schedlab.sim.options import SimOptions
from schedlab.sim.schedulers import make_scheduler
from schedlab.sim.schedulers import queue_orders as qo
from schedlab.sim.schedulers import speculative as sp
from schedlab.sim.schedulers.perkovic import FACTORIES, TIE_RULE, Perkovic, PKConfig, perkovic
from schedlab.sim.schedulers.perkovic_runs import pk_jobs, run_engine, simulate_pk


def workload(n=60, seed=15):
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.integers(0, 1000, n))
    runtime = rng.integers(1, 400, n)
    estimate = runtime * rng.integers(1, 8, n)
    estimate[::7] = 12000  # long estimates, for test runs
    procs = rng.integers(1, 9, n)
    return submit, runtime, estimate, procs


@pytest.mark.parametrize("name, kw", [("pk-1l", {}), ("pk-d-ng", {}),
                                      ("perkovic", {"order": "P/L", "guarantees": False,
                                                    "speculation": 0.3, "test_runs": True,
                                                    "adaptation": "half", "widening": True})])
def test_registry_scheduler_gives_the_paper_drivers_schedule(name, kw):
    """``make_scheduler`` (the CLI's registry) and the paper driver run the same policy: equal
    per-job starts, ends and widths on the engine under the policy's tie rule."""
    submit, runtime, estimate, procs = workload()
    sched = make_scheduler(name, **kw)
    jobs = pk_jobs(submit, runtime, estimate, procs)
    res = simulate(jobs, 8, sched,
                   options=SimOptions(tie_rule=TIE_RULE), record_timeline=False).jobs
    driver = simulate_pk(submit, runtime, estimate, procs, 8, sched.cfg, np.random.SeedSequence(0))
    assert list(res["start"]) == list(driver["start"].astype(int))
    assert list(res["end"]) == list(driver["end"].astype(int))
    assert list(res["procs"]) == list(driver["run_procs"])
    if kw.get("adaptation") == "half":
        assert (res["procs"] < np.asarray(procs)).any()  # half-size alternatives ran


def test_cli_simulate_runs_a_perkovic_variant(tmp_path, capsys):
    swf = tmp_path / "tiny.swf"
    swf.write_text(
        "; MaxProcs: 4\n; UnixStartTime: 0\n"
        "1 0 -1 50 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
        "2 1 -1 50 4 -1 -1 4 50 -1 1 2 -1 -1 -1 -1 -1 -1\n"
        "3 2 -1 10 4 -1 -1 4 10 -1 1 2 -1 -1 -1 -1 -1 -1\n"
        "4 3 -1 30 4 -1 -1 4 30 -1 1 2 -1 -1 -1 -1 -1 -1\n"
    )
    out = tmp_path / "jobs.parquet"
    for name, starts in (("pk-d", [0, 50, 100, 110]), ("pk-1l", [0, 90, 50, 60])):
        assert main(["simulate", str(swf), "--scheduler", name, "--tie-rule", "completions_first",
                     "--out", str(out)]) == 0
        assert "jobs simulated         4" in capsys.readouterr().out
        df, meta = read_parquet(out)
        assert list(df.start) == starts and meta["scheduler"] == name
        assert {"order", "guarantees", "weight"} <= set(meta["params"])


def _check_invariants(jobs, machine, res, guarantees, guaranteed):
    submit = np.array([j.submit for j in jobs])
    start, end, procs = res["start"], res["end"], res["run_procs"]
    assert np.all(start >= submit)                      # no start before submission
    assert np.all(np.isfinite(end)) and np.all(end > start)  # every job finishes
    # never over-allocated by the final runs (the engine itself refuses any over-allocation)
    ev = sorted([(s, p) for s, p in zip(start, procs, strict=True)]
                + [(e, -p) for e, p in zip(end, procs, strict=True)], key=lambda x: (x[0], x[1]))
    used = 0
    for _, d in ev:
        used += d
        assert used <= machine
    if guarantees:  # conservative guarantees never broken (§2)
        assert np.all(start <= guaranteed)


@pytest.mark.parametrize("order", qo.ORDERS)
@pytest.mark.parametrize("guarantees", [True, False])
@pytest.mark.parametrize("variant", ["base", "spec", "half", "quarter", "greedy", "widen_spec"])
@pytest.mark.parametrize("tie_rule", [TIE_RULE, "per_event"])
def test_invariants_of_every_variant(order, guarantees, variant, tie_rule):
    """Under the paper's event order and the CLI's default (``per_event``)."""
    submit, runtime, estimate, procs = workload(80, seed=3)
    spec = (sp.Speculation(0.3, test_runs=True, min_estimate_s=1000, length_s=20, max_length_s=60)
            if variant in ("spec", "widen_spec") else None)
    adaptation = {"half": "half", "quarter": "quarter", "greedy": "greedy",
                  "widen_spec": "half"}.get(variant, "none")
    cfg = PKConfig(qo.QueueOrder(order, guarantees, 0.0 if guarantees else 1e-6), spec,
                   adaptation, widening=variant == "widen_spec")
    jobs = pk_jobs(submit, runtime, estimate, procs)
    sched = Perkovic(cfg, np.random.SeedSequence(1), n_jobs=len(jobs))
    if tie_rule == TIE_RULE:
        res = run_engine(jobs, 8, sched)
    else:
        df = simulate(jobs, 8, sched,
                      options=SimOptions(tie_rule=tie_rule), record_timeline=False).jobs
        res = {"start": df["start"].to_numpy(), "end": df["end"].to_numpy(),
               "run_procs": df["procs"].to_numpy(), "kills": df["attempts"].to_numpy() - 1,
               "spec_starts": np.asarray(sched.spec_starts),
               "guaranteed_start": np.asarray(sched.guaranteed)}
    _check_invariants(jobs, 8, res, guarantees, res["guaranteed_start"])
    if spec is not None:
        assert res["kills"].sum() > 0 and res["spec_starts"].sum() > 0  # kills were exercised


def test_invariant_check_can_fail():
    """The invariant check rejects a schedule that breaks a guarantee or over-allocates."""
    submit, runtime, estimate, procs = workload(20)
    jobs = pk_jobs(submit, runtime, estimate, procs)
    res = run_engine(jobs, 8, Perkovic(PKConfig(), 0, n_jobs=len(jobs)))
    late = {**res, "start": res["start"] + 1e6, "end": res["end"] + 1e6}
    with pytest.raises(AssertionError):
        _check_invariants(jobs, 8, late, True, res["guaranteed_start"])
    wide = {**res, "run_procs": res["run_procs"] * 8}
    with pytest.raises(AssertionError):
        _check_invariants(jobs, 8, wide, False, None)


@pytest.mark.parametrize("order", qo.ORDERS)
def test_cli_scheduler_weight_is_the_paper_pipelines(order):
    """The CLI factories (``pk-<order>-ng``) use the same -NG weight as the paper pipeline's default
    configuration (``starvation_horizon_s`` in config/papers/perkovic2000.yaml), not a horizon of
    their own; an explicit horizon still gives the day-horizon weight."""
    import yaml

    from schedlab.papers.perkovic2000.config import resolve_settings
    from schedlab.papers.perkovic2000.sweep import RunPoint, pk_config

    cfg = yaml.safe_load(Path("config/papers/perkovic2000.yaml").read_text())
    assert float(cfg["starvation_horizon_s"]) == qo.STARVATION_HORIZON_S
    paper = pk_config(RunPoint(430, "base", order, False), resolve_settings(cfg), 10800.0)
    ng = FACTORIES[f"pk_{qo.slug(order, False).replace('-', '_')}"]()
    assert ng.params()["weight"] == paper.order.weight == 0.0
    cli = make_scheduler(f"pk-{ {'1/L': '1l', 'P/L': 'pl', 'R/L': 'rl'}.get(order, order.lower())}-ng")
    assert cli.params()["weight"] == paper.order.weight
    day = perkovic(order, False, starvation_horizon_s=86400.0)
    expected = 0.0 if order == "D" else qo.default_weight(order, 10800.0, 86400.0)
    assert day.params()["weight"] == pytest.approx(expected)
    assert perkovic(order, True, starvation_horizon_s=86400.0).params()["weight"] == 0.0


def test_fractional_input_and_allotments_are_refused():
    """Engine time is whole seconds: fractional job times and (impossible by construction)
    fractional speculative allotments raise a one-line SimulationError."""
    from schedlab.sim.errors import SimulationError
    from schedlab.sim.schedulers.speculative import whole_seconds as _whole

    with pytest.raises(SimulationError, match="runtime must be whole seconds"):
        pk_jobs([0, 1], [10.5, 3], [20, 3], [1, 1])
    assert _whole(900.0) == 900 and isinstance(_whole(900.0), int)
    with pytest.raises(SimulationError, match=r"1800\.5 s is not a whole number"):
        _whole(1800.5)
