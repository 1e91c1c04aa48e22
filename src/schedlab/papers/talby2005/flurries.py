"""Talby & Feitelson 2005: the log-version experiment — the flurries the cleaned logs leave out.

The paper's Tables 1-3 are on the *raw* logs (Table 1: SDSC-SP2 has 73,496 jobs, the raw log's
``MaxJobs``; "we re-ran the simulations on 'cleaned' versions of the logs" only for Table 4's last
two rows, §2.3). We run on the archive's cleaned logs (offline); the raw logs need the download
(config ``main_version: raw``). The cleaned logs differ from the raw ones by exactly the jobs their
header names::

    ; Note: THIS IS A CLEANED VERSION OF THE LOG!
    ;       The filters used to produce it were
    ;         user=374 and (job>=14969 and job<=28552) (11740 jobs removed)
    ;         job<=10 (10 jobs removed)

and "the filters were applied to the original log, and unfiltered jobs remain untouched. As a
result, in the filtered logs job numbering is not consecutive" (Parallel Workloads Archive, SDSC-SP2
page). So the number of every removed job is known — the numbers missing inside a filter's range,
assigned to the filters in header order up to each filter's count — but not its attributes.

:func:`reinsert_flurries` is a *model* of the raw log built from the cleaned one: each removed job
gets the submit time interpolated linearly between its neighbouring job numbers (the archive
numbers jobs in submit order) and the processors, requested time and run time of a job drawn
(seeded, :class:`numpy.random.SeedSequence`) from the same user's completed jobs left in the cleaned
log (all of the user's jobs if none completed). The ``job<=N`` filters (jobs "from long before the
actual logging started") are not reinserted: their times are unknown (counted in the report).
It answers one question by experiment: does putting back the removed jobs move our waits towards
Table 2 (attribution table ``attr_log_version``)? It is not the raw log; the raw log's numbers come
from ``main_version: raw`` after the download.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

_USER_FILTER = re.compile(r"user=(\d+) and \(job>=(\d+) and job<=(\d+)\) \((\d+) jobs? removed\)")
_HEAD_FILTER = re.compile(r"job<=(\d+) \((\d+) jobs? removed\)")


@dataclass(frozen=True)
class FlurryFilter:
    """One ``user=U and (job>=LO and job<=HI) (N jobs removed)`` line of a cleaned log's header."""

    user: int
    lo: int
    hi: int
    removed: int


def cleaning_filters(notes: Sequence[str]) -> tuple[list[FlurryFilter], int]:
    """The user filters of a cleaned log's header notes, in header order, and the number of jobs
    removed by ``job<=N`` filters (not reinsertable)."""
    text = "\n".join(notes)
    users = [FlurryFilter(*(int(g) for g in m.groups())) for m in _USER_FILTER.finditer(text)]
    head = sum(int(m.group(2)) for m in _HEAD_FILTER.finditer(_USER_FILTER.sub("", text)))
    return users, head


def reinsert_flurries(trace: pd.DataFrame, notes: Sequence[str], seed: int
                      ) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The cleaned trace table with a modelled job for every job its user filters removed (module
    docstring); returns (table sorted by submit time and job number, report)."""
    filters, head = cleaning_filters(notes)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    ids = trace["job_id"].to_numpy(dtype=np.int64)
    order = np.argsort(ids, kind="stable")
    sid, ssub = ids[order], trace["submit_time"].to_numpy(dtype=np.float64)[order]
    present = set(ids.tolist())
    taken: set[int] = set()
    parts, per_filter = [trace], []
    for f in filters:
        miss = [i for i in range(f.lo, f.hi + 1) if i not in present and i not in taken]
        miss = miss[: f.removed]
        taken.update(miss)
        user = trace[trace["user_id"] == f.user]
        tmpl = user[user["status"] == 1] if (user["status"] == 1).any() else user
        per_filter.append({"user": f.user, "range": [f.lo, f.hi], "removed": f.removed,
                           "reinserted": len(miss), "template_jobs": len(tmpl)})
        if not miss or not len(tmpl):
            continue
        rows = tmpl.iloc[rng.integers(0, len(tmpl), len(miss))].copy()
        rows["job_id"] = miss
        rows["submit_time"] = np.interp(miss, sid, ssub).astype(np.int64)
        rows["wait_time"] = -1
        rows["status"] = 1
        rows["user_id"] = f.user
        parts.append(rows)
    out = pd.concat(parts, ignore_index=True)
    out = out.sort_values(["submit_time", "job_id"], kind="stable").reset_index(drop=True)
    report = {"filters": per_filter, "reinserted": len(taken), "not_reinserted_head": head,
              "seed": seed}
    return out, report
