"""The configuration of one Perković & Keleher 2000 algorithm mix (Figure 2), for
:class:`~schedlab.sim.schedulers.perkovic.Perkovic`: queue order, guarantees, speculation (§6),
adaptation (§7), widening and conservative backfilling's compression (§2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import adaptation as adapt
from . import speculative as specmod
from .compression import PERKOVIC, check_compression
from .queue_orders import QueueOrder


@dataclass(frozen=True)
class PKConfig:
    """One algorithm mix of Figure 2: order, guarantees, speculation, adaptation, widening."""

    order: QueueOrder = field(default_factory=QueueOrder)
    speculation: specmod.Speculation | None = None
    adaptation: str = "none"
    widening: bool = False
    widen_factors: tuple[int, ...] = (2,)
    #: compression with guarantees (:mod:`.compression`): §2's reading, early ends and one pass
    compress_on: str = PERKOVIC[0]
    compress_passes: str = PERKOVIC[1]

    def __post_init__(self) -> None:
        check_compression(self.compress_on, self.compress_passes, "perkovic")
        if self.adaptation not in adapt.MODES:
            raise ValueError(
                f"unknown adaptation {self.adaptation!r}; expected one of {', '.join(adapt.MODES)}"
            )
        if any(int(f) < 2 for f in self.widen_factors):
            raise ValueError("widen factors must be integers >= 2")
