"""Speculative backfilling and speculative test runs of Perković & Keleher (2000), §6 and §6.1.

Speculative backfilling is a phase after the regular backfilling pass. It visits the jobs still
queued *in the same order* and starts a job now if a hole at least as long as its speculated running
time is free for its width:

* the first speculated time is ``percentage × estimate`` (the "speculation percentage", Figures 5–6);
* "the speculated time increases to fit the length of the hole" (capped at the estimate);
* a job that runs past its speculated time is killed and returned to the queue; its next speculated
  time is "the average of its last speculated time and its estimated time" (:func:`next_speculation`);
* with guarantees, the queued copy keeps its guaranteed slot and is not compressed while the
  speculative copy runs ("the backfilling of a job copy that keeps its guaranteed time is suspended").

Test runs (§6.1): a job estimated longer than ``min_estimate_s`` (3 h) that cannot be speculatively
started runs for ``length_s`` (5 min) — longer if the hole allows, but "not more than" ``max_length_s``
(15 min) — and is killed if it does not finish. Choices where the paper is silent: each job gets at
most ``max_test_runs`` (1) test runs; a failed test run does not change the job's speculated time;
"the hole" is the time from now until the free processors (given running jobs and, with guarantees,
every reservation) drop below the job's width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import SimulationError
from ..profile import Profile


@dataclass(frozen=True)
class Speculation:
    """Speculative backfilling settings (§6); ``percentage`` in (0, 1]."""

    percentage: float = 0.5
    test_runs: bool = False
    min_estimate_s: float = 3 * 3600.0
    length_s: float = 300.0
    max_length_s: float = 900.0
    max_test_runs: int = 1

    def __post_init__(self) -> None:
        if not 0.0 < self.percentage <= 1.0:
            raise ValueError(f"speculation percentage must be in (0, 1], got {self.percentage}")
        if not 0.0 < self.length_s <= self.max_length_s:
            raise ValueError("test run length must satisfy 0 < length_s <= max_length_s")


def initial_speculation(estimate: float, percentage: float) -> float:
    """First speculated running time: ``percentage × estimate``."""
    return percentage * estimate


def next_speculation(last_speculated: float, estimate: float) -> float:
    """After a killed speculation: the mean of the last speculated time and the estimate (§6)."""
    return 0.5 * (last_speculated + estimate)


def speculated_time(base: float, hole: float, estimate: float) -> float | None:
    """Speculated time grown to fill ``hole`` (capped at the estimate); None if the hole is too short."""
    if hole < base:
        return None
    return min(hole, estimate)


def test_run_length(
    spec: Speculation, estimate: float, hole: float, runs_so_far: int
) -> float | None:
    """Length of a test run for a job that could not be speculated, or None when none is allowed."""
    if not spec.test_runs or runs_so_far >= spec.max_test_runs or estimate <= spec.min_estimate_s:
        return None
    if hole < spec.length_s:
        return None
    return min(hole, spec.max_length_s)


def hole(prof: Profile, procs: int) -> float:
    """How long from the profile's origin at least ``procs`` processors stay free (0 if not now)."""
    free = prof.free
    if free[0] < procs:
        return 0
    n = len(free)
    k = 1
    while k < n and free[k] >= procs:
        k += 1
    return math.inf if k == n else prof.t[k] - prof.t[0]


def hole_released(prof: Profile, procs: int, start: int, end: int, give: int) -> float:
    """:func:`hole` of ``procs`` as it would be once ``give`` processors are given back during
    ``[start, end)`` (a slot held in ``prof``), without changing ``prof``: the first time from
    the origin at which fewer than ``procs`` are free, counting ``give`` more within the slot."""
    t, free = prof.t, prof.free
    t0 = t[0]
    n = len(t)
    for k in range(n):
        a, f = t[k], free[k]
        b = t[k + 1] if k + 1 < n else math.inf
        if f < procs and a < start:  # the part before the slot
            return a - t0
        if f + give < procs and a < end and b > start:  # the part within it
            return max(a, start) - t0
        if f < procs and b > end:  # the part after it
            return max(a, end) - t0
    return math.inf


def whole_seconds(seconds: float) -> int:
    """An allotment in whole seconds (:mod:`.perkovic`'s docstring: they always are)."""
    s = int(seconds)
    if s != seconds:
        raise SimulationError(f"Perković allotment of {seconds} s is not a whole number of seconds")
    return s
