"""Engine setting names, importable without numpy/pandas (the CLI builds its help from them)."""

from __future__ import annotations

#: Event orders (see :mod:`schedlab.sim.engine`).
TIE_RULES: tuple[str, ...] = ("completions_first", "arrivals_first", "per_event")
#: Processor allocation models.
ALLOCATIONS: tuple[str, ...] = ("any", "contiguous")
