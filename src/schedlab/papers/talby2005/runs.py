"""Talby & Feitelson 2005: what a sweep point simulates (:mod:`.grid`), one simulation at a time.

:func:`simulate_point` simulates one point with the registered schedulers — PBAS/WBAS
(:mod:`schedlab.sim.schedulers.switching`), Flex (:mod:`schedlab.sim.schedulers.flex`) — and
returns the per-job results (docs/design.md §3) with the calendar month of each job, plus run
statistics (PBAS/WBAS time shares, switches); :func:`run_attr_batch` runs an attribution batch
and keeps the monthly sums of each run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...sim import SimJob, SimOptions, simulate
from ...sim.schedulers import make_scheduler
from ...traces.normalize import normalize
from ...traces.swf import SWFHeader
from .config import Settings
from .flurries import reinsert_flurries
from .grid import attr_name, attr_reading, parse_name, split_rule
from .months import month_labels, month_sums


def sim_jobs_from_trace(trace: pd.DataFrame, header: SWFHeader, machine_size: int,
                        source: str, cancelled: str = "keep", flurry_seed: int = 2005
                        ) -> tuple[list[SimJob], dict[str, Any]]:
    """The engine's normalization (cancelled jobs by rule ``cancelled``), submit times kept
    relative to the log start (``rebase=False``) so that calendar months follow the header's
    ``UnixStartTime``. A rule ``<cancelled>+<variant>`` first changes the trace table for the
    variants ``flurries`` and ``exact_estimates`` (:data:`VARIANTS`)."""
    rule, mods = split_rule(cancelled)
    extra: dict[str, Any] = {}
    if "flurries" in mods:
        trace, extra["flurries"] = reinsert_flurries(trace, header.notes, flurry_seed)
    if "exact_estimates" in mods:
        trace = trace.assign(req_time=trace["run_time"])
    n = normalize(trace, header, machine_size=machine_size, cancelled=rule, rebase=False,
                  source=source)
    return n.jobs, n.report | extra


def scheduler_factory(name: str, options: Mapping[str, Mapping[str, Any]]):
    """A zero-argument constructor of a fresh scheduler with its configured options
    (``options[name]``, e.g. Flex's slack or EASY's backfill mode)."""
    kw = dict(options.get(name, {}))
    return lambda: make_scheduler(name, **kw)


def simulate_point(jobs: list[SimJob], machine_size: int, kind: str, name: str,
              options: Mapping[str, Mapping[str, Any]], unix_start_time: int | None,
              tz: str | None, reading: tuple[str, Mapping[str, Any]] | None = None,
              sim: SimOptions = SimOptions()) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Simulate one sweep point under the engine options ``sim`` (the settings' ``sim``);
    returns (per-job results + ``month``, statistics).

    The statistics are deterministic (no wall time), so they can go into the parquet metadata."""
    p = parse_name(kind, name)
    stats: dict[str, Any] = {"params": p}
    if kind == "sched":
        sched = scheduler_factory(p["scheduler"], options)()
    elif kind == "attr":
        if reading is None:
            raise ConfigError(f"talby2005: attr/{name} needs its reading (scheduler, options)")
        sname, opts = reading
        sched = scheduler_factory(sname, {sname: opts})()
    else:  # PBAS / WBAS (sim/schedulers/switching.py), candidates with their configured options
        kw = {k: v for k, v in p.items() if k != "candidates"}
        sched = make_scheduler(kind, candidates=p.get("candidates", ["flex", "maui"]),
                               candidate_options=options, **kw)
    res = simulate(jobs, machine_size, sched, options=sim, record_timeline=False)
    out = res.jobs.copy()
    out["month"] = month_labels(out["submit"].to_numpy(), unix_start_time, tz).astype(str)
    if kind in ("pbas", "wbas"):
        stats["shares"] = sched.shares()
        stats["switches"] = sched.switches
        stats["frames_forked"] = getattr(sched, "frames_forked", 0)
    stats["scheduler_params"] = sched.params()
    stats["mean_wait"] = float(np.mean(out["wait"]))
    return out, stats


def run_attr_batch(jobs_for: Any, machine_size: int, cfg: Settings,
                   batch: Sequence[tuple[str, str]], unix_start_time: int | None,
                   tz: str | None, sim: SimOptions = SimOptions()) -> pd.DataFrame:
    """Run every (reading, cancelled) of ``batch`` under the engine options ``sim``;
    ``jobs_for(cancelled)`` gives the normalized jobs. Returns the monthly sums of each run with
    columns ``reading`` and ``cancelled``."""
    parts = []
    for reading, cancelled in batch:
        jobs = jobs_for(cancelled)
        # separate_months: each calendar month on its own (empty machine at its first arrival)
        groups = (_by_month(jobs, unix_start_time, tz) if "separate_months" in
                  split_rule(cancelled)[1] else [jobs])
        for g in groups:
            out, _ = simulate_point(g, machine_size, "attr", attr_name(reading, cancelled),
                                    cfg.scheduler_options, unix_start_time, tz,
                                    attr_reading(cfg, reading), sim)
            parts.append(month_sums(out).assign(reading=reading, cancelled=cancelled))
    if not parts:
        return pd.DataFrame(columns=["month", "jobs", "wait_sum", "bsld_sum", "reading",
                                     "cancelled"])
    return pd.concat(parts, ignore_index=True)


def _by_month(jobs: Sequence[SimJob], unix_start_time: int | None,
              tz: str | None) -> list[list[SimJob]]:
    """The jobs split by the calendar month of their submit time, months in order."""
    labels = month_labels(np.array([j.submit for j in jobs], dtype=np.int64), unix_start_time, tz)
    groups: dict[str, list[SimJob]] = {}
    for j, m in zip(jobs, labels, strict=True):
        groups.setdefault(str(m), []).append(j)
    return [groups[m] for m in sorted(groups)]


def stats_frame(stats: Mapping[str, Any]) -> pd.DataFrame:
    """The statistics of :func:`simulate_point` as a one-row frame (a point's ``stats``): ``mean_wait``,
    the scheduler's parameters as JSON (``scheduler_params``) and for PBAS/WBAS ``switches``,
    ``frames_forked`` and the time share of each candidate (``share_<scheduler>``, 0-1). The
    parameters of the point itself are its name's (:func:`.grid.parse_name`)."""
    row: dict[str, Any] = {"mean_wait": float(stats["mean_wait"]),
                           "scheduler_params": json.dumps(stats.get("scheduler_params", {}),
                                                          sort_keys=True, default=str)}
    for k in ("switches", "frames_forked"):
        if k in stats:
            row[k] = int(stats[k])
    row |= {f"share_{s}": float(v) for s, v in stats.get("shares", {}).items()}
    return pd.DataFrame([row])


def stats_from_frame(frame: pd.DataFrame) -> dict[str, Any]:
    """The statistics :func:`.tabulate.build_tables` reads (``switches``; ``shares`` by scheduler
    name, which orders the ``share_<scheduler>`` columns of table ``adaptive``) back from a
    ``stats`` frame."""
    row = frame.iloc[0]
    out: dict[str, Any] = {"mean_wait": float(row["mean_wait"])}
    if "switches" in frame:
        out["switches"] = int(row["switches"])
    shares = {c.removeprefix("share_"): float(row[c])
              for c in sorted(frame.columns) if c.startswith("share_")}
    if shares:
        out["shares"] = shares
    return out
