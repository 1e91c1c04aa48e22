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
from ...sim.options import SimOptions
from ...sim.schedulers.compression import CIRNE, COMPRESS_ON, COMPRESS_PASSES
from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

PAPER = "cirne2001"
#: The SA experiments' settings file (pipeline config ``cirne2001_sa`` names another one).
SA_CONFIG = "config/papers/cirne2001_sa.yaml"
#: The chapter-3 models' file: its ``models`` section (``models.synthetic.params``: the synthetic
#: workloads' model) joins the settings.
MODELS_CONFIG = "config/papers/cirne2001.yaml"
#: Same-time order of the single-target experiments and §5.4's (see :mod:`.moldable`): pinned in
#: config/papers/cirne2001_sa.yaml (``single_target.sim``, ``nas_validation.sim``), the paper's
#: settings; the default engine options of the functions of :mod:`.machine` for direct callers.
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
    single_target: Mapping[str, Any]
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
    #: conservative backfilling's compression (:func:`_compression`: completed with §2.2.1's)
    compression: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: the readings of the synthetic workloads' load (:mod:`.load`)
    load_attribution: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: whether the models' logs are at hand (the models' scorecard joins the target then)
    models_local: bool = False
    n_workloads: int = 0  #: synthetic workloads of §5.1 (derived from ``single_target``)
    #: a study's log: the synthetic workloads' rigid part is fitted from it (``with_log``)
    fitted_log: str | None = None

    @property
    def model(self) -> dict[str, Any] | None:
        """The synthetic workloads' model parameters (``models.synthetic.params``)."""
        return (self.models.get("synthetic") or {}).get("params")

    @property
    def models_logs(self) -> tuple[str, ...]:
        """The registry logs the chapter-3 models compare with the thesis."""
        return tuple(t for t in (self.models.get("workloads") or {}).values() if t is not None)


#: The experiments that run the engine, each with its engine options (``<block>.sim``; none: the
#: workflow's): the single-target, the §6.2 sweep and the §5.4 runs.
SIM_BLOCKS = ("single_target", "offered_load", "nas_validation")


def resolve_settings(raw: Mapping[str, Any], scale: str = "default",
                     overrides: Mapping[str, Any] | None = None, source: str = SA_CONFIG
                     ) -> Settings:
    """The SA settings file ``raw`` (with the models section) at ``scale``, deep-merged with
    ``overrides``; validated (the engine options of :data:`SIM_BLOCKS` included), typed, with
    ``n_workloads`` and the configured ``compression`` completed."""
    s = resolve(raw, scale, overrides, source)
    st = s.get("single_target", {})
    for key in ("experiments", "targets_per_workload", "jobs_per_workload"):
        if not isinstance(st.get(key), int) or st[key] < 1:
            raise ConfigError(f"{PAPER}: single_target.{key} must be a positive integer")
    if s.get("sa_version", "cb") not in ("cb", "g"):
        raise ConfigError(f"{PAPER}: sa_version must be 'cb' or 'g'")
    s["compression"] = _compression(s.get("compression"))
    for block in SIM_BLOCKS:
        SimOptions.from_mapping((s.get(block) or {}).get("sim"), f"{PAPER}: {block}.sim")
    return Settings.from_dict(s | {"scale": scale, "n_workloads": math.ceil(
        st["experiments"] / st["targets_per_workload"])})


def _compression(cfg: Any) -> dict[str, str]:
    """Config ``compression`` checked and completed with §2.2.1's reading (early ends, until no
    job moves; :mod:`schedlab.sim.schedulers.compression`)."""
    cfg = cfg or {}
    if not isinstance(cfg, Mapping) or set(cfg) - {"compress_on", "compress_passes"}:
        raise ConfigError(f"{PAPER}: compression takes compress_on and compress_passes only")
    out = {"compress_on": cfg.get("compress_on", CIRNE[0]),
           "compress_passes": cfg.get("compress_passes", CIRNE[1])}
    if out["compress_on"] not in COMPRESS_ON or out["compress_passes"] not in COMPRESS_PASSES:
        raise ConfigError(f"{PAPER}: compression.compress_on must be one of {list(COMPRESS_ON)} "
                          f"and compress_passes one of {list(COMPRESS_PASSES)}, not {cfg}")
    return out


#: What the study log replaces (the contract's ``study_role``).
study_role = ("the thesis' workload model: the synthetic workloads' rigid part is fitted from the "
              "study log (chapter 3's models, rule fit_models), moldability stays Table 12's; the "
              "machine is the log's registry size (the thesis: 500 processors); no NAS log")


def with_log(s: Settings, log: str, env: Env) -> Settings:
    """The settings whose synthetic workloads are fitted from ``log`` on its machine size, without
    §5.4's logs or the chapter-3 models' comparison (the contract's ``with_log``)."""
    machine = env.machine_size(log)
    if machine is None:
        raise ConfigError(f"{PAPER} study of {log}: the registry gives no machine_size")
    return dataclasses.replace(s, fitted_log=log, machine_procs=int(machine),
                               nas_validation={**s.nas_validation, "logs": []},
                               models_local=False)


def settings(config: Mapping[str, Any], env: Env | None = None) -> Settings:
    """The paper's settings from the pipeline config: the SA file (``config["cirne2001_sa"]``,
    default :data:`SA_CONFIG`) with the models section of :data:`MODELS_CONFIG`, at the pipeline's
    scale with the overrides ``papers.cirne2001``. Each experiment's engine options
    (``<block>.sim`` of :data:`SIM_BLOCKS`): the workflow's (``env.sim``, config ``sim:``) with the
    ones the file pins applied, so the §6.2 runs follow the workflow's tie rule and the
    single-target and §5.4 runs their pinned one."""
    sw = switches(config, PAPER)
    raw = dict(read_yaml(config.get("cirne2001_sa") or SA_CONFIG, PAPER))
    raw["models"] = read_yaml(MODELS_CONFIG, PAPER).get("models") or {}
    s = resolve_settings(raw, sw.scale, sw.overrides)
    base = env.sim if env is not None else SimOptions()
    pinned = {block: {**getattr(s, block), "sim": base.pinned(
        getattr(s, block).get("sim"), f"{PAPER}: {block}.sim").as_dict()} for block in SIM_BLOCKS}
    return dataclasses.replace(
        s, **pinned,
        models_local=env is not None and all(env.trace_local(t) for t in s.models_logs))
