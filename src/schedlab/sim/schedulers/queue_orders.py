"""Backfilling queue orders of Perković & Keleher (2000), §3–§4 and Table 4.

The six sorting criteria (descending order: the job with the largest value is backfilled first):

=======  =================================================  =====================================
Name     Criterion                                          Paper
=======  =================================================  =====================================
``D``    delay (time since submission): arrival order       "Backfilling", BF
``P``    fixed random priority drawn once at submission      "Priority" ("with 3 priorities only")
``R``    random number re-drawn at every backfilling pass    "Random"
``1/L``  1 / estimated running time: shortest first         "Shortest-First" (Zotkin [11])
``P/L``  P / estimated running time                         "Priority + Shortest-First"
``R/L``  R / estimated running time                         "Random + Shortest-First"
=======  =================================================  =====================================

No-guarantee variants (``-NG``, §4) re-plan the whole queue at every pass and sort by
``criterion + Weight × Delay`` to prevent starvation. Choices where the paper is silent (documented
and configurable):

* ``P`` is drawn uniformly from {1, 2, 3} ("Priority backfilling (with 3 priorities only)", §5);
  ``R`` is uniform on [0, 1).
* ``L`` is the user estimate in seconds and ``Delay`` the current wait in seconds; ``Weight`` is
  given per order by :func:`default_weight`: the weight at which a delay of ``horizon_s`` adds as
  much as the order's criterion for a job of median priority and median estimate. The paper only
  says "a small constant set by the system". Default: no weight term
  (:data:`STARVATION_HORIZON_S` = 0, the paper driver's ``starvation_horizon_s``), chosen by the
  attribution experiment of issue 24 (docs/papers/perkovic2000.md): with weight 0 all six §5 -NG
  reductions are within 15% of the published ones, with a one-day horizon none is.
* Ties are broken by submission order (earlier first), then job index — never by chance.

:func:`starvation_bound` gives the weight bound used by the tests: a job *j* is ordered ahead of every
job submitted more than ``(c_max - c_min) / Weight`` seconds after it, whatever their criteria.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Table 4 order names, in the paper's order.
ORDERS: tuple[str, ...] = ("D", "P", "R", "1/L", "P/L", "R/L")
#: Number of fixed priority levels for ``P`` (§5: "with 3 priorities only").
PRIORITY_LEVELS = 3
#: Default anti-starvation horizon of the -NG orders (§4 ``Weight``): 0 = no weight term (see the
#: module docstring; the same default as ``starvation_horizon_s`` in config/papers/perkovic2000.yaml).
STARVATION_HORIZON_S = 0.0


def check_order(order: str) -> str:
    """Return ``order`` if it is one of :data:`ORDERS`, else raise ``ValueError``."""
    if order not in ORDERS:
        raise ValueError(f"unknown queue order {order!r}; expected one of {', '.join(ORDERS)}")
    return order


def slug(order: str, guarantees: bool = True) -> str:
    """A file-name-safe algorithm name: ``R/L`` -> ``R_L``, no-guarantee -> ``R_L-NG``."""
    base = check_order(order).replace("/", "_")
    return base if guarantees else f"{base}-NG"


def label(order: str, guarantees: bool = True) -> str:
    """The paper's algorithm name (Table 4): ``BF`` for ``D`` with guarantees, ``-NG`` suffix."""
    base = "BF" if order == "D" else check_order(order)
    return base if guarantees else f"{base}-NG"


def draw_priorities(rng: np.random.Generator, n: int) -> np.ndarray:
    """Fixed priorities for ``P`` orders: uniform on {1, .., PRIORITY_LEVELS}."""
    return rng.integers(1, PRIORITY_LEVELS + 1, size=n).astype(np.float64)


def criterion(
    order: str, estimate: np.ndarray, priority: np.ndarray, random: np.ndarray, delay: np.ndarray
) -> np.ndarray:
    """The Table 4 sorting criterion (larger = earlier) for arrays of queued jobs.

    ``priority`` is the fixed ``P`` value, ``random`` the ``R`` value of this pass, ``delay`` the
    current wait (used by ``D`` only).
    """
    if order == "D":
        return np.asarray(delay, dtype=np.float64)
    if order == "P":
        return np.asarray(priority, dtype=np.float64)
    if order == "R":
        return np.asarray(random, dtype=np.float64)
    est = np.maximum(np.asarray(estimate, dtype=np.float64), 1.0)
    if order == "1/L":
        return 1.0 / est
    if order == "P/L":
        return priority / est
    if order == "R/L":
        return random / est
    raise ValueError(f"unknown queue order {order!r}")


def sort_queue(
    order: str,
    submit: np.ndarray,
    estimate: np.ndarray,
    priority: np.ndarray,
    random: np.ndarray,
    now: float,
    weight: float = 0.0,
) -> np.ndarray:
    """Positions of the queued jobs in backfilling order (criterion + weight × delay, descending).

    Ties: earlier submission first, then position in the input (stable).
    """
    delay = now - np.asarray(submit, dtype=np.float64)
    key = criterion(order, estimate, priority, random, delay)
    if weight and order != "D":
        key = key + weight * delay
    # lexsort: last key is primary. Descending key, ascending submit, ascending position.
    return np.lexsort((np.arange(len(key)), submit, -key))


def default_weight(order: str, median_estimate: float, horizon_s: float = 86400.0) -> float:
    """Anti-starvation weight (§4): a delay of ``horizon_s`` adds the median criterion value.

    Median criterion: P = 2 (middle of {1, 2, 3}), R = 0.5, L = ``median_estimate``.
    ``D`` needs none (its criterion is the delay itself).
    """
    check_order(order)
    if horizon_s <= 0:
        raise ValueError(f"starvation horizon must be > 0, got {horizon_s}")
    typical = {"D": 0.0, "P": 2.0, "R": 0.5, "1/L": 1.0, "P/L": 2.0, "R/L": 0.5}[order]
    if order in ("1/L", "P/L", "R/L"):
        typical /= max(float(median_estimate), 1.0)
    return typical / horizon_s


def anti_starvation_weight(order: str, guarantees: bool, median_estimate: float,
                           horizon_s: float = STARVATION_HORIZON_S) -> float:
    """The §4 ``Weight`` of an algorithm: 0 with guarantees or a horizon of 0 (no weight term),
    else :func:`default_weight`."""
    check_order(order)
    if guarantees or horizon_s == 0:
        return 0.0
    return default_weight(order, median_estimate, horizon_s)


def criterion_range(order: str, min_estimate: float, max_estimate: float) -> float:
    """Upper bound of ``c_max - c_min`` over jobs with estimates in [min, max] (for the bound)."""
    lo, hi = max(float(min_estimate), 1.0), max(float(max_estimate), 1.0)
    return {
        "D": 0.0,
        "P": float(PRIORITY_LEVELS - 1),
        "R": 1.0,
        "1/L": 1.0 / lo - 1.0 / hi,
        "P/L": PRIORITY_LEVELS / lo - 1.0 / hi,
        "R/L": 1.0 / lo,
    }[check_order(order)]


def starvation_bound(crange: float, weight: float) -> float:
    """Seconds after which later-submitted jobs can no longer overtake a job: ``crange / weight``."""
    if weight <= 0:
        return float("inf")
    return crange / weight


@dataclass(frozen=True)
class QueueOrder:
    """One Table 4 algorithm: sorting criterion, guarantees or -NG, anti-starvation weight."""

    order: str = "D"
    guarantees: bool = True
    weight: float = 0.0

    def __post_init__(self) -> None:
        check_order(self.order)
        if self.weight < 0:
            raise ValueError(f"weight must be >= 0, got {self.weight}")

    @property
    def name(self) -> str:
        return label(self.order, self.guarantees)

    @property
    def redraw_each_pass(self) -> bool:
        """``R`` orders draw a new random number for every job at every pass (§3)."""
        return self.order in ("R", "R/L")
