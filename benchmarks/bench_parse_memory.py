"""Memory of ``schedlab parse`` on a large synthetic log (not a test; prints one line per size).

Usage: python benchmarks/bench_parse_memory.py [JOBS ...]   (default 1000000 5000000)

Writes an SWF log of JOBS jobs (random but fixed fields, sorted submit times) in a temporary
directory, parses it with ``/usr/bin/time -v schedlab parse LOG OUT.parquet`` and prints the maximum
resident set size and the wall time. Parsing reads the log a block at a time and writes the job
table a row group at a time, so the size should stay about flat in JOBS.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd


def synthetic_log(path: Path, n: int, seed: int = 20240101) -> None:
    rng = np.random.default_rng(seed)
    jobs = pd.DataFrame({
        "job_id": np.arange(1, n + 1), "submit": np.cumsum(rng.integers(0, 120, n)),
        "wait": rng.integers(0, 20000, n), "run": rng.integers(1, 86400, n),
        "alloc": rng.integers(1, 512, n), "cpu": np.round(rng.random(n) * 1000, 2),
        "mem": -1, "req": rng.integers(1, 512, n), "reqt": rng.integers(60, 172800, n),
        "reqm": -1, "status": rng.integers(0, 2, n), "uid": rng.integers(1, 500, n),
        "gid": rng.integers(1, 20, n), "app": -1, "queue": rng.integers(1, 5, n), "part": 1,
        "prev": -1, "think": -1})
    with open(path, "w") as fh:
        fh.write(f"; Computer: synthetic\n; MaxJobs: {n}\n; UnixStartTime: 1000000000\n"
                 "; TimeZoneString: UTC\n; MaxProcs: 512\n")
        jobs.to_csv(fh, sep=" ", header=False, index=False, lineterminator="\n")


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [1_000_000, 5_000_000]
    schedlab = str(Path(sys.executable).with_name("schedlab"))
    print(f"{'jobs':>10} {'log MB':>8} {'max RSS MB':>11} {'wall s':>7}")
    with tempfile.TemporaryDirectory(prefix="schedlab-bench-") as tmp:
        for n in sizes:
            log = Path(tmp) / f"{n}.swf"
            synthetic_log(log, n)
            r = subprocess.run(["/usr/bin/time", "-v", schedlab, "parse", str(log),
                                str(Path(tmp) / "jobs.parquet")], capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stderr, file=sys.stderr)
                return 1
            rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)[1])
            wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", r.stderr)[1]
            print(f"{n:>10,} {log.stat().st_size / 1e6:>8.0f} {rss / 1024:>11.0f} {wall:>7}")
            log.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
