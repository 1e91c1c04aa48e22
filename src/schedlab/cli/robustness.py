"""``schedlab robustness``: the robustness matrix (claims x logs) in the terminal."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_robustness(args: argparse.Namespace) -> int:
    from ..report.robustness import COLUMNS, select
    from ..report.robustness_view import format_terminal
    from .report import read_frame

    m = read_frame(Path(args.file), COLUMNS, "robustness matrix", "results/robustness.parquet")
    print(format_terminal(select(m, args.paper or (), args.log or ())))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("robustness", help="print the robustness matrix: each paper's claims on its "
                       "own log(s) and on every studied log, with the logs each holds on")
    p.add_argument("--file", default="results/robustness.parquet", help="robustness parquet")
    p.add_argument("--paper", action="append", help="only this paper (repeatable)")
    p.add_argument("--log", action="append", help="only this studied log, beside the paper's own "
                   "(repeatable)")
    p.set_defaults(func=cmd_robustness)
