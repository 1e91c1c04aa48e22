"""The Parallel Workloads Archive's published cleaning filters, as data (``config/flurries.yaml``).

Each ``-cln`` log's header lists the filters the archive applied to the raw log ("Note: THIS IS A
CLEANED VERSION OF THE LOG! The filters used to produce it were ..."), each followed by the number
of jobs it removed. This module parses that little expression language and applies it:

    expr   := or_expr
    or     := and ("or" and)*
    and    := atom ("and" atom)*
    atom   := "(" or ")" | FIELD OP VALUE          OP: = != < <= > >=

Fields: ``job`` (job number), ``user``, ``group``, ``app``, ``queue``, ``partition``, ``status``,
``proc`` (processors as the archive counts them: allocated, else requested), ``submit``
(``YYYY-MM-DD HH:MM:SS`` in the log's ``TimeZoneString``; compared with ``UnixStartTime +
submit_time``) and ``hour`` (local hour of submission, 0-23).

Reading of the one ambiguous header (Sandia-Ross): ``user=38 and (job>=5844 and job<=9471) or
(job>=34043 and job<=36016)`` means ``user=38 and ((...) or (...))``: a filter removes one user's
flurry. The usual precedence (``and`` before ``or``) would also remove every other user's jobs in
the second range; such jobs are present in the cleaned log, which the archive's own filter would
have removed (``tests/traces/test_clean.py`` checks this on the mirrored log). The parser therefore
applies the archive's convention: a leading ``FIELD=VALUE and`` conjunct (``user=N and``) binds
to the whole remainder of the expression. Set ``strict_precedence=True`` for textbook precedence.

:func:`clean_jobs` keeps the original job numbers (the archive never renumbers) and returns how
many jobs each filter removed; applied to an already-cleaned log it removes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError
from .lookup import procs_used
from .registry import load_yaml_unique
from .swf import SWFHeader

_TOKEN = re.compile(
    r"\s*(?:(?P<lp>\()|(?P<rp>\))|(?P<kw>and|or)\b|"
    r"(?P<field>[a-z]+)\s*(?P<op><=|>=|!=|=|<|>)\s*"
    r"(?P<value>\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?|-?\d+(?:\.\d+)?))"
)
FIELDS = {"job": "job_id", "user": "user_id", "group": "group_id", "app": "app_id",
          "queue": "queue_id", "partition": "partition_id", "status": "status",
          "proc": None, "submit": None, "hour": None}
_OPS = {"=": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
        ">": np.greater, ">=": np.greater_equal}


@dataclass(frozen=True)
class Filter:
    """One published filter: the archive's expression and the jobs it removed from the raw log."""

    expr: str
    archive_removed: int | None = None


def _tokenize(expr: str) -> list[tuple[str, Any]]:
    pos, out = 0, []
    s = expr.strip()
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m or m.end() == pos:
            raise ConfigError(f"cleaning filter {expr!r}: cannot parse at {s[pos:pos + 20]!r}")
        if m.group("lp"):
            out.append(("(", None))
        elif m.group("rp"):
            out.append((")", None))
        elif m.group("kw"):
            out.append((m.group("kw"), None))
        else:
            f = m.group("field")
            if f not in FIELDS:
                raise ConfigError(f"cleaning filter {expr!r}: unknown field {f!r} "
                                  f"(known: {', '.join(FIELDS)})")
            out.append(("cmp", (f, m.group("op"), m.group("value"))))
        pos = m.end()
        while pos < len(s) and s[pos].isspace():
            pos += 1
    return out


class _Parser:
    def __init__(self, expr: str, strict: bool):
        self.expr, self.toks, self.i, self.strict = expr, _tokenize(expr), 0, strict

    def peek(self) -> str | None:
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def take(self, kind: str) -> Any:
        if self.peek() != kind:
            raise ConfigError(f"cleaning filter {self.expr!r}: expected {kind!r} "
                              f"at token {self.i + 1}")
        tok = self.toks[self.i]
        self.i += 1
        return tok[1]

    def parse(self) -> tuple:
        node = self.or_()
        if self.i != len(self.toks):
            raise ConfigError(f"cleaning filter {self.expr!r}: unexpected {self.peek()!r}")
        return node

    def or_(self) -> tuple:
        # archive convention: a leading `field=value and` binds to the rest (see module doc)
        if (not self.strict and self.peek() == "cmp" and self.toks[self.i][1][1] == "="
                and self.i + 1 < len(self.toks) and self.toks[self.i + 1][0] == "and"
                and any(t[0] == "or" for t in self.toks[self.i:])):
            head = ("cmp", self.take("cmp"))
            self.take("and")
            return ("and", head, self.or_())
        node = self.and_()
        while self.peek() == "or":
            self.take("or")
            node = ("or", node, self.and_())
        return node

    def and_(self) -> tuple:
        node = self.atom()
        while self.peek() == "and":
            self.take("and")
            node = ("and", node, self.atom())
        return node

    def atom(self) -> tuple:
        if self.peek() == "(":
            self.take("(")
            node = self.or_()
            self.take(")")
            return node
        return ("cmp", self.take("cmp"))


def parse_filter(expr: str, strict_precedence: bool = False) -> tuple:
    """Parse an archive filter expression into a small tree (raises ConfigError)."""
    return _Parser(expr, strict_precedence).parse()


def _column(jobs: pd.DataFrame, field: str, header: SWFHeader | None) -> np.ndarray:
    if FIELDS[field] is not None:
        return jobs[FIELDS[field]].to_numpy()
    if field == "proc":
        return procs_used(jobs)
    start = header.unix_start_time if header is not None else None
    if start is None:
        raise ConfigError(f"filter field {field!r} needs the log's UnixStartTime header")
    return jobs["submit_time"].to_numpy(np.int64) + start


def _local_tz(header: SWFHeader | None) -> str:
    return (header.time_zone_string if header is not None else None) or "UTC"


def evaluate(tree: tuple, jobs: pd.DataFrame, header: SWFHeader | None = None) -> np.ndarray:
    """Boolean mask of jobs matching a parsed filter."""
    kind = tree[0]
    if kind in ("and", "or"):
        a, b = evaluate(tree[1], jobs, header), evaluate(tree[2], jobs, header)
        return a & b if kind == "and" else a | b
    field, op, value = tree[1]
    col = _column(jobs, field, header)
    if field == "submit":
        tz = _local_tz(header)
        ref = pd.Timestamp(value).tz_localize(tz).timestamp()
        return _OPS[op](col, ref)
    if field == "hour":
        hours = pd.to_datetime(pd.Series(col), unit="s", utc=True).dt.tz_convert(_local_tz(header))
        return _OPS[op](hours.dt.hour.to_numpy(), int(value))
    return _OPS[op](col, float(value))


def clean_jobs(jobs: pd.DataFrame, filters: list[Filter], header: SWFHeader | None = None,
               strict_precedence: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Remove jobs matching any filter (applied in order). Returns (kept jobs, report).

    The report has one row per filter: ``filter`` (1-based), ``expr``, ``removed`` (jobs removed
    by this filter and no earlier one), ``archive_removed`` (the header's count for the raw log).
    """
    gone = np.zeros(len(jobs), dtype=bool)
    rows = []
    for k, f in enumerate(filters, start=1):
        hit = evaluate(parse_filter(f.expr, strict_precedence), jobs, header) & ~gone
        gone |= hit
        rows.append({"filter": k, "expr": f.expr, "removed": int(hit.sum()),
                     "archive_removed": f.archive_removed})
    report = pd.DataFrame(rows, columns=["filter", "expr", "removed", "archive_removed"])
    report["archive_removed"] = report["archive_removed"].astype("Int64")
    return jobs.loc[~gone].reset_index(drop=True), report


_HEADER_FILTER = re.compile(r"^(?P<expr>.+?)\s*\((?P<n>\d+) jobs? removed\)\s*$")


def header_filters(header: SWFHeader) -> list[Filter]:
    """The filters a ``-cln`` log's header says were applied (empty for other logs)."""
    out: list[Filter] = []
    for note in header.notes:
        if "CLEANED VERSION" not in note.upper():
            continue
        for line in note.splitlines()[1:]:
            m = _HEADER_FILTER.match(line.strip())
            if m:
                out.append(Filter(m.group("expr"), int(m.group("n"))))
    return out


def load_filters(path: str | Path) -> dict[str, list[Filter]]:
    """``config/flurries.yaml`` -> {log base name: filters}. Expressions are parsed (validated)."""
    data = load_yaml_unique(Path(path), "cleaning filters", ConfigError)  # bounded
    logs = data.get("logs") if isinstance(data, dict) else None
    if not isinstance(logs, dict):
        raise ConfigError(f"{path}: expected a top-level 'logs:' mapping")
    out: dict[str, list[Filter]] = {}
    for name, entry in logs.items():
        fl = []
        for i, f in enumerate((entry or {}).get("filters") or [], start=1):
            if not isinstance(f, dict) or "expr" not in f:
                raise ConfigError(f"{path}: logs.{name}.filters[{i}]: needs 'expr'")
            try:
                parse_filter(str(f["expr"]))
            except ConfigError as e:
                raise ConfigError(f"{path}: logs.{name}.filters[{i}]: {e}") from None
            fl.append(Filter(str(f["expr"]), f.get("removed")))
        out[str(name)] = fl
    return out


def base_log_name(trace: str) -> str:
    """Archive log name without the ``-cln`` suffix (filters are stated for the raw log)."""
    return trace[:-4] if trace.endswith("-cln") else trace


def filters_for(trace: str, table: dict[str, list[Filter]]) -> list[Filter] | None:
    """The published filters of a trace (raw or ``-cln`` name), or None when none are published."""
    return table.get(base_log_name(trace))
