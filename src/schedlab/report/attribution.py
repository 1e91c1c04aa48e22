"""Attribution as data: what each reading of a paper's ambiguity does to each scorecard quantity.

A paper's attribution experiments (Talby's ``attr_*`` tables, Tang's ``attribution_*``, Perković's
``attribution``, Cirne's attribution readings, Schroeder's service orders) produce one row per
(reading, scorecard quantity) in the long format :data:`COLUMNS`:

``paper, item, quantity, condition``
    the key of the scorecard row the reading bears on (exactly the row's own four fields);
``reading``
    what was changed, in the paper's words where it has any (e.g. "flurries modelled back in");
``cause``
    the one-sentence cause the reading tests (becomes the row's ``cause`` when it explains it);
``value``
    the row's quantity under that reading, changing only the reading (NaN for a claim without a
    number);
``baseline``
    the same quantity under the reading the scorecard uses: it must equal the row's ``reproduced``
    (the experiment starts from the row's own value, or it changed more than the reading);
``holds``
    for a claim row: whether the claim holds under the reading (the paper's own check applied to
    the reading's numbers); empty for a value row;
``source``
    the table it comes from, ``<paper>/tables/<name>``.

Each paper's assembly writes that frame as the table :data:`TABLE` (the readings of its scorecard
rows) and its scorecard looks the rows up in it (:func:`readings_in`); :func:`not_looked_up`
names a row whose evidence cites a table but has no reading there.

:func:`attribute_rows` fills each deviating row's ``cause``, ``evidence`` and ``explained`` from
that frame by key, with the status computed from the numbers
(:func:`schedlab.report.scorecard.reading_status`): the best reading that explains the row
(``explained``), else the best that closes half the gap (``partly``), else ``unexplained`` with
every reading tried and its value. A row without attribution rows keeps the gap marker
(:data:`schedlab.report.scorecard.NOT_ATTRIBUTED`). :func:`data_gap` marks a row whose cause cannot
be tested for want of data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from .scorecard import DEVIATING, NOT_ATTRIBUTED, reading_status, with_cause

#: The table of every paper that holds its long frame, as the scorecard looks it up
#: (``results/<paper>/tables/attribution_readings.parquet``).
TABLE = "attribution_readings"
KEY = ["paper", "item", "quantity", "condition"]
COLUMNS = [*KEY, "reading", "cause", "value", "baseline", "holds", "source"]


def attribution_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Rows -> the typed long frame (:data:`COLUMNS`); ValueError naming the first bad row: a
    missing field, an empty reading/cause/source, or the same reading twice for one key."""
    rows = list(rows)
    for i, r in enumerate(rows):
        missing = [c for c in COLUMNS if c not in r and c != "holds"]
        if missing:
            raise ValueError(f"attribution row {i}: missing field(s) {', '.join(missing)}")
        empty = [c for c in ("reading", "cause", "source") if not str(r[c]).strip()]
        if empty:
            raise ValueError(f"attribution row {i} ({r['item']} {r['quantity']}): empty "
                             f"{', '.join(empty)}")
    df = pd.DataFrame(rows, columns=COLUMNS)
    for c in ("value", "baseline"):
        df[c] = df[c].astype("float64")
    df["holds"] = df["holds"].astype("boolean")
    for c in [*KEY, "reading", "cause", "source"]:
        df[c] = df[c].astype(str)
    dup = df.duplicated([*KEY, "reading"])
    if dup.any():
        r = df[dup].iloc[0]
        raise ValueError(f"attribution: reading {r['reading']!r} twice for {r['item']} "
                         f"{r['quantity']} ({r['condition']})")
    return df


def _fmt(v: float) -> str:
    return "–" if math.isnan(v) else f"{v:.4g}"


def _reading_text(r: Mapping[str, Any], row: Mapping[str, Any]) -> str:
    """``reading -> value unit (+x%)`` (relative to the published value), or ``-> holds``."""
    parts = []
    if not math.isnan(r["value"]):
        unit = f" {row['unit']}" if row.get("unit") else ""
        pub = row["published"]
        rel = (f" ({(r['value'] - pub) / abs(pub):+.0%})"
               if not math.isnan(pub) and pub != 0 else "")
        parts.append(f"{_fmt(r['value'])}{unit}{rel}")
    if not pd.isna(r["holds"]):
        parts.append("holds" if r["holds"] else "fails")
    return f"{r['reading']} -> {', '.join(parts) or 'no value'}"


def _evidence(tried: list[Mapping[str, Any]], row: Mapping[str, Any]) -> str:
    """``source: reading -> value; reading -> value`` grouped by source, in frame order."""
    by_source: dict[str, list[str]] = {}
    for r in tried:
        by_source.setdefault(r["source"], []).append(_reading_text(r, row))
    return "; ".join(f"{src}: {', '.join(texts)}" for src, texts in by_source.items())


def attribute(row: dict[str, Any], readings: pd.DataFrame) -> dict[str, Any]:
    """``row`` with ``cause``/``evidence``/``explained`` filled from its attribution ``readings``
    (the rows of the long frame with the row's key). Rows that do not deviate, deviating rows
    without readings and rows whose cause is already stated (:func:`data_gap`, :func:`needs_run`,
    ``with_cause``) are returned unchanged. ValueError when a reading's baseline is not the
    row's reproduced value."""
    if row["verdict"] not in DEVIATING or not len(readings) or (
            row.get("cause") and row["cause"] != NOT_ATTRIBUTED["cause"]):
        return row
    claim = math.isnan(row["tolerance"])
    tried = readings.to_dict("records")
    rep = row["reproduced"]
    for r in tried:
        same = (math.isnan(r["baseline"]) and math.isnan(rep)) or (
            not math.isnan(r["baseline"]) and not math.isnan(rep)
            and math.isclose(r["baseline"], rep, rel_tol=1e-9, abs_tol=1e-12))
        if not same:
            raise ValueError(f"attribution {r['source']} {r['reading']!r} for {row['item']} "
                             f"{row['quantity']} ({row['condition']}): baseline "
                             f"{_fmt(r['baseline'])} is not the row's reproduced {_fmt(rep)}")
    pub = row["published"]

    def status(r: Mapping[str, Any]) -> str:
        return reading_status(pub, rep, row["tolerance"], r["value"],
                              None if pd.isna(r["holds"]) else bool(r["holds"]))

    def gap(r: Mapping[str, Any]) -> float:
        return abs(r["value"] - pub) if not (math.isnan(r["value"]) or math.isnan(pub)) \
            else math.inf

    for wanted in ("explained", "partly"):
        hits = [r for r in tried if status(r) == wanted]
        if hits:
            best = min(hits, key=gap)  # min keeps frame order among equals
            return with_cause(row, best["cause"], _evidence([best], row), wanted,
                              best["value"], _claim_verdict(best) if claim else "")
    closest = min(tried, key=gap)
    cause = (f"not found: {len(tried)} reading{'s' if len(tried) > 1 else ''} tried, none closes "
             "half the gap")
    return with_cause(row, cause, _evidence(tried, row), "unexplained", closest["value"],
                      _claim_verdict(closest) if claim else "")


def _claim_verdict(r: Mapping[str, Any]) -> str:
    return "" if pd.isna(r["holds"]) else ("holds" if r["holds"] else "fails")


def readings_in(tables: Mapping[str, pd.DataFrame], build: Callable[[], pd.DataFrame]
                ) -> pd.DataFrame:
    """The paper's long frame as its assembly wrote it (``tables[TABLE]``), or ``build()`` for
    tables assembled without it (a scorecard computed from tables in memory)."""
    return tables[TABLE] if TABLE in tables else build()


def not_looked_up(card: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    """The rows of ``card`` whose evidence cites an attribution table (``<paper>/tables/``) but
    whose key has no reading in ``table`` (the paper's :data:`TABLE`): evidence written as prose,
    not looked up. Each as ``item | quantity | condition``."""
    keys = set(map(tuple, table[KEY].astype(str).to_numpy())) if len(table) else set()
    return [f"{r['item']} | {r['quantity']} | {r['condition']}" for r in card.to_dict("records")
            if "/tables/" in str(r.get("evidence", ""))
            and tuple(str(r[k]) for k in KEY) not in keys]


def attribute_rows(rows: Iterable[dict[str, Any]], attributions: pd.DataFrame
                   ) -> list[dict[str, Any]]:
    """Every row through :func:`attribute` with its readings from the long frame (by key)."""
    groups = ({k: g for k, g in attributions.groupby(KEY, sort=False)}
              if len(attributions) else {})
    empty = attributions.iloc[0:0] if len(attributions.columns) else pd.DataFrame(columns=COLUMNS)
    return [attribute(r, groups.get(tuple(str(r[k]) for k in KEY), empty)) for r in rows]


def starting_from(readings: Iterable[Mapping[str, Any]], rows: Iterable[Mapping[str, Any]]
                  ) -> list[dict[str, Any]]:
    """The attribution rows (dicts of :data:`COLUMNS`) whose ``baseline`` is the reproduced value
    of the scorecard row they name (both NaN for a claim), with the row's value as baseline; a
    reading whose experiment starts elsewhere changed more than the reading and is left out,
    as is one naming no row."""
    reproduced = {tuple(str(r[k]) for k in KEY): r["reproduced"] for r in rows}
    keep = []
    for r in readings:
        rep = reproduced.get(tuple(str(r[k]) for k in KEY))
        if rep is None:
            continue
        if (math.isnan(rep) and math.isnan(r["baseline"])) or (
                not math.isnan(rep) and not math.isnan(r["baseline"])
                and math.isclose(r["baseline"], rep, rel_tol=1e-9, abs_tol=1e-9)):
            keep.append(dict(r) | {"baseline": rep})
    return keep


def data_gap(row: dict[str, Any], cause: str, data: str) -> dict[str, Any]:
    """``row`` marked ``explained = data``: its ``cause`` cannot be tested because ``data`` (named,
    e.g. "the PSC C90 log") is not available."""
    return with_cause(row, cause, f"needs {data}", "data")


def needs_run(row: dict[str, Any], cause: str, run: str, cost: str) -> dict[str, Any]:
    """``row`` marked ``unexplained`` because the reading that tests ``cause`` needs a run too
    costly for the default target: ``run`` named, with its ``cost`` (e.g. "40 CPU-min")."""
    return with_cause(row, cause, f"not tried: needs {run} ({cost})", "unexplained")
