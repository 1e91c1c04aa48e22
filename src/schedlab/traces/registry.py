"""The trace registry (``config/traces.yaml``): which logs exist, where to get them, their hashes.

An entry is keyed by trace name and gives ``file`` plus either ``url`` (archive download) or
``path`` (a local file), and ``sha256`` (or null: recorded in the lock file on first use).
:func:`load_registry` validates the file against ``workflow/schemas/traces.schema.yaml`` and reports
a bad entry by name and field. The loaded registry's types and its lock file are in
:mod:`.entries` (names re-exported here).
"""

from __future__ import annotations

import difflib
import hashlib
import os
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from ..errors import RegistryError
from ..pipeline.limits import MAX_YAML_BYTES, short_repr, too_many_values
from .download import fetch_trace, sha256_file
from .entries import MIRROR_ENV as MIRROR_ENV  # re-exported
from .entries import Registry, TraceEntry, read_lock, record_lock
from .entries import mirror_dir as mirror_dir  # re-exported

#: Repository root when running from a source checkout (editable install).
REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_REGISTRY = REPO_ROOT / "config" / "traces.yaml"
SCHEMA_PATH = REPO_ROOT / "workflow" / "schemas" / "traces.schema.yaml"
REGISTRY_ENV = "SCHEDLAB_REGISTRY"


class UniqueKeyLoader(yaml.SafeLoader):
    """A safe YAML loader that refuses a key repeated in one mapping (plain YAML keeps the last)."""


def _construct_unique_mapping(loader: UniqueKeyLoader, node: yaml.MappingNode,
                              deep: bool = False) -> dict[Any, Any]:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        line = key_node.start_mark.line + 1
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} on line {line} (first on line {seen[key]})",
                key_node.start_mark)
        seen[key] = line
    return loader.construct_mapping(node, deep=deep)


UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                _construct_unique_mapping)


def load_yaml_unique(path: Path, what: str, error: type[Exception]) -> Any:
    """Parse a YAML file with :class:`UniqueKeyLoader`; any problem -> ``error`` naming the file.

    Bounded (:mod:`schedlab.pipeline.limits`): a file over 16 MB, or a document holding more than a
    million values once its aliases are expanded (a "billion laughs"), is refused."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_YAML_BYTES:
            raise error(f"{path}: {size:,} bytes; a {what} file is at most {MAX_YAML_BYTES:,}")
        with open(path, encoding="utf-8") as fh:
            data = yaml.load(fh, Loader=UniqueKeyLoader)
    except OSError as e:
        raise error(f"{path}: cannot read {what} ({e.strerror})") from e
    except RecursionError as e:
        raise error(f"{path}: nested too deeply ({what})") from e
    except UnicodeDecodeError as e:
        raise error(f"{path}: not a text (UTF-8) YAML file ({what})") from e
    except yaml.constructor.ConstructorError as e:
        raise error(f"{path}: {e.problem}") from e
    except yaml.YAMLError as e:
        msg = " ".join(str(e).split())
        raise error(f"{path}: not valid YAML ({what}): {msg}") from e
    too_many = too_many_values(data)
    if too_many:
        raise error(f"{path}: {what} {too_many}")
    return data


def error_order(e: jsonschema.ValidationError) -> tuple[list[str], bool]:
    """Sort key of schema errors: by place, an unknown key first (it often explains the rest)."""
    unknown = e.validator == "additionalProperties" or "propertyNames" in e.relative_schema_path
    return [str(p) for p in e.absolute_path], not unknown


def schema_message(e: jsonschema.ValidationError) -> str:
    """The message of a schema error: an unknown key with the closest known one
    (:func:`unknown_key_message`), else jsonschema's, with the offending value quoted short (a whole
    foreign file given as a registry is not echoed)."""
    known = unknown_key_message(e)
    if known:
        return known
    text = repr(e.instance)
    return e.message.replace(text, short_repr(e.instance)) if len(text) > 80 else e.message


def unknown_key_message(e: jsonschema.ValidationError) -> str | None:
    """For an unknown key (``additionalProperties: false`` or a ``propertyNames`` enum): the key
    and the closest known key (difflib), e.g. ``unknown key 'fiel' (did you mean 'file'?)``."""
    if e.validator == "additionalProperties" and isinstance(e.instance, dict):
        known = list(e.schema.get("properties", {}))
        unknown = [k for k in e.instance if k not in known]
    elif "propertyNames" in e.relative_schema_path and e.validator == "enum":
        known, unknown = [str(k) for k in e.validator_value], [e.instance]
    else:
        return None
    if not unknown or not known:
        return None
    k = str(unknown[0])[:80]
    close = difflib.get_close_matches(k, known, n=1, cutoff=0.5)
    hint = f" (did you mean {close[0]!r}?)" if close else f"; known keys: {', '.join(known)}"
    more = f" (and {len(unknown) - 1} more unknown)" if len(unknown) > 1 else ""
    return f"unknown key {k!r}{hint}{more}"


def _load_schema() -> dict[str, Any]:
    with open(SCHEMA_PATH) as fh:
        return yaml.safe_load(fh)


def validate_registry_data(data: Any, source: str = "<registry>") -> None:
    """Validate parsed registry YAML; raise RegistryError naming the entry and field."""
    validator = jsonschema.Draft202012Validator(_load_schema())
    errors = sorted(validator.iter_errors(data), key=error_order)
    if not errors:
        return
    e = errors[0]
    message = schema_message(e)
    path = [str(p) for p in e.absolute_path]
    if len(path) >= 2 and path[0] == "traces":
        where = f"entry {path[1]!r}" + (f", field {'.'.join(path[2:])!r}" if len(path) > 2 else "")
    else:
        where = "top level" if not path else "/".join(path)
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    raise RegistryError(f"{source}: {where}: {message}{more}")


def load_registry(path: str | os.PathLike[str] | None = None) -> Registry:
    """Load and validate a registry file (default: $SCHEDLAB_REGISTRY or config/traces.yaml)."""
    source = Path(path or os.environ.get(REGISTRY_ENV) or DEFAULT_REGISTRY)
    if source.is_dir():
        raise RegistryError(f"{source}: is a directory, not a trace registry file")
    data = load_yaml_unique(source, "trace registry", RegistryError)
    validate_registry_data(data, str(source))
    entries = {}
    for name, fields in data["traces"].items():
        entries[name] = TraceEntry(name=name, **fields)
        if fields.get("path") and not Path(fields["path"]).is_absolute():
            # relative paths are relative to the registry file's directory's parent (repo root)
            entries[name] = TraceEntry(
                name=name, **{**fields, "path": str(source.parent.parent / fields["path"])}
            )
    return Registry(entries=entries, source=source, lock_path=lock_path_of(source))


#: Where the lock files of registries outside the project go (relative to the project).
OUTSIDE_LOCKS = Path("results") / "registry-locks"


def lock_path_of(source: Path, project: Path | None = None) -> Path:
    """The lock file of registry ``source``: ``traces.lock.tsv`` beside it when it is inside the
    project (the working directory, ``project``), else ``results/registry-locks/<name>-<hash of its
    path>.lock.tsv``: nothing is written beside a registry outside the project."""
    project = Path.cwd() if project is None else project
    where = source.resolve()
    if where.is_relative_to(project.resolve()):
        return source.with_name("traces.lock.tsv")
    digest = hashlib.sha256(str(where).encode()).hexdigest()[:12]
    return OUTSIDE_LOCKS / f"{where.stem}-{digest}.lock.tsv"


def check_local_changes(registry: Registry, accept: list[str] | tuple[str, ...] = (),
                        resources: Path = Path("resources") / "traces") -> list[str]:
    """Compare every local ``path:`` trace with the hash recorded in the lock file.

    A changed file named in ``accept`` gets its new hash recorded and its copy under ``resources``
    replaced (newer, so everything built from it is rebuilt); returns those names. Any other
    changed file raises RegistryError saying how to accept it.
    """
    for n in accept:
        registry[n]  # unknown name -> error naming the registry
    lock = read_lock(registry.lock_path)
    accepted = []
    for entry in registry.entries.values():
        if not entry.path or entry.sha256 or entry.name not in lock:
            continue
        p = Path(entry.path)
        if not p.is_file():
            continue
        actual = sha256_file(p)
        if actual == lock[entry.name]:
            continue
        if entry.name not in accept:
            raise RegistryError(
                f"trace {entry.name}: {p} changed since its sha256 was recorded in "
                f"{registry.lock_path} ({lock[entry.name][:12]}... -> {actual[:12]}...); if the new "
                f"file is right, run with --config 'accept_trace_changes=[{entry.name}]'"
            )
        record_lock(registry.lock_path, entry.name, actual)
        stale = resources / f"{entry.name}.swf.gz"
        if stale.exists():  # copy the new file now: its newer mtime reruns what depends on it
            fetch_trace(registry, entry.name, stale)
        accepted.append(entry.name)
    return accepted


