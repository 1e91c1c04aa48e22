"""The trace registry (``config/traces.yaml``): which logs exist, where to get them, their hashes.

An entry is keyed by trace name and gives ``file`` plus either ``url`` (archive download) or
``path`` (a local file), and ``sha256`` (or null: recorded in the lock file on first use).
:func:`load_registry` validates the file against ``workflow/schemas/traces.schema.yaml`` and reports
a bad entry by name and field.
"""

from __future__ import annotations

import csv
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import RegistryError

#: Repository root when running from a source checkout (editable install).
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_REGISTRY = REPO_ROOT / "config" / "traces.yaml"
SCHEMA_PATH = REPO_ROOT / "workflow" / "schemas" / "traces.schema.yaml"
MIRROR_ENV = "SCHEDLAB_TRACE_MIRROR"
REGISTRY_ENV = "SCHEDLAB_REGISTRY"


@dataclass(frozen=True)
class TraceEntry:
    """One registered trace."""

    name: str
    file: str
    kind: str
    description: str
    url: str | None = None
    path: str | None = None
    sha256: str | None = None
    jobs: int | None = None
    machine_size: int | None = None
    citation: str = ""
    notes: str = ""
    raw: str | None = None
    submit_order: str = "error"
    study: bool = False  # run every paper's study on this log (schedlab.trace_studies, issue 10)

    @property
    def downloadable(self) -> bool:
        return self.url is not None


@dataclass(frozen=True)
class Registry:
    """All registered traces, by name, plus where the registry file is."""

    entries: dict[str, TraceEntry]
    source: Path
    lock_path: Path

    def __getitem__(self, name: str) -> TraceEntry:
        try:
            return self.entries[name]
        except KeyError:
            close = sorted(n for n in self.entries if name.lower() in n.lower())
            hint = f"; did you mean {', '.join(close[:3])}?" if close else ""
            raise RegistryError(
                f"{self.source}: no trace named {name!r} in the registry{hint}"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def names(self) -> list[str]:
        return list(self.entries)

    def expected_sha256(self, name: str) -> str | None:
        """The registry's hash, else the one recorded in the lock file, else None."""
        entry = self[name]
        return entry.sha256 or read_lock(self.lock_path).get(name)


def _load_schema() -> dict[str, Any]:
    with open(SCHEMA_PATH) as fh:
        return yaml.safe_load(fh)


def validate_registry_data(data: Any, source: str = "<registry>") -> None:
    """Validate parsed registry YAML; raise RegistryError naming the entry and field."""
    validator = jsonschema.Draft202012Validator(_load_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if not errors:
        return
    e = errors[0]
    path = [str(p) for p in e.absolute_path]
    if len(path) >= 2 and path[0] == "traces":
        where = f"entry {path[1]!r}" + (f", field {'.'.join(path[2:])!r}" if len(path) > 2 else "")
    else:
        where = "top level" if not path else "/".join(path)
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    raise RegistryError(f"{source}: {where}: {e.message}{more}")


def load_registry(path: str | os.PathLike[str] | None = None) -> Registry:
    """Load and validate a registry file (default: $SCHEDLAB_REGISTRY or config/traces.yaml)."""
    source = Path(path or os.environ.get(REGISTRY_ENV) or DEFAULT_REGISTRY)
    try:
        with open(source) as fh:
            data = yaml.safe_load(fh)
    except OSError as e:
        raise RegistryError(f"{source}: cannot read trace registry ({e.strerror})") from e
    except yaml.YAMLError as e:
        raise RegistryError(f"{source}: not valid YAML: {e}") from e
    validate_registry_data(data, str(source))
    entries = {}
    for name, fields in data["traces"].items():
        entries[name] = TraceEntry(name=name, **fields)
        if fields.get("path") and not Path(fields["path"]).is_absolute():
            # relative paths are relative to the registry file's directory's parent (repo root)
            entries[name] = TraceEntry(
                name=name, **{**fields, "path": str(source.parent.parent / fields["path"])}
            )
    return Registry(entries=entries, source=source, lock_path=source.with_name("traces.lock.tsv"))


def mirror_dir(config_value: str | None = None) -> Path | None:
    """The local mirror directory: env SCHEDLAB_TRACE_MIRROR, else the config value, else None."""
    value = os.environ.get(MIRROR_ENV) or config_value
    return Path(value).expanduser() if value else None


# --- lock file: hashes recorded on first download of entries without a registry sha256 ----------

def read_lock(lock_path: Path) -> dict[str, str]:
    """name -> sha256 recorded in the lock file (empty when it does not exist)."""
    if not lock_path.exists():
        return {}
    with open(lock_path, newline="") as fh:
        rows = csv.reader((line for line in fh if not line.startswith("#")), delimiter="\t")
        return {r[0]: r[1] for r in rows if len(r) >= 2}


def record_lock(lock_path: Path, name: str, sha256: str) -> None:
    """Record ``name``'s hash (atomically, under an exclusive lock for parallel downloads)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path.with_suffix(".lck"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        current = read_lock(lock_path)
        if current.get(name) == sha256:
            return
        current[name] = sha256
        tmp = lock_path.with_suffix(".tmp")
        with open(tmp, "w", newline="") as fh:
            fh.write("# sha256 of traces whose registry entry has none, recorded on first download\n")
            writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
            for key in sorted(current):
                writer.writerow([key, current[key]])
        os.replace(tmp, lock_path)
