"""The ``schedlab`` command line.

Every user error (:class:`~schedlab.errors.SchedlabError`) is printed as one line on stderr, without a
traceback, and the command exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .errors import SchedlabError

#: Modules that contribute sub-commands; each defines ``register(subparsers)``.
SUBCOMMAND_MODULES: tuple[str, ...] = ("schedlab.cli", "schedlab.cli_sim", "schedlab.cli_report",
                                       "schedlab.models.cli")


def print_rows(rows: list[tuple[str, str]]) -> None:
    """Print (label, value) pairs as two aligned columns (the CLI's summary format)."""
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")


def _add_trace_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("trace", help="registry name (see config/traces.yaml) or path to an SWF file")
    p.add_argument("--registry", help="trace registry file (default config/traces.yaml)")
    p.add_argument("--mirror", help="directory with trace files (default $SCHEDLAB_TRACE_MIRROR)")
    p.add_argument("--lenient", action="store_true", help="skip malformed job lines, report count")


def _load(args: argparse.Namespace):
    from pathlib import Path

    from .registry import load_registry
    from .traces import load_trace

    registry = load_registry(args.registry) if args.registry else None
    mirror = Path(args.mirror) if args.mirror else None
    return load_trace(args.trace, registry=registry, mirror=mirror, lenient=args.lenient)


def cmd_parse(args: argparse.Namespace) -> int:
    from .io import write_parquet
    from .swf import header_metadata

    trace = _load(args)
    write_parquet(args.out, trace.jobs, header_metadata(trace))
    msg = f"{trace.path}: {trace.n_jobs:,} jobs -> {args.out}"
    if trace.skipped:
        msg += f" ({len(trace.skipped)} malformed lines skipped)"
    print(msg)
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from .traces import trace_characteristics

    trace = _load(args)
    c = trace_characteristics(trace)
    rows = [
        ("trace", trace.path),
        ("jobs", f"{c['jobs']:,}"),
        ("users", f"{c['users']:,}"),
        ("machine size", f"{c['machine_size']} processors" if c["machine_size"] else "unknown"),
        ("start", c["start_date"] or "unknown (no UnixStartTime)"),
        ("time span", f"{c['span_days']:.1f} days"),
        ("offered load", f"{c['offered_load']:.3f}"),
        ("estimate coverage", f"{100 * c['estimate_coverage']:.1f}% of jobs give a requested time"),
    ]
    if trace.skipped:
        rows.append(("skipped lines", f"{len(trace.skipped)} (lenient)"))
    print_rows(rows)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """The trace sub-commands: parse, info."""
    p = sub.add_parser("parse", help="parse a trace into a parquet job table")
    _add_trace_args(p)
    p.add_argument("out", help="output .parquet")
    p.set_defaults(func=cmd_parse)
    p = sub.add_parser("info", help="print a trace's characteristics")
    _add_trace_args(p)
    p.set_defaults(func=cmd_info)


class _Version(argparse.Action):
    """``--version``, looking the version up only when asked (start-up stays fast)."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        from . import __version__

        parser.exit(message=f"schedlab {__version__}\n")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(prog="schedlab", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMAND_MODULES:
        try:
            importlib.import_module(module).register(sub)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except SchedlabError as e:
        print(f"schedlab {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("schedlab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
