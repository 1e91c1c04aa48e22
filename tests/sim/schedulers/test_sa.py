"""SA (Cirne 2001, ch. 2): the worked example of Figures 6-9, Theorem 1 (SAg == SAcb), first fit."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from schedlab.papers.cirne2001 import machine_run, sa_choice, sim_jobs, workload_from_tables
from schedlab.sim.engine import simulate
from schedlab.sim.errors import SimulationError
from schedlab.sim.job import Alternative, SimJob
from schedlab.sim.options import TIE_RULES, SimOptions
from schedlab.sim.schedulers import make_scheduler
from schedlab.sim.schedulers.sa import (
    SA,
    Choice,
    first_fit,
    load_per_processor,
    sacb_select,
    sag_select,
)

# Figure 6: [(0,1,5), (1,5,10), (5,6,0), (6,7,10), (7,11,20), (11,inf,40)]
FIG6_STARTS = [0, 1, 5, 6, 7, 11]
FIG6_FREE = [5, 10, 0, 10, 20, 40]
# job j: 10 processors x 5, 20 x 3, 30 x 2
FIG6_PROCS = [10, 20, 30]
FIG6_TIMES = [5, 3, 2]


@pytest.mark.parametrize("literal", [False, True])
def test_figures_6_to_9_sa_picks_20_processors_finishing_at_10(literal):
    c = sacb_select(FIG6_STARTS, FIG6_FREE, FIG6_PROCS, FIG6_TIMES, literal=literal)
    assert c == Choice(index=1, start=7.0, completion=10.0)


def test_figures_7_to_9_candidate_schedules():
    s, f = np.array(FIG6_STARTS, float), np.array(FIG6_FREE)
    # (A) 10 processors from 6 to 11 (Figure 7); (B) 20 from 7 to 10 (Figure 8)
    assert first_fit(s, f, 10, 5) == 6
    assert first_fit(s, f, 20, 3) == 7
    # (C) 30 processors: the text says "starting at 12 and finishing at 14", but its own availability
    # list has 40 processors free from 11 on, so the first fit starts at 11 and ends at 13.
    assert first_fit(s, f, 30, 2) == 11


def test_sag_on_figure_6_matches_sacb():
    s, f = np.array(FIG6_STARTS, float), np.array(FIG6_FREE)

    def sim(i):
        st = first_fit(s, f, FIG6_PROCS[i], FIG6_TIMES[i])
        return st, st + FIG6_TIMES[i]

    assert sag_select(FIG6_PROCS, sim) == Choice(1, 7.0, 10.0)


def test_literal_figure_5_can_miss_a_first_fit():
    # documented reading: line 10 extends the slot by the request's own processor count
    starts, free = [0, 1], [10, 5]
    assert sacb_select(starts, free, [5], [3]).start == 0
    assert sacb_select(starts, free, [5], [3], literal=True).start == 1


def test_tie_prefers_fewer_processors():
    c = sacb_select([0], [100], [8, 4], [10, 10])
    assert c.index == 1


def test_first_fit_respects_earliest_and_never_fits():
    s, f = np.array([0.0, 10.0, 20.0]), np.array([4, 8, 2])
    assert first_fit(s, f, 4, 5, earliest=3) == 3
    assert first_fit(s, f, 8, 5) == 10
    assert first_fit(s, f, 8, 15) == math.inf
    assert first_fit(s, f, 2, 100) == 0


def test_load_per_processor():
    # two jobs: running since 0 on 10 procs with tr=100; waiting on 20 procs with tr=50; now=40
    d = load_per_processor(40, np.array([10, 20]), np.array([100.0, 50.0]),
                           np.array([0.0, np.nan]), 100)
    assert d == pytest.approx((10 * 60 + 20 * 50) / 100)


def random_workload(rng: np.random.Generator, n: int, machine: int):
    """A small random moldable workload (jobs, alternatives) with early completions and cancels."""
    submit = np.sort(rng.integers(0, n * 40, n))
    rows, alts = [], []
    for j in range(n):
        nu = int(rng.integers(1, 5))
        sizes = sorted({int(x) for x in rng.integers(1, machine + 1, nu)})
        work = float(rng.integers(100, 20000))
        acc = float(rng.uniform(0.05, 1.0))
        for p in sizes:
            est = float(math.ceil(work / p ** 0.8))
            alts.append((j, p, max(1.0, math.floor(est * acc)), est))
        up = sizes[int(rng.integers(0, len(sizes)))]
        _, _, r, e = next(a for a in alts if a[0] == j and a[1] == up)
        cancel = float(submit[j] + rng.integers(1, 3000)) if rng.random() < 0.1 else np.nan
        rows.append((j, float(submit[j]), r, e, up, cancel))
    jobs = pd.DataFrame(rows, columns=["job_id", "submit", "runtime", "estimate", "procs",
                                       "cancel_time"])
    return jobs, pd.DataFrame(alts, columns=["job_id", "procs", "runtime", "estimate"])


@pytest.mark.parametrize("seed", range(3))
def test_theorem_1_sag_and_sacb_choose_the_same_request(seed):
    rng = np.random.default_rng(seed)
    machine = 32
    wl = workload_from_tables(*random_workload(rng, 80, machine), machine)
    jobs = sim_jobs(wl)
    m = machine_run(jobs, machine, "user")
    checked = 0
    for k in range(0, wl.n_jobs, 3):
        m.run(stop_before=jobs[k].job_id)
        if not jobs[k].alternatives:
            continue
        assert sa_choice(m, jobs[k], "cb") == sa_choice(m, jobs[k], "g")
        checked += 1
    assert checked > 8


def _sim_jobs(jobs: pd.DataFrame, alts: pd.DataFrame) -> list[SimJob]:
    return [
        SimJob(int(r.job_id), int(r.submit), int(r.runtime), int(r.estimate), int(r.procs),
               cancel_time=None if np.isnan(r.cancel_time) else int(np.ceil(r.cancel_time)),
               alternatives=tuple(Alternative(int(a.procs), int(a.runtime), int(a.estimate))
                                  for a in alts[alts["job_id"] == r.job_id].itertuples()))
        for r in jobs.itertuples()
    ]


@pytest.mark.parametrize("tie_rule", TIE_RULES)
@pytest.mark.parametrize("version", ["cb", "g"])
def test_sa_invariants(version, tie_rule):
    """SA (and conservative backfilling under it): no start before submit, never more processors
    than the machine, every job finishes or is cancelled, no job starts after its first
    reservation (the conservative guarantee), every job runs with one of its requests."""
    machine = 16
    jobs = _sim_jobs(*random_workload(np.random.default_rng(7), 60, machine))
    sched = make_scheduler("sa", version=version, record_reservations=True)
    res = simulate(jobs, machine, sched,
                   options=SimOptions(tie_rule=tie_rule), record_timeline=False).jobs
    ran = res["start"].to_numpy() >= 0
    assert (ran | res["cancelled"].to_numpy()).all() and ran.sum() > 40
    assert (res["start"][ran] >= res["submit"][ran]).all()
    assert (res["end"][ran] <= res["start"][ran] + res["estimate"][ran]).all()
    first = res["job_id"].map(sched.first_reservations).to_numpy()
    assert (res["start"].to_numpy()[ran] <= first[ran]).all()
    ev = sorted([(s, p) for s, p in zip(res["start"][ran], res["procs"][ran], strict=True)]
                + [(e, -p) for e, p in zip(res["end"][ran], res["procs"][ran], strict=True)],
                key=lambda x: (x[0], x[1]))
    busy = np.cumsum([d for _, d in ev])
    assert busy.max() <= machine and busy[-1] == 0
    for j, (_, r) in zip(jobs, res.iterrows(), strict=True):
        requests = {(j.procs, j.estimate)} | {(a.procs, a.estimate) for a in j.alternatives}
        assert (r["procs"], r["estimate"]) in requests
    assert sched.params() == {"version": version, "compress_on": "early",
                              "compress_passes": "until_stable"}  # Cirne §2.2.1's reading


def test_sa_versions_choose_alike_and_bad_version_is_refused():
    machine = 16
    jobs = _sim_jobs(*random_workload(np.random.default_rng(3), 50, machine))
    cb, g = (simulate(jobs, machine, SA(v), options=SimOptions(tie_rule="completions_first"),
                      record_timeline=False).jobs for v in ("cb", "g"))
    pd.testing.assert_frame_equal(cb, g)  # Theorem 1 over a whole run
    with pytest.raises(SimulationError, match="version"):
        SA("x")


def test_sa_from_the_cli_on_a_rigid_trace_is_conservative_backfilling(tmp_path):
    """``schedlab simulate --scheduler sa``: the same per-job output columns and metrics as the
    other policies; on a rigid trace (no alternatives) SA places every job as conservative
    backfilling under the same compression reading (SA's default, Cirne's) does."""
    from schedlab.cli.main import main
    from schedlab.cli.sim import load_sim_jobs, run_simulation
    from schedlab.io import read_parquet

    rng = np.random.default_rng(4)
    lines = [f"{i} {i * 40} 0 {int(rng.integers(10, 300))} {int(rng.integers(1, 9))} -1 -1 "
             f"{int(rng.integers(1, 9))} 300 -1 1 1 1 -1 1 -1 -1 -1" for i in range(1, 40)]
    src = tmp_path / "t.swf"
    src.write_text("; MaxProcs: 8\n; UnixStartTime: 0\n" + "\n".join(lines) + "\n")
    out = {}
    for name in ("sa", "conservative"):
        assert main(["simulate", str(src), "--scheduler", name, "--out",
                     str(tmp_path / f"{name}.parquet")]) == 0
        out[name], _ = read_parquet(tmp_path / f"{name}.parquet")
    norm, header, _ = load_sim_jobs(str(src))
    cirne, _, _ = run_simulation(norm, header, "conservative",
                                 params={"compress_on": "early", "compress_passes": "until_stable"})
    pd.testing.assert_frame_equal(out["sa"], cirne)
    assert (out["sa"]["wait"] > 0).sum() > 5  # a real queue
