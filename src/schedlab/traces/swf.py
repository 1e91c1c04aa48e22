"""Standard Workload Format (SWF) reading and writing.

The SWF (Chapin et al., 1999; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html) is the
Parallel Workloads Archive's format: header comment lines starting with ``;`` (``; Key: value``,
continuation lines indented), then one job per line with 18 whitespace-separated numeric fields,
``-1`` for a missing value (fields and header: :mod:`.swf_format`).

:func:`read_swf` returns an :class:`SWFTrace`: a typed DataFrame with the 18 fields named as in
docs/design.md §3 (``-1`` kept) and the parsed :class:`SWFHeader`. :func:`write_swf` writes it back;
read -> write -> read is lossless (same frame, same header lines). :func:`parse_swf_to_parquet`
writes the job table straight to parquet, block by block: its memory does not grow with the number
of jobs (:mod:`.swf_scan`), and the file it writes holds the frame :func:`read_swf` returns.

Bad input raises :class:`~schedlab.errors.SWFFormatError` naming the file, the line number and the
offending text. With ``lenient=True`` bad job lines are skipped and counted instead.
"""

from __future__ import annotations

import gzip
import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .swf_format import FLOAT_COLUMNS as FLOAT_COLUMNS  # re-exported
from .swf_format import INT_HEADER_KEYS as INT_HEADER_KEYS  # re-exported
from .swf_format import N_FIELDS as N_FIELDS  # re-exported
from .swf_format import SWF_COLUMNS, SubmitOrder, SWFHeader
from .swf_scan import Scan, file_blocks, scan, text_blocks


@dataclass
class SWFTrace:
    """A parsed SWF file: the job table, its header and what lenient parsing skipped."""

    jobs: pd.DataFrame
    header: SWFHeader
    path: str = "<memory>"
    skipped: list[tuple[int, str, str]] = field(default_factory=list)  # (line, reason, text)
    renumbered: int = 0  # jobs given new ids (renumber_duplicates=True)

    @property
    def n_jobs(self) -> int:
        return len(self.jobs)


class _Frames:
    """A sink of :func:`~.swf_scan.scan` keeping the blocks' job tables in memory."""

    def __init__(self) -> None:
        self.frames: list[pd.DataFrame] = []

    def reset(self) -> None:
        self.frames = []

    def add(self, jobs: pd.DataFrame, scan: Scan) -> None:
        self.frames.append(jobs)


def _trace(s: Scan, jobs: pd.DataFrame, counted: bool = False) -> SWFTrace:
    """The trace of a scan: job ids renumbered, jobs sorted by submit time if asked (unless
    ``counted``: ``jobs`` is then an empty table standing for the scan's jobs)."""
    if s.renumber and not counted:
        jobs["job_id"] = np.arange(1, len(jobs) + 1, dtype=np.int64)
    if s.sort and not counted:
        jobs = jobs.sort_values("submit_time", kind="stable").reset_index(drop=True)
    return SWFTrace(jobs=jobs, header=s.header(), path=s.name, skipped=list(s.skipped),
                    renumbered=s.n_jobs if s.renumber else 0)


def read_swf(
    path: str | os.PathLike[str],
    *,
    lenient: bool = False,
    submit_order: SubmitOrder = "error",
    renumber_duplicates: bool = False,
) -> SWFTrace:
    """Read a plain or gzipped SWF file.

    Args:
        path: the file.
        lenient: skip malformed job lines (wrong field count, non-numeric or fractional values in
            integer fields) and record them in ``SWFTrace.skipped`` instead of raising.
        submit_order: what to do when a submit time is smaller than the previous one (the SWF
            requires jobs sorted by submit time): ``"error"`` raises, ``"keep"`` keeps file order,
            ``"sort"`` stably sorts by submit time.
        renumber_duplicates: when job ids repeat, number all jobs 1..n in file order instead of
            raising (``prev_job_id`` is left as in the file). Off by default.

    Raises:
        SWFFormatError: naming the file, line and text, for any malformed input.
    """
    path = Path(path)
    sink = _Frames()
    s = scan(file_blocks(path), str(path), sink, lenient=lenient, submit_order=submit_order,
             renumber_duplicates=renumber_duplicates)
    return _trace(s, _concat(sink.frames))


def parse_swf_text(
    text: str,
    name: str = "<memory>",
    *,
    lenient: bool = False,
    submit_order: SubmitOrder = "error",
    renumber_duplicates: bool = False,
    lines_per_block: int = 1 << 17,
) -> SWFTrace:
    """Parse SWF content already in memory (see :func:`read_swf`), ``lines_per_block`` lines at a
    time (the result does not depend on it)."""
    sink = _Frames()
    s = scan(text_blocks(text, lines_per_block), name, sink, lenient=lenient,
             submit_order=submit_order, renumber_duplicates=renumber_duplicates)
    return _trace(s, _concat(sink.frames))


class _ParquetSink:
    """A sink of :func:`~.swf_scan.scan` appending the blocks' job tables to a parquet file; the
    file's metadata is first the one of the scan so far (rewritten at the end if it changed)."""

    def __init__(self, out: Any, metadata: Callable[[SWFTrace], dict[str, Any]]) -> None:
        self.out, self.metadata = out, metadata

    def reset(self) -> None:
        self.out.reset()

    def add(self, jobs: pd.DataFrame, s: Scan) -> None:
        self.out.add(jobs, lambda: self.metadata(_trace(s, jobs.iloc[0:0], counted=True)))


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def parse_swf_to_parquet(
    path: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    metadata: Callable[[SWFTrace], dict[str, Any]],
    *,
    lenient: bool = False,
    submit_order: SubmitOrder = "error",
    renumber_duplicates: bool = False,
    block_bytes: int | None = None,
) -> tuple[SWFTrace, int]:
    """Parse an SWF file into the parquet job table ``dest`` a block at a time: memory flat in
    the number of jobs (:mod:`.swf_scan`). The file holds the frame :func:`read_swf` returns, with
    ``metadata(trace)`` (e.g. :func:`header_metadata`; ``trace.jobs`` is empty), and is written
    atomically (:func:`schedlab.io.parquet_blocks`). Returns that trace and the number of
    jobs.

    Job ids to renumber or a log to sort by submit time (``renumber_duplicates``,
    ``submit_order="sort"``, when the file needs it) take a second pass over the written file;
    sorting holds the job table in memory."""
    from ..io import parquet_blocks

    path = Path(path)
    blocks = file_blocks(path) if block_bytes is None else file_blocks(path, block_bytes)
    with parquet_blocks(dest) as out:
        s = scan(blocks, str(path), _ParquetSink(out, metadata), lenient=lenient,
                 submit_order=submit_order, renumber_duplicates=renumber_duplicates)
        trace = _trace(s, out.empty(), counted=True)
        out.finish(metadata(trace), renumber="job_id" if s.renumber else None,
                   sort_by="submit_time" if s.sort else None)
    return trace, s.n_jobs


def format_swf(trace: SWFTrace | pd.DataFrame, header: SWFHeader | None = None) -> str:
    """SWF text for a job table (and header). Floats are written in shortest round-trip form."""
    if isinstance(trace, SWFTrace):
        jobs, header = trace.jobs, trace.header if header is None else header
    else:
        jobs = trace
    missing = [c for c in SWF_COLUMNS if c not in jobs.columns]
    if missing:
        raise ValueError(f"job table lacks SWF columns: {missing}")
    buf = io.StringIO()
    for line in (header.lines if header is not None else []):
        buf.write(line + "\n")
    out = jobs.loc[:, list(SWF_COLUMNS)].copy()
    for c in FLOAT_COLUMNS:
        col = out[c].to_numpy()
        if np.all(col == np.round(col)):
            out[c] = col.astype(np.int64)
    out.to_csv(buf, sep=" ", header=False, index=False, lineterminator="\n")
    return buf.getvalue()


def write_swf(path: str | os.PathLike[str], trace: SWFTrace | pd.DataFrame,
              header: SWFHeader | None = None) -> None:
    """Atomically write an SWF file (gzipped when the name ends in ``.gz``)."""
    from ..io import atomic_path

    text = format_swf(trace, header)
    path = Path(path)
    with atomic_path(path) as tmp:
        if path.suffix == ".gz":
            # mtime=0 keeps the bytes reproducible
            with open(tmp, "wb") as fh, gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0) as gz:
                gz.write(text.encode())
        else:
            tmp.write_text(text)


def header_metadata(trace: SWFTrace) -> dict[str, Any]:
    """Parquet metadata for a parsed trace: the header plus parse provenance."""
    return {"swf_header": trace.header.to_dict(), "source": trace.path,
            "skipped_lines": len(trace.skipped)}
