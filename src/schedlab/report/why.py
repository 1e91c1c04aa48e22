"""Why the rows deviate: counts by ``explained`` status, causes grouped, and the headline claims
with their causes (the report's first screen and each paper's opening; ``schedlab scorecard``).

Rows still carrying the gap marker (:data:`schedlab.report.scorecard.NOT_ATTRIBUTED`) are counted
as "not attributed", apart from the ``unexplained`` rows whose readings were tried: the marker says
nobody has looked yet, not that nothing was found.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import pandas as pd

from .claims import REASONS, Coverage
from .scorecard import DEVIATING, EXPLAINED, NOT_ATTRIBUTED, count_key, count_keys, headlines

#: Attribution statuses of a deviating row, in report order.
STATUSES = (*EXPLAINED, "not attributed")
STATUS_COLORS = {"explained": "#1a7f37", "partly": "#9a6700", "unexplained": "#cf222e",
                 "data": "#6e7781", "not attributed": "#8250df"}


def attribution_status(sc: pd.DataFrame) -> pd.Series:
    """Per row: its ``explained`` value, ``not attributed`` for the gap marker, ``""`` for a row
    that does not deviate."""
    marker = (sc["cause"] == NOT_ATTRIBUTED["cause"]) & (sc["evidence"] == NOT_ATTRIBUTED["evidence"])
    status = sc["explained"].where(~marker, "not attributed")
    return status.where(sc["verdict"].isin(DEVIATING), "")


def why_counts(sc: pd.DataFrame) -> pd.DataFrame:
    """Per paper (first-seen order; its own checks on a line of their own after it,
    :func:`~schedlab.report.scorecard.count_key`): deviating rows (close, differs, fails) by
    status (:data:`STATUSES`) and their total."""
    papers = count_keys(sc)
    d = sc.assign(status=attribution_status(sc), paper=count_key(sc))
    d = d[d["status"] != ""]
    counts = (d.groupby(["paper", "status"]).size().unstack(fill_value=0)
              .reindex(index=papers, columns=list(STATUSES), fill_value=0))
    counts["deviating"] = counts.sum(axis=1)
    return counts.astype("int64")


def grouped_causes(sc: pd.DataFrame) -> pd.DataFrame:
    """The causes of the explained, partly explained and data rows: one line per cause with its
    rows by status, largest first (ties in first-seen order)."""
    d = sc.assign(status=attribution_status(sc))
    d = d[d["status"].isin(("explained", "partly", "data"))]
    if not len(d):
        return pd.DataFrame(columns=["cause", "rows", "explained", "partly", "data"])
    g = (d.groupby(["cause", "status"], sort=False).size().unstack(fill_value=0)
         .reindex(columns=["explained", "partly", "data"], fill_value=0))
    g["rows"] = g.sum(axis=1)
    g["_first"] = range(len(g))
    g = g.sort_values(["rows", "_first"], ascending=[False, True]).drop(columns="_first")
    return g.reset_index()[["cause", "rows", "explained", "partly", "data"]]


def _badge(status: str) -> str:
    color = STATUS_COLORS.get(status, "#6e7781")
    return f'<span class="verdict" style="background:{color}">{html.escape(status)}</span>'


def why_section(sc: pd.DataFrame) -> str:
    """HTML opening one paper's section: its deviating rows by status, then the causes grouped."""
    counts = why_counts(sc)
    if not len(counts) or not int(counts["deviating"].iloc[0]):
        return ('<div class="why"><h3>Why it differs</h3><p class="note">No row deviates.</p>'
                "</div>")
    c = counts.iloc[0]
    parts = ['<div class="why"><h3>Why it differs</h3>',
             f'<p class="summary">{int(c["deviating"])} rows close, differ or fail: '
             + "".join(f"<span>{_badge(s)} {int(c[s])}</span>" for s in STATUSES) + "</p>"]
    causes = grouped_causes(sc)
    if len(causes):
        items = "".join(
            f'<li><b>{int(r.rows)}</b> {html.escape(str(r.cause))} <span class="note">('
            + ", ".join(f"{int(getattr(r, s))} {s}" for s in ("explained", "partly", "data")
                        if int(getattr(r, s))) + ")</span></li>"
            for r in causes.itertuples(index=False))
        parts.append(f'<ol class="causes">{items}</ol>')
    tried = int(c["unexplained"])
    gap = int(c["not attributed"])
    if tried or gap:
        parts.append('<p class="note">' + "; ".join(x for x in (
            f"{tried} unexplained after the readings tried (each row's evidence lists them)"
            if tried else "",
            f"{gap} not attributed yet (the gap marker: no reading tried, not a result)"
            if gap else "") if x) + ".</p>")
    parts.append("</div>")
    return "\n".join(parts)


def coverage_line(cov: Coverage | None) -> str:
    """HTML: one paper's claim inventory in one line."""
    if cov is None:
        return '<p class="note coverage">No claim inventory for this paper.</p>'
    reasons = ", ".join(f"{cov.by_reason[r]} {r}" for r in REASONS if cov.by_reason.get(r))
    text = (f"Claims in the paper's inventory: {cov.claims} found, {cov.rows} with a scorecard "
            f"row, {cov.not_checkable} not checkable" + (f" ({reasons})" if reasons else "")
            + (f", {cov.not_located} not located in the text" if cov.not_located else "") + ".")
    problems = ""
    if cov.missing_rows:
        problems += (f' <span class="bad">{len(cov.missing_rows)} name a row this scorecard '
                     f"lacks: {html.escape('; '.join(cov.missing_rows[:5]))}</span>")
    if cov.unlisted:
        problems += (f' <span class="bad">{len(cov.unlisted)} claim rows are in no entry: '
                     f"{html.escape('; '.join(cov.unlisted[:5]))}</span>")
    return f'<p class="coverage">{html.escape(text)}{problems}</p>'


def headline_cause(r: Mapping[str, object]) -> str:
    """A headline row's cause in one line: ``<status>: <cause>``; empty when it does not
    deviate."""
    if r["verdict"] not in DEVIATING:
        return ""
    if r["cause"] == NOT_ATTRIBUTED["cause"] and r["evidence"] == NOT_ATTRIBUTED["evidence"]:
        return "not attributed yet"
    return f"{r['explained']}: {r['cause']}"


def headlines_table(sc: pd.DataFrame, titles: Mapping[str, str], badge) -> str:
    """HTML: the headline claims, one line each: paper, claim, verdict, and the cause of a
    deviating row (the note of the others); full texts on hover."""
    rows = []
    for r in headlines(sc).to_dict("records"):
        claim = f"{r['item']}: {r['quantity']}"
        cause = headline_cause(r)
        text = cause or str(r["note"])
        full = f"{cause} — {r['evidence']}" if cause else text
        title = titles.get(str(r["paper"]), str(r["paper"]))
        rows.append(
            f'<tr><td class="t line" title="{html.escape(title)}"><a href="#'
            f'{html.escape(str(r["paper"]))}">{html.escape(str(r["paper"]))}</a></td>'
            f'<td class="t line" title="{html.escape(claim)} ({html.escape(str(r["condition"]))})">'
            f"{html.escape(claim)}</td><td class=\"t\">{badge(str(r['verdict']))}</td>"
            f'<td class="t line cause{"" if cause else " note"}" title="{html.escape(full)}">'
            f"{html.escape(text) or '–'}</td></tr>")
    cols = ('<colgroup><col class="c-paper"><col class="c-claim"><col class="c-verdict">'
            '<col class="c-cause"></colgroup>')
    return (f'<table class="headlines">{cols}<thead><tr><th>paper</th><th>claim</th>'
            f'<th>verdict</th><th>cause (deviating rows) or note</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def why_terminal(sc: pd.DataFrame, covs: Mapping[str, Coverage] | None = None) -> list[str]:
    """Text lines for ``schedlab scorecard``: deviating rows by status per paper, then the claim
    inventory per paper (claims found / with a row / not checkable)."""
    counts = why_counts(sc)
    w = max(len("paper"), *(len(p) for p in counts.index)) if len(counts) else len("paper")
    heads = [s if s != "not attributed" else "not-attr." for s in STATUSES]
    lines = ["", "why it differs (close, differs, fails rows)",
             "paper".ljust(w) + "".join(h.rjust(12) for h in heads) + "   deviating"]
    for p in counts.index:
        lines.append(p.ljust(w) + "".join(f"{int(counts.loc[p, s]):>12}" for s in STATUSES)
                     + f"{int(counts.loc[p, 'deviating']):>12}")
    if covs:
        lines += ["", "claim inventories (config/papers/<paper>_claims.tsv)",
                  "paper".ljust(w) + "       found    with row  not checkable  not located"]
        for p, c in covs.items():
            lines.append(p.ljust(w) + f"{c.claims:>12}{c.rows:>12}{c.not_checkable:>15}"
                         f"{c.not_located:>13}"
                         + (f"   {len(c.missing_rows)} name absent rows" if c.missing_rows else ""))
    return lines
