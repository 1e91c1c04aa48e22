"""File I/O at the edges: atomic writes, parquet with provenance metadata, strict JSON.

A ground module beside :mod:`schedlab.errors`: every stage that writes or reads a result file
(traces, papers, report, cli, the Snakemake scripts) uses it, and it uses nothing of schedlab but
the errors, so no stage has to import a higher one to write its outputs.

Every output is written to a temporary file in the destination directory and renamed into place,
so an interrupted run (or a full disk) never leaves a half-written file behind.
:func:`check_output_path` validates an output path before any work is done. JSON is strict
(``allow_nan=False``): a non-finite number is written as ``null`` and named under ``null_reasons``.
Reading is checked: a parquet or JSON file that cannot be read back (cut short by a crash or a full
disk, edited by hand) raises :class:`CorruptFileError` naming the file, and :func:`file_record` /
:func:`check_record` compare a file with the size and sha256 recorded when it was written.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import CorruptFileError, SchedlabError

if TYPE_CHECKING:
    import pandas as pd

METADATA_KEY = b"schedlab"
#: OS errors that mean "this output cannot be written here" (a user's problem, not a bug).
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM,
                 errno.ENOTDIR, errno.EISDIR}


class OutputPathError(SchedlabError):
    """An output path that cannot be written (names the path and why)."""


def sha256_file(path: str | os.PathLike[str], chunk: int = 1 << 20) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def file_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """What is recorded of a written file to verify it later: its size in bytes and sha256."""
    return {"size": Path(path).stat().st_size, "sha256": sha256_file(path)}


def check_record(path: str | os.PathLike[str], record: dict[str, Any], where: str) -> None:
    """Raise CorruptFileError unless ``path`` still has the size and sha256 of ``record`` (as
    :func:`file_record` made it; recorded in ``where``)."""
    path = Path(path)
    if not path.is_file():
        raise CorruptFileError(path, f"missing, though {where} records it")
    size = path.stat().st_size
    if size != record["size"]:
        raise CorruptFileError(path, f"{size:,} bytes, but {where} records {record['size']:,} "
                                     "(truncated or changed after it was written)")
    if sha256_file(path) != record["sha256"]:
        raise CorruptFileError(path, f"sha256 differs from the one {where} records (changed "
                                     "after it was written)")


def _unreadable(path: str | os.PathLike[str], what: str, e: BaseException) -> CorruptFileError:
    first = (str(e).splitlines() or [type(e).__name__])[0][:200]
    return CorruptFileError(path, f"unreadable {what}, truncated or corrupt ({first})")


def check_output_path(dest: str | os.PathLike[str], *, directory: bool = False,
                      what: str = "output") -> Path:
    """Raise OutputPathError unless ``dest`` can be created or replaced; call before any work.

    Checks: ``dest`` is not an existing directory (or, with ``directory=True``, not an existing
    file); no parent is a regular file; the nearest existing parent is a writable directory.
    """
    dest = Path(dest)
    if directory:
        if dest.exists() and not dest.is_dir():
            raise OutputPathError(f"{what} {dest}: exists and is not a directory")
    elif dest.is_dir():
        raise OutputPathError(f"{what} {dest}: is a directory; give a file name")
    parent = dest if directory else dest.parent
    parent = parent if str(parent) else Path(".")
    while not parent.exists():
        if parent.is_symlink():
            raise OutputPathError(f"{what} {dest}: {parent} is a dangling symbolic link")
        parent = parent.parent
    if not parent.is_dir():
        raise OutputPathError(f"{what} {dest}: {parent} is a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"{what} {dest}: directory {parent} is not writable")
    return dest


def _is_write_error(e: BaseException) -> bool:
    return isinstance(e, OSError) and (
        e.errno in _WRITE_ERRNOS or "No space left on device" in str(e)
    )


@contextlib.contextmanager
def atomic_path(dest: str | os.PathLike[str], suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path next to ``dest``; rename it onto ``dest`` only on success.

    On any failure the temporary file is removed and ``dest`` is left as it was; a write error
    (full disk, read-only or non-writable directory) becomes one OutputPathError line.
    """
    dest = Path(dest)
    tmp_path: Path | None = None
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=suffix or ".tmp",
                                   dir=dest.parent)
        os.close(fd)
        tmp_path = Path(tmp)
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, dest)
    except BaseException as e:
        if tmp_path is not None:
            with contextlib.suppress(FileNotFoundError):
                tmp_path.unlink()
        if _is_write_error(e):
            reason = os.strerror(e.errno) if getattr(e, "errno", None) else str(e)
            raise OutputPathError(f"cannot write {dest}: {reason}; nothing written") from e
        raise


def write_text(dest: str | os.PathLike[str], text: str) -> None:
    """Atomically write ``text`` to ``dest``."""
    with atomic_path(dest) as tmp:
        tmp.write_text(text)


def strict_json_value(obj: Any, reasons: dict[str, str] | None = None,
                      null_reasons: dict[str, str] | None = None, _path: str = "") -> Any:
    """``obj`` with every non-finite float replaced by None; each replaced key's dotted path is
    recorded in ``null_reasons`` with the caller's reason (``reasons[path]`` or ``reasons[key]``)
    or, by default, "not computable (nan)"."""
    if isinstance(obj, np.ndarray):
        obj = obj.tolist()
    if isinstance(obj, dict):
        return {k: strict_json_value(v, reasons, null_reasons, f"{_path}.{k}" if _path else str(k))
                for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [strict_json_value(v, reasons, null_reasons, f"{_path}[{i}]")
                for i, v in enumerate(obj)]
    if isinstance(obj, np.generic):  # numpy scalar
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        if null_reasons is not None:
            key = _path.rsplit(".", 1)[-1]
            r = (reasons or {})
            null_reasons[_path] = r.get(_path) or r.get(key) or f"not computable ({obj})"
        return None
    return obj


def dumps_strict(obj: Any, reasons: dict[str, str] | None = None, **kw: Any) -> str:
    """Strict JSON text (``allow_nan=False``); non-finite numbers -> null, named under
    ``null_reasons`` when ``obj`` is a dict."""
    null_reasons: dict[str, str] = {}
    clean = strict_json_value(obj, reasons, null_reasons)
    if null_reasons and isinstance(clean, dict):
        clean["null_reasons"] = {**clean.get("null_reasons", {}), **null_reasons}
    return json.dumps(clean, allow_nan=False, default=_json_default, **kw)


def write_json(dest: str | os.PathLike[str], obj: Any,
               reasons: dict[str, str] | None = None) -> None:
    """Atomically write ``obj`` as pretty, key-sorted, strict JSON (deterministic bytes).

    A NaN/inf value is written as ``null`` and listed under ``null_reasons`` with
    ``reasons[key]`` (or "not computable").
    """
    write_text(dest, dumps_strict(obj, reasons, indent=2, sort_keys=True) + "\n")


def with_nan(obj: Any) -> Any:
    """Inverse of the strict writing for readers that compute: every value listed under
    ``null_reasons`` (written as null) becomes NaN again; ``null_reasons`` is dropped."""
    if not isinstance(obj, dict) or "null_reasons" not in obj:
        return obj
    out = json.loads(json.dumps(obj))  # deep copy
    for path, reason in out.pop("null_reasons").items():
        keys = [int(k) if k.isdigit() else k
                for k in path.replace("[", ".").replace("]", "").split(".") if k != ""]
        node = out
        for k in keys[:-1]:
            node = node[k]
        if node[keys[-1]] is None:
            node[keys[-1]] = float("-inf" if "(-inf)" in reason else
                                   "inf" if "(inf)" in reason else "nan")
    return out


def read_json(path: str | os.PathLike[str], nan: bool = True) -> Any:
    """Read JSON written by :func:`write_json`; with ``nan`` the nulls of ``null_reasons`` become
    NaN (as the writer's numbers were)."""
    try:
        obj = json.loads(Path(path).read_text())
    except (ValueError, UnicodeDecodeError) as e:  # json.JSONDecodeError is a ValueError
        raise _unreadable(path, "JSON", e) from e
    return with_nan(obj) if nan else obj


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):  # numpy scalar
        return o.item()
    if hasattr(o, "tolist"):
        return o.tolist()
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serializable: {type(o).__name__}")


def write_parquet(
    dest: str | os.PathLike[str], df: pd.DataFrame, metadata: dict[str, Any] | None = None
) -> None:
    """Atomically write ``df`` to parquet; ``metadata`` (JSON-able) is stored under ``schedlab``.

    The output bytes depend only on the data, the metadata and the library versions.
    """
    import pyarrow as pa  # imported here: a command that writes no parquet starts without it
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    if metadata is not None:
        meta[METADATA_KEY] = dumps_strict(metadata, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(dest, suffix=".parquet.tmp") as tmp:
        pq.write_table(table, tmp, compression="zstd")


class ParquetBlocks:
    """A parquet file written one frame (row group) at a time (:func:`parquet_blocks`): the
    metadata is the one asked when the first frame is written; :meth:`finish` rewrites the file
    (one row group at a time) when the final metadata differs, a column is to be numbered 1..n, or
    the rows are to be sorted (in memory)."""

    def __init__(self, tmp: Path) -> None:
        self._tmp = tmp
        self._writer: Any = None
        self._meta: bytes | None = None
        self._empty: pd.DataFrame | None = None

    def reset(self) -> None:
        """Start the file again, empty."""
        if self._writer is not None:
            self._writer.close()
        self._writer, self._meta = None, None
        self._tmp.write_bytes(b"")

    def add(self, df: pd.DataFrame, metadata: Callable[[], dict[str, Any]]) -> None:
        """Append ``df``; ``metadata()`` is asked for the first frame only."""
        import pyarrow.parquet as pq

        if self._writer is None:
            self._meta = dumps_strict(metadata(), sort_keys=True).encode()
            self._empty = df.iloc[0:0].copy()
            table = _table(df, self._meta)
            self._writer = pq.ParquetWriter(self._tmp, table.schema, compression="zstd")
        self._writer.write_table(_table(df, self._meta))

    def empty(self) -> pd.DataFrame:
        """An empty frame with the columns written."""
        if self._empty is None:
            raise ValueError("no frame written")
        return self._empty.copy()

    def finish(self, metadata: dict[str, Any], renumber: str | None = None,
               sort_by: str | None = None) -> None:
        """Close the file with ``metadata``; number column ``renumber`` 1..n, then sort the rows by
        ``sort_by`` (stable), when given."""
        import pandas as pd
        import pyarrow.parquet as pq

        self._writer.close()
        self._writer = None
        meta = dumps_strict(metadata, sort_keys=True).encode()
        if meta == self._meta and renumber is None and sort_by is None:
            return
        source = pq.ParquetFile(self._tmp)
        again = self._tmp.with_name(self._tmp.name + ".again")
        try:
            frames = (source.read_row_group(i).to_pandas() for i in range(source.num_row_groups))
            if sort_by is not None:
                frames = iter([pd.concat(list(frames), ignore_index=True)])
            with pq.ParquetWriter(again, _table(self._empty, meta).schema,
                                  compression="zstd") as writer:
                start = 1
                for df in frames:
                    if renumber is not None:
                        df[renumber] = np.arange(start, start + len(df), dtype=np.int64)
                        start += len(df)
                    if sort_by is not None:
                        df = df.sort_values(sort_by, kind="stable").reset_index(drop=True)
                    writer.write_table(_table(df, meta))
            source.close()
            os.replace(again, self._tmp)
        finally:
            again.unlink(missing_ok=True)


def _table(df: pd.DataFrame, meta: bytes | None) -> Any:
    import pyarrow as pa

    table = pa.Table.from_pandas(df, preserve_index=False)
    extra = {} if meta is None else {METADATA_KEY: meta}
    return table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})


@contextlib.contextmanager
def parquet_blocks(dest: str | os.PathLike[str]) -> Iterator[ParquetBlocks]:
    """Write ``dest`` a frame at a time (:class:`ParquetBlocks`), atomically like
    :func:`write_parquet`: nothing is left behind when the block fails."""
    with atomic_path(dest, suffix=".parquet.tmp") as tmp:
        out = ParquetBlocks(tmp)
        try:
            yield out
        finally:
            if out._writer is not None:
                out._writer.close()


def read_parquet(path: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read a parquet file written by :func:`write_parquet`; return (frame, schedlab metadata).

    A file that cannot be read (truncated, corrupt, not parquet) raises CorruptFileError."""
    import pyarrow.parquet as pq

    _check_exists(path)
    try:
        table = pq.read_table(path)
        raw = (table.schema.metadata or {}).get(METADATA_KEY)
        meta = with_nan(json.loads(raw)) if raw else {}
    except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
        raise _unreadable(path, "parquet", e) from e
    return table.to_pandas(), meta


def read_parquet_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Only the schedlab metadata of a parquet file (cheap: reads the footer)."""
    import pyarrow.parquet as pq

    _check_exists(path)
    try:
        raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
        return with_nan(json.loads(raw)) if raw else {}
    except (OSError, ValueError) as e:
        raise _unreadable(path, "parquet", e) from e


def _check_exists(path: str | os.PathLike[str]) -> None:
    if not Path(path).is_file():
        raise CorruptFileError(path, "is a directory, not a file" if Path(path).is_dir()
                               else "no such file")
