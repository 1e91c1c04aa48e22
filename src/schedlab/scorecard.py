"""Scorecard rows: published vs reproduced, one row per claim (DESIGN §3).

Columns: ``paper, item, quantity, condition, published, reproduced, unit, relative_error, verdict,
note``. Two kinds of rows:

* :func:`value_row` compares a published number with ours; the verdict is ``match`` when the
  relative error is within ``tolerance`` (default 10%), else ``differs``. Absolute numbers often cannot
  be expected to match (different log version, simulator details): say why in ``note``.
* :func:`claim_row` records a qualitative claim (ordering, ratio, trend) checked on our data:
  ``holds`` / ``fails``; ``published``/``reproduced`` may carry the numbers behind it.

``not_run`` marks an item that could not be reproduced here (e.g. a log not available offline).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import pandas as pd

COLUMNS = ["paper", "item", "quantity", "condition", "published", "reproduced", "unit",
           "relative_error", "verdict", "note"]
VERDICTS = ("match", "differs", "holds", "fails", "not_run")


def relative_error(published: float | None, reproduced: float | None) -> float:
    """(reproduced - published) / |published|; NaN when either is missing or published is 0."""
    if published is None or reproduced is None:
        return math.nan
    p, r = float(published), float(reproduced)
    if math.isnan(p) or math.isnan(r) or p == 0:
        return math.nan
    return (r - p) / abs(p)


def value_row(paper: str, item: str, quantity: str, condition: str, published: float | None,
              reproduced: float | None, unit: str = "", tolerance: float = 0.10,
              note: str = "") -> dict[str, Any]:
    """A published number beside ours; verdict by relative error within ``tolerance``."""
    err = relative_error(published, reproduced)
    if reproduced is None or (isinstance(reproduced, float) and math.isnan(reproduced)):
        verdict = "not_run"
    else:
        verdict = "match" if not math.isnan(err) and abs(err) <= tolerance else "differs"
    return {"paper": paper, "item": item, "quantity": quantity, "condition": condition,
            "published": _num(published), "reproduced": _num(reproduced), "unit": unit,
            "relative_error": err, "verdict": verdict, "note": note}


def claim_row(paper: str, item: str, quantity: str, condition: str, holds: bool | None,
              published: float | None = None, reproduced: float | None = None, unit: str = "",
              note: str = "") -> dict[str, Any]:
    """A qualitative claim checked on our results (``holds=None``: could not be checked)."""
    verdict = "not_run" if holds is None else ("holds" if holds else "fails")
    return {"paper": paper, "item": item, "quantity": quantity, "condition": condition,
            "published": _num(published), "reproduced": _num(reproduced), "unit": unit,
            "relative_error": relative_error(published, reproduced), "verdict": verdict,
            "note": note}


def _num(x: float | None) -> float:
    return math.nan if x is None else float(x)


def scorecard_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Rows -> a typed frame with exactly :data:`COLUMNS` (validated verdicts)."""
    df = pd.DataFrame(list(rows), columns=COLUMNS)
    bad = set(df["verdict"]) - set(VERDICTS)
    if bad:
        raise ValueError(f"unknown scorecard verdicts: {sorted(bad)}")
    for c in ("published", "reproduced", "relative_error"):
        df[c] = df[c].astype("float64")
    for c in ("paper", "item", "quantity", "condition", "unit", "verdict", "note"):
        df[c] = df[c].astype(str)
    return df
