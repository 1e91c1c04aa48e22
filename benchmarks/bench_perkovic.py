"""CPU time of Perković & Keleher 2000 sweep points on the CTC-SP2 log (issue 18, lane pk).

One line per point: CPU seconds of :func:`schedlab.papers.perkovic2000.runs.simulate` (the paper
target's unit of work) and the run's mean bounded slowdown (to confirm the same schedule).
Default points: the base experiment of BF, 1/L, P/L-NG and R/L-NG, speculation (with and without
test runs), half-size, greedy and the Figure 9 combination, on the whole cleaned log at 430 nodes.
Usage: ``SCHEDLAB_TRACE_MIRROR=... python benchmarks/bench_perkovic.py [--max-jobs N] [--repeat K]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import yaml

from schedlab.papers.perkovic2000.config import resolve_settings
from schedlab.papers.perkovic2000.jobs import prepare_jobs
from schedlab.papers.perkovic2000.runs import simulate
from schedlab.papers.perkovic2000.sweep import RunPoint
from schedlab.traces.lookup import load_trace

CFG = Path(__file__).resolve().parents[1] / "config" / "papers" / "perkovic2000.yaml"
POINTS = [("base", "D", True, None), ("base", "1/L", True, None), ("base", "P/L", False, None),
          ("base", "R/L", False, None), ("spec", "D", True, 0.5), ("spectest", "R/L", False, 0.5),
          ("half", "D", True, None), ("greedy", "D", True, None),
          ("half_widen_spec", "P/L", False, 0.5)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-jobs", type=int, default=None, help="first N jobs (default: all)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per point (minimum CPU reported)")
    args = ap.parse_args()
    cfg = yaml.safe_load(CFG.read_text())
    s = resolve_settings(cfg)
    tr = load_trace(cfg["trace"])
    table, _ = prepare_jobs(tr.jobs, tr.header, 430, args.max_jobs)
    total = 0.0
    for exp, order, g, pct in POINTS:
        point = RunPoint(430, exp, order, g, pct)
        best = float("inf")
        for _ in range(args.repeat):
            c0 = time.process_time()
            out = simulate(table, point, s, int(cfg["seed_entropy"]))
            best = min(best, time.process_time() - c0)
        total += best
        print(f"{point.path:<32} {len(out):>6} jobs {best:7.2f} CPU-s  "
              f"bsld {out['bounded_slowdown'].mean():.6f}", flush=True)
    print(f"{'total':<32} {total:21.2f} CPU-s")


if __name__ == "__main__":
    main()
