"""Cirne 2001: the experiment settings (config/papers/cirne2001_sa.yaml and the pipeline switches).

:func:`resolve_settings` applies the ``full`` (the thesis' sizes) and ``quick`` sections of the SA
settings file to it and validates it; :func:`settings` is the paper contract's entry
(:mod:`schedlab.papers`): it reads the files the pipeline config names and the switches
``quick``/``full`` and ``papers: {cirne2001: {quick, scale}}``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ...errors import ConfigError
from ...sim.options import SimOptions
from ...sim.schedulers.compression import CIRNE, COMPRESS_ON, COMPRESS_PASSES
from .. import switches

PAPER = "cirne2001"
#: The SA experiments' settings file (pipeline config ``cirne2001_sa`` names another one).
SA_CONFIG = "config/papers/cirne2001_sa.yaml"
#: The chapter-3 models' file: its ``models.synthetic.params`` are the synthetic workloads' model.
MODELS_CONFIG = "config/papers/cirne2001.yaml"


def _merge(base: dict[str, Any], upd: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in (upd or {}).items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


SCALES = {"default": None, "full": "full", "paper": "full"}  # full is the thesis' scale (§5.1)
#: The experiments that run the engine, each with its engine options (``<block>.sim``; none: the
#: workflow's): the single-target, the §6.2 sweep and the §5.4 runs.
SIM_BLOCKS = ("single_target", "offered_load", "nas_validation")


def resolve_settings(cfg: dict[str, Any], quick: bool = False, scale: str = "default"
                     ) -> dict[str, Any]:
    """The experiment settings from config/papers/cirne2001_sa.yaml with the ``full`` overrides
    (``scale`` "full" or "paper": the thesis' sizes) and then the ``quick`` ones applied;
    validated."""
    if scale not in SCALES:
        raise ConfigError(f"{PAPER}: papers.cirne2001.scale must be one of {sorted(SCALES)}, "
                          f"not {scale!r}")
    s = {k: v for k, v in cfg.items() if k not in ("quick", "full")}
    if SCALES[scale]:
        s = _merge(s, cfg.get(SCALES[scale], {}))
    if quick:
        s = _merge(s, cfg.get("quick", {}))
    st = s.get("single_target", {})
    for key in ("experiments", "targets_per_workload", "jobs_per_workload"):
        if not isinstance(st.get(key), int) or st[key] < 1:
            raise ConfigError(f"{PAPER}: single_target.{key} must be a positive integer")
    if s.get("sa_version", "cb") not in ("cb", "g"):
        raise ConfigError(f"{PAPER}: sa_version must be 'cb' or 'g'")
    s["compression"] = _compression(s.get("compression"))
    for block in SIM_BLOCKS:
        SimOptions.from_mapping((s.get(block) or {}).get("sim"), f"{PAPER}: {block}.sim")
    s["n_workloads"] = math.ceil(st["experiments"] / st["targets_per_workload"])
    return s


def _compression(cfg: Any) -> dict[str, str]:
    """Config ``compression`` checked and completed with §2.2.1's reading (early ends, until no
    job moves; :mod:`schedlab.sim.schedulers.compression`)."""
    cfg = cfg or {}
    if not isinstance(cfg, dict) or set(cfg) - {"compress_on", "compress_passes"}:
        raise ConfigError(f"{PAPER}: compression takes compress_on and compress_passes only")
    out = {"compress_on": cfg.get("compress_on", CIRNE[0]),
           "compress_passes": cfg.get("compress_passes", CIRNE[1])}
    if out["compress_on"] not in COMPRESS_ON or out["compress_passes"] not in COMPRESS_PASSES:
        raise ConfigError(f"{PAPER}: compression.compress_on must be one of {list(COMPRESS_ON)} "
                          f"and compress_passes one of {list(COMPRESS_PASSES)}, not {cfg}")
    return out


def _yaml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{PAPER}: settings file {path} not found")
    return yaml.safe_load(p.read_text()) or {}


def settings(config: Mapping[str, Any], env: Any = None) -> dict[str, Any]:
    """The paper's settings from the pipeline config (the contract's ``settings``): the SA file
    (``config["cirne2001_sa"]``, default :data:`SA_CONFIG`) resolved with the switches (``quick``:
    config ``quick`` or ``papers.cirne2001.quick``; scale: ``papers.cirne2001.scale``, else "full"
    with config ``full``), plus ``model``: the synthetic-workload model parameters of
    :data:`MODELS_CONFIG` (``models.synthetic.params``, shared with the chapter-3 models); each
    experiment's engine options (``<block>.sim`` of :data:`SIM_BLOCKS`): the workflow's
    (``env.sim``, config ``sim:``) with the ones the file pins applied, so the §6.2 runs follow
    the workflow's tie rule and the single-target and §5.4 runs their pinned one."""
    sw = switches(config, PAPER)
    s = resolve_settings(
        _yaml(config.get("cirne2001_sa") or SA_CONFIG),
        quick=sw.quick,
        scale=sw.overrides.get("scale") or ("full" if sw.full else "default"),
    )
    models = _yaml(MODELS_CONFIG).get("models") or {}
    s["model"] = (models.get("synthetic") or {}).get("params")
    base = env.sim if env is not None else SimOptions()
    for block in SIM_BLOCKS:
        if block in s:
            s[block]["sim"] = base.pinned(s[block].get("sim"), f"{PAPER}: {block}.sim").as_dict()
    return s
