"""Trace lookup (registry name or path -> file -> parsed trace) and per-trace characteristics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import DownloadError, RegistryError
from .download import sha256_file
from .registry import MIRROR_ENV, Registry, TraceEntry, load_registry, mirror_dir
from .swf import SWFHeader, SWFTrace, header_metadata, parse_swf_to_parquet, read_swf

#: Where the download rule puts fetched traces, relative to the working directory.
RESOURCES_DIR = Path("resources") / "traces"


def resolve_trace(
    name_or_path: str, registry: Registry | None = None, mirror: Path | None = None
) -> tuple[Path, str | None, str]:
    """Find a trace file. Returns (path, registry name or None, submit_order).

    A registry name is looked up in ``resources/traces/`` (downloaded), then the mirror, then the
    entry's ``path``; a mirrored copy is hash-checked. Anything else is taken as a file path.
    """
    p = Path(name_or_path)
    if p.suffix in {".swf", ".gz"} or p.exists():
        if p.is_dir():
            raise RegistryError(f"{p}: is a directory, not a trace file")
        if not p.is_file():
            raise RegistryError(f"{p}: no such trace file")
        return p, None, "error"
    registry = registry or load_registry()
    entry = registry[name_or_path]
    if mirror is None:
        mirror = mirror_dir()
        if mirror is not None and not mirror.is_dir():
            raise RegistryError(f"trace mirror {mirror} (${MIRROR_ENV}): no such directory")
    candidates = [RESOURCES_DIR / entry.name / entry.file, RESOURCES_DIR / f"{entry.name}.swf.gz"]
    if mirror is not None:
        candidates.append(mirror / entry.file)
    if entry.path:
        candidates.append(Path(entry.path))
    for c in candidates:
        if c.is_file():
            expected = registry.expected_sha256(entry.name)
            if expected is not None and c.parent != RESOURCES_DIR:
                actual = sha256_file(c)
                if actual != expected:
                    how = (f"; if the new file is right, accept it with `snakemake --config "
                           f"accept_trace_changes=[{entry.name}]`" if entry.path and
                           Path(entry.path) == c else "")
                    raise DownloadError(
                        f"{c}: sha256 mismatch for {entry.name}: expected {expected}, got "
                        f"{actual}{how}"
                    )
            return c, entry.name, entry.submit_order
    if entry.path:
        raise DownloadError(
            f"{registry.source}: trace {entry.name}: path {entry.path} does not exist"
        )
    raise DownloadError(
        f"trace {entry.name} is not available locally: run "
        f"`snakemake resources/traces/{entry.name}.swf.gz` or set {MIRROR_ENV} to a directory "
        f"holding {entry.file}"
    )


def load_trace(
    name_or_path: str,
    registry: Registry | None = None,
    mirror: Path | None = None,
    lenient: bool = False,
    renumber_duplicates: bool = False,
) -> SWFTrace:
    """Parse a trace given by registry name or path (a registry ``machine_size`` fills a header
    without MaxProcs/MaxNodes)."""
    path, name, order = resolve_trace(name_or_path, registry, mirror)
    trace = read_swf(path, lenient=lenient, submit_order=order,  # type: ignore[arg-type]
                     renumber_duplicates=renumber_duplicates)
    if name is not None:
        trace.header = with_registry_machine_size(trace.header, (registry or load_registry())[name])
    return trace


def parse_trace_to_parquet(
    name_or_path: str,
    dest: str | Path,
    registry: Registry | None = None,
    mirror: Path | None = None,
    lenient: bool = False,
    renumber_duplicates: bool = False,
    extra: dict[str, Any] | None = None,
) -> tuple[SWFTrace, int]:
    """:func:`load_trace`, written straight to the parquet job table ``dest`` a block at a time
    (memory flat in the number of jobs; :func:`~.swf.parse_swf_to_parquet`), with the metadata of
    :func:`~.swf.header_metadata` and ``extra``. Returns the trace (without its job table) and the
    number of jobs."""
    path, name, order = resolve_trace(name_or_path, registry, mirror)
    entry = (registry or load_registry())[name] if name is not None else None

    def metadata(trace: SWFTrace) -> dict[str, Any]:
        if entry is not None:
            trace.header = with_registry_machine_size(trace.header, entry)
        return header_metadata(trace) | (extra or {})

    return parse_swf_to_parquet(path, dest, metadata, lenient=lenient,
                                submit_order=order,  # type: ignore[arg-type]
                                renumber_duplicates=renumber_duplicates)


def with_registry_machine_size(header: SWFHeader, entry: TraceEntry) -> SWFHeader:
    """The header, with ``; MaxProcs: N (registry machine_size)`` added when the file gives no
    machine size and the registry entry does (docs/design.md §3: the header's size is the default)."""
    if (header.machine_size is not None and header.machine_size > 0) or not entry.machine_size:
        return header
    lines = [ln for ln in header.lines if not ln.lstrip(";").strip().startswith("MaxProcs:")]
    lines.append(f"; MaxProcs: {entry.machine_size} (registry machine_size; the file's header "
                 "has none)")
    return SWFHeader.parse(lines)


def procs_used(jobs: pd.DataFrame) -> np.ndarray:
    """Processors per job as the archive counts them: allocated, else requested."""
    alloc = jobs["alloc_procs"].to_numpy()
    return np.where(alloc > 0, alloc, jobs["req_procs"].to_numpy())


def trace_characteristics(trace: SWFTrace, machine_size: int | None = None) -> dict[str, Any]:
    """Jobs, users, time span, machine size, offered load and estimate coverage of a trace.

    Offered load = sum(run_time x processors) / (machine size x submit span), over jobs with known
    run time and processors.
    """
    j = trace.jobs
    size = machine_size or trace.header.machine_size
    submit = j["submit_time"].to_numpy()
    span = float(submit.max() - submit.min()) if len(j) else 0.0
    procs = procs_used(j)
    run = j["run_time"].to_numpy()
    ok = (procs > 0) & (run >= 0)
    work = float(np.sum(run[ok].astype(np.float64) * procs[ok]))
    users = j["user_id"][j["user_id"] >= 0].nunique()
    start = trace.header.unix_start_time
    return {
        "jobs": len(j),
        "users": int(users),
        "first_submit": int(submit.min()),
        "last_submit": int(submit.max()),
        "span_days": span / 86400.0,
        "unix_start_time": start,
        "start_date": (
            pd.Timestamp(start, unit="s", tz="UTC").tz_convert(trace.header.time_zone_string or "UTC")
            .strftime("%Y-%m-%d") if start is not None else None
        ),
        "machine_size": size,
        "offered_load": work / (size * span) if size and span > 0 else float("nan"),
        "estimate_coverage": float(np.mean(j["req_time"].to_numpy() > 0)),
        "mean_run_time": float(run[run >= 0].mean()) if (run >= 0).any() else float("nan"),
        "mean_procs": float(procs[procs > 0].mean()) if (procs > 0).any() else float("nan"),
        "skipped_lines": len(trace.skipped),
    }
