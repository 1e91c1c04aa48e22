"""``schedlab scorecard``: the combined published-vs-reproduced scorecard in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import ConfigError

#: :data:`schedlab.scorecard.VERDICTS`, repeated so that ``schedlab --help`` need not import
#: pandas (tests/test_cli.py checks they agree)
VERDICTS = ("match", "close", "differs", "holds", "fails", "not_run")


def cmd_scorecard(args: argparse.Namespace) -> int:
    from .io import read_parquet
    from .report import format_scorecard_terminal, format_summary_terminal

    path = Path(args.file)
    if not path.exists():
        raise ConfigError(f"{path}: no scorecard yet; build it with `snakemake {path}`")
    sc, _ = read_parquet(path)
    if args.paper:
        unknown = set(args.paper) - set(sc["paper"])
        if unknown:
            raise ConfigError(f"no scorecard rows for paper(s) {sorted(unknown)}; "
                              f"have {sorted(set(sc['paper']))}")
        sc = sc[sc["paper"].isin(args.paper)]
    color = {"always": True, "never": False}.get(args.color, sys.stdout.isatty())
    if args.verdict or args.rows:
        if args.verdict:
            sc = sc[sc["verdict"].isin(args.verdict)]
        print(format_scorecard_terminal(sc, color=color))
    else:
        print(format_summary_terminal(sc, color=color))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scorecard", help="print the published-vs-reproduced scorecard: verdict "
                       "counts per paper and the headline claims; --rows or --verdict for rows")
    p.add_argument("--file", default="results/scorecard.parquet", help="scorecard parquet")
    p.add_argument("--paper", action="append", help="only this paper (repeatable)")
    p.add_argument("--verdict", action="append",
                   choices=list(VERDICTS),
                   help="print the rows with this verdict (repeatable)")
    p.add_argument("--rows", action="store_true", help="print every row, not the summary")
    p.add_argument("--color", choices=["auto", "always", "never"], default="auto")
    p.set_defaults(func=cmd_scorecard)
