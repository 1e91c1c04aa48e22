"""Cirne 2001: conservative backfilling with SA on the engine (§2.2.1, §2.1), as the single-target
and §5.4 experiments run it: a paused base run, forks per request, SA's choice, the load D.

See :mod:`schedlab.papers.cirne2001.moldable` for the same-time order (:data:`TIE_RULE`) and the
pause-and-fork design.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...errors import ConfigError
from ...sim.fork import Simulation
from ...sim.job import Alternative, SimJob
from ...sim.options import SimOptions
from ...sim.schedulers.compression import CIRNE
from ...sim.schedulers.conservative import Conservative
from ...sim.schedulers.sa import INF, SA, Choice, load_per_processor, sacb_choice, sag_choice
from .config import PAPER, TIE_RULE
from .workload import Workload


def sim_jobs(wl: Workload) -> list[SimJob]:
    """The workload as engine :class:`~schedlab.sim.job.SimJob` records (user request as the job's
    own request, every request as an alternative)."""
    out = []
    for k in range(wl.n_jobs):
        r = wl.alts(k)
        alts = tuple(Alternative(int(wl.alt_procs[i]), int(wl.alt_run[i]), int(wl.alt_est[i]))
                     for i in r)
        u = int(wl.user_alt[k])
        cancel = None if np.isinf(wl.cancel[k]) else int(wl.cancel[k])
        out.append(SimJob(int(wl.job_id[k]), int(wl.submit[k]), int(wl.alt_run[u]),
                          int(wl.alt_est[u]), int(wl.alt_procs[u]), cancel_time=cancel,
                          alternatives=alts if len(alts) > 1 else ()))
    return out


def rigid(job: SimJob, procs: int, runtime: float, estimate: float) -> SimJob:
    """``job`` submitted with the one request (procs, runtime, estimate)."""
    return replace(job, procs=int(procs), runtime=int(runtime), estimate=int(estimate),
                   alternatives=())


def machine_run(jobs: list[SimJob], machine_procs: int, policy: str = "user",
                sa_version: str = "cb", sim: SimOptions = SimOptions(tie_rule=TIE_RULE),
                compression: dict[str, str] | None = None) -> Simulation:
    """Conservative backfilling (§2.2.1) of ``jobs`` on the engine, every job submitted with its
    user request (``policy="user"``: :class:`~schedlab.sim.schedulers.conservative.Conservative`)
    or with SA's (``"sa"``: :class:`~schedlab.sim.schedulers.sa.SA`, ``sa_version`` "cb" = SAcb,
    "g" = SAg), as a :class:`~schedlab.sim.fork.Simulation` to pause and fork, under the engine
    options ``sim``. ``compression``: ``compress_on`` / ``compress_passes`` (default §2.2.1's
    reading, early ends until no job moves: :func:`compression_options`)."""
    if policy not in ("user", "sa") or sa_version not in ("cb", "g"):
        raise ConfigError(f"{PAPER}: unknown policy {policy!r} or SA version {sa_version!r}")
    opts = compression_options(compression)
    sched = SA(sa_version, **opts) if policy == "sa" else Conservative(**opts)
    return Simulation(jobs, machine_procs, sched, options=sim)


def compression_options(compression: dict[str, str] | None) -> dict[str, str]:
    """The schedulers' keyword arguments for conservative backfilling's compression
    (:mod:`schedlab.sim.schedulers.compression`): §2.2.1's reading ("Whenever a job finishes
    using less time than it required ... The process stops only when no more backfilling can be
    done": early ends, until no job moves) with ``compression``'s entries on top."""
    return {"compress_on": CIRNE[0], "compress_passes": CIRNE[1], **(compression or {})}


def sa_choice(sim: Simulation, job: SimJob, version: str = "cb",
              alts: list[Alternative] | None = None) -> Choice:
    """SA's request for ``job`` (default: its alternatives) in a run paused before its arrival:
    SAcb on the availability list (``"cb"``) or SAg's forks (``"g"``)."""
    alts = list(job.alternatives) if alts is None else alts
    if version == "cb":
        return sacb_choice(sim.ctx, sim.scheduler, alts)  # type: ignore[arg-type]
    return sag_choice(sim.ctx, sim.scheduler, job, alts)  # type: ignore[arg-type]


def load_at(sim: Simulation) -> float:
    """D (§5.3.3) over the jobs in the system now: requested times, each waiting job with the
    request it was submitted with (the scheduler's queue)."""
    runs = list(sim.ctx.running.values())
    queue = list(sim.scheduler.queue.values())  # type: ignore[attr-defined]
    if not runs and not queue:
        return 0.0
    procs = np.array([r.procs for r in runs] + [j.procs for j in queue], dtype=float)
    req = np.array([r.estimate for r in runs] + [j.estimate for j in queue], dtype=float)
    started = np.array([r.start for r in runs] + [np.nan] * len(queue), dtype=float)
    return load_per_processor(sim.now, procs, req, started, sim.ctx.machine_size)


def fork_start(base: Simulation, job: SimJob, deadline: float = INF) -> float:
    """Start of ``job`` (the next arrival of the paused ``base``, with the request it carries) in
    a fork of ``base`` run until it starts; inf when it would start after ``deadline``."""
    f = base.fork(job)
    return float(f.start(job.job_id)) if f.run(until_started=[job.job_id],
                                                  deadline=deadline) else INF
