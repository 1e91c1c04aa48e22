"""Measured cost of a run's paper points, by paper and point kind: what the profiles' resources
(runtime, mem_mb) for the ``<paper>_point`` rules are declared from (docs/slurm.md).

Every point job writes Snakemake's benchmark file beside its log
(``logs/<paper dir>/runs/<point>.benchmark.tsv``: wall ``s``, ``cpu_time``, ``max_rss`` in MB).
This sums them: per paper and kind (the point id's first segment, e.g. Cirne's ``single``,
``sweep``, ``load``) the count, CPU seconds (sum, median, max), the longest wall time and the
largest resident memory, and the ``runtime`` (minutes) and ``mem_mb`` a cluster job of one point
should ask for: three times the longest wall time (at least 5 minutes) and twice the largest
memory (at least 1,000 MB), rounded up.

    .venv/bin/python benchmarks/point_costs.py [LOGS_DIR]        # default: logs
    .venv/bin/python benchmarks/point_costs.py logs/paper-scale  # the paper scale's points
    .venv/bin/python benchmarks/point_costs.py logs/paper-scale --set-resources
        # only the arguments of snakemake's --set-resources: per point rule, the most any kind asks
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

from schedlab.papers import study_run


def read_costs(logs: Path) -> pd.DataFrame:
    """One row per point benchmark file under ``logs``: paper dir, point id, kind, wall s,
    cpu s, max_rss MB."""
    rows = []
    for f in sorted(logs.rglob("*.benchmark.tsv")):
        rel = f.relative_to(logs).as_posix()
        if "/runs/" not in rel:
            continue
        run, point = rel.split("/runs/", 1)
        b = pd.read_csv(f, sep="\t")
        if b.empty:
            continue
        r = b.iloc[-1]
        rss = pd.to_numeric(r.get("max_rss"), errors="coerce")
        rows.append({"run": run, "point": point.removesuffix(".benchmark.tsv"),
                     "kind": point.split("/", 1)[0].removesuffix(".benchmark.tsv"),
                     "wall_s": float(r["s"]), "cpu_s": float(r.get("cpu_time", float("nan"))),
                     "max_rss_mb": float(rss) if pd.notna(rss) else float("nan")})
    return pd.DataFrame(rows, columns=["run", "point", "kind", "wall_s", "cpu_s", "max_rss_mb"])


def summarise(costs: pd.DataFrame) -> pd.DataFrame:
    """Per run and kind: n, CPU s (sum, median, max), longest wall s, largest RSS, and the
    resources one point should ask for (runtime minutes, mem_mb)."""
    g = costs.groupby(["run", "kind"], sort=True)
    out = g.agg(n=("point", "size"), cpu_sum=("cpu_s", "sum"), cpu_median=("cpu_s", "median"),
                cpu_max=("cpu_s", "max"), wall_max=("wall_s", "max"),
                rss_max_mb=("max_rss_mb", "max")).reset_index()
    out["runtime_min"] = [max(5, math.ceil(3 * w / 60)) for w in out["wall_max"]]
    out["mem_mb"] = [max(1000, math.ceil(2 * r / 100) * 100) if pd.notna(r) else 1000
                     for r in out["rss_max_mb"]]
    return out


def point_rule(run: str) -> str:
    """The Snakemake rule of a run's points (workflow/rules/papers.smk): ``<paper>_point`` for a
    paper (under ``paper-scale/`` too), ``study_<log>_<paper>_point`` for a study."""
    parts = run.removeprefix("paper-scale/").split("/")
    if parts[0] == "studies" and len(parts) == 3:
        return f"{study_run(parts[1], parts[2])}_point"
    return f"{parts[0]}_point"


def set_resources(summary: pd.DataFrame) -> list[str]:
    """``RULE:runtime=MIN`` and ``RULE:mem_mb=MB`` per point rule: the most any of its kinds asks."""
    rules = summary.assign(rule=[point_rule(r) for r in summary["run"]]).groupby("rule", sort=True)
    return [f"{rule}:{key}={int(g[col].max())}" for rule, g in rules
            for key, col in (("runtime", "runtime_min"), ("mem_mb", "mem_mb"))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="?", default="logs", type=Path)
    ap.add_argument("--set-resources", action="store_true",
                    help="print only the arguments of snakemake's --set-resources")
    a = ap.parse_args(argv)
    if not a.logs.is_dir():
        print(f"point_costs: {a.logs}: no such directory", file=sys.stderr)
        return 2
    costs = read_costs(a.logs)
    if costs.empty:
        print(f"point_costs: no point benchmark files under {a.logs}", file=sys.stderr)
        return 2
    s = summarise(costs)
    if a.set_resources:
        print(" ".join(set_resources(s)))
        return 0
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(s.to_string(index=False, float_format=lambda v: f"{v:.1f}"))
    print(f"all points: {len(costs)}, {costs['cpu_s'].sum():.0f} CPU-s, "
          f"longest {costs['wall_s'].max():.0f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
