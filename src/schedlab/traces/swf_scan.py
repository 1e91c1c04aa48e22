"""Reading SWF job lines in chunks, so memory stays flat in the number of jobs.

:func:`scan` reads a file (plain or gzipped) in blocks of lines and hands each block's job table to a
sink (a list, or a parquet file written row group by row group): what it keeps for the whole file is
the comment lines, the skipped lines (lenient), and per job its id (8 bytes; the line numbers as
ranges) for the repeated-id check. The result is the one of reading the whole file at once, error for error:

* a problem is recorded where it is found and raised at the end in the order a whole-file reading
  meets them: a line with the wrong field count, then a bad header field, no job lines, a non-numeric
  field, a bad value (non-finite, outside int64, fractional, a processor count below -1), a repeated
  job id, submit times going backwards; the first of its kind in file order;
* numbers are parsed by pandas' C parser; when a block holds a token it refuses, every block is read
  again with Python's ``float`` (line by line, naming the first bad token), as a whole-file reading
  does for the whole file; a file that is not UTF-8 is read again as Latin-1 (its comments decoded
  alike).

Bad input raises :class:`~schedlab.errors.SWFFormatError` naming the file, the line and the text.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from ..errors import SWFFormatError
from .swf_format import (
    FLOAT_COLUMNS,
    INT64_LIMIT,
    N_FIELDS,
    PROCS_COLUMNS,
    SWF_COLUMNS,
    SubmitOrder,
    SWFHeader,
)

#: Bytes read (decompressed) per block; a block ends at a line break.
BLOCK_BYTES = 1 << 21
_INT_COL_IDX = np.array([i for i, c in enumerate(SWF_COLUMNS) if c not in FLOAT_COLUMNS])


class _ReadSlowly(Exception):
    """A block holds a token pandas refuses: read every block with Python's float."""


class _NotUTF8(Exception):
    """A block is not UTF-8: read the file as Latin-1."""


class Sink(Protocol):
    """Where the job tables of the blocks go."""

    def reset(self) -> None: ...  # the file is read again from its start
    def add(self, jobs: pd.DataFrame, scan: Scan) -> None: ...


@dataclass
class Scan:
    """What a reading found besides the job tables (:func:`scan`)."""

    name: str
    comments: list[str] = field(default_factory=list)
    comment_lines: list[int] = field(default_factory=list)
    skipped: list[tuple[int, str, str]] = field(default_factory=list)  # (line, reason, text)
    n_jobs: int = 0
    renumber: bool = False  #: job ids repeat and renumbering was asked: number them 1..n
    sort: bool = False  #: submit times go backwards and submit_order == "sort"

    def header(self) -> SWFHeader:
        header = SWFHeader.parse(self.comments)
        header.line_numbers = list(self.comment_lines)
        return header


class _Scanner:
    """The state of one reading; :meth:`feed` a block of lines at a time, then :meth:`finish`."""

    def __init__(self, name: str, lenient: bool, slow: bool) -> None:
        self.scan = Scan(name)
        self.name, self.lenient, self.slow = name, lenient, slow
        self.line = 0
        self.nonblank = False
        self.data_lines = 0
        # the first problem of each kind: (line, reason, text); raised by finish() in this order
        self.first: dict[str, tuple[int | None, str, str | None]] = {}
        self.ids: list[np.ndarray] = []
        self.rows: list[np.ndarray | tuple[int, int]] = []
        self.last_submit: int | None = None
        self.backwards: tuple[int, int, int] | None = None  # (line, submit, previous submit)
        self.n_backwards = 0

    def _problem(self, kind: str, line: int | None, reason: str, text: str | None) -> None:
        if self.lenient and line is not None:
            self.scan.skipped.append((line, reason, text or ""))
        else:
            self.first.setdefault(kind, (line, reason, text))

    def feed(self, lines: list[str]) -> pd.DataFrame | None:
        """Classify a block's lines; parse and check its job lines; return their job table."""
        data: list[str] = []
        line_no: list[int] = []
        for line in lines:
            self.line += 1
            s = line.strip()
            if not s:
                continue
            self.nonblank = True
            if s[0] == ";":
                self.scan.comments.append(line.rstrip())
                self.scan.comment_lines.append(self.line)
                continue
            n = len(s.split())
            if n != N_FIELDS:
                self._problem("fields", self.line, f"expected {N_FIELDS} fields, found {n}", line)
                continue
            data.append(s)
            line_no.append(self.line)
        self.data_lines += len(data)
        if not data or "numeric" in self.first or "fields" in self.first:
            return None  # a line earlier in the precedence failed: only those are looked for
        values, rows = self._numbers(data, line_no)
        if values is None or "value" in self.first:
            return None
        jobs = _to_frame(values)
        self._track(jobs, rows)
        return jobs

    def _numbers(self, data: list[str], line_no: list[int]
                 ) -> tuple[np.ndarray | None, np.ndarray]:
        """(n, 18) float values of the block's valid job lines and their line numbers."""
        rows = np.asarray(line_no, dtype=np.int64)
        if not self.slow:
            try:
                values = pd.read_csv(io.StringIO("\n".join(data)), sep=r"\s+", header=None,
                                     dtype=np.float64, engine="c").to_numpy()
                if values.shape != (len(data), N_FIELDS):
                    raise ValueError("shape")
            except ValueError:
                raise _ReadSlowly from None
        else:
            values, rows = self._parse_slow(data, line_no)
            if "numeric" in self.first:
                return None, rows
        checks = _value_checks(values)
        bad_any = np.zeros(len(values), dtype=bool)
        for mask, _ in checks:
            bad_any |= mask.any(axis=1)
        if not bad_any.any():
            return values, rows
        index = {ln: j for j, ln in enumerate(line_no)}
        for r in np.flatnonzero(bad_any):
            mask, why = next((m, w) for m, w in checks if m[r].any())
            j = int(np.flatnonzero(mask[r])[0])
            line = int(rows[r])
            text = data[index[line]]
            self._problem("value", line, why(SWF_COLUMNS[j], text.split()[j]), text)
            if not self.lenient:
                return None, rows
        keep = ~bad_any
        return values[keep], rows[keep]

    def _parse_slow(self, data: list[str], line_no: list[int]) -> tuple[np.ndarray, np.ndarray]:
        out: list[list[float]] = []
        rows: list[int] = []
        for s, i in zip(data, line_no, strict=True):
            try:
                vals = [float(tok) for tok in s.split()]
            except ValueError:
                tok = next(t for t in s.split() if not _is_float(t))
                self._problem("numeric", i, f"non-numeric field {tok!r}", s)
                if not self.lenient:
                    break
                continue
            out.append(vals)
            rows.append(i)
        return (np.asarray(out, dtype=np.float64).reshape(-1, N_FIELDS),
                np.asarray(rows, dtype=np.int64))

    def _track(self, jobs: pd.DataFrame, rows: np.ndarray) -> None:
        """Keep the ids and lines (repeated ids) and follow submit times going backwards."""
        self.ids.append(jobs["job_id"].to_numpy().copy())  # not a view holding the block
        # consecutive line numbers (the usual block) are kept as their range
        contiguous = len(rows) and rows[-1] - rows[0] + 1 == len(rows)
        self.rows.append((int(rows[0]), int(rows[-1]) + 1) if contiguous else rows)
        self.scan.n_jobs += len(jobs)
        submit = jobs["submit_time"].to_numpy()
        if len(submit) == 0:
            return
        prev = np.concatenate([[self.last_submit if self.last_submit is not None else submit[0]],
                               submit[:-1]])
        back = np.flatnonzero(submit < prev)
        if back.size and self.backwards is None:
            k = int(back[0])
            self.backwards = (int(rows[k]), int(submit[k]), int(prev[k]))
        self.n_backwards += back.size
        self.last_submit = int(submit[-1])

    def finish(self, renumber: bool, submit_order: SubmitOrder,
               line_text: Callable[[int], str]) -> Scan:
        """Raise the first problem in whole-file order (module docstring), else the result."""
        name = self.name
        if not self.nonblank:
            raise SWFFormatError(name, None, "empty file")
        if "fields" in self.first:
            raise SWFFormatError(name, *self.first["fields"])
        self.scan.header().check_int_fields(name)
        if self.data_lines == 0:
            raise SWFFormatError(name, None, "no job lines (only comments or skipped lines)")
        for kind in ("numeric", "value"):
            if kind in self.first:
                raise SWFFormatError(name, *self.first[kind])
        if self.scan.n_jobs == 0:
            raise SWFFormatError(name, None, "no valid job lines")
        self._check_ids(renumber, line_text)
        if self.backwards is not None and submit_order == "sort":
            self.scan.sort = True
        elif self.backwards is not None and submit_order != "keep":
            line, submit, prev = self.backwards
            raise SWFFormatError(name, line, f"submit time goes backwards ({submit} after {prev}; "
                                 f"{self.n_backwards} such lines; use submit_order='keep' or "
                                 "'sort' to accept)")
        self.scan.skipped.sort()
        return self.scan

    def _check_ids(self, renumber: bool, line_text: Callable[[int], str]) -> None:
        """Raise naming both lines of the first repeated job id, or mark the ids for renumbering."""
        ids = np.concatenate(self.ids)
        self.ids = [ids]
        ordered = np.sort(ids)
        if not (ordered[1:] == ordered[:-1]).any():
            return
        if renumber:
            self.scan.renumber = True
            return
        order = np.argsort(ids, kind="stable")
        by_id = ids[order]
        repeats = order[1:][by_id[1:] == by_id[:-1]]  # every occurrence after an id's first
        k = int(repeats.min())
        first = int(order[np.searchsorted(by_id, ids[k], side="left")])
        rows = np.concatenate([np.arange(*r) if isinstance(r, tuple) else r for r in self.rows])
        line = int(rows[k])
        raise SWFFormatError(
            self.name, line,
            f"job id {int(ids[k])} already used on line {int(rows[first])} ({repeats.size} "
            "repeated ids; --renumber / renumber_duplicates=True numbers the jobs 1..n in file "
            "order)",
            line_text(line).strip(),
        )


def scan(blocks: Callable[[str], Iterator[list[str]]], name: str, sink: Sink, *,
         lenient: bool = False, submit_order: SubmitOrder = "error",
         renumber_duplicates: bool = False) -> Scan:
    """Read the lines ``blocks(encoding)`` yields, a block at a time, into ``sink``; returns what
    was found besides the jobs (header lines, skipped lines, job count, whether to renumber or sort
    the jobs). Reads again, from the start, with Python's float or as Latin-1 when needed (module
    docstring)."""
    encoding, slow = "utf-8", False
    while True:
        sink.reset()
        scanner = _Scanner(name, lenient, slow)
        try:
            for lines in blocks(encoding):
                jobs = scanner.feed(lines)
                if jobs is not None:
                    sink.add(jobs, scanner.scan)
        except _ReadSlowly:
            slow = True
            continue
        except _NotUTF8:
            encoding = "latin-1"
            continue

        def line_text(line: int, encoding: str = encoding) -> str:
            return _nth_line(blocks(encoding), line)

        return scanner.finish(renumber_duplicates, submit_order, line_text)


def _nth_line(blocks: Iterator[list[str]], n: int) -> str:
    """Line ``n`` (1-based) of what ``blocks`` yields."""
    seen = 0
    for lines in blocks:
        if seen + len(lines) >= n:
            return lines[n - 1 - seen]
        seen += len(lines)
    raise IndexError(n)


def text_blocks(text: str, lines_per_block: int = 1 << 17) -> Callable[[str], Iterator[list[str]]]:
    """The blocks of SWF text already in memory."""
    def blocks(encoding: str) -> Iterator[list[str]]:
        lines = text.splitlines()
        for i in range(0, len(lines), lines_per_block):
            yield lines[i:i + lines_per_block]
    return blocks


def file_blocks(path: Path, block_bytes: int = BLOCK_BYTES
                ) -> Callable[[str], Iterator[list[str]]]:
    """The blocks of a plain or gzipped file, each ending at a line break; a truncated or corrupt
    gzip stream raises SWFFormatError saying to download the file again."""
    def blocks(encoding: str) -> Iterator[list[str]]:
        try:
            raw = open(path, "rb")  # noqa: SIM115 (closed below, also on error)
        except OSError as e:
            raise SWFFormatError(str(path), None, f"cannot read file ({e.strerror or e})") from e
        with raw:
            zipped = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            fh: Any = gzip.GzipFile(fileobj=raw, mode="rb") if zipped else raw
            rest = b""
            while True:
                try:
                    chunk = fh.read(block_bytes)
                except (EOFError, gzip.BadGzipFile, zlib.error) as e:
                    raise SWFFormatError(str(path), None, f"corrupt or truncated gzip data ({e}); "
                                         "download it again") from e
                except OSError as e:
                    raise SWFFormatError(str(path), None,
                                         f"cannot read file ({e.strerror or e})") from e
                if not chunk:
                    break
                cut = chunk.rfind(b"\n") + 1
                if cut == 0:
                    rest += chunk
                    continue
                block, rest = rest + chunk[:cut], chunk[cut:]
                yield _decode(block, encoding).splitlines()
            if rest:
                yield _decode(rest, encoding).splitlines()
    return blocks


def _decode(block: bytes, encoding: str) -> str:
    try:
        return block.decode(encoding)
    except UnicodeDecodeError:
        raise _NotUTF8 from None


def _value_checks(values: np.ndarray) -> list[tuple[np.ndarray, Any]]:
    """(n, 18) masks of bad values, each with its reason(field, token), checked in this order."""
    finite = np.isfinite(values)
    is_int = np.zeros(N_FIELDS, dtype=bool)
    is_int[_INT_COL_IDX] = True
    with np.errstate(invalid="ignore"):
        big = finite & is_int & (np.abs(values) >= INT64_LIMIT)
        frac = finite & is_int & ~big & (values != np.round(values))
    procs = np.zeros_like(finite)
    for c in PROCS_COLUMNS:
        j = SWF_COLUMNS.index(c)
        procs[:, j] = finite[:, j] & (values[:, j] < -1)
    return [
        (~finite, lambda c, t: f"non-finite value {t!r} in field {c}"),
        (big, lambda c, t: f"value {t} in field {c} is outside the 64-bit integer range"),
        (frac, lambda c, t: f"non-integer value in field {c}"),
        (procs, lambda c, t: f"negative processor count {t} in field {c} "
                             "(SWF allows only -1, unknown)"),
    ]


def _is_float(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _to_frame(values: np.ndarray) -> pd.DataFrame:
    cols: dict[str, np.ndarray] = {}
    for j, c in enumerate(SWF_COLUMNS):
        col = values[:, j]
        cols[c] = col.astype(np.float64) if c in FLOAT_COLUMNS else col.astype(np.int64)
    return pd.DataFrame(cols)
