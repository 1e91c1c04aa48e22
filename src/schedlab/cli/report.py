"""``schedlab scorecard``: the combined published-vs-reproduced scorecard in the terminal (and
``scorecard-diff``, ``scale-sensitivity``: two scorecards side by side)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ConfigError
from ..report.scale_causes import SCALE_CAUSES

if TYPE_CHECKING:
    import pandas as pd

#: ``--verdict`` choices: :data:`schedlab.report.scorecard.VERDICTS`, repeated here so that ``--help`` need
#: not import pandas (a test checks they agree).
VERDICTS = ("match", "close", "differs", "holds", "fails", "not_run")


def read_frame(path: Path, columns: list[str], what: str, target: str) -> pd.DataFrame:
    """A results parquet (``what``, built by ``snakemake <target>``), checked: a file, parquet,
    with ``columns``."""
    from ..io import CorruptFileError, read_parquet

    if not path.exists():
        raise ConfigError(f"{path}: no {what} yet; build it with `snakemake {path}`")
    if path.is_dir():
        raise ConfigError(f"--file {path}: is a directory, not a {what} .parquet file")
    try:
        df, _ = read_parquet(path)
    except CorruptFileError as e:
        raise ConfigError(f"--file {path}: not a parquet file ({e.reason})") from e
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ConfigError(f"--file {path}: not a {what}: missing column(s) "
                          f"{', '.join(missing)} (a {what} is built by `snakemake {target}`)")
    return df


def read_scorecard(path: Path) -> pd.DataFrame:
    """A scorecard parquet, checked: a file, parquet, with the needed columns and some rows."""
    from ..report.scorecard import COLUMNS as SCORECARD_COLUMNS

    sc = read_frame(path, SCORECARD_COLUMNS, "scorecard", "results/scorecard.parquet")
    if sc.empty:
        raise ConfigError(f"--file {path}: the scorecard has no rows")
    return sc


def cmd_scorecard(args: argparse.Namespace) -> int:
    from ..report.html import claim_coverage
    from ..report.terminal import format_scorecard_terminal, format_summary_terminal

    sc = read_scorecard(Path(args.file))
    claims_dir = Path(args.claims)
    covs = (claim_coverage(claims_dir, list(dict.fromkeys(sc["paper"])), sc)
            if claims_dir.is_dir() else {})
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
        covs = {p: c for p, c in covs.items() if p in set(sc["paper"])}
        print(format_summary_terminal(sc, color=color, covs=covs))
    return 0


def cmd_scorecard_diff(args: argparse.Namespace) -> int:
    from ..report.verdict_diff import format_diff

    before, after = read_scorecard(Path(args.before)), read_scorecard(Path(args.after))
    if args.paper:
        unknown = set(args.paper) - set(before["paper"]) - set(after["paper"])
        if unknown:
            raise ConfigError(f"no scorecard rows for paper(s) {sorted(unknown)} in either file")
        before = before[before["paper"].isin(args.paper)]
        after = after[after["paper"].isin(args.paper)]
    print(format_diff(before, after, (args.before, args.after)))
    return 0


def cmd_scale_sensitivity(args: argparse.Namespace) -> int:
    from ..io import check_output_path, write_parquet
    from ..report.scale_causes import read_scale_causes
    from ..report.scale_sensitivity import format_terminal, from_roots

    for d in (args.default_dir, args.paper_dir):
        if not Path(d).is_dir():
            raise ConfigError(f"{d}: no such results directory")
    if args.out:
        check_output_path(args.out)
    table = from_roots(Path(args.default_dir), Path(args.paper_dir),
                       read_scale_causes(args.causes))
    if args.paper:
        unknown = set(args.paper) - set(table["paper"])
        if unknown:
            raise ConfigError(f"no scorecard rows for paper(s) {sorted(unknown)} at either scale")
        table = table[table["paper"].isin(args.paper)]
    print(format_terminal(table, every_row=args.all))
    if args.out:
        write_parquet(args.out, table, {"default": args.default_dir, "paper": args.paper_dir})
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
    p.add_argument("--claims", default="config/papers", metavar="DIR",
                   help="where the claim inventories <paper>_claims.tsv are (coverage in the "
                        "summary; skipped when DIR does not exist)")
    p.set_defaults(func=cmd_scorecard)

    p = sub.add_parser("scorecard-diff", help="two scorecards side by side: verdict counts per paper "
                       "before -> after, deviating rows by explained status, and every row whose "
                       "verdict changed")
    p.add_argument("before", help="scorecard parquet before the change")
    p.add_argument("after", help="scorecard parquet after the change")
    p.add_argument("--paper", action="append", help="only this paper (repeatable)")
    p.set_defaults(func=cmd_scorecard_diff)

    p = sub.add_parser("scale-sensitivity", help="the default-scale scorecard beside the "
                       "paper-scale one: verdict flips per paper and each flipped row with the "
                       "settings that differ, its value move and its tested cause")
    p.add_argument("default_dir", nargs="?", default="results",
                   help="the default run's results (its scorecard.parquet; default: results)")
    p.add_argument("paper_dir", nargs="?", default="results/paper-scale",
                   help="the paper-scale run's results (default: results/paper-scale)")
    p.add_argument("--paper", action="append", help="only this paper (repeatable)")
    p.add_argument("--all", action="store_true",
                   help="every row whose verdict or presence differs, not only the flips")
    p.add_argument("--out", help="also write the whole table to this .parquet")
    p.add_argument("--causes", default=SCALE_CAUSES, metavar="TSV",
                   help="the recorded causes of the flips (default: %(default)s; none when the "
                        "file does not exist)")
    p.set_defaults(func=cmd_scale_sensitivity)
