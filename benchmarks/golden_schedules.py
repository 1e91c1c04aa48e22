"""Save or check per-job start times of the engine's policies on the big logs.

Engine speed-ups must leave every schedule exactly identical. Before a change:
``benchmarks/golden_schedules.py save DIR``; after it: ``benchmarks/golden_schedules.py check DIR``
(exit 1 and the first differing job if any start time moved). Cases: conservative and EASY on
KTH-SP2, CTC-SP2, SDSC-SP2 and lublin_256 under both ``completions_first`` and ``per_event``.
``--options key=value ...`` passes scheduler options to every policy that takes them (e.g.
``compress_on=early`` checks conservative backfilling under another compression reading against
schedules saved under it). Needs ``SCHEDLAB_TRACE_MIRROR`` (or the traces in the registry's cache).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from schedlab.sim import SimOptions, simulate
from schedlab.sim.schedulers import make_scheduler
from schedlab.traces.lookup import load_trace
from schedlab.traces.normalize import normalize

TRACES = ("KTH-SP2-1996-2.1-cln", "CTC-SP2-1996-3.1-cln", "SDSC-SP2-1998-4.2-cln", "lublin_256")
POLICIES = ("conservative", "easy")
RULES = ("completions_first", "per_event")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("save", "check"))
    ap.add_argument("dir", type=Path)
    ap.add_argument("--traces", nargs="*", default=TRACES)
    ap.add_argument("--policies", nargs="*", default=POLICIES)
    ap.add_argument("--rules", nargs="*", default=RULES)
    ap.add_argument("--options", nargs="*", default=[], metavar="KEY=VALUE",
                    help="scheduler options (conservative: compress_on, compress_passes)")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.options)
    args.dir.mkdir(parents=True, exist_ok=True)
    bad = 0
    for trace in args.traces:
        tr = load_trace(trace)
        norm = normalize(tr.jobs, tr.header)
        for policy in args.policies:
            for rule in args.rules:
                c0 = time.process_time()
                opts = options if policy == "conservative" else {}
                res = simulate(norm.jobs, norm.machine_size, make_scheduler(policy, **opts),
                               options=SimOptions(tie_rule=rule))
                cpu = time.process_time() - c0
                start = res.jobs["start"].to_numpy()
                path = args.dir / f"{trace}.{policy}.{rule}.npy"
                if args.mode == "save":
                    np.save(path, start)
                    status = "saved"
                else:
                    gold = np.load(path)
                    diff = np.flatnonzero(gold != start)
                    if diff.size:
                        bad += 1
                        i = diff[0]
                        status = (
                            f"DIFFERS at {diff.size} jobs; first: job {res.jobs['job_id'].iat[i]} "
                            f"start {start[i]} (golden {gold[i]})"
                        )
                    else:
                        status = "identical"
                print(f"{trace:<24} {policy:<13} {rule:<18} {cpu:7.2f} s CPU  {status}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
