"""Speed and memory of the simulation engine on the real logs (issue 3 targets).

Usage: SCHEDLAB_TRACE_MIRROR=/work/shared/traces .venv/bin/python benchmarks/bench_sim.py
       [--repeat R] [--cases easy:CTC-SP2-1996-3.1-cln ...] [--no-memory]

Per case: loading + normalization (not timed), then ``simulate`` timed (best of R, wall clock),
jobs/s, and peak Python memory of one more run under tracemalloc (slower; reported separately). The
"half" rows simulate the first half of the same log: peak memory should scale with the number of
jobs (job table + per-event timeline), not with the simulated time span. Targets (2-core machine):
EASY on CTC-SP2 <= 5 s, conservative on KTH-SP2 <= 5 s, conservative on lublin_256 <= 10 s.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from schedlab.normalize import normalize
from schedlab.sim import simulate
from schedlab.sim.schedulers import make_scheduler
from schedlab.traces import load_trace

CASES = [
    ("easy", "CTC-SP2-1996-3.1-cln", 5.0),
    ("conservative", "KTH-SP2-1996-2.1-cln", 5.0),
    ("conservative", "lublin_256", 10.0),
    ("fcfs", "KTH-SP2-1996-2.1-cln", None),
    ("easy", "KTH-SP2-1996-2.1-cln", None),
    ("maui", "KTH-SP2-1996-2.1-cln", None),
    ("conservative", "CTC-SP2-1996-3.1-cln", None),
]


def run_case(sched: str, jobs, size: int, repeat: int, memory: bool) -> tuple[float, float | None]:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        simulate(jobs, size, make_scheduler(sched))
        best = min(best, time.perf_counter() - t0)
    peak = None
    if memory:
        tracemalloc.start()
        simulate(jobs, size, make_scheduler(sched))
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return best, peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cases", nargs="*", help="scheduler:trace pairs (default: the table above)")
    ap.add_argument("--no-memory", action="store_true")
    args = ap.parse_args()
    cases = (
        [(c.split(":", 1)[0], c.split(":", 1)[1], None) for c in args.cases]
        if args.cases
        else CASES
    )
    header = f"{'scheduler':<13} {'trace':<31} {'jobs':>7} {'wall s':>7} {'jobs/s':>8} {'peak MiB':>9} {'target':>7}"
    print(header)
    print("-" * len(header))
    loaded: dict[str, tuple] = {}
    for sched, trace, target in cases:
        if trace not in loaded:
            tr = load_trace(trace)
            n = normalize(tr.jobs, tr.header)
            loaded[trace] = (n.jobs, n.machine_size)
        jobs, size = loaded[trace]
        rows = [(trace, jobs, target)]
        if not args.no_memory and target is not None:
            rows.append((trace + " (half)", jobs[: len(jobs) // 2], None))
        for label, js, tgt in rows:
            wall, peak = run_case(sched, js, size, args.repeat, not args.no_memory)
            ok = "" if tgt is None else ("ok" if wall <= tgt else "MISSED")
            mem = "-" if peak is None else f"{peak:9.1f}"
            print(
                f"{sched:<13} {label:<31} {len(js):>7} {wall:>7.2f} {len(js) / wall:>8.0f} "
                f"{mem:>9} {ok or '':>7}"
            )


if __name__ == "__main__":
    main()
