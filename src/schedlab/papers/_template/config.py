"""The template's settings: ``config/papers/_template.yaml`` at the scale the pipeline asks for
(its ``scales:`` block), deep-merged with the overrides ``config["papers"]["_template"]``
(:mod:`schedlab.papers.settings`), typed as :class:`Settings`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .. import Env
from ..settings import PaperSettings, read_yaml, resolve, switches

PAPER = "_template"
#: The paper's settings file (relative to the workflow's directory).
CONFIG = f"config/papers/{PAPER}.yaml"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Settings(PaperSettings):
    """The resolved settings (each field is documented in the config file)."""

    logs: tuple[str, ...]  #: the registry logs the paper runs on
    max_jobs: int | None = None  #: the first N jobs of each log (None: every job)
    tolerance: Mapping[str, float] = dataclasses.field(default_factory=dict)
    published: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def resolve_settings(raw: Mapping[str, Any], scale: str = "default",
                     overrides: Mapping[str, Any] | None = None, source: str = CONFIG) -> Settings:
    """The paper file ``raw`` at ``scale``, deep-merged with ``overrides``, typed."""
    return Settings.from_dict(resolve(raw, scale, overrides, source) | {"scale": scale})


def settings(config: Mapping[str, Any], env: Env) -> Settings:
    """The settings at the pipeline's scale with the overrides ``config["papers"][PAPER]``."""
    sw = switches(config, PAPER)
    return resolve_settings(read_yaml(CONFIG, PAPER), sw.scale, sw.overrides)


#: What the study log replaces (the contract's ``study_role``).
study_role = "every configured log: the study counts the study log's jobs"


def with_log(s: Settings, log: str, env: Env) -> Settings:
    """The settings with ``log`` as the only log (the contract's ``with_log``)."""
    return dataclasses.replace(s, logs=(log,))
