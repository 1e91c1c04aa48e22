"""Speed of the distributed-server simulator (schedlab.distserver.simulate), per policy.

Usage: .venv/bin/python benchmarks/bench_distserver.py [--jobs N] [--hosts 2 4 100] [--repeat R]

Workload: heavy-tailed service times (lognormal, C² ≈ 6 like CTC 8-processor jobs) with Poisson
arrivals at load 0.7. Prints the best of R runs in ms and µs per job for every policy and host count.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from schedlab.distserver.cutoffs import sita_e_cutoffs
from schedlab.distserver.simulate import simulate


def bench(n: int, h: int, repeat: int) -> list[tuple[str, float]]:
    rng = np.random.default_rng(1)
    x = np.ceil(rng.lognormal(7.0, 1.4, n))
    a = np.cumsum(rng.exponential(x.mean() / (0.7 * h), n))
    kws = {"random": {"rng": np.random.default_rng(2)}, "round_robin": {},
           "shortest_queue": {}, "lwl": {}, "central_queue": {},
           "sita": {"cutoffs": sita_e_cutoffs(x, h)},
           "sita_groups": {"cutoffs": sita_e_cutoffs(x, 2), "short_hosts": h // 2}}
    out = []
    for pol, kw in kws.items():
        if pol == "sita" and len(kw["cutoffs"]) != h - 1:
            continue
        if pol == "sita_groups" and h < 2:
            continue
        best = np.inf
        for _ in range(repeat):
            t0 = time.perf_counter()
            simulate(a, x, h, pol, **kw)
            best = min(best, time.perf_counter() - t0)
        out.append((pol, best))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=100_000)
    ap.add_argument("--hosts", type=int, nargs="+", default=[2, 4, 100])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'policy':16s} {'hosts':>5s} {'ms':>9s} {'us/job':>8s}")
    for h in args.hosts:
        for pol, t in bench(args.jobs, h, args.repeat):
            print(f"{pol:16s} {h:5d} {t * 1e3:9.1f} {t * 1e6 / args.jobs:8.2f}")


if __name__ == "__main__":
    main()
