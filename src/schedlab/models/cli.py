"""Sub-commands for workload models: ``schedlab synth`` (a synthetic moldable workload to files)
and ``schedlab flurries`` (flurry candidates of a trace)."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_synth(args: argparse.Namespace) -> int:
    import numpy as np

    from .. import __version__
    from ..errors import ConfigError
    from ..io import check_output_path, write_parquet
    from ..traces.registry import load_yaml_unique
    from ..traces.swf import write_swf
    from .synth import moldable_workload, params_from_dict, swf_workload

    out = check_output_path(args.out, directory=True, what="output directory")
    for name in ("jobs.parquet", "alternatives.parquet", "workload.swf"):
        check_output_path(out / name)
    extra = {}
    if args.params:
        extra = load_yaml_unique(Path(args.params), "parameters", ConfigError) or {}  # bounded
        if not isinstance(extra, dict):
            raise ConfigError(f"--params {args.params}: expected a mapping of parameters")
    extra = {"machine_size": args.machine_size} | extra
    extra.setdefault("rigid", {})["kappa_L"] = args.kappa_L
    extra.setdefault("moldability", {})["kappa_sigma"] = args.kappa_sigma
    params = params_from_dict(extra)
    jobs, alts = moldable_workload(params, args.n_jobs, np.random.SeedSequence(args.seed))
    info = jobs.attrs.pop("info")
    meta = {"seed_entropy": args.seed, "params": params.to_dict(), "info": info,
            "schedlab_version": __version__}
    write_parquet(out / "jobs.parquet", jobs, meta)
    write_parquet(out / "alternatives.parquet", alts, {"seed_entropy": args.seed})
    table, header = swf_workload(jobs, params.machine_size,
                                 f"schedlab synth, SeedSequence entropy {args.seed}")
    write_swf(out / "workload.swf", table, header)
    print(f"{len(jobs):,} jobs, {len(alts):,} alternatives (arrival polynomial "
          f"{info['arrival_polynomial']}) -> {out}/")
    return 0


def cmd_flurries(args: argparse.Namespace) -> int:
    from ..cli.main import _load
    from ..traces.flurry import FlurrySettings, detect_flurries

    trace = _load(args)
    cand = detect_flurries(trace.jobs, FlurrySettings(min_jobs=args.min_jobs,
                                                      user_ratio=args.user_ratio,
                                                      log_ratio=args.log_ratio))
    if cand.empty:
        print(f"{trace.path}: no flurry candidates")
    else:
        print(cand.to_string(index=False))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """The model sub-commands: synth, flurries."""
    from ..cli.main import _add_trace_args, number

    p = sub.add_parser("synth", help="write a synthetic moldable workload (Cirne 2001 models)")
    p.add_argument("out", help="output directory (jobs.parquet, alternatives.parquet, "
                   "workload.swf)")
    p.add_argument("--n-jobs", type=number(int, minimum=1, maximum=10**8), default=10000)
    p.add_argument("--seed", type=number(int, minimum=0, maximum=2**63 - 1), default=20010601,
                   help="SeedSequence entropy (an integer >= 0)")
    p.add_argument("--machine-size", type=number(int, minimum=1, maximum=10**8), default=500)
    p.add_argument("--kappa-L", type=number(float, above=0, maximum=1000), default=1.0,
                   help="load multiplier (§3.5)")
    p.add_argument("--kappa-sigma", type=number(float, above=0, maximum=1000), default=1.0,
                   help="multiplies mu_sigma (§6.2.2)")
    p.add_argument("--params", help="YAML with parameter overrides "
                   "(schedlab.models.synth.params_from_dict)")
    p.set_defaults(func=cmd_synth)
    p = sub.add_parser("flurries", help="list flurry candidates of a trace (removes nothing)")
    _add_trace_args(p)
    p.add_argument("--min-jobs", type=number(int, minimum=1, maximum=10**8), default=500)
    p.add_argument("--user-ratio", type=number(float, above=0, maximum=10**6), default=10.0)
    p.add_argument("--log-ratio", type=number(float, minimum=0, maximum=10**6), default=3.0)
    p.set_defaults(func=cmd_flurries)
