"""The robustness matrix drawn: a heatmap per paper for the report, a table for the terminal.

Both read the long frame of :mod:`schedlab.report.robustness` (``results/robustness.parquet``): per
paper, its claims down the side, its own log(s) first (marked *own*), then every studied log, each
cell coloured by the claim's verdict on that log in the scorecard's colours, a cell that could not
be tested (``checked`` False) drawn faded and labelled ``n/c``, and a last column saying on how many
studied logs the claim holds, and its reading (:data:`~schedlab.report.robustness.READINGS`).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .robustness import READINGS, claim_counts, log_columns, size

#: A cell's short label: the verdict, or ``n/c`` for a claim that could not be tested on the log.
LABELS = {"holds": "holds", "fails": "fails", "not_run": "n/r"}
UNCHECKED = "n/c"


def cell_label(verdict: str, checked: bool) -> str:
    """The text of one cell (``""`` for no row)."""
    if not verdict:
        return ""
    return LABELS.get(verdict, verdict) if checked or verdict == "holds" else UNCHECKED


def column_name(log: str, own: bool) -> str:
    """A column's heading: the log, marked ``(own)`` for the paper's own log; ``own: N logs`` for
    a paper with several (their names are in the heatmap's tooltip and the parquet)."""
    if not own:
        return log
    n = log.count("+") + 1
    return f"{log} (own)" if n == 1 else f"own: {n} logs"


Column = tuple[str, bool]


def paper_grid(m: pd.DataFrame, paper: str) -> tuple[list[Column], list[dict[Any, Any]]]:
    """One paper's columns (:func:`~schedlab.report.robustness.log_columns`) and, per claim, its
    cells ``(verdict, checked, note)`` by column, with its counts (``holds_on``, ``reading``)."""
    p = m[m["paper"] == paper]
    cols = log_columns(p)
    cells = {(r.claim, r.log, r.own_log): (r.verdict, bool(r.checked), r.note)
             for r in p.itertuples(index=False)}
    counts = claim_counts(p).set_index("claim")
    return cols, [{"claim": c, **{col: cells.get((c, *col), ("", False, "")) for col in cols},
             "holds_on": counts.loc[c, "holds_on"], "reading": counts.loc[c, "reading"]}
            for c in dict.fromkeys(p["claim"])]


def heatmap_html(m: pd.DataFrame, paper: str, colors: Mapping[str, str]) -> str:
    """One paper's claims x logs as an HTML table, cells in the verdict ``colors``."""
    cols, grid = paper_grid(m, paper)
    head = "".join(f'<th class="{"own" if own else "log"}" title="{html.escape(log)}">'
                   f"{html.escape(column_name(log, own))}</th>" for log, own in cols)
    body = []
    for r in grid:
        tds = []
        for col in cols:
            verdict, checked, note = r[col]
            label = cell_label(verdict, checked)
            style = f"background:{colors.get(verdict, '#6e7781')}" if verdict else ""
            faded = " nc" if label == UNCHECKED else ""
            own = " own" if col[1] else ""
            tds.append(f'<td class="cell{own}{faded}" style="{style}" title="{html.escape(note)}">'
                       f"{html.escape(label)}</td>")
        body.append(f'<tr><td class="t">{html.escape(r["claim"])}</td>{"".join(tds)}'
                    f'<td>{r["holds_on"]}</td><td class="t">{html.escape(r["reading"])}</td></tr>')
    return (f'<div class="scroll"><table class="robustness" data-paper="{html.escape(paper)}">'
            f'<thead><tr><th>claim</th>{head}<th>holds on studied logs</th><th>reading</th></tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table></div>')


_CSS = ("<style>table.robustness td.cell{color:#fff;text-align:center;font-weight:600}"
        "table.robustness td.nc{opacity:.45}table.robustness .own{border:3px solid #1f2328}"
        "</style>")


def robustness_section(m: pd.DataFrame, colors: Mapping[str, str],
                       titles: Mapping[str, str] | None = None) -> str:
    """The report's section: the matrix's size, the legend, and per paper a line of its readings
    (:func:`reading_line`) that opens on its heatmap."""
    claims, logs = size(m)
    studied = sorted(set(m.loc[~m["own_log"], "log"]))
    readings = "".join(f"<li><b>{html.escape(k)}</b>: {html.escape(v)}</li>"
                       for k, v in READINGS.items())
    parts = ['<section id="robustness"><h2>Robustness: do the claims hold on other logs?</h2>', _CSS,
             f'<p class="note">{claims} claims × {logs} log columns; studied logs: '
             f"{html.escape(', '.join(studied) or 'none yet')}. Each paper's claim checks "
             "(claim rows of its scorecard) on its own log(s), marked <b>own</b>, and by its study "
             "on every log marked <code>study: true</code>. <b>n/c</b>: the claim's quantities do "
             "not exist on that log (not checkable); <b>n/r</b>: not run, with a listed reason; "
             "an empty cell: the log's scorecard has no row for the claim. docs/robustness.md.</p>",
             f'<ul class="note">{readings}</ul>']
    for paper in dict.fromkeys(m["paper"]):
        title = (titles or {}).get(paper, paper)
        parts.append(f"<details><summary><b>{html.escape(title)}</b>: "
                     f"{html.escape(reading_line(m, paper))}</summary>")
        parts.append(heatmap_html(m, paper, colors) + "</details>")
    parts.append("</section>")
    return "\n".join(parts)


def reading_line(m: pd.DataFrame, paper: str) -> str:
    """One paper's claims counted by reading, e.g. ``41 claims: 17 general, 3 own log only``."""
    counts = claim_counts(m[m["paper"] == paper])["reading"].value_counts()
    parts = [f"{int(counts[r])} {r}" for r in READINGS if r in counts]
    return f"{int(counts.sum())} claims: " + ", ".join(parts)


def format_terminal(m: pd.DataFrame, width: int = 48) -> str:
    """The matrix as text, one block per paper: claims (cut to ``width`` characters) x logs."""
    if not len(m):
        return "robustness matrix: no claims"
    claims, logs = size(m)
    out = [f"robustness matrix: {claims} claims x {logs} log columns"]
    for paper in dict.fromkeys(m["paper"]):
        cols, grid = paper_grid(m, paper)
        names = [column_name(log, own) for log, own in cols]
        table = pd.DataFrame(
            [[r["claim"] if len(r["claim"]) <= width else r["claim"][: width - 1] + "…",
              *(cell_label(*r[col][:2]) for col in cols), r["holds_on"], r["reading"]]
             for r in grid], columns=["claim", *names, "holds on", "reading"])
        out += ["", f"{paper} ({reading_line(m, paper)})", table.to_string(index=False)]
    return "\n".join(out)
