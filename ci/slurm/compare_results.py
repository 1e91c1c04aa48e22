"""Compare two results/ trees file by file (used by ci/slurm/e2e.sh: local run vs SLURM run).

Every file must be byte-identical, except the outputs that carry wall-clock measurements, which are
listed in WALL_CLOCK and compared with the measured rows left out:
  * Tang 2013 Table 4 (seconds per scheduling iteration): results/tang2013/runs/<log>/table4/table4.parquet and
    results/tang2013/tables/table4.parquet are skipped, and the point's done.json (which records
    the skipped frame's size and sha256) is compared with that frame's entry left out;
  * the same files of Tang's paper scale (results/paper-scale/tang2013/) and studies on other logs
    (results/studies/<log>/tang2013/);
  * the scorecards (Tang's, a Tang study's, results/scorecard.parquet and its paper-scale twin)
    must be equal once the rows of item "Table 4" of paper tang2013 are dropped, and so must the
    robustness matrix (results/robustness.parquet, and its paper-scale twin) once Tang's "Table 4 | ..." claims are;
  * results/report/index.html renders those scorecards, so it is skipped (its tables and figures are
    the files compared above).
Prints one line per difference and a summary; exit status 1 if anything differs.
Usage: python compare_results.py DIR_A DIR_B [--frames PAPER...]  (the directories holding results/)

With ``--frames PAPER...`` it compares frames instead of bytes (a refactor that must leave every
number alone, whatever the files' metadata): each paper's results/<paper>/tables/*.parquet and
scorecard.parquet with pandas.testing.assert_frame_equal(check_exact=True), the wall-clock column
of Tang's Table 4 (seconds_per_iteration) and the scorecard rows built from it left out.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import sys
from pathlib import Path

import pandas as pd

#: Tang's own run and its studies on other logs (results/studies/<log>/tang2013/) alike (fnmatch's
#: ``*`` also matches ``/``).
TANG = ["results/tang2013", "results/paper-scale/tang2013", "results/studies/*/tang2013"]
SKIP = [f"{t}/{f}" for t in TANG for f in ("runs/*/table4.parquet", "tables/table4.parquet")] + [
    "results/report/index.html"]
SCORECARDS = [f"{t}/scorecard.parquet" for t in TANG] + [
    "results/scorecard.parquet", "results/paper-scale/scorecard.parquet"]
#: the robustness matrix: Tang's Table 4 claims (wall-clock ratios) left out
MATRIX = ("results/robustness.parquet", "results/paper-scale/robustness.parquet")
#: done.json files of points whose frames carry wall-clock measurements: the frames' entries of
#: ``files`` (their size and sha256) are left out of the comparison.
TIMED_DONE = [f"{t}/runs/*/table4/done.json" for t in TANG]


def files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in (root / "results").rglob("*")
            if p.is_file() and not p.name.startswith(".")}


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def done_without_timed_frames(p: Path) -> dict:
    """A point's done.json without the size and sha256 of its (wall-clock bearing) frames."""
    done = json.loads(p.read_text())
    return {k: v for k, v in done.items() if k != "files"}


def scorecard_without_timings(p: Path) -> pd.DataFrame:
    sc = pd.read_parquet(p)
    timing = (sc["paper"] == "tang2013") & (sc["item"] == "Table 4")
    return sc[~timing].reset_index(drop=True)


def matrix_without_timings(p: Path) -> pd.DataFrame:
    m = pd.read_parquet(p)
    timing = (m["paper"] == "tang2013") & m["claim"].str.startswith("Table 4 |")
    return m[~timing].reset_index(drop=True)


#: Wall-clock columns of a table (paper, table) -> columns, left out of the frame comparison.
TIMING_COLUMNS = {("tang2013", "table4"): ["seconds_per_iteration"]}


def frame(root: Path, paper: str, name: str) -> pd.DataFrame:
    """``results/<paper>/<name>.parquet`` without its wall-clock measurements."""
    path = root / "results" / paper / f"{name}.parquet"
    if name == "scorecard":
        return scorecard_without_timings(path)
    df = pd.read_parquet(path)
    return df.drop(columns=TIMING_COLUMNS.get((paper, Path(name).name), []), errors="ignore")


def compare_frames(a: Path, b: Path, papers: list[str]) -> int:
    """Frame-exact comparison of each paper's tables and scorecard (module docstring)."""
    problems, compared = [], 0
    for paper in papers:
        names = {f"tables/{p.stem}" for root in (a, b)
                 for p in (root / "results" / paper / "tables").glob("*.parquet")} | {"scorecard"}
        for name in sorted(names):
            where = f"results/{paper}/{name}.parquet"
            missing = [str(r) for r in (a, b) if not (r / where).is_file()]
            if missing:
                problems.append(f"only in {b if missing == [str(a)] else a}: {where}")
                continue
            compared += 1
            try:
                pd.testing.assert_frame_equal(frame(a, paper, name), frame(b, paper, name),
                                              check_exact=True)
            except AssertionError as e:
                problems.append(f"differs: {where}: {' '.join(str(e).split())[:300]}")
        print(f"{paper}: {len(names)} frames")
    for line in problems:
        print(line)
    print(f"{compared} frames compared (check_exact=True), {len(problems)} differences")
    return 1 if problems else 0


def main(a: Path, b: Path) -> int:
    fa, fb = files(a), files(b)
    problems = [f"only in {a}: {f}" for f in sorted(fa - fb)] + [f"only in {b}: {f}" for f in sorted(fb - fa)]
    compared = 0
    for f in sorted(fa & fb):
        if any(fnmatch.fnmatch(f, pat) for pat in SKIP):
            continue
        compared += 1
        if any(fnmatch.fnmatch(f, pat) for pat in TIMED_DONE):
            if done_without_timed_frames(a / f) != done_without_timed_frames(b / f):
                problems.append(f"differs (timed frames' hashes left out): {f}")
        elif any(fnmatch.fnmatch(f, pat) for pat in SCORECARDS):
            if not scorecard_without_timings(a / f).equals(scorecard_without_timings(b / f)):
                problems.append(f"differs (timing rows left out): {f}")
        elif f in MATRIX:
            if not matrix_without_timings(a / f).equals(matrix_without_timings(b / f)):
                problems.append(f"differs (timing rows left out): {f}")
        elif digest(a / f) != digest(b / f):
            problems.append(f"differs: {f}")
    for line in problems:
        print(line)
    print(f"{compared} files compared, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "--frames":
        sys.exit(compare_frames(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[4:]))
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
