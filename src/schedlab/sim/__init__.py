"""Trace-driven simulator of a space-shared parallel machine (DESIGN §4).

Public API::

    from schedlab.sim import SimJob, Alternative, simulate, Scheduler, Start, Profile
    from schedlab.sim.schedulers import make_scheduler   # "fcfs" | "easy" | "conservative" | "maui"

    result = simulate(jobs, machine_size, make_scheduler("easy"))
    result.jobs        # per-job DataFrame (DESIGN §3)
    result.timeline    # per-event-time machine/queue state

Modules: :mod:`.job` (SimJob, Alternative), :mod:`.scheduler` (Scheduler base, Start, *how to write a
scheduler*), :mod:`.state` (Run, MachineView, Snapshot), :mod:`.profile` (availability profile),
:mod:`.engine` (simulate, simulate_from, tie rule, allocation), :mod:`.metrics`,
:mod:`.schedulers` (FCFS, EASY, conservative, Maui).
"""

from __future__ import annotations

from .engine import (
    ALLOCATIONS,
    JOB_COLUMNS,
    TIE_RULES,
    TIMELINE_COLUMNS,
    SimResult,
    simulate,
    simulate_from,
)
from .errors import SimulationError
from .job import Alternative, SimJob
from .profile import Profile
from .scheduler import Scheduler, Start
from .state import MachineView, Run, Snapshot

__all__ = [
    "ALLOCATIONS",
    "JOB_COLUMNS",
    "TIE_RULES",
    "TIMELINE_COLUMNS",
    "Alternative",
    "MachineView",
    "Profile",
    "Run",
    "Scheduler",
    "SimJob",
    "SimResult",
    "SimulationError",
    "Snapshot",
    "Start",
    "simulate",
    "simulate_from",
]
