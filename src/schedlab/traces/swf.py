"""Standard Workload Format (SWF) reading and writing.

The SWF (Chapin et al., 1999; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html) is the
Parallel Workloads Archive's format: header comment lines starting with ``;`` (``; Key: value``,
continuation lines indented), then one job per line with 18 whitespace-separated numeric fields,
``-1`` for a missing value.

:func:`read_swf` returns an :class:`SWFTrace`: a typed DataFrame with the 18 fields named as in
docs/design.md §3 (``-1`` kept) and the parsed :class:`SWFHeader`. :func:`write_swf` writes it back;
read -> write -> read is lossless (same frame, same header lines).

Bad input raises :class:`~schedlab.errors.SWFFormatError` naming the file, the line number and the
offending text. With ``lenient=True`` bad job lines are skipped and counted instead.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..errors import SWFFormatError

#: The 18 SWF fields, in file order, snake_case (docs/design.md §3).
SWF_COLUMNS: tuple[str, ...] = (
    "job_id",
    "submit_time",
    "wait_time",
    "run_time",
    "alloc_procs",
    "avg_cpu_time",
    "used_mem_kb",
    "req_procs",
    "req_time",
    "req_mem_kb",
    "status",
    "user_id",
    "group_id",
    "app_id",
    "queue_id",
    "partition_id",
    "prev_job_id",
    "think_time",
)
#: Fields that may carry fractions in archive logs (e.g. CTC's ``142.00`` CPU seconds).
FLOAT_COLUMNS: frozenset[str] = frozenset({"avg_cpu_time", "used_mem_kb", "req_mem_kb"})
N_FIELDS = len(SWF_COLUMNS)

#: Header keys whose value starts with an integer we parse (``338 (batch partition; 512 total)``).
INT_HEADER_KEYS = ("MaxJobs", "MaxRecords", "MaxNodes", "MaxProcs", "UnixStartTime", "TimeZone",
                   "MaxRuntime", "MaxMemory", "MaxQueues", "MaxPartitions")

_KEY_RE = re.compile(r"^;\s*([A-Za-z][A-Za-z0-9_]*)\s*:\s?(.*)$")
# a leading integer not continued as a float (``1e23``, ``1.5`` are not integers)
_LEADING_INT_RE = re.compile(r"\s*([-+]?\d+)(?![\d.eE])")
#: Integer fields must fit a signed 64-bit integer (the job table's dtype).
INT64_LIMIT = 2**63
#: Processor-count fields: SWF allows -1 ("unknown") and nothing else below 0.
PROCS_COLUMNS = ("alloc_procs", "req_procs")

SubmitOrder = Literal["error", "keep", "sort"]


@dataclass
class SWFHeader:
    """The comment header of an SWF file.

    ``lines`` holds every comment line verbatim (for lossless writing); ``fields`` maps each key to
    its value (continuation lines joined with a newline; a repeated key such as ``Queue`` keeps a
    list in ``repeated``); ``notes`` are the ``Note:`` entries with their continuations.
    """

    lines: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    repeated: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    line_numbers: list[int] = field(default_factory=list, repr=False, compare=False)

    def int_field(self, key: str) -> int | None:
        """Leading integer of a header value, or None when absent or not numeric."""
        value = self.fields.get(key)
        if value is None:
            return None
        m = _LEADING_INT_RE.match(value)
        if not m:
            return None
        v = int(m.group(1))
        return v if abs(v) < INT64_LIMIT else None

    def check_int_fields(self, name: str = "<memory>") -> None:
        """Raise SWFFormatError (file, header line, key) for a numeric key whose value is a number
        but not an integer in the int64 range (``MaxProcs: 1e23``, ``MaxProcs: 12.5``); text such as
        ``N/A`` means unknown."""
        for i, raw in enumerate(self.lines):
            m = _KEY_RE.match(raw)
            if not m or m.group(1) not in INT_HEADER_KEYS or not m.group(2).strip():
                continue
            key, value = m.group(1), m.group(2).strip()
            im = _LEADING_INT_RE.match(value)
            if im is None and not re.match(r"[-+]?\.?\d", value):
                continue  # not a number at all ("N/A"): unknown
            if im is None:
                reason = f"header field {key} is not an integer"
            elif abs(int(im.group(1))) >= INT64_LIMIT:
                reason = f"header field {key} is outside the 64-bit integer range"
            else:
                continue
            raise SWFFormatError(name, self.line_numbers[i] if self.line_numbers else None,
                                 reason, raw)

    @property
    def max_procs(self) -> int | None:
        return self.int_field("MaxProcs")

    @property
    def max_nodes(self) -> int | None:
        return self.int_field("MaxNodes")

    @property
    def machine_size(self) -> int | None:
        """``MaxProcs`` if given, else ``MaxNodes`` (the archive's convention)."""
        mp = self.max_procs
        return mp if mp is not None and mp > 0 else self.max_nodes

    @property
    def unix_start_time(self) -> int | None:
        return self.int_field("UnixStartTime")

    @property
    def time_zone_string(self) -> str | None:
        tz = self.fields.get("TimeZoneString")
        return tz.strip() or None if tz is not None else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form, stored as parquet metadata."""
        d: dict[str, Any] = {
            "lines": self.lines,
            "fields": self.fields,
            "repeated": self.repeated,
            "notes": self.notes,
        }
        for key in INT_HEADER_KEYS:
            d[key] = self.int_field(key)
        d["TimeZoneString"] = self.time_zone_string
        d["machine_size"] = self.machine_size
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SWFHeader:
        return cls(
            lines=list(d.get("lines", [])),
            fields=dict(d.get("fields", {})),
            repeated={k: list(v) for k, v in d.get("repeated", {}).items()},
            notes=list(d.get("notes", [])),
        )

    @classmethod
    def parse(cls, lines: list[str]) -> SWFHeader:
        """Parse comment lines (each starting with ``;``)."""
        header = cls(lines=list(lines))
        last_key: str | None = None
        for raw in lines:
            m = _KEY_RE.match(raw)
            if m:
                key, value = m.group(1), m.group(2).rstrip()
                last_key = key
                if key == "Note":
                    header.notes.append(value)
                elif key in header.fields:
                    header.repeated.setdefault(key, [header.fields[key]]).append(value)
                else:
                    header.fields[key] = value
                continue
            text = raw.lstrip(";").strip()
            if not text:
                last_key = None
                continue
            if last_key == "Note" and header.notes:
                header.notes[-1] += "\n" + text
            elif last_key is not None and last_key not in header.repeated:
                header.fields[last_key] += "\n" + text
        return header


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


def _read_text(path: Path) -> str:
    """Decompressed text of a plain or gzipped file; truncated/corrupt gzip -> SWFFormatError."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SWFFormatError(str(path), None, f"cannot read file ({e.strerror or e})") from e
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as e:
            raise SWFFormatError(
                str(path), None, f"corrupt or truncated gzip data ({e}); download it again"
            ) from e
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


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
    text = _read_text(path)
    return parse_swf_text(text, str(path), lenient=lenient, submit_order=submit_order,
                          renumber_duplicates=renumber_duplicates)


def parse_swf_text(
    text: str,
    name: str = "<memory>",
    *,
    lenient: bool = False,
    submit_order: SubmitOrder = "error",
    renumber_duplicates: bool = False,
) -> SWFTrace:
    """Parse SWF content already in memory (see :func:`read_swf`)."""
    if not text.strip():
        raise SWFFormatError(name, None, "empty file")
    lines = text.splitlines()
    comments: list[str] = []
    comment_lines: list[int] = []
    data: list[str] = []
    line_no: list[int] = []
    skipped: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines, start=1):
        s = line.strip()
        if not s:
            continue
        if s[0] == ";":
            comments.append(line.rstrip())
            comment_lines.append(i)
            continue
        n = len(s.split())
        if n != N_FIELDS:
            reason = f"expected {N_FIELDS} fields, found {n}"
            if not lenient:
                raise SWFFormatError(name, i, reason, line)
            skipped.append((i, reason, line))
            continue
        data.append(s)
        line_no.append(i)
    header = SWFHeader.parse(comments)
    header.line_numbers = comment_lines
    header.check_int_fields(name)
    if not data:
        raise SWFFormatError(name, None, "no job lines (only comments or skipped lines)")

    values, kept = _parse_numbers(data, line_no, name, lenient, skipped)
    jobs = _to_frame(values)
    renumbered = _check_duplicate_ids(jobs, kept, data, line_no, name, renumber_duplicates)
    jobs = _check_submit_order(jobs, kept, name, submit_order)
    skipped.sort()
    return SWFTrace(jobs=jobs, header=header, path=name, skipped=skipped, renumbered=renumbered)


def _check_duplicate_ids(jobs: pd.DataFrame, rows: np.ndarray, data: list[str],
                         line_no: list[int], name: str, renumber: bool) -> int:
    """Raise naming both lines of the first repeated job id, or renumber 1..n (returns count)."""
    ids = jobs["job_id"]
    dup = ids.duplicated(keep="first").to_numpy()
    if not dup.any():
        return 0
    if renumber:
        jobs["job_id"] = np.arange(1, len(jobs) + 1, dtype=np.int64)
        return len(jobs)
    k = int(np.flatnonzero(dup)[0])
    first = int(np.flatnonzero(ids.to_numpy() == ids.iat[k])[0])
    line = int(rows[k])
    raise SWFFormatError(
        name, line,
        f"job id {int(ids.iat[k])} already used on line {int(rows[first])} "
        f"({int(dup.sum())} repeated ids; --renumber / renumber_duplicates=True numbers the jobs "
        "1..n in file order)",
        data[line_no.index(line)],
    )


_INT_COL_IDX = np.array([i for i, c in enumerate(SWF_COLUMNS) if c not in FLOAT_COLUMNS])


def _parse_numbers(
    data: list[str],
    line_no: list[int],
    name: str,
    lenient: bool,
    skipped: list[tuple[int, str, str]],
) -> tuple[np.ndarray, np.ndarray]:
    """Parse job lines (already checked for 18 fields) into an (n, 18) float array.

    Fast path: pandas' C parser over all lines. When it fails, each line is parsed on its own to
    name the first bad one (or, when lenient, to skip every bad one).
    """
    rows = np.asarray(line_no, dtype=np.int64)
    try:
        values = pd.read_csv(
            io.StringIO("\n".join(data)), sep=r"\s+", header=None, dtype=np.float64, engine="c"
        ).to_numpy()
        if values.shape != (len(data), N_FIELDS):
            raise ValueError("shape")
    except ValueError:
        values, rows = _parse_slow(data, line_no, name, lenient, skipped)
    checks = _value_checks(values)
    bad_any = np.zeros(len(values), dtype=bool)
    for mask, _ in checks:
        bad_any |= mask.any(axis=1)
    if bad_any.any():
        bad_rows = np.flatnonzero(bad_any)
        index = {ln: j for j, ln in enumerate(line_no)}
        for r in bad_rows:
            mask, why = next((m, w) for m, w in checks if m[r].any())
            j = int(np.flatnonzero(mask[r])[0])
            line = int(rows[r])
            text = data[index[line]]
            reason = why(SWF_COLUMNS[j], text.split()[j])
            if not lenient:
                raise SWFFormatError(name, line, reason, text)
            skipped.append((line, reason, text))
        keep = ~bad_any
        values, rows = values[keep], rows[keep]
        if len(values) == 0:
            raise SWFFormatError(name, None, "no valid job lines")
    return values, rows


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


def _parse_slow(
    data: list[str],
    line_no: list[int],
    name: str,
    lenient: bool,
    skipped: list[tuple[int, str, str]],
) -> tuple[np.ndarray, np.ndarray]:
    out: list[list[float]] = []
    rows: list[int] = []
    for s, i in zip(data, line_no, strict=True):
        try:
            vals = [float(tok) for tok in s.split()]
        except ValueError:
            tok = next(t for t in s.split() if not _is_float(t))
            reason = f"non-numeric field {tok!r}"
            if not lenient:
                raise SWFFormatError(name, i, reason, s) from None
            skipped.append((i, reason, s))
            continue
        out.append(vals)
        rows.append(i)
    if not out:
        raise SWFFormatError(name, None, "no valid job lines")
    return np.asarray(out, dtype=np.float64), np.asarray(rows, dtype=np.int64)


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


def _check_submit_order(
    jobs: pd.DataFrame, rows: np.ndarray, name: str, submit_order: SubmitOrder
) -> pd.DataFrame:
    submit = jobs["submit_time"].to_numpy()
    back = np.flatnonzero(np.diff(submit) < 0)
    if back.size == 0 or submit_order == "keep":
        return jobs
    if submit_order == "sort":
        return jobs.sort_values("submit_time", kind="stable").reset_index(drop=True)
    k = int(back[0]) + 1
    raise SWFFormatError(
        name,
        int(rows[k]),
        f"submit time goes backwards ({int(submit[k])} after {int(submit[k - 1])}; "
        f"{back.size} such lines; use submit_order='keep' or 'sort' to accept)",
    )


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
