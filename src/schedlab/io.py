"""File I/O at the edges: atomic writes, parquet with provenance metadata, JSON.

Every output is written to a temporary file in the destination directory and renamed into place,
so an interrupted run never leaves a half-written file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

METADATA_KEY = b"schedlab"


@contextlib.contextmanager
def atomic_path(dest: str | os.PathLike[str], suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path next to ``dest``; rename it onto ``dest`` only on success."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=suffix or ".tmp", dir=dest.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_text(dest: str | os.PathLike[str], text: str) -> None:
    """Atomically write ``text`` to ``dest``."""
    with atomic_path(dest) as tmp:
        tmp.write_text(text)


def write_json(dest: str | os.PathLike[str], obj: Any) -> None:
    """Atomically write ``obj`` as pretty, key-sorted JSON (deterministic bytes)."""
    write_text(dest, json.dumps(obj, indent=2, sort_keys=True, default=_json_default) + "\n")


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
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    if metadata is not None:
        meta[METADATA_KEY] = json.dumps(metadata, sort_keys=True, default=_json_default).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(dest, suffix=".parquet.tmp") as tmp:
        pq.write_table(table, tmp, compression="zstd")


def read_parquet(path: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read a parquet file written by :func:`write_parquet`; return (frame, schedlab metadata)."""
    table = pq.read_table(path)
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    meta = json.loads(raw) if raw else {}
    return table.to_pandas(), meta


def read_parquet_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Only the schedlab metadata of a parquet file (cheap: reads the footer)."""
    raw = (pq.read_schema(path).metadata or {}).get(METADATA_KEY)
    return json.loads(raw) if raw else {}
