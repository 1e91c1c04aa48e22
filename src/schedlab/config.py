"""The workflow configuration (``config/config.yaml`` + profiles + ``--config``), checked up front.

:func:`check_config` coerces text where the schema wants a number or a boolean (``snakemake --config
'download={"retries": 5}'`` delivers ``"5"``), then validates against
``workflow/schemas/config.schema.yaml`` (``additionalProperties: false`` at every level) and raises a
one-line :class:`~schedlab.errors.ConfigError` naming the key, with the closest known key for a typo.
Per-paper overrides (``papers: {<paper>: {...}}``) may use the keys of that paper's
``config/papers/<paper>*.yaml`` plus ``quick`` and ``scale``.

:func:`papers_to_run` skips the papers whose logs a custom registry lacks (one warning line).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import ConfigError
from .registry import Registry, error_order, unknown_key_message

#: Keys every paper override may use besides its config file's top-level keys.
PAPER_OVERRIDE_KEYS = ("quick", "scale")
_BOOL_TEXT = {"true": True, "false": False}


def _types(schema: Mapping[str, Any]) -> list[str]:
    t = schema.get("type", [])
    return [t] if isinstance(t, str) else list(t)


def coerce(instance: Any, schema: Mapping[str, Any]) -> Any:
    """``instance`` with text turned into int/float/bool where ``schema`` asks for one (and the
    text parses); anything else is left for the validator to reject."""
    types = _types(schema)
    if isinstance(instance, str) and "string" not in types:
        text = instance.strip()
        if "boolean" in types and text.lower() in _BOOL_TEXT:
            return _BOOL_TEXT[text.lower()]
        if "integer" in types:
            try:
                return int(text)
            except ValueError:
                pass
        if "number" in types:
            try:
                return float(text)
            except ValueError:
                pass
        if "null" in types and text.lower() in ("null", "none", "~"):
            return None
        return instance
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        out = {}
        for k, v in instance.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            out[k] = coerce(v, sub) if sub else v
        return out
    if isinstance(instance, list) and isinstance(schema.get("items"), dict):
        return [coerce(v, schema["items"]) for v in instance]
    return instance


def _where(path: Iterable[Any]) -> str:
    p = ".".join(str(x) for x in path)
    return f"config {p}" if p else "config"


def validate_against(config: Mapping[str, Any], schema: Mapping[str, Any]) -> None:
    """Validate; raise ConfigError for the first problem (unknown key -> closest known key)."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=error_order)
    if not errors:
        return
    e = errors[0]
    msg = unknown_key_message(e)
    raise ConfigError(f"{_where(e.absolute_path)}: {msg or e.message}")


def check_paper_overrides(papers: Mapping[str, Any] | None, config_dir: Path) -> None:
    """Each ``papers.<paper>`` key must be a key of ``config/papers/<paper>*.yaml`` (or
    :data:`PAPER_OVERRIDE_KEYS`); the error names the closest known key."""
    for paper, overrides in (papers or {}).items():
        if overrides is None:
            continue
        if not isinstance(overrides, dict):
            raise ConfigError(f"config papers.{paper}: expected a mapping, got {overrides!r}")
        known = set(PAPER_OVERRIDE_KEYS)
        for f in sorted(config_dir.glob(f"{paper}*.yaml")):
            known |= set(yaml.safe_load(f.read_text()) or {})
        for key in overrides:
            if key not in known:
                close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.5)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ConfigError(f"config papers.{paper}: unknown key {key!r}{hint}; known keys "
                                  f"are those of {config_dir}/{paper}.yaml and quick, scale")


def check_config(config: dict[str, Any], schema_path: str | Path,
                 papers_dir: str | Path = "config/papers") -> dict[str, Any]:
    """Coerce and validate ``config`` in place (see module docstring); returns it."""
    with open(schema_path) as fh:
        schema = yaml.safe_load(fh)
    config.update(coerce(dict(config), schema))
    validate_against(config, schema)
    check_paper_overrides(config.get("papers"), Path(papers_dir))
    return config


def paper_logs(paper: str, known: Iterable[str], papers_dir: str | Path = "config/papers"
               ) -> list[str]:
    """The registry names (among ``known``) that a paper's config files mention: its logs."""
    known = set(known)
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str) and x in known:
            found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for f in sorted(Path(papers_dir).glob(f"{paper}*.yaml")):
        walk(yaml.safe_load(f.read_text()))
    return sorted(found)


def papers_to_run(papers: Iterable[str], registry: Registry, default: Registry,
                  papers_dir: str | Path = "config/papers") -> tuple[list[str], str | None]:
    """(papers whose logs are all in ``registry``, one warning line naming the skipped ones).

    With the default registry nothing is skipped; a custom registry need not repeat the logs of
    papers that are not run.
    """
    run, skipped = [], []
    for paper in papers:
        missing = [n for n in paper_logs(paper, default.names(), papers_dir) if n not in registry]
        if missing:
            skipped.append(f"{paper} (needs {', '.join(missing)})")
        else:
            run.append(paper)
    if not skipped:
        return run, None
    return run, (f"schedlab: warning: registry {registry.source} lacks the logs of "
                 f"{len(skipped)} paper(s), skipped: {'; '.join(skipped)}")
