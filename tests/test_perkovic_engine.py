"""The Perković & Keleher policy on the shared engine gives the same schedule as its own loop."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schedlab.sim.engine import simulate
from schedlab.sim.job import SimJob
from schedlab.sim.schedulers import queue_orders as qo
from schedlab.sim.schedulers import speculative as sp
from schedlab.sim.schedulers.pk_backfill import PKConfig, simulate_pk
from schedlab.sim.schedulers.pk_engine import PKScheduler


def workload(n=60, seed=15):
    rng = np.random.default_rng(seed)
    submit = np.sort(rng.integers(0, 1000, n))
    runtime = rng.integers(1, 400, n)
    estimate = runtime * rng.integers(1, 8, n)
    estimate[::7] = 12000  # long estimates, for test runs
    procs = rng.integers(1, 9, n)
    return submit, runtime, estimate, procs


@pytest.mark.parametrize("order", ["D", "1/L"])
@pytest.mark.parametrize("guarantees", [True, False])
@pytest.mark.parametrize("pct", [None, 0.3])
def test_engine_adapter_matches_own_loop(order, guarantees, pct):
    submit, runtime, estimate, procs = workload()
    weight = 0.0 if guarantees else 1e-6
    spec = sp.Speculation(pct, test_runs=True) if pct else None
    own = simulate_pk(submit, runtime, estimate, procs, 8,
                      PKConfig(qo.QueueOrder(order, guarantees, weight), spec),
                      np.random.SeedSequence(0))
    jobs = [SimJob(i, int(s), int(r), int(e), int(p))
            for i, (s, r, e, p) in enumerate(zip(submit, runtime, estimate, procs, strict=True))]
    res = simulate(jobs, 8, PKScheduler(order, guarantees, weight, pct, test_runs=bool(pct)),
                   record_timeline=False)
    eng = res.jobs.sort_values("job_id")
    assert list(eng["start"]) == list(own["start"].astype(int))
    assert list(eng["end"]) == list(own["end"].astype(int))
    if pct:
        assert (own["kills"] > 0).any()  # the case exercises kill and requeue
        assert list(eng["attempts"] - 1) == list(own["kills"])


@pytest.mark.parametrize("order", qo.ORDERS)
def test_cli_scheduler_weight_is_the_paper_pipelines(order):
    """The CLI factories (``pk-<order>-ng``) use the same -NG weight as the paper pipeline's default
    configuration (``starvation_horizon_s`` in config/papers/perkovic2000.yaml), not a horizon of
    their own; an explicit horizon still gives the day-horizon weight."""
    import yaml

    from schedlab.papers import perkovic2000 as pk
    from schedlab.sim.schedulers import make_scheduler
    from schedlab.sim.schedulers.pk_engine import FACTORIES

    cfg = yaml.safe_load(Path("config/papers/perkovic2000.yaml").read_text())
    assert float(cfg["starvation_horizon_s"]) == qo.STARVATION_HORIZON_S
    paper = pk.pk_config(pk.RunPoint(430, "base", order, False), pk.settings(cfg), 10800.0)
    ng = FACTORIES[f"pk_{qo.slug(order, False).replace('-', '_')}"]()
    assert ng.params()["weight"] == paper.order.weight == 0.0
    cli = make_scheduler(f"pk-{ {'1/L': '1l', 'P/L': 'pl', 'R/L': 'rl'}.get(order, order.lower())}-ng")
    assert cli.params()["weight"] == paper.order.weight
    day = PKScheduler(order, False, starvation_horizon_s=86400.0)
    expected = 0.0 if order == "D" else qo.default_weight(order, 10800.0, 86400.0)
    assert day.params()["weight"] == pytest.approx(expected)
    assert PKScheduler(order, True, starvation_horizon_s=86400.0).params()["weight"] == 0.0
