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
    s["n_workloads"] = math.ceil(st["experiments"] / st["targets_per_workload"])
    return s


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
    :data:`MODELS_CONFIG` (``models.synthetic.params``, shared with the chapter-3 models), and
    ``sim_tie_rule``: config ``sim.tie_rule``, the engine's default same-time order that the §6.2
    whole-workload runs follow (each job sets it; carried here so that changing it reruns them)."""
    sw = switches(config, PAPER)
    s = resolve_settings(
        _yaml(config.get("cirne2001_sa") or SA_CONFIG),
        quick=sw.quick,
        scale=sw.overrides.get("scale") or ("full" if sw.full else "default"),
    )
    models = _yaml(MODELS_CONFIG).get("models") or {}
    s["model"] = (models.get("synthetic") or {}).get("params")
    s["models_logs"] = [t for t in (models.get("workloads") or {}).values() if t is not None]
    s["models_local"] = env is not None and all(env.trace_local(t) for t in s["models_logs"])
    s["sim_tie_rule"] = getattr(env, "tie_rule", "default")
    return s
