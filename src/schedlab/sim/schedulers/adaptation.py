"""Job adaptation of Perković & Keleher (2000), §7: moldable alternatives at constant efficiency.

"In all experiments, it is assumed that applications have constant efficiency for all job
alternatives": an alternative on ``p'`` processors of a job with ``p`` processors, runtime ``r`` and
estimate ``e`` runs for ``r·p/p'`` with estimate ``e·p/p'`` (processor-seconds preserved), rounded up to
whole seconds on the engine (:meth:`schedlab.sim.job.SimJob.scaled`; see
:mod:`.perkovic` for the effect of that choice).

Techniques (§7.1):

* ``half`` — every non-sequential job always uses its half-size alternative (Figure 7, left sets);
* ``quarter`` — jobs wider than 4 nodes use the quarter-size alternative, other non-sequential jobs
  the half-size one (Figure 7, right sets);
* ``greedy`` — at every backfilling attempt the scheduler plans each alternative (regular, half,
  double) and chooses the one with the least planned response time (Figure 8);
* start-time *widening* — an extra phase after regular backfilling (and after speculative
  backfilling when both are used) that widens jobs starting now into otherwise idle nodes (Figure 9).

Choices where the paper is silent: sizes are rounded up (``ceil(p/2)``, ``ceil(p/4)``); a double-size
alternative exists only when it fits the machine; widening multiplies the width of a starting job by
the first factor in ``widen_factors`` (default 2: a half-sized job back to its regular width) whose
shape fits the hole from now, and never beyond the machine.
"""

from __future__ import annotations

import math

#: Adaptation modes accepted by the simulator.
MODES: tuple[str, ...] = ("none", "half", "quarter", "greedy")


def fixed_width(procs: int, mode: str) -> int:
    """Width used by the fixed techniques of Figure 7 (``none``/``greedy`` keep the regular width)."""
    if mode in ("none", "greedy") or procs <= 1:
        return procs
    if mode == "half":
        return math.ceil(procs / 2)
    if mode == "quarter":
        return math.ceil(procs / 4) if procs > 4 else math.ceil(procs / 2)
    raise ValueError(f"unknown adaptation mode {mode!r}; expected one of {', '.join(MODES)}")


def greedy_widths(procs: int, machine: int) -> list[int]:
    """Greedy alternatives (Figure 8): regular, half-size (if narrowable), double-size (if it fits)."""
    widths = [procs]
    if procs > 1:
        widths.append(math.ceil(procs / 2))
    if 2 * procs <= machine:
        widths.append(2 * procs)
    return widths


def widened_width(procs: int, machine: int, factor: int) -> int | None:
    """Width after start-time widening by ``factor``, or None if it would exceed the machine."""
    w = procs * factor
    return w if factor > 1 and w <= machine else None
