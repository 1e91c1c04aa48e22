"""Compare two results/ trees file by file (used by ci/slurm/e2e.sh: local run vs SLURM run).

Every file must be byte-identical, except the outputs that carry wall-clock measurements, which are
listed in WALL_CLOCK and compared with the measured rows left out:
  * Tang 2013 Table 4 (seconds per scheduling iteration): results/tang2013/runs/<log>/table4/table4.parquet and
    results/tang2013/tables/table4.parquet are skipped;
  * the scorecards (results/tang2013/scorecard.parquet, results/scorecard.parquet) must be equal once
    the rows of item "Table 4" of paper tang2013 are dropped;
  * results/report/index.html renders those scorecards, so it is skipped (its tables and figures are
    the files compared above).
Prints one line per difference and a summary; exit status 1 if anything differs.
Usage: python compare_results.py DIR_A DIR_B  (the directories holding results/)
"""

from __future__ import annotations

import fnmatch
import hashlib
import sys
from pathlib import Path

import pandas as pd

SKIP = ["results/tang2013/runs/*/table4.parquet", "results/tang2013/tables/table4.parquet",
        "results/report/index.html"]
SCORECARDS = ["results/tang2013/scorecard.parquet", "results/scorecard.parquet"]


def files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in (root / "results").rglob("*")
            if p.is_file() and not p.name.startswith(".")}


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def scorecard_without_timings(p: Path) -> pd.DataFrame:
    sc = pd.read_parquet(p)
    timing = (sc["paper"] == "tang2013") & (sc["item"] == "Table 4")
    return sc[~timing].reset_index(drop=True)


def main(a: Path, b: Path) -> int:
    fa, fb = files(a), files(b)
    problems = [f"only in {a}: {f}" for f in sorted(fa - fb)] + [f"only in {b}: {f}" for f in sorted(fb - fa)]
    compared = 0
    for f in sorted(fa & fb):
        if any(fnmatch.fnmatch(f, pat) for pat in SKIP):
            continue
        compared += 1
        if f in SCORECARDS:
            if not scorecard_without_timings(a / f).equals(scorecard_without_timings(b / f)):
                problems.append(f"differs (timing rows left out): {f}")
        elif digest(a / f) != digest(b / f):
            problems.append(f"differs: {f}")
    for line in problems:
        print(line)
    print(f"{compared} files compared, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
