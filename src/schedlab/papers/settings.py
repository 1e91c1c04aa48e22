"""A paper's settings: its YAML file at one scale, deep-merged with the pipeline's overrides, as a
frozen dataclass.

Every paper file ``config/papers/<paper>.yaml`` holds its options and one ``scales:`` block whose
entries (:data:`SCALES`) hold the sizes that differ between runs:

* ``quick`` — minutes (config ``quick=true``, the quick profile);
* ``default`` — the default target;
* ``paper`` — the paper's own sizes (config ``full=true``, the full profile);
* ``study`` — the sizes of the paper's points re-run on another log.

The override ``papers: {<paper>: {scale: NAME}}`` names a scale directly. :func:`resolve` merges,
in order, the file's options, the chosen scale's block and the overrides ``papers.<paper>``; each
merge is deep (a mapping merges key by key, anything else replaces), so a partial section keeps
the rest. A paper's :class:`PaperSettings` subclass types the result; :meth:`PaperSettings.to_dict`
is its JSON-able form (the rules' params) and :meth:`PaperSettings.from_dict` reads it back.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

import yaml

from ..errors import ConfigError

#: The scales of every paper file's ``scales:`` block.
SCALES: tuple[str, ...] = ("quick", "default", "paper", "study")
#: Override keys that switch rather than set (never merged into the settings).
SWITCH_KEYS: tuple[str, ...] = ("quick", "scale")


def scale_of(overrides: Mapping[str, Any], quick: bool, full: bool) -> str:
    """The scale the pipeline asks for: the override ``scale``, else ``quick`` (config or
    override ``quick``), else ``paper`` (config ``full``), else ``default``."""
    if overrides.get("scale"):
        scale = str(overrides["scale"])
        if scale not in SCALES:
            raise ConfigError(f"config papers.*.scale: {scale!r} is not one of {', '.join(SCALES)}")
        return scale
    return "quick" if quick else "paper" if full else "default"


def deep_merge(base: Mapping[str, Any], update: Mapping[str, Any] | None) -> dict[str, Any]:
    """``base`` updated by ``update``: a mapping in both merges key by key, any other value
    (lists included) replaces. Neither argument is modified."""
    out = dict(base)
    for k, v in (update or {}).items():
        old = out.get(k)
        out[k] = deep_merge(old, v) if isinstance(v, Mapping) and isinstance(old, Mapping) else v
    return out


def read_yaml(path: str | Path, paper: str) -> dict[str, Any]:
    """A paper's settings file (a clear error when it is missing)."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{paper}: settings file {p} not found")
    return yaml.safe_load(p.read_text()) or {}


def resolve(raw: Mapping[str, Any], scale: str, overrides: Mapping[str, Any] | None = None,
            source: str = "config") -> dict[str, Any]:
    """``raw`` (a paper file) without its ``scales:`` block, deep-merged with the block's
    ``scale`` entry and then with ``overrides`` (switch keys left out). An override of
    ``scales.<name>...`` is merged into the block first, so it takes effect at that scale."""
    over = {k: v for k, v in (overrides or {}).items() if k not in SWITCH_KEYS}
    scales = deep_merge(raw.get("scales") or {}, over.pop("scales", None))
    if not scales and scale == "default":  # settings given without sizes (library use, tests)
        scales = {"default": {}}
    if scale not in scales:
        raise ConfigError(f"{source}: no scale {scale!r} in its scales: block "
                          f"(has {', '.join(scales) or 'none'})")
    base = {k: v for k, v in raw.items() if k != "scales"}
    return deep_merge(deep_merge(base, scales[scale]), over)


@dataclasses.dataclass(frozen=True, kw_only=True)
class PaperSettings:
    """Base of every paper's settings: the scale they were resolved at and the engine options
    ``sim`` (:class:`~schedlab.sim.options.SimOptions` as a mapping) its runs take: the file's
    ``sim:`` pins, applied over the workflow's (``Env.sim``) by the paper's ``settings``; empty: the
    engine's defaults. A paper whose experiments differ in their options keeps them per
    experiment instead (Cirne: ``<block>.sim``)."""

    scale: str = "default"
    sim: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able form (tuples as lists): the rules' params."""
        return _plain(dataclasses.asdict(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The settings from :meth:`to_dict`'s form or a resolved paper file (unknown or missing
        fields are one-line errors naming them)."""
        return build(cls, data, cls.__name__)


def _plain(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def build(cls: type, data: Any, where: str) -> Any:
    """An instance of the dataclass ``cls`` from the mapping ``data``: nested dataclasses are
    built from mappings and ``tuple[...]`` fields from lists; other values are kept as given (the
    paper's schema checks their types)."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: unknown setting(s) {', '.join(map(str, unknown))}")
    missing = [n for n, f in fields.items() if n not in data and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        raise ConfigError(f"{where}: missing setting(s) {', '.join(missing)}")
    return cls(**{k: _convert(hints[k], v, f"{where}.{k}") for k, v in data.items()})


def _convert(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(args[0], value, where) if len(args) == 1 else value
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return value if isinstance(value, hint) else build(hint, value, where)
    if origin is tuple and isinstance(value, (list, tuple)):
        args = typing.get_args(hint)
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        return tuple(_convert(item, v, where) for v in value)
    if origin in (Mapping, dict) and isinstance(value, Mapping):
        item = typing.get_args(hint)[1] if typing.get_args(hint) else Any
        return {k: _convert(item, v, f"{where}.{k}") for k, v in value.items()}
    return value


@dataclasses.dataclass(frozen=True)
class Switches:
    """The pipeline's switches for one paper: its overrides (config ``papers.<paper>``), ``quick``
    (config ``quick`` or the override ``quick``) and ``full`` (config ``full``)."""

    overrides: Mapping[str, Any]
    quick: bool
    full: bool

    @property
    def scale(self) -> str:
        """The scale these switches select (:func:`scale_of`)."""
        return scale_of(self.overrides, self.quick, self.full)


def switches(config: Mapping[str, Any], paper: str) -> Switches:
    """The switches of ``paper`` in the pipeline config (one reading for every paper)."""
    overrides = (config.get("papers") or {}).get(paper) or {}
    return Switches(overrides, bool(config.get("quick") or overrides.get("quick")),
                    bool(config.get("full")))


def resolved(config: Mapping[str, Any], paper: str, path: str | Path) -> tuple[str, dict[str, Any]]:
    """(scale, the paper file ``path`` resolved at it with the paper's overrides)."""
    sw = switches(config, paper)
    return sw.scale, resolve(read_yaml(path, paper), sw.scale, sw.overrides, str(path))
