"""The report's first screen and scorecard rows as terminal text (``schedlab scorecard``)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from .claims import Coverage
from .html import verdict_counts
from .scorecard import VERDICTS, headlines, verdict_summary
from .why import headline_cause, why_terminal

_ANSI = {"match": "32", "holds": "32", "close": "33", "differs": "33", "fails": "31",
         "not_run": "90"}


def _paint(text: str, verdict: str, color: bool) -> str:
    return f"\x1b[{_ANSI.get(verdict.strip(), '0')}m{text}\x1b[0m" if color else text


def format_summary_terminal(sc: pd.DataFrame, color: bool = True,
                            covs: Mapping[str, Coverage] | None = None) -> str:
    """The report's first screen as text: verdict counts per paper, the deviating rows by cause
    status, the claim inventories' coverage (``covs``), then each paper's headline claims with
    verdict and cause (or note) in one line."""
    if not len(sc):
        return "no scorecard rows"
    counts = verdict_summary(sc)
    w = max(len("paper"), *(len(p) for p in counts.index))
    lines = ["paper".ljust(w) + "".join(_paint(v.rjust(9), v, color) for v in VERDICTS)
             + "     rows"]
    for p in counts.index:
        lines.append(p.ljust(w) + "".join(f"{int(counts.loc[p, v]):>9}" for v in VERDICTS)
                     + f"{int(counts.loc[p, 'rows']):>9}")
    tot = counts.sum()
    lines.append("all".ljust(w) + "".join(f"{int(tot[v]):>9}" for v in VERDICTS)
                 + f"{int(tot['rows']):>9}")
    lines += why_terminal(sc, covs)
    h = headlines(sc)
    for p, rows in h.groupby("paper", sort=False):
        lines += ["", f"{p}: headline claims"]
        for r in rows.to_dict("records"):
            nums = ""
            if not (math.isnan(r["published"]) and math.isnan(r["reproduced"])):
                nums = (f" [published {_plain(r['published'], '')}, reproduced "
                        f"{_plain(r['reproduced'], '')}{(' ' + r['unit']) if r['unit'] else ''}]")
            lines.append(f"  {_paint(r['verdict'].ljust(8), r['verdict'], color)} {r['item']}: "
                         f"{r['quantity']} ({r['condition']}){nums}")
            why = headline_cause(r)
            if why or r["note"]:
                lines.append(f"           {((why and 'cause: ' + why) or r['note'])[:160]}")
    return "\n".join(lines)


def format_scorecard_terminal(sc: pd.DataFrame, color: bool = True) -> str:
    """The scorecard rows as aligned text, verdicts colored with ANSI codes when ``color``."""
    cols = ["paper", "item", "quantity", "condition", "published", "reproduced", "unit",
            "relative_error", "tolerance", "verdict", "explained", "cause"]
    rows = [[_plain(r[c], c) for c in cols] for r in sc.to_dict("records")]
    widths = [min(40, max([len(c)] + [len(row[i]) for row in rows])) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)).rstrip()]
    v = cols.index("verdict")
    for row in rows:
        cells = [val[:w].ljust(w) for val, w in zip(row, widths, strict=True)]
        cells[v] = _paint(cells[v], row[v], color)
        lines.append("  ".join(cells).rstrip())
    counts = verdict_counts(sc) if len(sc) else {}
    lines.append("")
    lines.append(", ".join(f"{n} {v}" for v, n in counts.items()) or "no rows")
    return "\n".join(lines)


def _plain(v: object, col: str) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "-"
        if col == "relative_error":
            return f"{100 * v:+.1f}%"
        return f"{100 * v:.0f}%" if col == "tolerance" else f"{v:.4g}"
    return str(v)
