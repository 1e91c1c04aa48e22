"""Tang et al. 2013: the settings of a run — the two workloads (§4.1), the sweep points
(§4.3-4.4), the three §4.2 metrics, and the contract's ``settings(config, env)``:
``config/papers/tang2013.yaml`` at the scale the switches ask for (``scales:``,
:mod:`schedlab.papers.settings`), deep-merged with the overrides ``config["papers"]["tang2013"]``,
typed (:class:`Settings`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import ConfigError
from ...report.scorecard import tolerance_for
from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

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


@dataclass(frozen=True, kw_only=True)
class Settings(PaperSettings):
    """The resolved settings (each option is documented in the config file), with the logs run
    (``log_specs``: BG/P if the Intrepid log is local, else the labelled substitute) and the sweep
    points."""

    paper: str = PAPER
    job_selection: str = "records"
    logs: Mapping[str, Mapping[str, Any]]  #: config ``logs`` (SP2, BGP with its substitute)
    balance_factors: tuple[float, ...]
    windows: tuple[int, ...]
    adaptive: tuple[str, ...]
    search_windows: Mapping[str, int | None]
    tuning: Mapping[str, Any]
    fair_start: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: the fair-start readings of the job-selection attribution (``every`` | ``one_change``:
    #: :func:`.attribution.fair_readings`)
    fair_readings: str = "every"
    loc_strict: bool = False
    timing_jobs: int
    #: the base-schedule attribution readings run, by cost (``default``; the paper scale adds ``full``)
    base_reading_costs: tuple[str, ...] = ("default",)
    gain_reading: str = "score_points"
    tolerance: Mapping[str, float] = dataclasses.field(default_factory=dict)
    weightings: Mapping[str, Any]
    plot_hours: float
    published: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    configurations: Mapping[str, str]
    log_specs: tuple[LogSpec, ...] = ()
    sweep_points: tuple[str, ...] = ()
    #: the job-selection attribution runs (points ``SP2/attribution_<selection>``): they weigh
    #: readings against SP2's published Table 3, so a study (``with_log``) leaves them out
    selection_attribution: bool = True


def log_specs(s: Settings, bgp_available: bool) -> list[LogSpec]:
    """The logs to run: SP2, and BGP (Intrepid if available, else the labelled substitute)."""
    out = []
    for key in ("SP2", "BGP"):
        c = s.logs[key]
        sub = key == "BGP" and not bgp_available
        src = {**c, **c["substitute"]} if sub else c
        label = SUBSTITUTE if sub else key
        sw = s.search_windows[c["backfill"]]
        out.append(LogSpec(label, src["trace"], int(src["jobs"]), int(src["machine_size"]),
                           int(src["proc_unit"]), c["backfill"], c["allocation"], c["table"],
                           dict(c["figures"]), sub, None if sw is None else int(sw)))
    return out


def tolerance_of(s: Settings, item: str) -> float:
    """The scorecard tolerance of ``item`` (config ``tolerance:``; default 15%)."""
    return tolerance_for(s.tolerance, item)


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


def sweep_points(s: Settings) -> list[str]:
    """Static points (``balance_factors`` x ``windows`` of the scale) then the adaptive schemes;
    always includes the tables' points."""
    pts = [point_name(bf, w) for bf in s.balance_factors for w in s.windows]
    for p in s.configurations.values():
        if p not in pts and p not in ADAPTIVE:
            pts.append(p)
    return pts + list(s.adaptive)


# The three metrics of §4.2 (Tables 2-3 columns): average wait, unfair jobs, loss of capacity.
METRICS = ("avg_wait_min", "unfair_jobs", "loc_pct")


def resolve_settings(raw: Mapping[str, Any], scale: str = "default",
                     overrides: Mapping[str, Any] | None = None, bgp_available: bool = False,
                     source: str = CONFIG) -> Settings:
    """The paper file ``raw`` at ``scale`` with ``overrides`` deep-merged, typed, with its logs
    and sweep points."""
    s = Settings.from_dict(resolve(raw, scale, overrides, source) | {"scale": scale})
    return dataclasses.replace(s, log_specs=tuple(log_specs(s, bgp_available)),
                               sweep_points=tuple(sweep_points(s)))


def settings(config: Mapping[str, Any], env: Env) -> Settings:
    """The contract's settings: :data:`CONFIG` at the pipeline's scale with the overrides
    ``config["papers"]["tang2013"]`` (checked against the paper's schema when the workflow is
    parsed, :mod:`schedlab.pipeline.config`); BG/P runs if the Intrepid log is local; the engine
    options ``sim``: the workflow's (``env.sim``) with the file's ``sim:`` applied (it pins
    Algorithm 1's order)."""
    sw = switches(config, PAPER)
    raw = read_yaml(CONFIG, PAPER)
    bgp = resolve(raw, sw.scale, sw.overrides, CONFIG)["logs"]["BGP"]["trace"]
    s = resolve_settings(raw, sw.scale, sw.overrides, env.trace_local(bgp))
    return dataclasses.replace(s, sim=env.sim.pinned(s.sim, f"{CONFIG} sim").as_dict())


#: What the study log replaces (the contract's ``study_role``).
study_role = ("SDSC-SP2 (label SP2, Table 3's setup: EASY, any-node allocation): the first jobs of "
              "the study log on its registry machine size, the BF tuning threshold derived from "
              "its base run (auto); the BG/P log is left out")


def with_log(s: Settings, log: str, env: Env) -> Settings:
    """The settings with ``log`` in SP2's role (the contract's ``with_log``): the same job count,
    the registry's machine size, the queue-depth threshold ``auto``; BG/P's role is dropped, and
    so are the job-selection attribution runs (``selection_attribution``: readings weighed
    against SP2's published Table 3; on HPC2N they cost 6 CPU-minutes)."""
    sp2 = next(spec for spec in s.log_specs if spec.label == "SP2")
    machine = env.machine_size(log)
    if machine is None:
        raise ConfigError(f"{PAPER} study of {log}: the registry gives no machine_size")
    spec = dataclasses.replace(sp2, trace=log, machine_size=int(machine), proc_unit=1)
    tuning = {**s.tuning, "qd_threshold_min": {"SP2": "auto"}}
    return dataclasses.replace(s, log_specs=(spec,), tuning=tuning, selection_attribution=False)


def log_of(s: Settings, label: str) -> LogSpec:
    """The log labelled ``label`` in settings ``s``."""
    for spec in s.log_specs:
        if spec.label == label:
            return spec
    raise ConfigError(f"tang2013: no log {label!r} in the settings")
