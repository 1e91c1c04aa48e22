"""Tang et al. 2013: the settings of a run — the two workloads (§4.1), the sweep points
(§4.3-4.4), the three §4.2 metrics, and the paper's contract ``settings(config, env)``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from ...errors import ConfigError
from ...report.scorecard import tolerance_for
from .. import Env, switches

PAPER = "tang2013"
SUBSTITUTE = "BGP-substitute"
ADAPTIVE = ("adapt-bf", "adapt-w", "adapt-2d")
BASE = "bf1_w1"
_POINT = re.compile(r"^bf(?P<bf>[0-9.]+)_w(?P<w>[0-9]+)$")
#: The paper's config file (relative to the workflow directory).
CONFIG = "config/papers/tang2013.yaml"
#: The points whose 30-min monitors Figs. 5-10 draw (table ``monitors``; those run).
MONITORED = ("bf1_w1", "bf0.75_w1", "bf0.5_w1", "adapt-bf", "adapt-w", "adapt-2d")


@dataclass(frozen=True)
class LogSpec:
    """One workload of the study as it is run here."""

    label: str  # SP2, BGP or BGP-substitute
    trace: str
    jobs: int
    machine_size: int
    proc_unit: int
    backfill: str
    allocation: str
    table: str  # the paper's table for this machine
    figures: dict[str, str]
    substitute: bool
    search_windows: int | None

    def describe(self) -> str:
        s = f"{self.label}: {self.trace}, first {self.jobs} jobs, {self.machine_size} nodes, " \
            f"{self.backfill} backfilling, {self.allocation} allocation"
        return s + (" (SUBSTITUTE for ANL Intrepid BG/P, not available offline)"
                    if self.substitute else "")


def log_specs(cfg: dict[str, Any], bgp_available: bool, quick: bool = False,
              full: bool = False) -> list[LogSpec]:
    """The logs to run: SP2, and BGP (Intrepid if available, else the labelled substitute)."""
    out = []
    for key in ("SP2", "BGP"):
        c = cfg["logs"][key]
        sub = key == "BGP" and not bgp_available
        src = {**c, **c["substitute"]} if sub else c
        label = SUBSTITUTE if sub else key
        jobs = int(src["jobs"])
        sw = cfg["search_windows"][c["backfill"]]
        if quick:
            jobs = int(cfg["quick_settings"]["jobs"][label])
        elif full:
            jobs = int(cfg["full_settings"]["jobs"][label])
            sw = cfg["full_settings"]["search_windows"][c["backfill"]]
        out.append(LogSpec(label, src["trace"], jobs, int(src["machine_size"]),
                           int(src["proc_unit"]), c["backfill"], c["allocation"], c["table"],
                           dict(c["figures"]), sub, None if sw is None else int(sw)))
    return out


def tolerance_of(cfg: dict[str, Any], item: str) -> float:
    """The scorecard tolerance of ``item`` (config ``tolerance:``; default 15%)."""
    return tolerance_for(cfg.get("tolerance"), item)


def point_name(bf: float, w: int) -> str:
    return f"bf{bf:g}_w{int(w)}"


def parse_point(name: str) -> tuple[float | None, int | None]:
    """``bf0.5_w4`` -> (0.5, 4); adaptive points -> (None, None)."""
    if name in ADAPTIVE:
        return None, None
    m = _POINT.match(name)
    if not m:
        raise ConfigError(f"tang2013: unknown sweep point {name!r}")
    return float(m["bf"]), int(m["w"])


def sweep_points(cfg: dict[str, Any], quick: bool = False, full: bool = False) -> list[str]:
    """Static points (BF x W) then the adaptive schemes; always includes the tables' points.

    ``full``: the paper's whole §4.3 sweep (``balance_factors`` x ``windows``); default: the
    smaller grid of ``default_settings`` (if any); ``quick``: ``quick_settings``."""
    src = cfg["quick_settings"] if quick else cfg if full else {**cfg, **cfg.get("default_settings", {})}
    pts = [point_name(bf, w) for bf in src["balance_factors"] for w in src["windows"]]
    for p in cfg["configurations"].values():
        if p not in pts and p not in ADAPTIVE:
            pts.append(p)
    return pts + [a for a in cfg["adaptive"]]


# The three metrics of §4.2 (Tables 2-3 columns): average wait, unfair jobs, loss of capacity.
METRICS = ("avg_wait_min", "unfair_jobs", "loc_pct")


def settings(config: Mapping[str, Any], env: Env) -> dict[str, Any]:
    """The contract's settings: :data:`CONFIG` with the overrides ``config["papers"]["tang2013"]``
    (top-level keys replaced; both checked against the paper's schema when the workflow is parsed,
    :mod:`schedlab.pipeline.config`), the switches ``quick`` (the pipeline's or the override's)
    and ``full``, the logs run (BG/P if the Intrepid log is local, else the labelled substitute)
    and the sweep points; the engine options ``cfg["sim"]``: the workflow's with the file's
    ``sim:`` applied (it pins Algorithm 1's order). JSON-able."""
    sw = switches(config, PAPER)
    cfg = sw.applied(yaml.safe_load(Path(CONFIG).read_text()))
    cfg["sim"] = env.sim.pinned(cfg.get("sim"), f"{CONFIG} sim").as_dict()
    quick, full = sw.quick, sw.full
    specs = log_specs(cfg, env.trace_local(cfg["logs"]["BGP"]["trace"]), quick, full)
    return {"cfg": cfg, "quick": quick, "full": full, "logs": [asdict(s) for s in specs],
            "sweep_points": sweep_points(cfg, quick, full)}


def logs(s: Mapping[str, Any]) -> list[LogSpec]:
    """The logs of settings ``s``, in run order (SP2, then BG/P or its substitute)."""
    return [LogSpec(**d) for d in s["logs"]]


def log_of(s: Mapping[str, Any], label: str) -> LogSpec:
    """The log labelled ``label`` in settings ``s``."""
    for spec in logs(s):
        if spec.label == label:
            return spec
    raise ConfigError(f"tang2013: no log {label!r} in the settings")
