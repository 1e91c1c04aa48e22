"""Every policy of the engine, one registry: FCFS, EASY, conservative and Maui backfilling, and each
paper's policies (Flex, PBAS/WBAS, metric-aware, SA, the Perković family), all subclasses of
:class:`schedlab.sim.scheduler.Scheduler` run by :mod:`schedlab.sim.engine`.

:func:`make_scheduler` builds one by name (the CLI's ``--scheduler``), with keyword parameters.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..errors import SimulationError
from ..scheduler import Scheduler

#: name -> "module:Class" (lazy import keeps the CLI start-up fast).
SCHEDULERS: dict[str, str] = {
    "fcfs": "schedlab.sim.schedulers.fcfs:FCFS",
    "easy": "schedlab.sim.schedulers.easy:EASY",
    "conservative": "schedlab.sim.schedulers.conservative:Conservative",
    "maui": "schedlab.sim.schedulers.maui:Maui",
    "flex": "schedlab.sim.schedulers.flex:Flex",  # Talby & Feitelson 1999/2005 slack-based
    "metric_aware": "schedlab.sim.schedulers.metric_aware:MetricAware",  # Tang et al. 2013 §3.3
    "sa": "schedlab.sim.schedulers.sa:SA",  # Cirne 2001: conservative + SAcb request choice
    # Talby & Feitelson 2005 adaptive backfilling: performance-based (§3) / workload-based (§4.2)
    "pbas": "schedlab.sim.schedulers.switching:PBAS",
    "wbas": "schedlab.sim.schedulers.switching:WBAS",
    # Perković & Keleher 2000: every option (order, guarantees, speculation, adaptation, widening)
    "perkovic": "schedlab.sim.schedulers.perkovic:perkovic",
}
# Perković & Keleher 2000 Table 4 queue orders on conservative backfilling, with guarantees and -NG.
_PK_ORDERS = {"d": "D", "p": "P", "r": "R", "1l": "1_L", "pl": "P_L", "rl": "R_L"}
for _cli, _order in _PK_ORDERS.items():
    SCHEDULERS[f"pk-{_cli}"] = f"schedlab.sim.schedulers.perkovic:pk_{_order}"
    SCHEDULERS[f"pk-{_cli}-ng"] = f"schedlab.sim.schedulers.perkovic:pk_{_order}_NG"
# Tang et al. 2013 Tables 2-3's configurations (metric_aware-bf0.5_w4, metric_aware-adapt-2d, ...).
for _point in ("bf1_w4", "bf0.5_w1", "bf0.5_w4", "adapt-bf", "adapt-w", "adapt-2d"):
    _name = "ma_" + _point.replace(".", "").replace("-", "_")
    SCHEDULERS[f"metric_aware-{_point}"] = f"schedlab.sim.schedulers.metric_aware:{_name}"


def make_scheduler(name: str, **params: Any) -> Scheduler:
    """A fresh scheduler instance by name, with keyword parameters (e.g. Maui's weights)."""
    try:
        target = SCHEDULERS[name]
    except KeyError:
        raise SimulationError(
            f"unknown scheduler {name!r}; choose one of {', '.join(SCHEDULERS)}"
        ) from None
    module, cls = target.split(":")
    return getattr(import_module(module), cls)(**params)
