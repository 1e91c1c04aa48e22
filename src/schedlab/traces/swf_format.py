"""The Standard Workload Format's fields and header (:class:`SWFHeader`): what reading
(:mod:`.swf_scan`) and writing (:mod:`.swf`) share.

The SWF (Chapin et al., 1999; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): header
comment lines starting with ``;`` (``; Key: value``, continuation lines indented), then one job per
line with 18 whitespace-separated numeric fields, ``-1`` for a missing value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

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

