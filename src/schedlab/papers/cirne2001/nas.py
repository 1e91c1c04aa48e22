"""Cirne 2001 §5.4 ("Validating the Results"): real logs with NAS benchmarks as moldable targets.

The thesis replaces a randomly chosen job of a real SP2 log by a NAS benchmark ``b`` (MG, LU, SP, BT,
EP) whose per-partition execution times on the IBM SP2 are known, and compares the benchmark's
turn-around time when submitted with the user request, with SA's request and with the best request
(``nu + 1`` simulations, conservative backfilling; Tables 15–16, Figure 57). This module is that
experiment on the engine, as §5.1's (:func:`~schedlab.papers.cirne2001.machine.machine_run`: conservative
backfilling, the same forks, SAcb and same-time order).

Table 15 (partition size constraints, as data in config/papers/cirne2001_sa.yaml): MG and LU need a
power-of-two partition, SP and BT a perfect square, EP any size. The requests of ``b`` are its
measured partition sizes that fit the machine and are among §5.4's sizes (MG, LU: 8..256; SP, BT:
9, 16, 25, 36, 64, 121, 256; config ``sizes``) — a benchmark measured at fewer sizes has fewer
requests; EP: every size 1..P, see below.

Choices where the thesis is silent (each an option of ``nas_validation`` where cheap):

* **User request** of the NAS job: the replaced job's own partition size (the reason the target must
  be *compatible*). A job is compatible with ``b`` when its size is one of ``b``'s requests, i.e.
  satisfies the constraint *and* has a measured execution time (a power-of-two job of 2 or 4
  processors is not compatible with MG, whose times start at 8). Cancelled jobs are never targets
  (no turn-around), as in §5.1.
* **Requested time** (``estimate``): ``"accuracy"`` (default) keeps the replaced job's accuracy
  ``a = te / tr`` for every request of the NAS job, ``tr(n) = te(n) / a`` — the moldability model's
  rule that a job's accuracy is the same for all its requests (§3.4.2); ``"exact"``: ``tr = te``.
  Times are whole seconds (ceil), as everywhere in the simulator.
* **EP at any size** (Table 15: "as many requests as processors"): EP's measured times cover a few
  sizes only; at an unmeasured size ``n`` we use ideal speed-up (EP is embarrassingly parallel) from
  the closest measured size ``m`` (ties: the smaller), ``te(n) = te(m) * m / n``
  (``unrestricted_scaling: ideal``). ``unrestricted_scaling: measured`` uses the measured sizes only.
* **Which jobs surround the target**: the whole log (the thesis' reference workloads) in one
  conservative-backfilling run per log, paused at each target's arrival and forked once per request
  (:meth:`~schedlab.sim.fork.Simulation.fork`; every fork runs only until the target starts).
  ``warmup_jobs: N`` instead starts a fresh (empty) machine N jobs before a target when the
  previous run is further behind — cheaper for few targets, at the cost of a warm-up from an
  empty machine.
* **Machine size per log**: the thesis' Table 1 (CTC 430, KTH 100, SDSC 128), which Table 15's EP
  request counts follow; the archive's cleaned CTC header says 338 (the batch partition) — set
  ``machine_procs`` per log to use it. SDSC is cut to the thesis' period (Jan–May 1999, ``periods``).
  The log is normalised by :func:`schedlab.traces.normalize.normalize` (cancelled jobs that never ran leave
  the queue at submit + wait: ``cancelled: withdraw``, the thesis' model of cancellations, §3.3.2).
* **Targets**: ``experiments_per_benchmark`` split evenly over the logs (remainder to the first),
  drawn uniformly without replacement among the compatible jobs of each log; one seed child per
  (log, benchmark). The best request is exact, found with exact pruning: a request whose execution
  time alone is not below the best turn-around so far cannot be better and is not simulated, and a
  fork stops once its target could no longer beat it (on ties the recorded best is the user request,
  else the first found in order of increasing execution time).
* Bootstrap CIs resample experiments (each experiment is one target in one log).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...errors import ConfigError
from ...models.fit import select_period
from ...sim.fork import Simulation
from ...sim.job import Alternative, SimJob
from ...sim.options import SimOptions
from ...traces.normalize import normalize
from .config import PAPER, Settings
from .machine import TIE_RULE, fork_start, load_at, machine_run, rigid, sa_choice, sim_jobs
from .stats import FLOOR_S, geomean_ci
from .workload import Workload, workload_from_tables

CONSTRAINTS = ("power_of_2", "perfect_square", "unrestricted")
KIND_LABEL = {"power_of_2": "power of 2", "perfect_square": "perfect square",
              "unrestricted": "unrestricted"}
ESTIMATE_RULES = ("accuracy", "exact")
SCALINGS = ("ideal", "measured")
REQUESTS = ("best", "sa", "user")


@dataclass(frozen=True)
class Benchmark:
    """A NAS benchmark: Table 15 constraint and measured execution time (s) per partition size."""

    name: str
    constraint: str
    times: dict[int, float]
    sizes: tuple[int, ...] | None = None  # §5.4 sizes (None: any); requests: measured and listed


def satisfies(constraint: str, n: int) -> bool:
    """Whether partition size ``n`` satisfies a Table 15 constraint."""
    if constraint == "power_of_2":
        return n >= 1 and n & (n - 1) == 0
    if constraint == "perfect_square":
        return n >= 1 and math.isqrt(n) ** 2 == n
    if constraint == "unrestricted":
        return n >= 1
    raise ConfigError(f"{PAPER}: unknown partition size constraint {constraint!r}; "
                      f"choose one of {CONSTRAINTS}")


def benchmarks_from_config(nas: dict[str, Any]) -> dict[str, Benchmark]:
    """The benchmarks of ``nas_validation`` with their execution times, validated.

    Raises :class:`ConfigError` naming the option for an unknown benchmark, a bad constraint, an
    empty times table, or a time at a size that breaks the benchmark's constraint."""
    specs = nas.get("benchmarks") or {}
    times = nas.get("execution_times") or {}
    for name in times:
        if name not in specs:
            raise ConfigError(f"{PAPER}: nas_validation.execution_times.{name}: unknown NAS "
                              f"benchmark (known: {', '.join(specs) or 'none'})")
    out = {}
    for name, spec in specs.items():
        constraint = (spec or {}).get("constraint")
        if constraint not in CONSTRAINTS:
            raise ConfigError(f"{PAPER}: nas_validation.benchmarks.{name}.constraint must be one "
                              f"of {CONSTRAINTS}, not {constraint!r}")
        t = times.get(name) or {}
        if not isinstance(t, dict) or not t:
            raise ConfigError(f"{PAPER}: nas_validation.execution_times.{name} is empty: give "
                              "{processors: seconds} with its source")
        clean: dict[int, float] = {}
        for n, sec in t.items():
            ok = isinstance(n, int) and isinstance(sec, int | float) and sec > 0
            if not ok or not satisfies(constraint, n):
                raise ConfigError(f"{PAPER}: nas_validation.execution_times.{name}.{n}: need a "
                                  f"{constraint} partition size and positive seconds, got {sec!r}")
            clean[int(n)] = float(sec)
        sizes = spec.get("sizes", "all")
        if sizes != "all" and not (isinstance(sizes, list)
                                   and all(isinstance(n, int) and n > 0 for n in sizes)):
            raise ConfigError(f"{PAPER}: nas_validation.benchmarks.{name}.sizes must be a list "
                              f"of partition sizes or 'all', not {sizes!r}")
        out[name] = Benchmark(name, constraint, dict(sorted(clean.items())),
                              None if sizes == "all" else tuple(sorted(sizes)))
    return out


def nas_requests(b: Benchmark, machine_procs: int, unrestricted_scaling: str = "ideal"
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The requests of ``b`` on a ``machine_procs`` machine: (partition sizes, execution times).

    Restricted benchmarks: the measured sizes that fit (and are among ``b.sizes``). Unrestricted (EP) with ``"ideal"``: every
    size 1..P, unmeasured sizes by ideal speed-up from the closest measured size (module doc)."""
    if unrestricted_scaling not in SCALINGS:
        raise ConfigError(f"{PAPER}: nas_validation.unrestricted_scaling must be one of "
                          f"{SCALINGS}, not {unrestricted_scaling!r}")
    if not b.times:
        raise ConfigError(f"{PAPER}: NAS benchmark {b.name} has an empty execution-time table")
    sizes = np.array(sorted(b.times), dtype=np.int64)
    te = np.array([b.times[int(n)] for n in sizes], dtype=float)
    if b.constraint == "unrestricted" and unrestricted_scaling == "ideal":
        n = np.arange(1, machine_procs + 1, dtype=np.int64)
        # closest measured size, ties to the smaller one
        right = np.clip(np.searchsorted(sizes, n, side="left"), 0, len(sizes) - 1)
        left = np.clip(right - 1, 0, len(sizes) - 1)
        use_left = np.abs(n - sizes[left]) <= np.abs(sizes[right] - n)
        m = np.where(use_left, left, right)
        return n, te[m] * sizes[m] / n
    keep = sizes <= machine_procs
    if b.sizes is not None:
        keep &= np.isin(sizes, b.sizes)
    if not keep.any():
        raise ConfigError(f"{PAPER}: no measured partition size of {b.name} fits a "
                          f"{machine_procs}-processor machine")
    return sizes[keep], te[keep]


def log_workload(table: pd.DataFrame, machine_procs: int) -> Workload:
    """A normalised log (:func:`schedlab.traces.normalize.normalize` table; cancel_time -1 = none) as a
    rigid :class:`Workload` (one request per job)."""
    jobs = table.copy()
    if "cancel_time" in jobs:
        jobs["cancel_time"] = jobs["cancel_time"].astype(float).where(jobs["cancel_time"] >= 0)
    empty = pd.DataFrame({"job_id": pd.Series(dtype="int64"), "procs": pd.Series(dtype="int64"),
                          "runtime": pd.Series(dtype=float), "estimate": pd.Series(dtype=float)})
    return workload_from_tables(jobs, empty, machine_procs)


def compatible_targets(wl: Workload, sizes: np.ndarray) -> np.ndarray:
    """Jobs (workload indices) never cancelled whose partition size is one of ``sizes``."""
    own = wl.alt_procs[wl.user_alt]
    return np.flatnonzero(np.isinf(wl.cancel) & np.isin(own, sizes))


def _estimates(te: np.ndarray, accuracy: float, rule: str) -> tuple[np.ndarray, np.ndarray]:
    if rule not in ESTIMATE_RULES:
        raise ConfigError(f"{PAPER}: nas_validation.estimate must be one of {ESTIMATE_RULES}, "
                          f"not {rule!r}")
    run = np.ceil(te)
    est = run if rule == "exact" else np.maximum(np.ceil(te / accuracy), run)
    return run, est


def _experiment(base: Simulation, wl: Workload, k: int, job: SimJob, procs: np.ndarray,
                run: np.ndarray, est: np.ndarray) -> dict[str, Any]:
    """One §5.4 experiment on ``base`` (paused before job k's arrival): user / SA / best request
    of the NAS job that replaces job k, each tried in a fork (:func:`fork_start`)."""
    submit = float(wl.submit[k])
    user_i = int(np.flatnonzero(procs == wl.alt_procs[wl.user_alt[k]])[0])
    requests = [Alternative(int(p), int(r), int(e)) for p, r, e in zip(procs, run, est,
                                                                       strict=True)]
    sa_i = sa_choice(base, job, "cb", requests).index

    def start(i: int, deadline: float) -> float:
        return fork_start(base, rigid(job, procs[i], run[i], est[i]), deadline)

    tt: dict[int, float] = {}
    for i in dict.fromkeys([user_i, sa_i]):
        tt[i] = start(i, math.inf) - submit + run[i]
    best_i = min(tt, key=lambda i: (tt[i], i != user_i))
    for i in np.argsort(run, kind="stable"):  # increasing execution time
        i = int(i)
        if i in tt:
            continue
        if run[i] >= tt[best_i]:
            break  # neither this request nor any later one can beat the best
        # the fork can only win if the target starts before submit + best - run
        tt[i] = start(i, submit + tt[best_i] - run[i]) - submit + run[i]
        if tt[i] < tt[best_i]:
            best_i = i
    row: dict[str, Any] = {"nu": len(procs), "D": load_at(base)}
    for name, i in (("user", user_i), ("sa", sa_i), ("best", best_i)):
        row.update({f"{name}_procs": int(procs[i]), f"{name}_tt": tt[i],
                    f"{name}_wait": tt[i] - run[i], f"{name}_te": float(run[i])})
    return row


def nas_experiments(wl: Workload, machine_procs: int, plan: list[tuple[int, Benchmark]],
                    estimate: str = "accuracy", unrestricted_scaling: str = "ideal",
                    warmup_jobs: int | None = None,
                    sim: SimOptions = SimOptions(tie_rule=TIE_RULE),
                    compression: dict[str, str] | None = None) -> pd.DataFrame:
    """§5.4 on one log: for each (target job index k, benchmark b) of ``plan``, job k is replaced
    by b and b's turn-around with the user request, SA's request and the best request is measured
    (``compression`` as :func:`~.machine.machine_run`).

    Every experiment replaces only its own target: the log's other jobs (earlier targets included)
    keep their logged requests. One row per experiment (see :func:`_experiment`)."""
    plan = sorted(plan, key=lambda kb: (kb[0], kb[1].name))
    index = []
    for k, b in plan:
        procs, te = nas_requests(b, machine_procs, unrestricted_scaling)
        u = int(wl.user_alt[k])
        accuracy = float(wl.alt_run[u] / wl.alt_est[u])
        run, est = _estimates(te, accuracy, estimate)
        index.append((k, b, procs, run, est, accuracy))
    if not plan:
        return pd.DataFrame()
    jobs = sim_jobs(wl)
    rows = []
    base: Simulation | None = None
    first = 0  # the base run simulates jobs[first:] (an empty machine at job first's arrival)
    for k, b, procs, run, est, accuracy in index:
        if base is None or (warmup_jobs is not None
                            and k - warmup_jobs > first + base.engine.next_arrival):
            first = max(0, k - warmup_jobs) if warmup_jobs is not None else 0
            base = machine_run(jobs[first:], machine_procs, "user", sim=sim,
                               compression=compression)
        base.run(stop_before=jobs[k].job_id)
        row = {"benchmark": b.name, "kind": KIND_LABEL[b.constraint],
               "job_id": int(wl.job_id[k]), "submit": float(wl.submit[k]), "accuracy": accuracy}
        row.update(_experiment(base, wl, k, jobs[k], procs, run, est))
        rows.append(row)
    return pd.DataFrame(rows)


def plan_targets(wl: Workload, benchmarks: dict[str, Benchmark], machine_procs: int,
                 per_benchmark: int, seeds: dict[str, np.random.SeedSequence],
                 unrestricted_scaling: str = "ideal") -> list[tuple[int, Benchmark]]:
    """``per_benchmark`` targets per benchmark drawn uniformly without replacement among the
    compatible jobs of the log (fewer when the log has fewer compatible jobs)."""
    plan = []
    for name, b in benchmarks.items():
        sizes, _ = nas_requests(b, machine_procs, unrestricted_scaling)
        pool = compatible_targets(wl, sizes)
        rng = np.random.default_rng(seeds[name])
        pick = rng.choice(pool, size=min(per_benchmark, len(pool)), replace=False)
        plan += [(int(k), b) for k in np.sort(pick)]
    return plan


def split_experiments(total: int, n_logs: int) -> list[int]:
    """``total`` experiments split evenly over ``n_logs`` logs (remainder to the first logs)."""
    return [total // n_logs + (i < total % n_logs) for i in range(n_logs)]


# --------------------------------------------------------------------------------------------------
# Tables 15 and 16 (Figure 57's data)
# --------------------------------------------------------------------------------------------------
TABLE16_COLUMNS = ["request", "geomean_s", "ci_low", "ci_high", "n", "status", "note"]
BY_KIND_COLUMNS = ["group_by", "group", "request", "geomean_s", "ci_low", "ci_high", "relative",
                   "rel_ci_low", "rel_ci_high", "n", "status", "note"]


def not_run_reason(nas: dict[str, Any]) -> str | None:
    """Why the NAS validation cannot run with this config (None when it can)."""
    times = nas.get("execution_times") or {}
    missing = [b for b in (nas.get("benchmarks") or {}) if not times.get(b)]
    if not nas.get("benchmarks"):
        return "no NAS benchmark configured (nas_validation.benchmarks)"
    if missing:
        return ("not run: no per-partition IBM SP2 execution times for "
                f"{', '.join(missing)} (nas_validation.execution_times). The thesis took them from "
                "nas.nasa.gov/Software/NPB (NPB 2 results for the SP2); it does not print them, "
                "and no copy of those tables was found offline")
    return None


def table15(nas: dict[str, Any]) -> pd.DataFrame:
    """Table 15: partition size constraint and number of requests of each benchmark on each log's
    machine, from §5.4's sizes (config ``sizes``; ``all`` = every size) — not from the times."""
    rows = []
    for name, spec in (nas.get("benchmarks") or {}).items():
        for log in nas.get("logs") or []:
            p = (nas.get("machine_procs") or {}).get(log)
            sizes = spec.get("sizes", "all")
            n = (p if sizes == "all" else sum(1 for x in sizes if x <= p)) if p else None
            rows.append({"benchmark": name, "constraint": KIND_LABEL.get(spec.get("constraint"),
                                                                         spec.get("constraint")),
                         "log": log, "machine_procs": p, "requests": n})
    return pd.DataFrame(rows, columns=["benchmark", "constraint", "log", "machine_procs",
                                       "requests"])


def table16(exp: pd.DataFrame, rng: np.random.Generator, resamples: int = 1000,
            confidence: float = 0.95, reason: str | None = None) -> pd.DataFrame:
    """Table 16: geometric mean turn-around of the NAS jobs, best / SA / user request."""
    if exp.empty:
        return pd.DataFrame([{"request": r, "geomean_s": math.nan, "ci_low": math.nan,
                              "ci_high": math.nan, "n": 0, "status": "not run",
                              "note": reason or "no experiment"} for r in REQUESTS],
                            columns=TABLE16_COLUMNS)
    rows = []
    groups = np.arange(len(exp))
    for req in REQUESTS:
        gm, lo, hi = geomean_ci(np.maximum(exp[f"{req}_tt"].to_numpy(float), FLOOR_S), groups,
                                rng, resamples, confidence)
        rows.append({"request": req, "geomean_s": gm, "ci_low": lo, "ci_high": hi,
                     "n": len(exp), "status": "run", "note": ""})
    return pd.DataFrame(rows, columns=TABLE16_COLUMNS)


def table16_by_kind(exp: pd.DataFrame, rng: np.random.Generator, resamples: int = 1000,
                    confidence: float = 0.95, reason: str | None = None) -> pd.DataFrame:
    """Figure 57's data: per kind of benchmark (partition constraint) and per benchmark, the
    geometric mean turn-around of each request and its geometric mean ratio to the user request."""
    if exp.empty:
        return pd.DataFrame([{"group_by": "kind", "group": KIND_LABEL[c], "request": r,
                              "geomean_s": math.nan, "ci_low": math.nan, "ci_high": math.nan,
                              "relative": math.nan, "rel_ci_low": math.nan,
                              "rel_ci_high": math.nan, "n": 0, "status": "not run",
                              "note": reason or "no experiment"}
                             for c in CONSTRAINTS for r in REQUESTS], columns=BY_KIND_COLUMNS)
    rows = []
    for by in ("kind", "benchmark"):
        for group, g in exp.groupby(by, sort=True):
            ids = np.arange(len(g))
            user = np.maximum(g["user_tt"].to_numpy(float), FLOOR_S)
            for req in REQUESTS:
                v = np.maximum(g[f"{req}_tt"].to_numpy(float), FLOOR_S)
                gm, lo, hi = geomean_ci(v, ids, rng, resamples, confidence)
                rgm, rlo, rhi = geomean_ci(v / user, ids, rng, resamples, confidence)
                rows.append({"group_by": by, "group": str(group), "request": req,
                             "geomean_s": gm, "ci_low": lo, "ci_high": hi, "relative": rgm,
                             "rel_ci_low": rlo, "rel_ci_high": rhi, "n": len(g), "status": "run",
                             "note": ""})
    return pd.DataFrame(rows, columns=BY_KIND_COLUMNS)



# --------------------------------------------------------------------------------------------------
# One log (what one experiment point runs)
# --------------------------------------------------------------------------------------------------
def log_machine_procs(nas: dict[str, Any], log: str, header_size: int | None) -> int:
    """Machine size for ``log``: ``nas_validation.machine_procs[log]``, else the SWF header's."""
    p = (nas.get("machine_procs") or {}).get(log) or header_size
    if not isinstance(p, int) or p < 1:
        raise ConfigError(f"{PAPER}: nas_validation.machine_procs.{log}: machine size unknown")
    return p


def run_nas_log(s: Settings, log: str, trace_jobs: pd.DataFrame, header: Any
                ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """§5.4 on the log ``log`` (its SWF job table and :class:`~schedlab.traces.swf.SWFHeader`): its share
    of ``experiments_per_benchmark`` for every benchmark. Returns (experiments, metadata)."""
    nas = s.nas_validation
    logs = list(nas.get("logs") or [])
    if log not in logs:
        raise ConfigError(f"{PAPER}: {log} is not in nas_validation.logs ({', '.join(logs)})")
    benches = benchmarks_from_config(nas)
    procs = log_machine_procs(nas, log, header.machine_size)
    period = (nas.get("periods") or {}).get(log)
    if period:
        trace_jobs = select_period(trace_jobs, header.unix_start_time, header.time_zone_string,
                                   *period)
    norm = normalize(trace_jobs, header, machine_size=procs,
                     cancelled=nas.get("cancelled", "withdraw"), source=log)
    wl = log_workload(norm.table, procs)
    i = logs.index(log)
    per = split_experiments(int(nas["experiments_per_benchmark"]), len(logs))[i]
    seeds = {b: np.random.SeedSequence(int(s.seed), spawn_key=(4, i, j))
             for j, b in enumerate(benches)}
    scaling = nas.get("unrestricted_scaling", "ideal")
    plan = plan_targets(wl, benches, procs, per, seeds, scaling)
    df = nas_experiments(wl, procs, plan, nas.get("estimate", "accuracy"), scaling,
                         nas.get("warmup_jobs"), SimOptions.from_mapping(nas.get("sim")),
                         compression=dict(s.compression))
    df.insert(0, "log", log)
    meta = {"paper": PAPER, "log": log, "machine_procs": procs, "period": period,
            "seed_entropy": int(s.seed), "spawn_key": [4, i], "experiments": len(df),
            "normalization": norm.report,
            "options": {k: nas.get(k) for k in ("estimate", "unrestricted_scaling",
                                                "warmup_jobs", "cancelled")},
            "sources": nas.get("sources") or {}}
    return df, meta


def nas_tables(runs: list[pd.DataFrame], s: Settings, rng: np.random.Generator
               ) -> dict[str, pd.DataFrame]:
    """Table 16, Figure 57's data and the experiments from the per-log run frames."""
    bs = s.bootstrap
    B, conf = int(bs.get("resamples", 1000)), float(bs.get("confidence", 0.95))
    frames = [r for r in runs if len(r)]
    exp = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    reason = not_run_reason(s.nas_validation)
    if exp.empty and reason is None:
        reason = "no compatible target job in the logs"
    return {"nas_experiments": exp,
            "table15": table15(s.nas_validation),
            "table16": table16(exp, rng, B, conf, reason),
            "table16_by_kind": table16_by_kind(exp, rng, B, conf, reason)}
