"""File I/O at the edges: atomic writes, parquet with provenance metadata, strict JSON.

A ground module beside :mod:`schedlab.errors`: every stage that writes or reads a result file
(traces, papers, report, cli, the Snakemake scripts) uses it, and it uses nothing of schedlab but
the errors, so no stage has to import a higher one to write its outputs.

Every output is written to a temporary file in the destination directory and renamed into place,
so an interrupted run (or a full disk) never leaves a half-written file behind.
:func:`check_output_path` validates an output path before any work is done. JSON is strict
(``allow_nan=False``): a non-finite number is written as ``null`` and named under ``null_reasons``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import SchedlabError

if TYPE_CHECKING:
    import pandas as pd

METADATA_KEY = b"schedlab"
#: OS errors that mean "this output cannot be written here" (a user's problem, not a bug).
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM,
                 errno.ENOTDIR, errno.EISDIR}


class OutputPathError(SchedlabError):
    """An output path that cannot be written (names the path and why)."""


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
    obj = json.loads(Path(path).read_text())
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


def read_parquet(path: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read a parquet file written by :func:`write_parquet`; return (frame, schedlab metadata)."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    meta = with_nan(json.loads(raw)) if raw else {}
    return table.to_pandas(), meta


def read_parquet_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Only the schedlab metadata of a parquet file (cheap: reads the footer)."""
    import pyarrow.parquet as pq

    raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
    return with_nan(json.loads(raw)) if raw else {}
