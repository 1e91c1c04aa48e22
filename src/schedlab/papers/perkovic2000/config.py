"""Perković & Keleher 2000: the paper's settings from the pipeline config (the contract's
``settings``): ``config/papers/perkovic2000.yaml`` (validated against its schema when the workflow
starts), the overrides ``config["papers"]["perkovic2000"]``, and the switches ``quick`` (config or
override: ``quick_settings``) and ``full`` (``full_settings``, the paper scale)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ...sim.options import SimOptions
from .. import Env, switches
from .experiments import PAPER, scaled

#: The paper's settings file (relative to the workflow's directory).
CONFIG = Path(f"config/papers/{PAPER}.yaml")


def settings(config: Mapping[str, Any], env: Env | None = None) -> dict[str, Any]:
    """The file's settings, overridden by ``config["papers"]["perkovic2000"]`` (all keys but
    ``quick``), then scaled (:func:`.experiments.scaled`); ``quick`` and ``full`` are recorded;
    the engine options ``sim``: the workflow's (``env.sim``) with the file's ``sim:`` applied."""
    sw = switches(config, PAPER)
    cfg = sw.applied(yaml.safe_load(CONFIG.read_text()))
    cfg["sim"] = (env.sim if env is not None else SimOptions()).pinned(
        cfg.get("sim"), f"{CONFIG} sim").as_dict()
    quick, full = sw.quick, sw.full
    return {**scaled(cfg, quick, full), "quick": quick, "full": full}


def readings(s: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The attribution readings run (none when quick; ``full_readings`` join with ``full``)."""
    if s.get("quick"):
        return {}
    a = s.get("attribution") or {}
    return {**a.get("readings", {}), **(a.get("full_readings", {}) if s.get("full") else {})}
