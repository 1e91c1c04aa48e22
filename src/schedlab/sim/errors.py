"""Simulator errors."""

from __future__ import annotations

from ..errors import SchedlabError


class SimulationError(SchedlabError):
    """The simulation cannot proceed: a scheduler over-allocated the machine, started a job that is
    not waiting, a job is wider than the machine, … The message names the job and the time."""
