"""Golden per-job schedules of PBAS and WBAS (Talby & Feitelson 2005 §3, §4.2), saved from the code
before the switching policies moved from ``papers/`` to ``sim/schedulers/switching.py`` (issue 18).

Each case runs one Talby sweep point through the pipeline's own path
(:func:`schedlab.papers.talby2005.runs.run_point`, the configured scheduler options) on the first
3,000 jobs of a log (cancelled jobs dropped, as the default config) or on a synthetic workload with
idle gaps, and compares job id, start and end of every job plus the run statistics (time shares,
switches, forked frames, mean wait) with ``tests/fixtures/golden/talby/``. Regenerate (only when a
documented reading changes) with::

    SCHEDLAB_TRACE_MIRROR=/work/shared/traces PYTHONPATH=src .venv/bin/python tests/sim/schedulers/test_talby_golden.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.papers.talby2005 import runs as tr
from schedlab.sim import SimJob

GOLDEN = Path(__file__).parents[2] / "fixtures" / "golden" / "talby"
CONFIG = Path(__file__).parents[3] / "config" / "papers" / "talby2005.yaml"
LOGS = {"KTH": "KTH-SP2-1996-2.1-cln", "SDSP2": "SDSC-SP2-1998-4.2-cln"}
FIRST_JOBS = 3000
#: (kind, point name): Table 5's two best PBAS configurations, the bsld criterion, Figure 3's four
#: candidates, Table 8's WBAS configurations and short frames (many switches, idle gaps).
POINTS = [("pbas", "fm-resp-43200"), ("pbas", "fm-util-604800"), ("pbas", "fm-bsld-3600"),
          ("pbas", "all4-util-604800"), ("wbas", "maf7500-sw86400"), ("wbas", "maf750-sw7200"),
          ("wbas", "maf50-sw600")]
CASES = [(log, kind, name) for log in [*LOGS, "synthetic"] for kind, name in POINTS]


def _options() -> dict:
    return yaml.safe_load(CONFIG.read_text())["scheduler_options"]


def synthetic_jobs() -> tuple[list[SimJob], int]:
    """Bursts of jobs separated by idle gaps longer than every frame (seeded)."""
    rng = np.random.default_rng(np.random.SeedSequence(2005))
    jobs, t = [], 0
    for burst in range(8):
        t += int(rng.integers(0, 3)) * 700_000 + 5_000 * burst
        for _ in range(40):
            t += int(rng.integers(0, 300))
            est = int(rng.integers(60, 20_000))
            jobs.append(SimJob(len(jobs), t, int(rng.integers(1, est + 1)), est,
                               int(rng.integers(1, 17))))
    return jobs, 16


def case_jobs(log: str) -> tuple[list[SimJob], int]:
    if log == "synthetic":
        return synthetic_jobs()
    from schedlab.traces.lookup import load_trace

    t = load_trace(LOGS[log])
    size = t.header.machine_size
    jobs, _ = tr.sim_jobs_from_trace(t.jobs.head(FIRST_JOBS), t.header, size, LOGS[log], "drop")
    return jobs, size


def run_case(jobs: list[SimJob], size: int, kind: str, name: str) -> tuple[pd.DataFrame, dict]:
    out, st = tr.simulate_point(jobs, size, kind, name, _options(), None, None)
    stats = {k: st[k] for k in ("shares", "switches", "frames_forked", "mean_wait")}
    return out[["job_id", "start", "end"]].reset_index(drop=True), stats


def _stem(log: str, kind: str, name: str) -> str:
    return f"{log}-{kind}-{name}"


@pytest.fixture(scope="module")
def workloads(request):
    cache: dict[str, tuple[list[SimJob], int]] = {}

    def get(log: str):
        if log != "synthetic":
            request.getfixturevalue("mirror")
        if log not in cache:
            cache[log] = case_jobs(log)
        return cache[log]

    return get


@pytest.mark.parametrize(("log", "kind", "name"), CASES)
def test_golden_schedule(workloads, log, kind, name):
    jobs, size = workloads(log)
    out, stats = run_case(jobs, size, kind, name)
    ref = pd.read_csv(GOLDEN / f"{_stem(log, kind, name)}.csv.gz")
    assert len(out) == len(ref)
    pd.testing.assert_frame_equal(out, ref, check_dtype=False)
    assert stats == json.loads((GOLDEN / f"{_stem(log, kind, name)}.json").read_text())


def test_golden_detects_a_changed_schedule(workloads):
    """The comparison fails when one job starts a second later."""
    jobs, size = workloads("synthetic")
    out, _ = run_case(jobs, size, "wbas", "maf50-sw600")
    ref = pd.read_csv(GOLDEN / "synthetic-wbas-maf50-sw600.csv.gz")
    out.loc[5, "start"] += 1
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(out, ref, check_dtype=False)


def write_all() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for log in [*LOGS, "synthetic"]:
        jobs, size = case_jobs(log)
        for kind, name in POINTS:
            out, stats = run_case(jobs, size, kind, name)
            stem = _stem(log, kind, name)
            out.to_csv(GOLDEN / f"{stem}.csv.gz", index=False,
                       compression={"method": "gzip", "mtime": 0})
            (GOLDEN / f"{stem}.json").write_text(json.dumps(stats, indent=1, sort_keys=True) + "\n")
            print(stem, stats, file=sys.stderr)


if __name__ == "__main__":
    write_all()
