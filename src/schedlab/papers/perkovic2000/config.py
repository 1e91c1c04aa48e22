"""Perković & Keleher 2000: the settings (the contract's ``settings``):
``config/papers/perkovic2000.yaml`` (validated against its schema when the workflow starts) at the
scale the switches ask for (``scales:``; :mod:`schedlab.papers.settings`), deep-merged with the
overrides ``config["papers"]["perkovic2000"]``."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ...errors import ConfigError
from ...sim.options import SimOptions
from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

PAPER = "perkovic2000"
#: The paper's settings file (relative to the workflow's directory).
CONFIG = f"config/papers/{PAPER}.yaml"


@dataclasses.dataclass(frozen=True, kw_only=True)
class PaperSetting:
    """The base experiment in the paper's own setting (Figures 3-4, Table 3, §8)."""

    machine: int
    max_jobs: int | None = None
    seeds: int = 1  #: replicates of ``seed_algorithms``
    seed_algorithms: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, kw_only=True)
class TestRuns:
    """§6.1 test runs of speculative backfilling."""

    min_estimate_s: float
    length_s: float
    max_length_s: float
    max_test_runs: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class Attribution:
    """The readings of the paper's setup run side by side (``run: false``: none)."""

    run: bool = True
    readings: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Settings(PaperSettings):
    """The resolved settings (each field is documented in the config file)."""

    trace: str
    machine: int
    machine_paper: int
    extra_machines: tuple[int, ...] = ()
    max_jobs: int | None
    paper_setting: PaperSetting | None = None
    seed_entropy: int
    orders: tuple[str, ...]
    experiments: tuple[str, ...]
    starvation_horizon_s: float
    spec_percentages: tuple[float, ...]
    fig9_percentage: float
    fig9_test_runs: bool
    test_runs: TestRuns
    widen_factors: tuple[int, ...]
    #: conservative backfilling's compression (``compress_on``/``compress_passes``; the unset ones
    #: §2's reading, :data:`~schedlab.sim.schedulers.compression.PERKOVIC`)
    compression: Mapping[str, str] = dataclasses.field(default_factory=dict)
    attribution: Attribution = dataclasses.field(default_factory=Attribution)
    flurry: Mapping[str, Any] | None = None
    sweep_seeds: int = 1
    tolerance: Mapping[str, float] = dataclasses.field(default_factory=dict)
    published: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def resolve_settings(raw: Mapping[str, Any], scale: str = "default",
                     overrides: Mapping[str, Any] | None = None, source: str = CONFIG) -> Settings:
    """The paper file ``raw`` at ``scale``, deep-merged with ``overrides``, typed."""
    return Settings.from_dict(resolve(raw, scale, overrides, source) | {"scale": scale})


def settings(config: Mapping[str, Any], env: Env | None = None) -> Settings:
    """The file's settings at the pipeline's scale with the overrides ``config["papers"][PAPER]``;
    the engine options ``sim``: the workflow's (``env.sim``) with the file's ``sim:`` applied."""
    sw = switches(config, PAPER)
    s = resolve_settings(read_yaml(CONFIG, PAPER), sw.scale, sw.overrides)
    base = env.sim if env is not None else SimOptions()
    return dataclasses.replace(s, sim=base.pinned(s.sim, f"{CONFIG} sim").as_dict())


#: What the study log replaces (the contract's ``study_role``).
study_role = ("the CTC log: the first max_jobs jobs of the study log on its registry machine size "
              "(the paper: 430 nodes); the flurry of CTC's attribution reading is left out")


def with_log(s: Settings, log: str, env: Env) -> Settings:
    """The settings with ``log`` as the log, simulated at its registry machine size (the
    contract's ``with_log``); the paper setting (CTC at 430 nodes) and CTC's flurry are left
    out."""
    machine = env.machine_size(log)
    if machine is None:
        raise ConfigError(f"{PAPER} study of {log}: the registry gives no machine_size")
    return dataclasses.replace(s, trace=log, machine=int(machine), extra_machines=(),
                               paper_setting=None, flurry=None)


def readings(s: Settings) -> dict[str, Mapping[str, Any]]:
    """The attribution readings run (none when ``attribution.run`` is false)."""
    return dict(s.attribution.readings) if s.attribution.run else {}
