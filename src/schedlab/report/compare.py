"""Published and reproduced values of one paper table, in the paper's own table shape.

The scorecard (:mod:`schedlab.report.scorecard`) holds one row per published number: ``item`` (the
paper's table or figure, e.g. "Table 2"), ``quantity`` (e.g. "mean wait") and ``condition`` (e.g.
"KTH easy"). :func:`side_by_side` pivots the rows of one item twice, conditions down and quantities
across, once with the published and once with the reproduced values, so the report can show the two
tables next to each other; :func:`items_with_numbers` lists the items worth showing that way.
"""

from __future__ import annotations

import re

import pandas as pd

#: Cells of a pivot with no value (not published, or not run here).
MISSING = float("nan")


def _numeric(sc: pd.DataFrame) -> pd.DataFrame:
    """Rows with a published or a reproduced number (claims without numbers are left out)."""
    pub = pd.to_numeric(sc["published"], errors="coerce")
    rep = pd.to_numeric(sc["reproduced"], errors="coerce")
    return sc.assign(published=pub, reproduced=rep)[pub.notna() | rep.notna()]


def items_with_numbers(sc: pd.DataFrame, min_rows: int = 2) -> list[str]:
    """Items (in scorecard order) with at least ``min_rows`` published numbers."""
    num = _numeric(sc)
    num = num[num["published"].notna()]
    counts = num.groupby("item", sort=False).size()
    return [str(i) for i, n in counts.items() if n >= min_rows]


def _label(quantity: object, unit: object) -> str:
    unit = "" if unit is None or (isinstance(unit, float) and pd.isna(unit)) else str(unit).strip()
    return f"{quantity} ({unit})" if unit and unit not in str(quantity) else str(quantity)


def side_by_side(sc: pd.DataFrame, item: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(published, reproduced): the item's numbers pivoted to conditions x quantities.

    Both frames have the same index (``condition``, first-seen order) and columns (``quantity
    (unit)``, first-seen order); a cell is NaN where the value is absent. Duplicate (condition,
    quantity) pairs keep their first row. An item with a single condition and several quantities is
    returned transposed (quantities down), which reads better than one very wide row.
    """
    rows = _numeric(sc[sc["item"].astype(str) == item])
    if rows.empty:
        empty = pd.DataFrame(index=pd.Index([], name="condition"))
        return empty, empty.copy()
    rows = rows.assign(column=[_label(q, u) for q, u in zip(rows["quantity"], rows["unit"],
                                                              strict=True)],
                       condition=rows["condition"].fillna("").astype(str))
    rows = rows.drop_duplicates(["condition", "column"], keep="first")
    index = pd.Index(pd.unique(rows["condition"]), name="condition")
    columns = list(pd.unique(rows["column"]))
    out = []
    for value in ("published", "reproduced"):
        wide = rows.pivot(index="condition", columns="column", values=value)
        wide = wide.reindex(index=index, columns=columns).rename_axis(columns=None)
        if len(index) == 1 and len(columns) > 2:
            wide = wide.T.rename_axis("quantity")
        out.append(wide)
    return out[0], out[1]


_TABLE_STEM = re.compile(r"^table_?(\d+)", re.IGNORECASE)


def item_of_table(stem: str) -> str | None:
    """The scorecard item a reproduced table file belongs to: ``table13`` -> ``Table 13``,
    ``table3_SP2`` -> ``Table 3``; None for other names."""
    m = _TABLE_STEM.match(stem)
    return f"Table {int(m.group(1))}" if m else None
