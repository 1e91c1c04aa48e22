"""The workflow configuration (``config/config.yaml`` + profiles + ``--config``), checked up front.

:func:`check_config` coerces text where the schema wants a number or a boolean (``snakemake --config
'download={"retries": 5}'`` delivers ``"5"``), then validates against
``workflow/schemas/config.schema.yaml`` (``additionalProperties: false`` at every level) and raises a
one-line :class:`~schedlab.errors.ConfigError` naming the key, with the closest known key for a typo.
Per-paper overrides (``papers: {<paper>: {...}}``) may use the keys of that paper's
``config/papers/<paper>*.yaml`` plus ``quick`` and ``scale``; each value is checked against the
paper's schema. The studies' overrides (``studies: {<paper>: {...}}``) are checked the same way.

Each paper's settings file ``config/papers/<name>.yaml`` has a schema
``workflow/schemas/papers/<name>.schema.yaml`` (unknown keys rejected at every level, option values
typed and, where the code accepts a fixed set, enumerated; keys documented in ``config/README.md``).
:func:`check_paper_configs` validates every file against its schema at workflow start; an error
names the file, the line and the key.

:func:`papers_to_run` skips the papers whose logs (the contract's ``logs(s)``) a registry lacks (one
warning line).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from ..errors import ConfigError
from ..papers.settings import SCALES
from ..traces.registry import (
    Registry,
    error_order,
    load_yaml_unique,
    schema_message,
    unknown_key_message,
)
from .limits import too_many_values

#: Keys every paper override may use besides its config file's top-level keys.
PAPER_OVERRIDE_KEYS = ("quick", "scale")
#: Schemas of the paper settings files, ``<name>.schema.yaml`` for ``config/papers/<name>.yaml``.
PAPER_SCHEMAS_DIR = Path("workflow/schemas/papers")
_OVERRIDE_SCHEMAS = {"quick": {"type": "boolean"}, "scale": {"enum": list(SCALES)}}
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
    if (isinstance(instance, float) and instance.is_integer() and "integer" in types
            and "number" not in types and abs(instance) < 2**63):
        return int(instance)  # YAML/Python read 1e6 as a float; the schema's maximum still applies
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
    raise ConfigError(f"{_where(e.absolute_path)}: {schema_message(e)}")


def paper_schema(name: str, schemas_dir: str | Path = PAPER_SCHEMAS_DIR) -> dict[str, Any]:
    """The schema of ``config/papers/<name>.yaml``."""
    path = Path(schemas_dir) / f"{name}.schema.yaml"
    if not path.is_file():
        raise ConfigError(f"config/papers/{name}.yaml: no schema {path} (every paper settings file "
                          "needs one; see config/README.md)")
    return yaml.safe_load(path.read_text())


def _line_of(path: Path, keys: list[Any]) -> int | None:
    """1-based line of the key (or item) at ``keys`` in the YAML file ``path`` (deepest found)."""
    try:
        node = yaml.compose(path.read_text())
    except (OSError, yaml.YAMLError):
        return None
    line = None
    for key in keys:
        if isinstance(node, yaml.MappingNode):
            hit = next(((k, v) for k, v in node.value if k.value == str(key)), None)
            if hit is None:
                break
            line, node = hit[0].start_mark.line + 1, hit[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _first_error(instance: Any, schema: Mapping[str, Any]) -> jsonschema.ValidationError | None:
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(instance), key=error_order)
    return errors[0] if errors else None


def check_paper_file(path: str | Path, schema: Mapping[str, Any]) -> dict[str, Any]:
    """Parse a paper settings file (duplicate keys refused) and validate it against ``schema``;
    the first problem -> ConfigError ``<file> line N: <key path>: <message>``. Returns the data."""
    path = Path(path)
    data = load_yaml_unique(path, "paper settings", ConfigError)
    e = _first_error(data, schema)
    if e is None:
        return data
    keys = list(e.absolute_path)
    msg = schema_message(e)
    if unknown_key_message(e) and isinstance(e.instance, dict):  # point at the unknown key itself
        unknown = [k for k in e.instance if k not in e.schema.get("properties", {})]
        keys = keys + unknown[:1]
    line = _line_of(path, keys)
    where = ".".join(str(k) for k in e.absolute_path) or "top level"
    raise ConfigError(f"{path}{f' line {line}' if line else ''}: {where}: {msg}")


def check_paper_configs(config_dir: str | Path = "config/papers",
                        schemas_dir: str | Path = PAPER_SCHEMAS_DIR,
                        extra: Mapping[str, str | Path] | None = None) -> None:
    """Validate every ``<config_dir>/*.yaml`` against its schema; ``extra`` maps more files to
    the schema name they follow (e.g. a custom ``cirne2001_sa`` settings file)."""
    files = [(p, p.stem) for p in sorted(Path(config_dir).glob("*.yaml"))]
    files += [(Path(p), name) for name, p in (extra or {}).items()]
    for path, name in files:
        check_paper_file(path, paper_schema(name, schemas_dir))


def check_paper_overrides(papers: Mapping[str, Any] | None, config_dir: Path,
                          schemas_dir: str | Path = PAPER_SCHEMAS_DIR, key: str = "papers"
                          ) -> None:
    """Each ``papers.<paper>`` key must be a key of ``config/papers/<paper>*.yaml`` (or
    :data:`PAPER_OVERRIDE_KEYS`), and its value must satisfy that file's schema for the key (text
    is coerced to numbers/booleans in place, as for the main config); the error names the key.
    The studies' overrides (config ``studies``, ``key``) are checked the same way."""
    if papers is not None and not isinstance(papers, dict):
        raise ConfigError(f"config {key}: expected a mapping, got {papers!r}")
    for paper, overrides in (papers or {}).items():
        if overrides is None:
            continue
        if not isinstance(overrides, dict):
            raise ConfigError(f"config {key}.{paper}: expected a mapping, got {overrides!r}")
        # key -> (root schema, property schema); the root keeps a file schema's $refs resolvable
        builtin = {"type": "object", "properties": _OVERRIDE_SCHEMAS}
        known = {k: (builtin, v) for k, v in _OVERRIDE_SCHEMAS.items()}
        for f in sorted(config_dir.glob(f"{paper}*.yaml")):
            root = paper_schema(f.stem, schemas_dir)
            for k, sub in root.get("properties", {}).items():
                known.setdefault(k, (root, sub))
        for name in list(overrides):
            if name not in known:
                close = difflib.get_close_matches(str(name), sorted(known), n=1, cutoff=0.5)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ConfigError(f"config {key}.{paper}: unknown key {name!r}{hint}; known "
                                  f"keys are those of {config_dir}/{paper}.yaml and quick, scale")
            root, sub = known[name]
            overrides[name] = coerce(overrides[name], sub)
            e = _first_error({name: overrides[name]}, root)  # the file schemas require no key
            if e is not None:
                where = ".".join(str(p) for p in [paper, *e.absolute_path])
                raise ConfigError(f"config {key}.{where}: {schema_message(e)}")


def check_config(config: dict[str, Any], schema_path: str | Path,
                 papers_dir: str | Path = "config/papers") -> dict[str, Any]:
    """Coerce and validate ``config`` in place (see module docstring); returns it. A config
    holding more than a million values once YAML aliases are expanded is refused first
    (:mod:`schedlab.pipeline.limits`)."""
    for key, value in config.items():
        too_many = too_many_values(value)
        if too_many:
            raise ConfigError(f"config {key}: {too_many}")
    with open(schema_path) as fh:
        schema = yaml.safe_load(fh)
    config.update(coerce(dict(config), schema))
    validate_against(config, schema)
    schemas_dir = Path(schema_path).parent / "papers"  # workflow/schemas/papers
    sa = config.get("cirne2001_sa")
    check_paper_configs(papers_dir, schemas_dir, extra={"cirne2001_sa": sa} if sa else None)
    check_paper_overrides(config.get("papers"), Path(papers_dir), schemas_dir)
    check_paper_overrides(config.get("studies"), Path(papers_dir), schemas_dir, "studies")
    return config


def papers_to_run(logs: Mapping[str, Iterable[str]], registry: Registry, strict: bool = False
                  ) -> tuple[list[str], str | None]:
    """(papers whose logs are all in ``registry``, one warning line naming the skipped ones);
    ``logs``: each paper's logs (the contract's ``logs(s)``), in report order. ``strict`` (the
    default registry, which names every paper's logs): a missing log is an error instead."""
    run, skipped = [], []
    for paper, names in logs.items():
        missing = [n for n in names if n not in registry]
        if missing and strict:
            raise ConfigError(f"paper {paper}: log(s) {', '.join(missing)} not in the registry "
                              f"{registry.source} (config/papers/{paper}.yaml or papers.{paper})")
        if missing:
            skipped.append(f"{paper} (needs {', '.join(missing)})")
        else:
            run.append(paper)
    if not skipped:
        return run, None
    return run, (f"schedlab: warning: registry {registry.source} lacks the logs of "
                 f"{len(skipped)} paper(s), skipped: {'; '.join(skipped)}")
