"""Benchmark SWF parsing on the real logs (not a test; prints a table).

Usage: SCHEDLAB_TRACE_MIRROR=../shared/traces python benchmarks/bench_swf.py [LOG ...]
Target (issue 2): the 243,306-job SDSC-BLUE log parses in <= 3 s on a 2-core machine.
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from pathlib import Path

from schedlab.traces.swf import format_swf, read_swf

DEFAULT = ["SDSC-BLUE-2000-4.2-cln.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz", "RICC-2010-2.swf.gz"]


def main(argv: list[str]) -> int:
    mirror = os.environ.get("SCHEDLAB_TRACE_MIRROR")
    if not mirror:
        print("set SCHEDLAB_TRACE_MIRROR to the directory of PWA logs", file=sys.stderr)
        return 2
    files = argv or DEFAULT
    print(f"{'log':<34} {'jobs':>9} {'parse s':>8} {'best of 3':>9} {'jobs/s':>10} {'peak MiB':>9} {'write s':>8}")
    for name in files:
        path = Path(mirror) / name
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            tr = read_swf(path, submit_order="keep")
            times.append(time.perf_counter() - t0)
        tracemalloc.start()
        read_swf(path, submit_order="keep")
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        t0 = time.perf_counter()
        format_swf(tr)
        wt = time.perf_counter() - t0
        best = min(times)
        print(f"{name:<34} {tr.n_jobs:>9,} {times[0]:>8.2f} {best:>9.2f} {tr.n_jobs / best:>10,.0f} "
              f"{peak:>9.0f} {wt:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
