"""Fetching registered traces: local mirror first, then the archive URL, always hash-checked.

The file is assembled in a temporary file beside the destination, checked (complete gzip stream,
expected length, sha256) and only then renamed into place, so a failed or interrupted download
leaves nothing behind.
"""

from __future__ import annotations

import gzip
import shutil
import socket
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from pathlib import Path

from ..errors import DownloadError
from ..io import atomic_path
from ..io import sha256_file as sha256_file  # re-exported
from .entries import MIRROR_ENV, Registry, TraceEntry, record_lock


def check_gzip(path: Path, label: str) -> None:
    """Raise DownloadError if a .gz file is truncated or corrupt."""
    if not str(label).endswith(".gz"):
        return
    try:
        with gzip.open(path, "rb") as fh:
            while fh.read(1 << 22):
                pass
    except (EOFError, OSError, zlib.error) as e:
        raise DownloadError(f"{label}: truncated or corrupt gzip data ({e}); nothing kept") from e


def verify(path: Path, entry: TraceEntry, registry: Registry, origin: str) -> str:
    """Check integrity and hash of a fetched file; record the hash when none is known yet."""
    check_gzip(path, entry.file)
    actual = sha256_file(path)
    expected = registry.expected_sha256(entry.name)
    if expected is None:
        record_lock(registry.lock_path, entry.name, actual)
    elif actual != expected:
        how = ""
        if entry.sha256 is None:  # the expected hash is the lock file's: say how to accept
            how = (f"; if the new file is right, accept it with `snakemake --config "
                   f"accept_trace_changes=[{entry.name}]` (updates {registry.lock_path})")
        raise DownloadError(
            f"{entry.file} from {origin}: sha256 mismatch: expected {expected}, got {actual}; "
            f"nothing kept{how}"
        )
    return actual


def _gzip_in_place(path: Path, entry: TraceEntry) -> None:
    """Traces are stored gzipped; a plain .swf source (hash checked first) is compressed."""
    if entry.file.endswith(".gz"):
        return
    data = path.read_bytes()
    with open(path, "wb") as fh, gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0) as gz:
        gz.write(data)


def _mirror_candidate(entry: TraceEntry, mirror: Path | None) -> Path | None:
    if mirror is not None and (mirror / entry.file).is_file():
        return mirror / entry.file
    if entry.path is not None and Path(entry.path).is_file():
        return Path(entry.path)
    return None


def _http_get(url: str, dest: Path, timeout: float) -> None:
    with urllib.request.urlopen(url, timeout=timeout) as resp, open(dest, "wb") as out:
        expected = resp.headers.get("Content-Length")
        shutil.copyfileobj(resp, out, 1 << 20)
    if expected is not None and dest.stat().st_size != int(expected):
        raise DownloadError(
            f"{url}: truncated download ({dest.stat().st_size} of {expected} bytes); nothing kept"
        )


def _is_permanent(err: BaseException) -> bool:
    """No point retrying: name resolution failure (no network) or an HTTP 4xx answer."""
    if isinstance(err, urllib.error.HTTPError):
        return 400 <= err.code < 500
    reason = getattr(err, "reason", err)
    return isinstance(reason, socket.gaierror)


def fetch_trace(
    registry: Registry,
    name: str,
    dest: str | Path,
    *,
    mirror: Path | None = None,
    timeout: float = 30.0,
    retries: int = 3,
    backoff: float = 1.0,
    log: Callable[[str], None] = lambda msg: None,
) -> str:
    """Fetch trace ``name`` to ``dest`` (mirror or local path first, then URL). Returns the sha256.

    Raises DownloadError with a one-line reason: hash mismatch (both hashes), truncated data, no
    network and no mirror (saying how to set one), or a URL that keeps failing after ``retries``.
    """
    entry = registry[name]
    dest = Path(dest)
    local = _mirror_candidate(entry, mirror)
    if local is not None:
        with atomic_path(dest) as tmp:
            shutil.copyfile(local, tmp)
            digest = verify(tmp, entry, registry, str(local))
            _gzip_in_place(tmp, entry)
        log(f"{name}: copied from {local} (sha256 {digest[:12]}...)")
        return digest
    how = (
        f"set config trace_mirror or the environment variable {MIRROR_ENV} to a directory "
        f"holding {entry.file}"
    )
    if entry.url is None and entry.path is not None:
        raise DownloadError(f"{registry.source}: trace {name}: path {entry.path} does not exist")
    if entry.url is None:
        where = f"mirror {mirror}" if mirror else "no mirror set"
        raise DownloadError(f"{name}: {entry.file} has no URL and is not in the mirror ({where}); {how}")
    last: BaseException | None = None
    for attempt in range(retries + 1):
        try:
            with atomic_path(dest) as tmp:
                _http_get(entry.url, tmp, timeout)
                digest = verify(tmp, entry, registry, entry.url)
                _gzip_in_place(tmp, entry)
            log(f"{name}: downloaded {entry.url} (sha256 {digest[:12]}...)")
            return digest
        except DownloadError:
            raise
        except (urllib.error.URLError, OSError, TimeoutError) as e:
            last = e
            if _is_permanent(e):
                break
            if attempt < retries:
                wait = backoff * 2**attempt
                log(f"{name}: attempt {attempt + 1} failed ({e}); retrying in {wait:.0f} s")
                time.sleep(wait)
    reason = getattr(last, "reason", last)
    raise DownloadError(f"{name}: cannot download {entry.url} ({reason}); {how}")
