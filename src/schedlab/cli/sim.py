"""``schedlab simulate``: run a baseline scheduler on a trace and print its summary.

The library pieces: :func:`load_sim_jobs` (trace -> normalized jobs + provenance) and
:func:`run_simulation` (simulate + per-job table + summary), shared with ``scripts/simulate.py``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..sim.options import DEFAULT_TIE_RULE, TIE_RULES, SimOptions
from .main import check_mirror, number, print_rows

if TYPE_CHECKING:
    from ..traces.normalize import Normalized
    from ..traces.swf import SWFHeader

#: choices of --procs-field / --cancelled: :data:`schedlab.traces.normalize.PROCS_RULES` /
#: ``CANCELLED_RULES`` (repeated here so that ``--help`` need not import pandas; a test checks)
PROCS_RULES = ("requested", "allocated")
CANCELLED_RULES = ("keep", "drop", "withdraw")

#: seconds before the progress bar appears
PROGRESS_DELAY_S = 3.0


def load_sim_jobs(
    trace: str,
    *,
    machine_size: int | None = None,
    procs: str = "requested",
    cancelled: str = "keep",
    registry: str | None = None,
    mirror: str | None = None,
) -> tuple[Normalized, SWFHeader, dict[str, Any]]:
    """Load a trace (registry name or path), normalize it; return (jobs, header, provenance)."""
    from ..traces.lookup import load_trace
    from ..traces.registry import load_registry

    reg = load_registry(registry) if registry else None
    tr = load_trace(trace, registry=reg, mirror=Path(mirror) if mirror else None)
    from ..traces.normalize import normalize  # pandas: imported once there is a trace to normalize

    norm = normalize(
        tr.jobs, tr.header, machine_size=machine_size, procs=procs, cancelled=cancelled,
        source=str(tr.path),
    )  # fmt: skip
    prov = {"trace": trace, "trace_path": str(tr.path)}
    return norm, tr.header, prov


def run_simulation(
    norm: Normalized,
    header: SWFHeader | None,
    scheduler: str,
    options: SimOptions = SimOptions(),
    *,
    params: dict[str, Any] | None = None,
    progress: bool = False,
    provenance: dict[str, Any] | None = None,
    record_timeline: bool = True,
) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Simulate under the engine's ``options``; return (per-job DataFrame, summary dict, parquet
    metadata, whose ``settings`` record the options). Without ``record_timeline`` the summary lacks
    the timeline's metrics (loss of capacity, queue depth)."""
    from .. import __version__
    from ..sim.engine import simulate
    from ..sim.metrics import summarize
    from ..sim.schedulers import make_scheduler

    sched = make_scheduler(scheduler, **(params or {}))
    bar = None
    cb = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(norm.jobs), unit="job", delay=PROGRESS_DELAY_S, leave=False)

        def cb(done: int, total: int) -> None:
            bar.update(done - bar.n)

    t0 = time.perf_counter()
    try:
        result = simulate(norm.jobs, norm.machine_size, sched, options, progress=cb,
                          record_timeline=record_timeline)
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0
    summary = summarize(result)
    summary["wall_time_s"] = wall
    summary["normalization"] = norm.report
    summary.update(provenance or {})
    meta = {
        "schedlab_version": __version__,
        "scheduler": scheduler,
        "params": result.params,
        "settings": result.settings,
        "machine_size": norm.machine_size,
        "normalization": norm.report,
        "unix_start_time": header.unix_start_time if header else None,
        "time_zone_string": header.time_zone_string if header else None,
        **(provenance or {}),
    }
    return result.jobs, summary, meta


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..io import check_output_path, write_parquet

    if args.out:
        check_output_path(args.out, what="--out")
    check_mirror(args.mirror)
    norm, header, prov = load_sim_jobs(
        args.trace, machine_size=args.procs, procs=args.procs_field, cancelled=args.cancelled,
        registry=args.registry, mirror=args.mirror,
    )  # fmt: skip
    jobs, s, meta = run_simulation(  # the rows printed below need no timeline (~10% of the run)
        norm, header, args.scheduler, options=SimOptions(tie_rule=args.tie_rule), progress=True,
        provenance=prov, record_timeline=False,
    )
    if args.out:
        write_parquet(args.out, jobs, meta)
    r = norm.report
    rows = [
        ("trace", prov["trace_path"]),
        ("scheduler", args.scheduler),
        ("machine size", f"{norm.machine_size} processors"),
        ("jobs simulated", f"{s['jobs']:,}"),
        ("jobs dropped", f"{r['jobs_dropped']:,} (normalization)"),
        ("mean wait", f"{s['mean_wait']:,.1f} s"),
        ("mean bounded slowdown", f"{s['mean_bounded_slowdown']:.2f}"),
        ("utilization", f"{s['utilization']:.3f}"),
        ("wall time", f"{s['wall_time_s']:.2f} s"),
    ]
    if args.out:
        rows.append(("per-job table", args.out))
    print_rows(rows)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """The ``simulate`` sub-command."""
    from ..sim.schedulers import SCHEDULERS

    p = sub.add_parser("simulate", help="simulate a baseline scheduler on a trace")
    p.add_argument("trace", help="registry name (see config/traces.yaml) or path to an SWF file")
    p.add_argument("--scheduler", required=True, choices=list(SCHEDULERS))
    p.add_argument("--procs", type=number(int, minimum=1, maximum=10**8),
                   help="machine size (default: the header's MaxProcs, else the registry's)")
    p.add_argument("--out", help="write the per-job table to this .parquet")
    p.add_argument("--procs-field", choices=PROCS_RULES, default="requested",
                   help="which processor count wins when both are known (default requested)")  # fmt: skip
    p.add_argument("--cancelled", choices=CANCELLED_RULES, default="keep",
                   help="what to do with cancelled jobs (status 5; default keep)")  # fmt: skip
    p.add_argument("--tie-rule", choices=TIE_RULES, default=DEFAULT_TIE_RULE,
                   help=f"order of same-time events (default {DEFAULT_TIE_RULE}: pyss's)")
    p.add_argument("--registry", help="trace registry file (default config/traces.yaml)")
    p.add_argument("--mirror", help="directory with trace files (default $SCHEDLAB_TRACE_MIRROR)")
    p.set_defaults(func=cmd_simulate)
