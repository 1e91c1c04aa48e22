"""Trace-driven simulator of a space-shared parallel machine (docs/design.md §4).

Public API::

    from schedlab.sim import SimJob, Alternative, simulate, Scheduler, Start, Profile
    from schedlab.sim.schedulers import make_scheduler   # "fcfs" | "easy" | "conservative" | "maui"

    result = simulate(jobs, machine_size, make_scheduler("easy"))
    result.jobs        # per-job DataFrame (docs/design.md §3)
    result.timeline    # per-event-time machine/queue state

Modules: :mod:`.job` (SimJob, Alternative), :mod:`.scheduler` (Scheduler base, Start, *how to write a
scheduler*), :mod:`.state` (Run, MachineView, Snapshot), :mod:`.profile` (availability profile),
:mod:`.engine` (simulate, simulate_from, tie rule, allocation), :mod:`.metrics`,
:mod:`.schedulers` (FCFS, EASY, conservative, Maui).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import lazy_getattr
from .options import ALLOCATIONS, TIE_RULES

if TYPE_CHECKING:
    from .engine import JOB_COLUMNS, TIMELINE_COLUMNS, SimResult, simulate, simulate_from
    from .errors import SimulationError
    from .job import Alternative, SimJob
    from .profile import Profile
    from .scheduler import Scheduler, Start
    from .state import MachineView, Run, Snapshot

#: public name -> submodule; imported on first use (``import schedlab.sim`` stays light for the CLI)
_LAZY = {
    "JOB_COLUMNS": "engine", "TIMELINE_COLUMNS": "engine", "SimResult": "engine",
    "simulate": "engine", "simulate_from": "engine", "SimulationError": "errors",
    "Alternative": "job", "SimJob": "job", "Profile": "profile", "Scheduler": "scheduler",
    "Start": "scheduler", "MachineView": "state", "Run": "state", "Snapshot": "state",
}  # fmt: skip


__getattr__ = lazy_getattr(__name__, _LAZY)


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
