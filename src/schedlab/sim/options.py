"""Engine setting names, importable without numpy/pandas (the CLI builds its help from them)."""

from __future__ import annotations

import os
from typing import Literal

#: Event orders (see :mod:`schedlab.sim.engine`).
TIE_RULES: tuple[str, ...] = ("completions_first", "arrivals_first", "per_event")
TieRule = Literal["completions_first", "arrivals_first", "per_event"]
#: Bounded-slowdown threshold (s), the one for every policy and metric: Perković §2, Tang §4.2,
#: Talby §3, Feitelson's usual 10 s: ``max(1, response / max(runtime, BSLD_BOUND))``.
BSLD_BOUND = 10
#: Processor allocation models.
ALLOCATIONS: tuple[str, ...] = ("any", "contiguous")
Allocation = Literal["any", "contiguous"]

#: The engine's default event order (decision and evidence: :mod:`schedlab.sim.engine`).
DEFAULT_TIE_RULE = "per_event"
#: Environment variable overriding :data:`DEFAULT_TIE_RULE` for every simulation of a process
#: (the workflow sets it from config ``sim: {tie_rule: ...}``, so papers' engine runs follow it).
TIE_RULE_ENV = "SCHEDLAB_TIE_RULE"


def default_tie_rule() -> str:
    """The event order used when a caller names none: ``$SCHEDLAB_TIE_RULE`` or the default."""
    rule = os.environ.get(TIE_RULE_ENV) or DEFAULT_TIE_RULE
    if rule not in TIE_RULES:
        from .errors import SimulationError

        raise SimulationError(
            f"environment {TIE_RULE_ENV}={rule!r}: unknown tie rule; choose one of {TIE_RULES}"
        )
    return rule
