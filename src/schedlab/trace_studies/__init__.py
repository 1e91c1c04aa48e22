"""Every paper's study applied to any registered log ("new traces as inputs", issue 10).

A registry entry with ``study: true`` (``config/traces.yaml``) makes the pipeline run, on that log,
each study below that applies, with compact settings (``config/config.yaml``, key
``trace_studies``), and the report shows the results in a section per trace. The papers' own
targets keep their own logs and settings; these panels answer "what would each paper's experiment
say on my log?".

The contract of a study module ``schedlab.trace_studies.<paper>`` (pure: no file I/O):

``TITLE: str``
    one line naming the experiment and the paper section it applies.
``run(inputs: StudyInputs, settings: dict) -> dict[str, pandas.DataFrame]``
    the study's tables, by name (each becomes ``tables/<name>.parquet``); deterministic given
    ``settings`` (which carry the seed entropy where randomness is used).
``figures(tables: dict[str, pandas.DataFrame]) -> dict[str, matplotlib.figure.Figure]``
    figures by name (each saved as ``figures/<name>.png`` and ``.pdf`` with
    :func:`schedlab.report.plotting.save_figure`); may return ``{}``.
``DEFAULTS: dict[str, dict]``
    settings by variant: ``{"default": {...}, "quick": {...}, "full": {...}}``; the pipeline passes
    the variant chosen by config ``quick``/``full``, updated with config ``trace_studies: {<study>:
    {...}}``, as ``settings``.
``NOTES: str`` (optional)
    what the reader should know (subsets used, readings chosen).
"""

from __future__ import annotations

import difflib
import importlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
import yaml

from ..errors import ConfigError
from ..sim.options import SimOptions
from ..traces.swf import SWFHeader

#: The studies, in report order (module names under schedlab.trace_studies).
STUDIES: tuple[str, ...] = ("talby2005", "perkovic2000", "tang2013", "schroeder2004", "cirne2001")


@dataclass(frozen=True)
class StudyInputs:
    """What a study may read about one log (the adapter script loads it)."""

    trace: str
    jobs: pd.DataFrame  # results/traces/{trace}/clean.parquet (SWF fields, snake_case, -1 kept)
    header: SWFHeader
    machine_size: int
    models_dir: Path | None = None  # results/models/{trace}/ (fitted Cirne models), if the study needs it
    #: config/papers/<study>.yaml as parsed (published values for the reference columns, the paper's
    #: scheduler options); empty when the paper has no config file
    paper: Mapping[str, Any] = field(default_factory=dict)
    #: the workflow's engine options (config ``sim:``); a study applies its paper's ``sim:`` pins
    sim: SimOptions = SimOptions()


def load(name: str) -> ModuleType:
    """The study module ``schedlab.trace_studies.<name>``; a clear error for an unknown name."""
    if name not in STUDIES:
        raise ConfigError(f"unknown trace study {name!r}; known: {', '.join(STUDIES)}")
    return importlib.import_module(f"{__name__}.{name}")


VARIANTS = ("default", "quick", "full")

_JOBS, _PROCS, _SEED, _REPS = 100_000_000, 100_000_000, 2**63 - 1, 1_000_000
#: The range of every numeric study setting (a list's elements each), by name: an override outside
#: it is refused in one line before any job runs.
LIMITS: dict[str, tuple[float, float]] = {
    "months": (1, 1200), "max_jobs": (1, _JOBS), "min_month_jobs": (0, _JOBS),
    "min_jobs": (1, _JOBS), "jobs_per_workload": (1, _JOBS), "experiments": (1, 10_000_000),
    "targets_per_workload": (1, _REPS), "resamples": (1, _REPS), "replications": (1, _REPS),
    "cutoff_candidates": (1, _REPS), "cutoff_replications": (1, _REPS),
    "procs": (1, _PROCS), "machine": (1, _PROCS), "machine_procs": (1, _PROCS),
    "hosts": (1, 10_000), "windows": (1, 1000), "seed": (0, _SEED), "seed_entropy": (0, _SEED),
    "confidence": (0, 1), "loads": (0, 1), "many_hosts_load": (0, 1), "balance_factors": (0, 1),
    "spec_percentages": (0, 1),
}


def study_settings(module: ModuleType, variant: str = "default",
                   overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``module.DEFAULTS[variant]`` updated with the user's overrides (config ``trace_studies``);
    an override of an unknown setting is an error naming the study and the setting."""
    if variant not in VARIANTS:
        raise ConfigError(f"trace study variant must be one of {VARIANTS}, got {variant!r}")
    name = module.__name__.rsplit(".", 1)[-1]
    settings = dict(module.DEFAULTS[variant])
    unknown = sorted(set(overrides or {}) - set(settings))
    if unknown:
        close = difflib.get_close_matches(unknown[0], list(settings), n=1, cutoff=0.5)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"config trace_studies.{name}: unknown setting(s) {', '.join(unknown)}"
                          f"{hint}; known: {', '.join(sorted(settings))}")
    for key, value in (overrides or {}).items():
        # the type comes from any variant that sets it (quick may say null = no limit)
        ref = next((v[key] for v in (settings, *module.DEFAULTS.values())
                    if v.get(key) is not None), None)
        where = f"config trace_studies.{name}.{key}"
        settings[key] = _within(_like(ref, value, where), LIMITS.get(key), where)
    return settings


def _within(value: Any, limits: tuple[float, float] | None, where: str) -> Any:
    """``value`` (a number, or a list of them) if every number in it is finite and within
    ``limits``; else ConfigError naming the setting."""
    for x in value if isinstance(value, list) else [value]:
        if isinstance(x, bool) or not isinstance(x, int | float):
            continue
        if not math.isfinite(x):
            raise ConfigError(f"{where}: {x!r} is not a finite number")
        if limits is not None and not limits[0] <= x <= limits[1]:
            raise ConfigError(f"{where}: {x!r} is outside [{limits[0]:,}, {limits[1]:,}]")
    return value


def _like(default: Any, value: Any, where: str) -> Any:
    """``value`` (read as YAML when it arrived as text: ``snakemake --config`` passes nested values
    as strings) checked against the type of ``default``; lists element by element; ``null`` is
    always allowed (no limit)."""
    parsed = value
    if isinstance(value, str) and not isinstance(default, str):
        try:
            parsed = yaml.safe_load(value)
        except yaml.YAMLError:
            parsed = value
    if default is None or parsed is None:
        return parsed
    if isinstance(default, list):
        if not isinstance(parsed, list):
            raise ConfigError(f"{where}: {value!r} is not a list")
        return [_like(default[0], v, where) for v in parsed] if default else parsed
    if isinstance(default, dict):
        if not isinstance(parsed, dict):
            raise ConfigError(f"{where}: {value!r} is not a mapping")
        return parsed
    kind = type(default)
    if not _is_a(kind, parsed):
        what = {int: "an integer", float: "a number", bool: "a boolean (true/false)"}
        raise ConfigError(f"{where}: {value!r} is not {what.get(kind, kind.__name__)}")
    return float(parsed) if kind is float else parsed


def _is_a(kind: type, parsed: Any) -> bool:
    """Whether a YAML value fits a setting of type ``kind`` (``null`` always does)."""
    if parsed is None or kind not in (bool, int, float):
        return True
    if kind is bool or isinstance(parsed, bool):
        return kind is bool and isinstance(parsed, bool)
    return isinstance(parsed, int) if kind is int else isinstance(parsed, int | float)
