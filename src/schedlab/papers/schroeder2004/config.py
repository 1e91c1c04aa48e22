"""Settings of Schroeder & Harchol-Balter (2004): the paper config resolved for one scale.

``config/papers/schroeder2004.yaml`` holds the base options, one ``scales:`` block (``quick``,
``default``, ``paper``, ``study``; :mod:`schedlab.papers.settings` picks one), the claim thresholds
and the published Table 1 values. Every option is documented in the file; :func:`resolve_config`
merges them (:func:`schedlab.papers.settings.resolve`), validates them and types them
(:class:`Settings`).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...distserver import queueing as q
from ...errors import ConfigError
from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

PAPER = "schroeder2004"
CONFIG = "config/papers/schroeder2004.yaml"
# spawn-key tags of the independent random streams (SeedSequence(entropy, spawn_key=(tag, ...)))
STREAM_ARRIVALS, STREAM_SHUFFLE, STREAM_RANDOM, STREAM_CUTOFF = 1, 2, 3, 4
CONFIDENCE = 0.95  # level of the t-intervals over independent replications (config: confidence)

_REQUIRED = {"trace": str, "subset": dict, "split": str, "slowdown": str, "mgh_factor": str,
             "seed": int, "loads": list, "hosts": list, "replications": int,
             "service_orders": list, "cutoff_candidates": int, "cutoff_replications": int,
             "many_hosts": list, "many_hosts_load": float, "scaled_loads": list}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Claims:
    """Our readings of the paper's words that the vocabulary has no phrase for, fixed before looking
    at results (config ``claims``)."""

    rule_band: float = 0.1  #: rule of thumb rho/2: Host-1 load fraction within +-band
    cutoff_band: float = 0.05  #: "about the same" cutoffs: median |delta Host-1 fraction|


@dataclasses.dataclass(frozen=True, kw_only=True)
class Table1Entry:
    """One Table 1 row to build: a registry log and its job subset."""

    trace: str
    subset: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Settings(PaperSettings):
    """The resolved settings (each field is documented in the config file)."""

    trace: str
    subset: Mapping[str, Any]
    split: str
    slowdown: str
    mgh_factor: str
    seed: int
    hosts: tuple[int, ...]
    service_orders: tuple[str, ...]
    confidence: float = CONFIDENCE
    tolerance: Mapping[str, float] = dataclasses.field(default_factory=dict)
    claims: Claims = dataclasses.field(default_factory=Claims)
    many_hosts_load: float
    cutoff_candidates: int
    loads: tuple[float, ...]
    replications: int
    cutoff_replications: int
    many_hosts: tuple[int, ...]
    scaled_loads: tuple[float, ...]
    table1: Mapping[str, Table1Entry] = dataclasses.field(default_factory=dict)
    published: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: the registry's expected sha256 of each log read (``settings``)
    trace_sha256: Mapping[str, str | None] = dataclasses.field(default_factory=dict)


def settings(config: Mapping[str, Any], env: Env) -> Settings:
    """The settings at the scale the pipeline asks for (overrides ``config["papers"][PAPER]``),
    with the registry's hash of each log it reads."""
    sw = switches(config, PAPER)
    s = resolve_config(read_yaml(CONFIG, PAPER), sw.scale, sw.overrides, CONFIG)
    logs = list(dict.fromkeys([s.trace, *(e.trace for e in s.table1.values())]))
    return dataclasses.replace(s, trace_sha256={t: env.expected_sha256(t) for t in logs})


#: What the study log replaces (the contract's ``study_role``).
study_role = ("the CTC log: the study log's jobs of the paper's subset (``subset``: 8 processors, "
              "at most 12 hours) are the service times, Table 1 has the study log's row")


def with_log(s: Settings, log: str, env: Env) -> Settings:
    """The settings with ``log`` as the workload and Table 1's only row (same subset), with the
    registry's hash of it (the contract's ``with_log``)."""
    return dataclasses.replace(s, trace=log, table1={log: Table1Entry(trace=log, subset=s.subset)},
                               trace_sha256={log: env.expected_sha256(log)})


def resolve_config(raw: Mapping[str, Any], scale: str = "default",
                   overrides: Mapping[str, Any] | None = None, source: str = "config") -> Settings:
    """The paper file ``raw`` at ``scale``, deep-merged with ``overrides``; validated and typed."""
    cfg = resolve(raw, scale, overrides, source)
    for key, typ in _REQUIRED.items():
        if key not in cfg:
            raise ConfigError(f"{source}: missing option {key!r} (scale {scale})")
        val = cfg[key]
        if typ is list and isinstance(val, tuple):  # typed settings given back as overrides
            cfg[key] = val = list(val)
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
    return Settings.from_dict(cfg | {"scale": scale})


def stream_seed(s: Settings, *key: int) -> np.random.SeedSequence:
    """The random stream with spawn key ``key`` (a ``STREAM_*`` tag first) of the settings' seed."""
    return np.random.SeedSequence(s.seed, spawn_key=tuple(int(k) for k in key))


def milli(load: float) -> int:
    """A load as a whole number (a spawn-key element)."""
    return round(load * 1000)
