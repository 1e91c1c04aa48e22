"""The ``schedlab`` command line.

Every user error (:class:`~schedlab.errors.SchedlabError`, a bad option value, an unwritable output)
is printed as one line ``schedlab: error: ...`` on stderr, without a traceback, and the command exits
with status 2. ``--debug`` shows the traceback. Outputs are checked before any work is done.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence

from ..errors import ConfigError, SchedlabError


class OneLineParser(argparse.ArgumentParser):
    """argparse, with usage errors as the one line ``schedlab: error: ...`` and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"schedlab: error: {self.prog}: {message} (see `{self.prog} --help`)",
              file=sys.stderr)
        sys.exit(2)


def number(kind: type = float, *, minimum: float | None = None, above: float | None = None,
           maximum: float) -> Callable[[str], float | int]:
    """An argparse ``type``: a finite ``kind`` (int or float) >= minimum / > above, <= maximum
    (every number has one: a value the code cannot hold is refused in one line)."""

    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {'an integer' if kind is int else 'a number'}, got {text!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, got {text}")
        if above is not None and value <= above:
            raise argparse.ArgumentTypeError(f"must be > {above}, got {text}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be <= {maximum:g}, got {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its message
    return parse

#: Modules that contribute sub-commands; each defines ``register(subparsers)``.
SUBCOMMAND_MODULES: tuple[str, ...] = ("schedlab.cli.main", "schedlab.cli.sim", "schedlab.cli.report",
                                       "schedlab.cli.robustness", "schedlab.models.cli")


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
    p.add_argument("--renumber", action="store_true",
                   help="number jobs 1..n in file order when job ids repeat (default: error)")


def check_mirror(mirror: str | None) -> None:
    """``--mirror`` must name an existing directory."""
    from pathlib import Path

    if mirror is not None and not Path(mirror).is_dir():
        raise ConfigError(f"--mirror {mirror}: no such directory")


def _load(args: argparse.Namespace):
    from pathlib import Path

    from ..traces.lookup import load_trace
    from ..traces.registry import load_registry

    check_mirror(args.mirror)
    registry = load_registry(args.registry) if args.registry else None
    mirror = Path(args.mirror) if args.mirror else None
    return load_trace(args.trace, registry=registry, mirror=mirror, lenient=args.lenient,
                      renumber_duplicates=getattr(args, "renumber", False))


def cmd_parse(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..io import check_output_path
    from ..traces.lookup import parse_trace_to_parquet
    from ..traces.registry import load_registry

    check_output_path(args.out)
    check_mirror(args.mirror)
    trace, n_jobs = parse_trace_to_parquet(
        args.trace, args.out, registry=load_registry(args.registry) if args.registry else None,
        mirror=Path(args.mirror) if args.mirror else None, lenient=args.lenient,
        renumber_duplicates=args.renumber)
    msg = f"{trace.path}: {n_jobs:,} jobs -> {args.out}"
    if trace.skipped:
        msg += f" ({len(trace.skipped)} malformed lines skipped)"
    if trace.renumbered:
        msg += " (job ids renumbered 1..n: the file repeats ids)"
    print(msg)
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from ..traces.lookup import trace_characteristics

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
        from .. import __version__

        parser.exit(message=f"schedlab {__version__}\n")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = OneLineParser(prog="schedlab", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    parser.add_argument("--debug", action="store_true",
                        help="show the Python traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMAND_MODULES:
        try:
            importlib.import_module(module).register(sub)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv  # accepted anywhere on the command line
    parser = build_parser()
    try:
        args = parser.parse_args([a for a in argv if a != "--debug"])
    except SystemExit as e:  # --help, --version (0) or a usage error (2, one line printed)
        return int(e.code or 0)
    args.debug = debug
    try:
        return int(args.func(args) or 0)
    except SchedlabError as e:
        if args.debug:
            raise
        print(f"schedlab: error: {one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("schedlab: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug, not a user error: still one line unless --debug
        if args.debug:
            raise
        print(f"schedlab: internal error: {type(e).__name__}: {one_line(e)} "
              "(rerun with --debug for the traceback, and please report it)", file=sys.stderr)
        return 1


def one_line(e: BaseException) -> str:
    """An exception's message on one line."""
    return str(e).replace("\n", " ")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
