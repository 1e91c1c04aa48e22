"""The reproduction report: one static HTML page per run, readable without the code.

For every paper it shows the scorecard (published vs reproduced, relative error, verdict, note),
grouped by the paper's table/figure, every reproduced table and every figure (PNG shown, PDF linked).
The page is self-contained in its directory (figures are copied next to it), so ``results/report/``
can be zipped and mailed. Pure functions build the HTML; :func:`build_report` is the only I/O.
"""

from __future__ import annotations

import html
import math
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .io import read_parquet, write_parquet, write_text
from .scorecard import COLUMNS, scorecard_frame

#: Human titles of the papers (key = results/<key>/).
PAPER_TITLES = {
    "schroeder2004": "Schroeder & Harchol-Balter 2004 — Evaluation of task assignment policies "
                     "for supercomputing servers",
    "talby2005": "Talby & Feitelson 2005 — Improving and stabilizing parallel computer performance "
                 "using adaptive backfilling",
    "tang2013": "Tang, Ren, Lan & Desai 2013 — Toward balanced and sustainable job scheduling "
                "for production supercomputers (metric-aware scheduling)",
    "perkovic2000": "Perković & Keleher 2000 — Randomization, speculation, and adaptation in "
                    "batch schedulers",
    "cirne2001": "Cirne 2001 — Using moldability to improve the performance of supercomputer jobs",
}
VERDICT_COLORS = {"match": "#1a7f37", "holds": "#1a7f37", "differs": "#b35900", "fails": "#cf222e",
                  "not_run": "#6e7781"}
MAX_TABLE_ROWS = 60

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#1f2328;line-height:1.45}
h1{border-bottom:2px solid #d0d7de}h2{margin-top:2.2em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;margin:.6em 0 1.4em;font-size:.86em}
th,td{border:1px solid #d0d7de;padding:3px 7px;text-align:right;vertical-align:top}
th{background:#f6f8fa}td.t{text-align:left}
.verdict{font-weight:600;color:#fff;padding:1px 6px;border-radius:4px}
figure{display:inline-block;margin:.5em 1em 1.5em 0;max-width:100%}
figure img{max-width:560px;border:1px solid #d0d7de}figcaption{font-size:.85em}
.summary span{margin-right:1.2em}.note{color:#57606a;font-size:.9em}
nav a{margin-right:1em}img.missing{outline:3px solid #cf222e;min-width:200px;min-height:40px}
"""
# Marks the page with how many figures loaded (a reader sees broken ones outlined in red; the
# browser test reads the counts).
_SCRIPT = """<script>window.addEventListener('load',function(){var im=Array.from(document.images);
document.body.dataset.figures=im.length;
document.body.dataset.figuresLoaded=im.filter(function(i){return i.complete&&i.naturalWidth>0}).length;
document.body.dataset.tables=document.querySelectorAll('table').length;});</script>"""


@dataclass
class PaperResults:
    """The outputs of one paper found on disk."""

    key: str
    scorecard: pd.DataFrame | None = None
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: list[Path] = field(default_factory=list)  # PNG paths


def collect(results_dir: Path, papers: Sequence[str]) -> list[PaperResults]:
    """Find each paper's scorecard, tables (results/<p>/tables/*.parquet) and figures (*.png)."""
    out = []
    for key in papers:
        base = results_dir / key
        pr = PaperResults(key)
        sc = base / "scorecard.parquet"
        if sc.exists():
            pr.scorecard = read_parquet(sc)[0]
        for t in sorted((base / "tables").glob("*.parquet")):
            pr.tables[t.stem] = read_parquet(t)[0]
        pr.figures = sorted((base / "figures").glob("*.png"))
        out.append(pr)
    return out


def combine_scorecards(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """All papers' scorecards in one frame with exactly the scorecard columns."""
    frames = [f[COLUMNS] for f in frames if f is not None and len(f)]
    if not frames:
        return scorecard_frame([])
    return scorecard_frame(pd.concat(frames, ignore_index=True).to_dict("records"))


def verdict_counts(sc: pd.DataFrame) -> dict[str, int]:
    return {v: int((sc["verdict"] == v).sum()) for v in VERDICT_COLORS if (sc["verdict"] == v).any()}


def _fmt(x: object) -> str:
    if isinstance(x, float):
        if math.isnan(x):
            return "–"
        if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3):
            return f"{x:.3g}"
        return f"{x:,.4g}" if abs(x) < 1000 else f"{x:,.0f}"
    return html.escape(str(x))


def html_table(df: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS, cls: str = "") -> str:
    """A plain HTML table (numbers right-aligned, text left); long tables are cut with a note."""
    shown = df.head(max_rows)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)
    rows = []
    for rec in shown.itertuples(index=False):
        cells = []
        for c, v in zip(shown.columns, rec, strict=True):
            if c == "verdict":
                color = VERDICT_COLORS.get(str(v), "#6e7781")
                cells.append(f'<td class="t"><span class="verdict" style="background:{color}">'
                             f"{html.escape(str(v))}</span></td>")
            elif isinstance(v, int | float) and not isinstance(v, bool):
                val = v * 100 if c == "relative_error" else v
                cells.append(f"<td>{_fmt(float(val))}{'%' if c == 'relative_error' else ''}</td>")
            else:
                cells.append(f'<td class="t">{html.escape(str(v))}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    more = (f'<p class="note">{len(df) - max_rows:,} more rows in the parquet file.</p>'
            if len(df) > max_rows else "")
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{more}'


def paper_section(pr: PaperResults, figure_prefix: str) -> str:
    """HTML for one paper: verdict summary, scorecard by item, tables, figures."""
    title = PAPER_TITLES.get(pr.key, pr.key)
    parts = [f'<section id="{pr.key}"><h2>{html.escape(title)}</h2>']
    if pr.scorecard is not None and len(pr.scorecard):
        counts = verdict_counts(pr.scorecard)
        parts.append('<p class="summary">' + "".join(
            f'<span><span class="verdict" style="background:{VERDICT_COLORS[v]}">{v}</span> {n}</span>'
            for v, n in counts.items()) + "</p>")
        parts.append("<h3>Scorecard: published vs reproduced</h3>")
        sc = pr.scorecard.drop(columns=["paper"])
        parts.append(html_table(sc, max_rows=500, cls="scorecard"))
    else:
        parts.append('<p class="note">No scorecard was produced for this paper.</p>')
    for name, df in pr.tables.items():
        parts.append(f'<h3>Table: {html.escape(name)}</h3>')
        parts.append(html_table(df, cls="table"))
    for png in pr.figures:
        rel = f"{figure_prefix}/{pr.key}/{png.name}"
        pdf = png.with_suffix(".pdf")
        link = f' (<a href="{figure_prefix}/{pr.key}/{pdf.name}">PDF</a>)' if pdf.exists() else ""
        parts.append(f'<figure><img src="{rel}" alt="{html.escape(png.stem)}" '
                     f'onerror="this.classList.add(\'missing\')">'
                     f"<figcaption>{html.escape(png.stem)}{link}</figcaption></figure>")
    parts.append("</section>")
    return "\n".join(parts)


def render_html(papers: Sequence[PaperResults], overall: pd.DataFrame, provenance: dict) -> str:
    """The whole page."""
    nav = "".join(f'<a href="#{p.key}">{html.escape(p.key)}</a>' for p in papers)
    counts = verdict_counts(overall) if len(overall) else {}
    summary = "".join(
        f'<span><span class="verdict" style="background:{VERDICT_COLORS[v]}">{v}</span> {n}</span>'
        for v, n in counts.items())
    prov = "".join(f"<li>{html.escape(k)}: {html.escape(str(v))}</li>" for k, v in provenance.items())
    body = "\n".join(paper_section(p, "figures") for p in papers)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>schedlab reproduction report</title>
<style>{_CSS}</style></head><body>
<h1>schedlab reproduction report</h1>
<p>Five classic parallel-job-scheduling studies re-run from Parallel Workloads Archive logs.
Each claim of each paper is a scorecard row: <b>match</b>/<b>differs</b> compare a published number
with ours (relative error within 10%), <b>holds</b>/<b>fails</b> check a qualitative claim (ordering,
ratio, trend) on our data, <b>not_run</b> marks what could not be reproduced here (with the reason).</p>
<p class="summary">All papers: {summary or "no scorecard rows"}</p>
<nav>{nav}</nav>
<ul class="note">{prov}</ul>
{body}
{_SCRIPT}
</body></html>
"""


def build_report(results_dir: Path, papers: Sequence[str], out_html: Path, out_scorecard: Path,
                 provenance: dict) -> None:
    """Collect outputs, write the combined scorecard parquet and the HTML page (+ figure copies)."""
    found = collect(results_dir, papers)
    overall = combine_scorecards(p.scorecard for p in found)
    write_parquet(out_scorecard, overall, provenance)
    fig_dir = out_html.parent / "figures"
    for p in found:
        for png in p.figures:
            for src in (png, png.with_suffix(".pdf")):
                if src.exists():
                    dest = fig_dir / p.key / src.name
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dest)
    write_text(out_html, render_html(found, overall, provenance))


def format_scorecard_terminal(sc: pd.DataFrame, color: bool = True) -> str:
    """The scorecard as aligned text, verdicts colored with ANSI codes when ``color``."""
    ansi = {"match": "32", "holds": "32", "differs": "33", "fails": "31", "not_run": "90"}
    cols = ["paper", "item", "quantity", "condition", "published", "reproduced", "unit",
            "relative_error", "verdict"]
    rows = [[_plain(r[c], c) for c in cols] for r in sc.to_dict("records")]
    widths = [min(40, max([len(c)] + [len(row[i]) for row in rows])) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
    for row in rows:
        cells = [v[:w].ljust(w) for v, w in zip(row, widths, strict=True)]
        if color:
            cells[-1] = f"\x1b[{ansi.get(row[-1], '0')}m{cells[-1]}\x1b[0m"
        lines.append("  ".join(cells))
    counts = verdict_counts(sc) if len(sc) else {}
    lines.append("")
    lines.append(", ".join(f"{n} {v}" for v, n in counts.items()) or "no rows")
    return "\n".join(lines)


def _plain(v: object, col: str) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "-"
        return f"{100 * v:+.1f}%" if col == "relative_error" else f"{v:.4g}"
    return str(v)
