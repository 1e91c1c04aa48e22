"""The engine against pyss's own schedules (issue 17): the normalized KTH-SP2 log, EASY and
conservative backfilling, job for job, in the ``per_event`` (pyss) order.

The reference directory (README there) holds pyss's per-job schedules and the exact SWF it
simulated. It is found at $SCHEDLAB_REFERENCE, else ``<repo>/../shared/reference``, else next to the
trace mirror (``$SCHEDLAB_TRACE_MIRROR/../reference``); the tests skip without it.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedlab.sim import simulate
from schedlab.sim.options import SimOptions
from schedlab.sim.schedulers import make_scheduler
from schedlab.traces.normalize import normalize
from schedlab.traces.swf import read_swf

pytestmark = [pytest.mark.mirror, pytest.mark.slow]

LOG = "KTH-SP2-norm.swf.gz"
#: pyss's scheduler -> (our scheduler, its CSV)
CASES = {
    "EasyBackfillScheduler": ("easy", "pyss-easy-KTH-SP2-norm.csv.gz"),
    "ConservativeScheduler": ("conservative", "pyss-conservative-KTH-SP2-norm.csv.gz"),
}


def _reference_dir(repo: Path) -> Path | None:
    candidates = []
    if os.environ.get("SCHEDLAB_REFERENCE"):
        candidates.append(Path(os.environ["SCHEDLAB_REFERENCE"]))
    candidates.append(repo.parent / "shared" / "reference")
    if os.environ.get("SCHEDLAB_TRACE_MIRROR"):
        candidates.append(Path(os.environ["SCHEDLAB_TRACE_MIRROR"]).parent / "reference")
    for c in candidates:
        if (c / LOG).is_file():
            return c
    return None


@pytest.fixture(scope="module")
def reference(repo: Path) -> Path:
    d = _reference_dir(repo)
    if d is None:
        pytest.skip(
            f"needs pyss's reference schedules ({LOG}): set SCHEDLAB_REFERENCE or put them in "
            "../shared/reference"
        )
    return d


@pytest.fixture(scope="module")
def kth(reference: Path):
    tr = read_swf(reference / LOG)
    # the SWF already holds pyss's values (README): simulate it as is, original submit times
    norm = normalize(tr.jobs, tr.header, rebase=False)
    assert norm.report["jobs_out"] == len(tr.jobs) == 28476
    return norm


def compare(kth, reference: Path, scheduler: str, csv: str, tie_rule: str) -> tuple[float, float]:
    """(share of jobs with pyss's start time, relative mean-wait difference)."""
    ref = pd.read_csv(reference / csv).set_index("job_id")
    res = simulate(
        kth.jobs, kth.machine_size, make_scheduler(scheduler), options=SimOptions(tie_rule=tie_rule),
        record_timeline=False,
    ).jobs.set_index("job_id")  # fmt: skip
    ours = res.loc[ref.index]
    assert (ours.submit.to_numpy() == ref.submit.to_numpy()).all(), "same jobs, same submits"
    same = float(np.mean(ours.start.to_numpy() == ref.start.to_numpy()))
    rel = float((ours.wait.mean() - ref.wait.mean()) / ref.wait.mean())
    return same, rel


@pytest.mark.parametrize("pyss_name", list(CASES))
def test_per_event_order_reproduces_pyss(kth, reference, pyss_name):
    scheduler, csv = CASES[pyss_name]
    same, rel = compare(kth, reference, scheduler, csv, "per_event")
    assert same >= 0.99, f"{scheduler}: only {same:.2%} identical start times"
    assert abs(rel) <= 0.005, f"{scheduler}: mean wait differs by {rel:+.3%}"
