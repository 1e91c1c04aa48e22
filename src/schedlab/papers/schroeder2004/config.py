"""Settings of Schroeder & Harchol-Balter (2004): the paper config resolved for one scale.

``config/papers/schroeder2004.yaml`` holds the base options, one block per scale (``default``,
``quick``, ``paper``: ``quick=true`` selects quick, ``full=true`` the paper scale, else the
override ``scale``), the claim thresholds and the published Table 1 values. Every option is
documented in the file; :func:`resolve_config` merges and validates them.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
import yaml

from ...distserver import queueing as q
from ...errors import ConfigError
from .. import Switches

PAPER = "schroeder2004"
CONFIG = "config/papers/schroeder2004.yaml"
SCALES = ("default", "quick", "paper")
# spawn-key tags of the independent random streams (SeedSequence(entropy, spawn_key=(tag, ...)))
STREAM_ARRIVALS, STREAM_SHUFFLE, STREAM_RANDOM, STREAM_CUTOFF = 1, 2, 3, 4
CONFIDENCE = 0.95  # level of the t-intervals over independent replications (config: confidence)
#: Claim thresholds (our readings of the paper's words; overridden by ``claims:`` in the config).
CLAIM_DEFAULTS = {"large_factor": 2.0, "similar_factor": 2.0, "slight_factor": 1.5,
                  "fair_factor": 2.0, "rule_band": 0.1, "cutoff_band": 0.05}

_REQUIRED = {"trace": str, "subset": dict, "split": str, "slowdown": str, "mgh_factor": str,
             "seed": int, "loads": list, "hosts": list, "replications": int,
             "service_orders": list, "cutoff_candidates": int, "cutoff_replications": int,
             "many_hosts": list, "many_hosts_load": float, "scaled_loads": list}


def resolve_config(raw: dict[str, Any], scale: str = "default",
                   overrides: dict[str, Any] | None = None, source: str = "config") -> dict[str, Any]:
    """Merge the base settings with one scale block (``scales.<scale>``) and overrides; validate."""
    if scale not in SCALES:
        raise ConfigError(f"{source}: scale must be one of {SCALES}, got {scale!r}")
    cfg = {k: copy.deepcopy(v) for k, v in raw.items() if k not in ("scales", "published")}
    cfg.update(copy.deepcopy((raw.get("scales") or {}).get(scale) or {}))
    cfg.update({k: v for k, v in (overrides or {}).items() if k in _REQUIRED})
    for key, typ in _REQUIRED.items():
        if key not in cfg:
            raise ConfigError(f"{source}: missing option {key!r} (scale {scale})")
        val = cfg[key]
        if typ in (int, float) and isinstance(val, (str, int)) and not isinstance(val, bool):
            with contextlib.suppress(ValueError):  # command-line values arrive as strings
                cfg[key] = val = typ(val)
        if not isinstance(val, typ):
            raise ConfigError(f"{source}: option {key!r} must be {typ.__name__}, got {val!r}")
    for key, typ in (("loads", float), ("scaled_loads", float), ("hosts", int),
                     ("many_hosts", int)):
        try:
            cfg[key] = [typ(v) for v in cfg[key]]
        except (TypeError, ValueError):
            raise ConfigError(f"{source}: option {key!r} must be a list of numbers, got "
                              f"{cfg[key]!r}") from None
    for key in ("loads", "scaled_loads"):
        if not cfg[key] or any(not (0 < float(v) < 1) for v in cfg[key]):
            raise ConfigError(f"{source}: option {key!r} needs loads in (0, 1), got {cfg[key]}")
        cfg[key] = sorted(float(v) for v in cfg[key])
    if not 0 < cfg["many_hosts_load"] < 1:
        raise ConfigError(f"{source}: many_hosts_load must be in (0, 1)")
    if any(int(h) < 2 for h in cfg["hosts"]) or any(int(h) < 2 or int(h) % 2 for h in
                                                     cfg["many_hosts"]):
        raise ConfigError(f"{source}: hosts must be >= 2 and many_hosts even numbers >= 2")
    if 2 not in [int(h) for h in cfg["hosts"]]:
        raise ConfigError(f"{source}: hosts must include 2 (the paper's main configuration)")
    bad = set(cfg["service_orders"]) - {"trace", "shuffled"}
    if bad or not cfg["service_orders"]:
        raise ConfigError(f"{source}: service_orders must be a list of trace/shuffled, got "
                          f"{cfg['service_orders']}")
    if cfg["slowdown"] not in q.SLOWDOWN_DEFINITIONS:
        raise ConfigError(f"{source}: slowdown must be one of {q.SLOWDOWN_DEFINITIONS}")
    if cfg["mgh_factor"] not in q.MGH_FACTORS:
        raise ConfigError(f"{source}: mgh_factor must be one of {q.MGH_FACTORS}")
    if cfg["replications"] < 1 or cfg["cutoff_replications"] < 1 or cfg["cutoff_candidates"] < 3:
        raise ConfigError(f"{source}: replications >= 1, cutoff_candidates >= 3 required")
    unknown = set(cfg["subset"]) - {"procs", "procs_min", "procs_max", "max_run_time"}
    if unknown:
        raise ConfigError(f"{source}: unknown subset option(s) {sorted(unknown)}")
    cfg["scale"] = scale
    return cfg



def pipeline_scale(sw: Switches) -> str:
    """The scale a pipeline run asks for: ``quick`` (config or override ``quick``), ``paper``
    (config ``full``), else the override ``scale`` (default ``default``)."""
    if sw.quick:
        return "quick"
    if sw.full:
        return "paper"
    return sw.overrides.get("scale", "default")


def stream_seed(cfg: Mapping[str, Any], *key: int) -> np.random.SeedSequence:
    """The random stream with spawn key ``key`` (a ``STREAM_*`` tag first) of the config's seed."""
    return np.random.SeedSequence(cfg["seed"], spawn_key=tuple(int(k) for k in key))


def milli(load: float) -> int:
    """A load as a whole number (a spawn-key element)."""
    return round(load * 1000)


def read_config(path: str = CONFIG) -> dict[str, Any]:
    """The paper's config file as written (scales and published values included)."""
    with open(path) as fh:
        return yaml.safe_load(fh)
