"""A loaded trace registry: its entries (:class:`TraceEntry`, :class:`Registry`), the lock file of
hashes recorded on first download, and the local mirror directory.

What :mod:`.registry` (reading and validating ``config/traces.yaml``) and :mod:`.download`
(fetching a trace) both use; neither is imported here, so the two do not import each other.
"""

from __future__ import annotations

import csv
import difflib
import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import RegistryError

MIRROR_ENV = "SCHEDLAB_TRACE_MIRROR"


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
    study: bool = False  # run every paper's study on this log (schedlab.papers.study_pairs)

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
            close = sorted(n for n in self.entries if name.lower() in n.lower())[:3] or \
                difflib.get_close_matches(name, list(self.entries), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
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
    """Record ``name``'s hash (atomically: temp file + rename, under an exclusive lock for parallel
    downloads; the ``.lck`` guard file stays and is git-ignored)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path.with_suffix(".lck"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        current = read_lock(lock_path)
        if current.get(name) == sha256:
            return
        current[name] = sha256
        tmp = lock_path.with_name(f".{lock_path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", newline="") as fh:
                fh.write("# sha256 of traces whose registry entry has none, recorded on first "
                         "download\n")
                writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
                for key in sorted(current):
                    writer.writerow([key, current[key]])
            os.replace(tmp, lock_path)
        finally:
            tmp.unlink(missing_ok=True)
