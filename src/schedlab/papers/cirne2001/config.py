"""Cirne 2001: the settings (the contract's ``settings``): the SA experiments' file
``config/papers/cirne2001_sa.yaml`` (pipeline config ``cirne2001_sa`` names another one) and the
chapter-3 models' section ``models`` of ``config/papers/cirne2001.yaml``, at the scale the switches
ask for (``scales:``, :mod:`schedlab.papers.settings`; ``paper`` is the thesis' sizes, §5.1),
deep-merged with the overrides ``config["papers"]["cirne2001"]`` (keys of either file), validated
and typed (:class:`Settings`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from ...errors import ConfigError
from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

PAPER = "cirne2001"
#: The SA experiments' settings file (pipeline config ``cirne2001_sa`` names another one).
SA_CONFIG = "config/papers/cirne2001_sa.yaml"
#: The chapter-3 models' file: its ``models`` section (``models.synthetic.params``: the synthetic
#: workloads' model) joins the settings.
MODELS_CONFIG = "config/papers/cirne2001.yaml"
#: Same-time order of the single-target and §5.4 experiments (:mod:`.moldable`).
TIE_RULE = "completions_first"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Settings(PaperSettings):
    """The resolved settings (each option is documented in the SA settings file)."""

    paper: str = PAPER
    machine_procs: int
    scheduler: str = "conservative"
    sa_version: str = "cb"
    seed: int
    bootstrap: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    single_target: Mapping[str, int]
    offered_load: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    attribution: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    generator_check_jobs: int = 20000
    ci_half_width_target: float = 0.03
    tolerance: Mapping[str, float] = dataclasses.field(default_factory=dict)
    breakdowns: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    nas_validation: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    published: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: the chapter-3 models' section of config/papers/cirne2001.yaml (workflow/rules/models.smk)
    models: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: same-time order of the single-target experiments (an attribution reading may replace it)
    tie_rule: str = TIE_RULE
    #: the engine's default same-time order, followed by the §6.2 whole-workload runs (config
    #: ``sim.tie_rule``; carried so that changing it reruns them)
    sim_tie_rule: str = "default"
    #: whether the models' logs are at hand (the models' scorecard joins the target then)
    models_local: bool = False
    n_workloads: int = 0  #: synthetic workloads of §5.1 (derived from ``single_target``)

    @property
    def model(self) -> dict[str, Any] | None:
        """The synthetic workloads' model parameters (``models.synthetic.params``)."""
        return (self.models.get("synthetic") or {}).get("params")

    @property
    def models_logs(self) -> tuple[str, ...]:
        """The registry logs the chapter-3 models compare with the thesis."""
        return tuple(t for t in (self.models.get("workloads") or {}).values() if t is not None)


def resolve_settings(raw: Mapping[str, Any], scale: str = "default",
                     overrides: Mapping[str, Any] | None = None, source: str = SA_CONFIG
                     ) -> Settings:
    """The SA settings file ``raw`` (with the models section) at ``scale``, deep-merged with
    ``overrides``; validated, typed, with ``n_workloads``."""
    s = resolve(raw, scale, overrides, source)
    st = s.get("single_target", {})
    for key in ("experiments", "targets_per_workload", "jobs_per_workload"):
        if not isinstance(st.get(key), int) or st[key] < 1:
            raise ConfigError(f"{PAPER}: single_target.{key} must be a positive integer")
    if s.get("sa_version", "cb") not in ("cb", "g"):
        raise ConfigError(f"{PAPER}: sa_version must be 'cb' or 'g'")
    return Settings.from_dict(s | {"scale": scale, "n_workloads": math.ceil(
        st["experiments"] / st["targets_per_workload"])})


def settings(config: Mapping[str, Any], env: Env | None = None) -> Settings:
    """The paper's settings from the pipeline config: the SA file (``config["cirne2001_sa"]``,
    default :data:`SA_CONFIG`) with the models section of :data:`MODELS_CONFIG`, at the pipeline's
    scale with the overrides ``papers.cirne2001``; ``sim_tie_rule`` is config ``sim.tie_rule``."""
    sw = switches(config, PAPER)
    raw = dict(read_yaml(config.get("cirne2001_sa") or SA_CONFIG, PAPER))
    raw["models"] = read_yaml(MODELS_CONFIG, PAPER).get("models") or {}
    s = resolve_settings(raw, sw.scale, sw.overrides)
    return dataclasses.replace(
        s, sim_tie_rule=getattr(env, "tie_rule", "default"),
        models_local=env is not None and all(env.trace_local(t) for t in s.models_logs))
