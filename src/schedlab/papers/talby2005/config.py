"""Talby & Feitelson 2005: the settings (the contract's ``settings``):
``config/papers/talby2005.yaml`` (checked against its schema when the workflow starts) at the scale
the switches ask for (``scales:``: the logs run, the adaptive logs, the PBAS/WBAS grids, the
attribution subset; :mod:`schedlab.papers.settings`), deep-merged with the overrides
``config["papers"]["talby2005"]``; per log whether its raw version is local (Table 4's raw rows run
only then), each log's machine size from the registry and the engine options."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

PAPER = "talby2005"
#: The paper's settings file (read from the workflow's directory).
CONFIG = f"config/papers/{PAPER}.yaml"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Settings(PaperSettings):
    """The resolved settings (each option is documented in the config file)."""

    paper: str = PAPER
    logs: Mapping[str, Mapping[str, str]]  #: log -> {clean: registry name, raw: registry name}
    main_version: str
    schedulers: tuple[str, ...]
    scheduler_options: Mapping[str, Mapping[str, Any]]
    cancelled: str
    attribution: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    min_month_jobs: int = 1
    pbas: Mapping[str, Any]
    wbas: Mapping[str, Any]
    run_logs: tuple[str, ...] | None = None  #: the logs simulated (null: every log)
    adaptive_logs: tuple[str, ...] | None = None  #: the logs of PBAS/WBAS (null: every log run)
    blue_cost_note: str = ""
    #: a study log's first months simulated (the contract's ``with_log``; null: the whole log)
    study_months: int | None = None
    #: the months a log's points simulate from its first submit (null: the whole log; set by
    #: ``with_log`` from ``study_months``, never on the paper's own logs)
    max_months: int | None = None
    tolerance: Mapping[str, float] = dataclasses.field(default_factory=dict)
    published: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: per log, whether its raw version is local (from the pipeline)
    raw_local: Mapping[str, bool] = dataclasses.field(default_factory=dict)
    #: each registry log's machine size (None: the SWF header's; from the pipeline)
    machine_sizes: Mapping[str, int | None] = dataclasses.field(default_factory=dict)


#: What the study log replaces (the contract's ``study_role``).
study_role = ("the paper's three logs: the four schedulers (and PBAS/WBAS where the study scale "
              "runs them) on the study log's cleaned version")


def with_log(s: Settings, log: str, env: Env) -> Settings:
    """The settings with ``log`` as the only log, in its registry version (``clean``; no raw
    version), its machine size from the registry (the contract's ``with_log``); PBAS/WBAS run on
    it only when the scale's ``adaptive_logs`` is null (every log). The attribution experiment
    is left out: its readings are weighed against Table 2 on the paper's own logs. Only the log's
    first ``study_months`` months are simulated (a whole large log costs CPU-minutes a point)."""
    attribution = {**s.attribution, "run_readings": [], "cancelled_readings": [],
                   "slack_factors": [], "variants": {}}
    return dataclasses.replace(
        s, logs={log: {"clean": log, "raw": log}}, main_version="clean", run_logs=(log,),
        adaptive_logs=None if s.adaptive_logs is None else (), raw_local={log: False},
        machine_sizes={log: env.machine_size(log)}, attribution=attribution,
        max_months=s.study_months)


def resolve_settings(raw: Mapping[str, Any], scale: str = "default",
                     overrides: Mapping[str, Any] | None = None, source: str = CONFIG) -> Settings:
    """The paper file ``raw`` at ``scale``, deep-merged with ``overrides``, typed."""
    return Settings.from_dict(resolve(raw, scale, overrides, source) | {"scale": scale})


def settings(config: Mapping[str, Any], env: Env) -> Settings:
    """The settings at the pipeline's scale with the overrides ``config["papers"]["talby2005"]``
    and what the pipeline knows of the logs; the engine options ``sim``: the workflow's
    (``env.sim``) with the file's ``sim:`` applied (a change reruns every point)."""
    sw = switches(config, PAPER)
    s = resolve_settings(read_yaml(CONFIG, PAPER), sw.scale, sw.overrides)
    traces = sorted({t for names in s.logs.values() for t in names.values()})
    return dataclasses.replace(
        s, raw_local={log: bool(env.trace_local(v["raw"])) for log, v in s.logs.items()},
        machine_sizes={t: env.machine_size(t) for t in traces},
        sim=env.sim.pinned(s.sim, f"{CONFIG} sim").as_dict())
