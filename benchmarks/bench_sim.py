"""Speed and memory of the simulation engine on the real logs, against pyss (issues 3 and 17).

Usage: SCHEDLAB_TRACE_MIRROR=/work/shared/traces .venv/bin/python benchmarks/bench_sim.py
       [--repeat R] [--cases easy:CTC-SP2-1996-3.1-cln ...] [--tie-rule RULE] [--no-memory]
       [--no-scaling] [--no-cli] [--cli-repeat N]

Per case: loading + normalization (not timed), then ``simulate`` timed: wall clock (best of R) and
CPU time of the same run (``time.process_time``; on a shared machine the CPU time is the steadier
number), jobs/s, peak Python memory of one more run under tracemalloc, and the speed-up over pyss's
simulation time recorded in ``benchmarks/pyss_timings.csv`` (measured on this machine, CPython
3.11). The scaling exponent ``b`` of ``time ~ jobs**b`` is fitted on the log's first quarter, half
and whole (1.0 = linear). CLI start-up: ``schedlab --help`` and ``schedlab simulate`` up to the
point where it starts reading the trace (a missing file: the command exits right there), best of 5.
Issue 17 targets: CTC conservative >= 50x pyss (<= 2.2 s), KTH conservative >= 10x, EASY no slower
than before; ``--help`` <= 0.3 s, simulate before reading <= 0.5 s. The whole command a user types,
``schedlab simulate <log> --scheduler conservative|easy`` (start-up, kernel load, reading,
normalization, simulation under the default reading and event order, summary): wall time (best of
``--cli-repeat``) and the CPU time of that run (the child's user + system time), for KTH-SP2 and
CTC-SP2 (issue 31 targets: CTC conservative <= 2.2 s, KTH <= 0.49 s, EASY no slower); and once with
an empty numba cache (a checkout before ``make setup`` compiled the kernels). Conservative backfilling's
compiled kernels are loaded before the table (one tiny simulation; its CPU time is printed: ~2.5 s
the first time after a checkout, when numba compiles, ~0.3 s from numba's cache afterwards).
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from schedlab.sim import SimOptions, simulate
from schedlab.sim.schedulers import make_scheduler
from schedlab.traces.lookup import load_trace
from schedlab.traces.normalize import normalize

HERE = Path(__file__).resolve().parent
CASES = [
    ("easy", "KTH-SP2-1996-2.1-cln"),
    ("conservative", "KTH-SP2-1996-2.1-cln"),
    ("easy", "CTC-SP2-1996-3.1-cln"),
    ("conservative", "CTC-SP2-1996-3.1-cln"),
    ("easy", "SDSC-SP2-1998-4.2-cln"),
    ("conservative", "SDSC-SP2-1998-4.2-cln"),
    ("fcfs", "KTH-SP2-1996-2.1-cln"),
    ("maui", "KTH-SP2-1996-2.1-cln"),
    ("conservative", "lublin_256"),
]


def pyss_timings() -> dict[tuple[str, str], float]:
    with open(HERE / "pyss_timings.csv") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {(r["trace"], r["scheduler"]): float(r["pyss_seconds"]) for r in rows}


def timed(sched: str, jobs, size: int, rule: str, repeat: int) -> tuple[float, float]:
    """(best wall seconds, CPU seconds of that run)."""
    best = (math.inf, math.inf)
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        simulate(jobs, size, make_scheduler(sched), options=SimOptions(tie_rule=rule),
                 record_timeline=True)
        best = min(best, (time.perf_counter() - t0, time.process_time() - c0))
    return best


def peak_memory(sched: str, jobs, size: int, rule: str) -> float:
    tracemalloc.start()
    simulate(jobs, size, make_scheduler(sched), options=SimOptions(tie_rule=rule))
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak


def exponent(sched: str, jobs, size: int, rule: str, full_cpu: float) -> float:
    """Least-squares slope of log(CPU time) against log(jobs) over quarter, half, whole log."""
    xs, ys = [], []
    for frac in (4, 2):
        part = jobs[: len(jobs) // frac]
        _, cpu = timed(sched, part, size, rule, 1)
        xs.append(math.log(len(part)))
        ys.append(math.log(max(cpu, 1e-6)))
    xs.append(math.log(len(jobs)))
    ys.append(math.log(max(full_cpu, 1e-6)))
    mx, my = sum(xs) / 3, sum(ys) / 3
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def kernel_warmup() -> str:
    """Load conservative backfilling's compiled kernels (numba) with a tiny simulation, so that
    the table times simulation only; returns what it cost (compiled, or loaded from numba's
    cache: the first run after a checkout compiles)."""
    from schedlab.sim import SimJob
    from schedlab.sim.schedulers.conservative import Conservative

    c0 = time.process_time()
    jobs = [SimJob(i, i, 5, 10 + i % 3, 1 + i % 3) for i in range(20)]
    simulate(jobs, 4, Conservative())
    cpu = time.process_time() - c0
    k = Conservative.kernel
    misses = sum(sum(getattr(k, f).stats.cache_misses.values()) for f in ("arrive", "due"))
    how = "compiled (no cache yet)" if misses else "loaded from numba's cache"
    return f"conservative kernels {how}: {cpu:.2f} s CPU, not in the table"


def _exe() -> str:
    return shutil.which("schedlab") or str(Path(sys.executable).with_name("schedlab"))


def timed_command(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child: user + system) of one run of ``cmd``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)}: exit status {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


CLI_CASES = [("conservative", "CTC-SP2-1996-3.1-cln"), ("easy", "CTC-SP2-1996-3.1-cln"),
             ("conservative", "KTH-SP2-1996-2.1-cln"), ("easy", "KTH-SP2-1996-2.1-cln")]


def cli_simulate(repeat: int) -> list[tuple[str, float, float]]:
    """``schedlab simulate`` on the CLI cases: (label, best wall, CPU of that run); then the
    conservative KTH-SP2 case with an empty numba cache (compiling the kernels)."""
    out = []
    for sched, trace in CLI_CASES:
        cmd = [_exe(), "simulate", trace, "--scheduler", sched]
        best = min(timed_command(cmd) for _ in range(repeat))
        out.append((f"schedlab simulate {trace[:7]} --scheduler {sched}", *best))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cmd = [_exe(), "simulate", CLI_CASES[2][1], "--scheduler", "conservative"]
        out.append(("  same, KTH conservative, empty numba cache", *timed_command(cmd, env)))
    return out


def cli_startup() -> list[tuple[str, float]]:
    exe = _exe()
    cmds = {
        "schedlab --help": [exe, "--help"],
        "schedlab simulate, before reading": [
            exe, "simulate", "/nonexistent/trace.swf", "--scheduler", "easy"
        ],
    }  # fmt: skip
    out = []
    for label, cmd in cmds.items():
        best = math.inf
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=False)
            best = min(best, time.perf_counter() - t0)
        out.append((label, best))
    return out


def main() -> None:
    from schedlab.sim import TIE_RULES
    from schedlab.sim.options import DEFAULT_TIE_RULE

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--cases", nargs="*", help="scheduler:trace pairs (default: the table above)")
    ap.add_argument("--tie-rule", choices=TIE_RULES, default=DEFAULT_TIE_RULE,
                    help=f"event order (default: the engine's, {DEFAULT_TIE_RULE})")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--cli-repeat", type=int, default=3, help="runs per CLI case (best wall)")
    args = ap.parse_args()
    cases = [tuple(c.split(":", 1)) for c in args.cases] if args.cases else CASES
    pyss = pyss_timings()
    print(f"tie rule: {args.tie_rule}; times in seconds; x pyss = pyss seconds / our CPU seconds")
    if any(sched in ("conservative", "sa") for sched, _ in cases):
        print(kernel_warmup())
    header = (
        f"{'scheduler':<13} {'trace':<24} {'jobs':>6} {'wall':>7} {'cpu':>7} {'jobs/s':>8} "
        f"{'peak MiB':>8} {'pyss':>6} {'x pyss':>7} {'exp':>5}"
    )
    print(header)
    print("-" * len(header))
    loaded: dict[str, tuple] = {}
    for sched, trace in cases:
        if trace not in loaded:
            tr = load_trace(trace)
            n = normalize(tr.jobs, tr.header)
            loaded[trace] = (n.jobs, n.machine_size)
        jobs, size = loaded[trace]
        wall, cpu = timed(sched, jobs, size, args.tie_rule, args.repeat)
        mem = "-" if args.no_memory else f"{peak_memory(sched, jobs, size, args.tie_rule):8.1f}"
        ref = pyss.get((trace, sched))
        ratio = "-" if ref is None else f"{ref / cpu:6.1f}x"
        exp = "-" if args.no_scaling else f"{exponent(sched, jobs, size, args.tie_rule, cpu):5.2f}"
        print(
            f"{sched:<13} {trace[:24]:<24} {len(jobs):>6} {wall:>7.2f} {cpu:>7.2f} "
            f"{len(jobs) / cpu:>8.0f} {mem:>8} {'-' if ref is None else ref:>6} {ratio:>7} "
            f"{exp:>5}",
            flush=True,
        )
    if not args.no_cli:
        print()
        for label, secs in cli_startup():
            print(f"{label:<36} {secs:6.2f} s")
        print()
        print(f"{'whole command (default reading and order)':<56} {'wall':>6} {'cpu':>6}")
        for label, wall, cpu in cli_simulate(args.cli_repeat):
            print(f"{label:<56} {wall:6.2f} {cpu:6.2f}", flush=True)


if __name__ == "__main__":
    main()
