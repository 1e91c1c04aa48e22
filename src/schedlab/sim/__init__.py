"""Trace-driven simulator of a space-shared parallel machine (docs/design.md §4).

Public API::

    from schedlab.sim import SimJob, simulate, SimOptions
    from schedlab.sim.schedulers import SCHEDULERS, make_scheduler   # every policy, by name

    result = simulate(jobs, machine_size, make_scheduler("easy"))
    result.jobs        # per-job DataFrame (docs/design.md §3)
    result.timeline    # per-event-time machine/queue state

Modules: :mod:`.job` (SimJob, Alternative), :mod:`.scheduler` (Scheduler base, Start, *how to write a
scheduler*), :mod:`.state` (what a scheduler sees: Run, MachineView, Snapshot), :mod:`.options`
(SimOptions: the engine's settings, the tie rule), :mod:`.engine` (Engine: the event loops and
the order of same-time events; simulate), :mod:`.engine_state` (a run's state and event
handlers), :mod:`.fork` (simulate_from, starts_from, Simulation), :mod:`.result` (SimResult),
:mod:`.machine` (processor allocation), :mod:`.profile` and :mod:`.cbf_kernel` (the availability
profile), :mod:`.metrics`, :mod:`.schedulers` (every policy, one registry:
:data:`~schedlab.sim.schedulers.SCHEDULERS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import lazy_getattr
from .options import ALLOCATIONS, TIE_RULES, SimOptions

if TYPE_CHECKING:
    from .engine import simulate
    from .errors import SimulationError
    from .fork import Simulation, simulate_from, starts_from
    from .job import Alternative, SimJob
    from .profile import Profile
    from .result import JOB_COLUMNS, TIMELINE_COLUMNS, SimResult
    from .scheduler import Scheduler, Start
    from .state import MachineView, Run, Snapshot

#: public name -> submodule; imported on first use (``import schedlab.sim`` stays light for the CLI)
_LAZY = {
    "JOB_COLUMNS": "result", "TIMELINE_COLUMNS": "result", "SimResult": "result",
    "simulate": "engine", "simulate_from": "fork", "starts_from": "fork", "Simulation": "fork",
    "SimulationError": "errors",
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
    "SimOptions",
    "SimResult",
    "Simulation",
    "SimulationError",
    "Snapshot",
    "Start",
    "simulate",
    "simulate_from",
    "starts_from",
]
