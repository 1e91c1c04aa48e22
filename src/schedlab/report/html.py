"""The reproduction report: one static HTML page per run, readable without the code.

After the summary, when ``results/robustness.parquet`` exists, a heatmap per paper of its claims on
every studied log (:mod:`schedlab.report.robustness_view`). For every paper it shows the scorecard
(published vs reproduced, relative error, verdict, note), grouped by the paper's table/figure,
every reproduced table and every figure (PNG shown, PDF linked).
A last section, "Studies on other logs", shows for every studied log (config ``study_traces``) its
characteristics and each paper's study of it (``results/studies/<trace>/<paper>/``, the paper
contract's study, :mod:`schedlab.papers`: the title, the study log's role and the scale from
``done.json``, the claim rows of its scorecard, its tables and figures).
When a paper-scale run's merged scorecard exists (``results/paper-scale/``, ``make
reproduce-paper``), the page leads with that scale and says so above the summary, the default scale
beside it in a "Scale sensitivity" section (:mod:`schedlab.report.scale_view`), whichever run builds
it; otherwise it is a single run's page.
The page is self-contained in its directory (figures are copied next to it), so ``results/report/``
can be zipped and mailed. Pure functions build the HTML; :func:`build_report` is the only I/O.
"""

from __future__ import annotations

import html
import json
import math
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import ConfigError
from ..io import read_parquet, read_parquet_metadata, write_parquet, write_text
from ..papers import PAPERS, load
from ..sim.metrics import RELATIVE_MONTHS_NOTE
from ..traces.lookup import trace_characteristics
from ..traces.swf import SWFHeader, SWFTrace
from .claims import Coverage, coverage, coverage_table, load_inventories
from .compare import item_of_table, items_with_numbers, side_by_side
from .robustness_view import robustness_section
from .scale_causes import read_scale_causes
from .scale_sensitivity import lead_scale, read_scale, recorded_settings, scale_sensitivity
from .scale_view import ScaleCard, lead_html, scale_section
from .scorecard import (
    COLUMNS,
    EXPLAINED_RULES,
    VERDICT_RULES,
    VERDICTS,
    headlines,
    scorecard_frame,
    sort_rows,
    verdict_summary,
)
from .why import (
    STATUS_COLORS,
    coverage_line,
    headlines_table,
    why_counts,
    why_section,
)

VERDICT_COLORS = {"match": "#1a7f37", "holds": "#1a7f37", "close": "#9a6700", "differs": "#b35900",
                  "fails": "#cf222e", "not_run": "#6e7781"}
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
.pair{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}.pair>div{overflow-x:auto;max-width:100%}
p.side{margin:.2em 0;font-weight:600}
nav a{margin-right:1em}img.missing{outline:3px solid #cf222e;min-width:200px;min-height:40px}
#studies table{display:block;overflow-x:auto;max-width:100%}#studies td.t{white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}td.t{overflow-wrap:anywhere;max-width:36em}
body>h1{margin:-.8em 0 .2em;font-size:1.6em}#summary h2{margin:.3em 0 .2em;font-size:1.3em}
#summary h3{margin:.3em 0 .1em;font-size:1.05em}
table.headlines{table-layout:fixed;width:100%;margin:.2em 0 1em;font-size:.8em;line-height:1.2}
table.headlines td{padding:1px 6px}table.headlines th{text-align:left}
table.headlines td{white-space:nowrap;overflow-wrap:normal}table.headlines .verdict{padding:0 5px}
table.headlines td.line{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:none}
table.headlines col.c-paper{width:9.5em}table.headlines col.c-verdict{width:5.5em}
.bad{color:#cf222e}ol.causes{margin:.3em 0 .8em}p.coverage{font-size:.9em}
"""
# Marks the page with how many figures loaded (a reader sees broken ones outlined in red; the
# browser test reads the counts).
_SCRIPT = """<script>window.addEventListener('load',function(){var im=Array.from(document.images);
document.body.dataset.figures=im.length;
document.body.dataset.figuresLoaded=im.filter(function(i){return i.complete&&i.naturalWidth>0}).length;
document.body.dataset.tables=document.querySelectorAll('table').length;
var top=function(sel){var e=document.querySelector(sel);return e?e.getBoundingClientRect().top:-1;};
document.body.dataset.summaryTop=top('#summary');
document.body.dataset.headlinesTop=top('table.headlines');
var causes=Array.from(document.querySelectorAll('table.headlines td.cause'));
document.body.dataset.causes=causes.length;
document.body.dataset.causesBottom=Math.max.apply(null,causes.map(function(c){return c.getBoundingClientRect().bottom;}).concat([-1]));
document.body.dataset.scrollWidth=document.documentElement.scrollWidth;
document.body.dataset.clientWidth=document.documentElement.clientWidth;});</script>"""


@dataclass
class PaperResults:
    """The outputs of one paper found on disk."""

    key: str
    scorecard: pd.DataFrame | None = None
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: list[Path] = field(default_factory=list)  # PNG paths


def paper_title(key: str) -> str:
    """A paper's title (the contract's ``title``; the key itself for an unknown one)."""
    return load(key).title if key in PAPERS else key


def collect(results_dir: Path, papers: Sequence[str],
            extra_scorecards: Mapping[str, Sequence[str]] | None = None,
            root: Path | None = None) -> list[PaperResults]:
    """Find each paper's scorecard (with ``extra_scorecards[<p>]``: scorecards its target builds
    outside <root>/<p>/, relative to ``results_dir``), tables (<root>/<p>/tables/*.parquet) and
    figures (*.png); ``root``: the run's output root (default ``results_dir``)."""
    out = []
    for key in papers:
        base = (root or results_dir) / key
        pr = PaperResults(key)
        extra = (extra_scorecards or {}).get(key, ())
        found = [p for p in (base / "scorecard.parquet", *(results_dir / x for x in extra))
                 if p.exists()]
        if found:
            pr.scorecard = pd.concat([_scorecard_file(p) for p in found], ignore_index=True)
        for t in sorted((base / "tables").glob("*.parquet")):
            pr.tables[t.stem] = read_parquet(t)[0]
        pr.figures = sorted((base / "figures").glob("*.png"))
        out.append(pr)
    return out


def _scorecard_file(path: Path) -> pd.DataFrame:
    """A paper's scorecard parquet; ConfigError when it predates columns of the scorecard."""
    sc = read_parquet(path)[0]
    missing = [c for c in COLUMNS if c not in sc.columns]
    if missing:
        raise ConfigError(f"{path}: written without the scorecard column(s) {', '.join(missing)}: "
                          "rebuild it (snakemake --forcerun the rule that writes it)")
    return sc


@dataclass
class StudyResults:
    """One paper's study of one log (``results/studies/<trace>/<study>/``)."""

    trace: str
    study: str
    done: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: list[Path] = field(default_factory=list)  # PNG paths
    scorecard: pd.DataFrame | None = None


@dataclass
class StudiedTrace:
    """A log marked ``study: true``: its characteristics and the studies run on it."""

    trace: str
    characteristics: dict
    studies: list[StudyResults] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  #: what every study of the log must say


def collect_studies(results_dir: Path, traces: Mapping[str, int | None]) -> list[StudiedTrace]:
    """For each studied trace (name -> registry machine size): the characteristics of its cleaned
    log (``results/traces/<trace>/clean.parquet``, header from ``jobs.parquet``) and every study
    with a ``done.json``, in :data:`schedlab.papers.PAPERS` order."""
    out = []
    for trace, size in traces.items():
        tdir = results_dir / "traces" / trace
        chars: dict = {}
        notes: list[str] = []
        if (tdir / "clean.parquet").exists() and (tdir / "jobs.parquet").exists():
            jobs, _ = read_parquet(tdir / "clean.parquet")
            header = SWFHeader.from_dict(read_parquet_metadata(tdir / "jobs.parquet")["swf_header"])
            chars = trace_characteristics(SWFTrace(jobs, header, str(tdir / "clean.parquet")), size)
            if header.unix_start_time is None:
                notes.append(RELATIVE_MONTHS_NOTE)
        st = StudiedTrace(trace, chars, notes=notes)
        for study in PAPERS:
            base = results_dir / "studies" / trace / study
            if not (base / "done.json").exists():
                continue
            done = json.loads((base / "done.json").read_text())
            sr = StudyResults(trace, study, done)
            for name in done.get("tables", []):
                sr.tables[name] = read_parquet(base / "tables" / f"{name}.parquet")[0]
            sr.figures = [base / "figures" / f"{name}.png" for name in done.get("figures", [])]
            if (base / "scorecard.parquet").exists():
                sr.scorecard = read_parquet(base / "scorecard.parquet")[0]
            st.studies.append(sr)
        out.append(st)
    return out


def combine_scorecards(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """All papers' scorecards in one frame with exactly the scorecard columns."""
    frames = [f.reindex(columns=COLUMNS) for f in frames if f is not None and len(f)]
    if not frames:
        return scorecard_frame([])
    return sort_rows(scorecard_frame(pd.concat(frames, ignore_index=True).to_dict("records"))
                     ).reset_index(drop=True)


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


def html_table(df: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS, cls: str = "",
               scroll: bool = True) -> str:
    """A plain HTML table (numbers right-aligned, text left); long tables are cut with a note.
    ``scroll``: in a box that scrolls sideways when the table is wider than the page (so the page
    itself never does)."""
    shown = df.head(max_rows)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)
    rows = []
    for rec in shown.itertuples(index=False):
        cells = []
        for c, v in zip(shown.columns, rec, strict=True):
            if c in ("verdict", "explained") and str(v):
                color = (VERDICT_COLORS if c == "verdict" else STATUS_COLORS).get(str(v), "#6e7781")
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
    table = f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    return (f'<div class="scroll">{table}</div>' if scroll else table) + more


def _figure_html(png: Path, rel_dir: str) -> str:
    """One figure: the PNG (outlined in red if it fails to load) and a link to its PDF."""
    pdf = png.with_suffix(".pdf")
    link = f' (<a href="{rel_dir}/{pdf.name}">PDF</a>)' if pdf.exists() else ""
    return (f'<figure><img src="{rel_dir}/{png.name}" alt="{html.escape(png.stem)}" '
            f'onerror="this.classList.add(\'missing\')">'
            f"<figcaption>{html.escape(png.stem)}{link}</figcaption></figure>")


def _tables_and_figures(tables: Mapping[str, pd.DataFrame], figures: Sequence[Path], heading: str,
                        rel_dir: str) -> list[str]:
    """Each table under a "Table: <name>" heading, then each figure (from ``rel_dir``)."""
    parts = []
    for name, df in tables.items():
        parts.append(f"<{heading}>Table: {html.escape(name)}</{heading}>")
        parts.append(html_table(df, cls="table"))
    return parts + [_figure_html(png, rel_dir) for png in figures]


#: Characteristics shown per studied log (key -> label), in this order.
CHARACTERISTICS = {"jobs": "jobs (cleaned log)", "users": "users", "start_date": "start date",
                   "span_days": "span (days)", "machine_size": "processors",
                   "offered_load": "offered load", "mean_run_time": "mean run time (s)",
                   "mean_procs": "mean processors per job",
                   "estimate_coverage": "jobs with a run-time estimate"}


def _fmt_value(v: object) -> str:
    """A characteristic as text: integers with thousands separators, fractions to 3 digits."""
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:,.0f}"
    return str(v)


def studies_section(traces: Sequence[StudiedTrace], figure_prefix: str) -> str:
    """HTML for "Studies on other logs": per log its characteristics, then each study."""
    parts = ['<section id="studies"><h2>Studies on other logs</h2>',
             "<p>Each paper's own experiment points, at the <code>study</code> scale of its "
             "settings, on registry logs marked <code>study: true</code> "
             "(<code>config/traces.yaml</code>) or listed in config <code>study_traces</code>, the "
             "log in the place of the paper's own (its role is said per study). These logs were "
             "not used by the papers: the published numbers are not targets here, so only the "
             "claim rows of each study's scorecard are shown (does the finding hold on this "
             "log?); its tables and figures follow.</p>"]
    if not traces:
        parts.append('<p class="note">No registry log is marked <code>study: true</code> '
                     'or listed in config <code>study_traces</code>.</p>')
    for t in traces:
        tid = f"study-{t.trace}"
        parts.append(f'<h3 id="{html.escape(tid)}">Log {html.escape(t.trace)}</h3>')
        if t.characteristics:
            rows = [{"characteristic": label, "value": _fmt_value(t.characteristics[key])}
                    for key, label in CHARACTERISTICS.items() if key in t.characteristics]
            parts.append(html_table(pd.DataFrame(rows), cls="characteristics"))
        parts += [f'<p class="note">{html.escape(n)}</p>' for n in t.notes]
        if not t.studies:
            parts.append('<p class="note">No study has been run on this log yet.</p>')
        for sr in t.studies:
            d = sr.done
            parts.append(f'<h4 id="{html.escape(tid)}-{sr.study}">'
                         f'{html.escape(str(d.get("title", sr.study)))}</h4>')
            if d.get("role"):
                parts.append(f"<p>The study log replaces {html.escape(str(d['role']))}.</p>")
            scale = (d.get("settings") or {}).get("scale", "")
            parts.append(f'<p class="note">Settings: the paper\'s at scale '
                         f"{html.escape(str(scale))} (config/papers/{html.escape(sr.study)}.yaml, "
                         "overrides config <code>studies</code>).</p>")
            parts += _study_claims(sr.scorecard)
            parts += _tables_and_figures(sr.tables, sr.figures, "h5",
                                         f"{figure_prefix}/studies/{sr.trace}/{sr.study}")
    parts.append("</section>")
    return "\n".join(parts)


#: The scorecard columns of a study's claim rows.
STUDY_CLAIM_COLUMNS = ["item", "quantity", "condition", "reproduced", "verdict", "note"]


def _study_claims(card: pd.DataFrame | None) -> list[str]:
    """A study's claim rows (those a claim check judged: column ``check``) and their verdict
    counts."""
    if card is None or card.empty:
        return []
    claims = card[card["check"].fillna("").astype(str) != ""]
    if claims.empty:
        return ['<p class="note">No claim row in this study\'s scorecard.</p>']
    counts = ", ".join(f"{n} {v}" for v, n in verdict_counts(claims).items())
    return [f"<h5>Claims on this log ({html.escape(counts)})</h5>",
            html_table(claims[STUDY_CLAIM_COLUMNS].reset_index(drop=True), cls="claims")]


def published_beside_reproduced(sc: pd.DataFrame, tables: Mapping[str, pd.DataFrame]) -> list[str]:
    """For each paper table with published numbers: the paper's values and ours side by side, in
    the paper's layout (conditions down, quantities across; :mod:`schedlab.report.compare`)."""
    items = items_with_numbers(sc)
    if not items:
        return []
    parts = ["<h3>Published beside reproduced</h3>",
             '<p class="note">Each table or figure of the paper with published numbers: the '
             "paper's values (left) and ours (right) in the same layout; a dash is a value not "
             "published or not run here. Verdicts and notes are in the scorecard above; the full "
             "reproduced table files follow below.</p>"]
    for item in items:
        pub, rep = side_by_side(sc, item)
        files = [n for n in tables if item_of_table(n) == item]
        also = (f' <span class="note">(reproduced table file: {html.escape(", ".join(files))})</span>'
                if files else "")
        parts.append(f"<h4>{html.escape(item)}{also}</h4>")
        parts.append('<div class="pair"><div><p class="side">Published</p>'
                     + html_table(pub.reset_index(), cls="published", scroll=False)
                     + '</div><div><p class="side">Reproduced here</p>'
                     + html_table(rep.reset_index(), cls="reproduced", scroll=False)
                     + "</div></div>")
    return parts


#: The scorecard columns shown in a paper's section (the rest are in the parquet file).
SHOWN_COLUMNS = ["item", "quantity", "condition", "published", "reproduced", "unit",
                 "relative_error", "tolerance", "verdict", "explained", "cause", "evidence",
                 "phrase", "threshold_source", "check", "note"]


def paper_section(pr: PaperResults, figure_prefix: str, cov: Coverage | None = None) -> str:
    """HTML for one paper: why it differs and its claim coverage, verdict summary, scorecard by
    item, tables, figures."""
    title = paper_title(pr.key)
    parts = [f'<section id="{pr.key}"><h2>{html.escape(title)}</h2>']
    if pr.scorecard is not None and len(pr.scorecard):
        parts.append(why_section(pr.scorecard))
        parts.append(coverage_line(cov))
        counts = verdict_counts(pr.scorecard)
        parts.append('<p class="summary">' + "".join(
            f'<span><span class="verdict" style="background:{VERDICT_COLORS[v]}">{v}</span> {n}</span>'
            for v, n in counts.items()) + "</p>")
        parts.append("<h3>Scorecard: published vs reproduced</h3>")
        run = pr.scorecard[pr.scorecard["verdict"] != "not_run"]
        parts.append(html_table(run[SHOWN_COLUMNS], max_rows=500, cls="scorecard"))
        if len(run) < len(pr.scorecard):
            parts.append(f'<p class="note">{len(pr.scorecard) - len(run)} rows not run here are '
                         f'listed at the end (<a href="#not-run">not run</a>).</p>')
        parts += published_beside_reproduced(pr.scorecard, pr.tables)
    else:
        parts.append('<p class="note">No scorecard was produced for this paper.</p>')
    parts += _tables_and_figures(pr.tables, pr.figures, "h3", f"{figure_prefix}/{pr.key}")
    parts.append("</section>")
    return "\n".join(parts)


def _badge(v: str) -> str:
    return f'<span class="verdict" style="background:{VERDICT_COLORS.get(v, "#6e7781")}">{v}</span>'


def summary_section(overall: pd.DataFrame, covs: Mapping[str, Coverage] | None = None) -> str:
    """The first screen: the papers' headline claims, each with its verdict and cause in one line;
    then per paper the number of rows of each verdict, the deviating rows by cause status and the
    claim inventories' coverage; then the rules."""
    parts = ['<section id="summary"><h2>Summary: does each paper reproduce?</h2>']
    if not len(overall):
        parts.append('<p class="note">No scorecard rows yet.</p></section>')
        return "\n".join(parts)
    if len(headlines(overall)):
        parts.append("<h3>Headline claims</h3>")
        parts.append(headlines_table(overall, {p: paper_title(p) for p in PAPERS}, _badge))
    counts = verdict_summary(overall)
    why = why_counts(overall)
    statuses = [c for c in why.columns if c != "deviating"]
    head = "".join(f"<th>{_badge(v)}</th>" for v in VERDICTS)
    whyhead = "".join(f"<th>{html.escape(s)}</th>" for s in statuses)
    body = "".join(
        f'<tr><td class="t"><a href="#{html.escape(p)}">{html.escape(paper_title(p).split(" — ")[0])}</a></td>'
        + "".join(f"<td>{int(counts.loc[p, v])}</td>" for v in VERDICTS)
        + f"<td>{int(counts.loc[p, 'rows'])}</td>"
        + "".join(f"<td>{int(why.loc[p, s])}</td>" for s in statuses) + "</tr>"
        for p in counts.index)
    parts.append(f'<div class="scroll"><table class="verdict-summary"><thead><tr><th rowspan="2">'
                 f'paper</th><th colspan="{len(VERDICTS) + 1}">rows by verdict</th><th colspan='
                 f'"{len(statuses)}">close / differs / fails rows: why</th></tr><tr>{head}'
                 f"<th>rows</th>{whyhead}</tr></thead><tbody>{body}</tbody></table></div>")
    if covs:
        parts.append("<h3>Claim inventories</h3>")
        parts.append(html_table(coverage_table(covs), cls="coverage"))
    rules = "".join(f"<li>{_badge(v)} {html.escape(r)}</li>" for v, r in VERDICT_RULES.items())
    why_rules = "".join(f"<li><b>{html.escape(k)}</b>: {html.escape(r)}</li>"
                        for k, r in EXPLAINED_RULES.items())
    parts.append(f'<details><summary>How verdicts and causes are decided</summary><ul class="note">'
                 f"{rules}</ul><p class=\"note\">Each row's tolerance is in its "
                 "<code>tolerance</code> column (set per paper in <code>config/papers/&lt;paper"
                 "&gt;.yaml</code>); relative error = (reproduced − published) / |published|. "
                 "Every close, differs and fails row says why (<code>explained</code>):</p>"
                 f'<ul class="note">{why_rules}<li><b>not attributed</b>: the gap marker of a '
                 "row nobody has attributed yet (no reading tried), not a result</li></ul>"
                 "</details></section>")
    return "\n".join(parts)


#: The columns of the not-run rows at the end of the page.
NOT_RUN_COLUMNS = ["paper", "item", "quantity", "condition", "published", "reproduced", "unit",
                   "verdict", "explained", "cause", "evidence", "check", "note"]


def not_run_section(overall: pd.DataFrame) -> str:
    """All rows not reproduced here, with their listed reasons, at the end of the page."""
    nr = overall[overall["verdict"] == "not_run"] if len(overall) else overall
    if not len(nr):
        return ""
    return ('<section id="not-run"><h2>Not run here</h2><p class="note">Rows that could not be '
            "reproduced in this run, each with its reason from the closed list.</p>"
            + html_table(nr[NOT_RUN_COLUMNS], max_rows=1000, cls="not-run")
            + "</section>")


def render_html(papers: Sequence[PaperResults], overall: pd.DataFrame, provenance: dict,
                studied: Sequence[StudiedTrace] | None = None,
                covs: Mapping[str, Coverage] | None = None, robustness: str = "",
                lead: str = "", scales: str = "") -> str:
    """The whole page (the "Studies on other logs" section when ``studied`` is not None; each
    paper's claim coverage from ``covs``; the ``robustness`` section's HTML after the summary;
    ``lead``: the line saying which scale the page leads with, above the summary; ``scales``: the
    "Scale sensitivity" section, after the summary)."""
    covs = covs or {}
    nav = '<a href="#scale-sensitivity">scale sensitivity</a>' if scales else ""
    nav += "".join(f'<a href="#{p.key}">{html.escape(p.key)}</a>' for p in papers)
    nav += '<a href="#robustness">robustness</a>' if robustness else ""
    if studied is not None:
        nav += '<a href="#studies">studies on other logs</a>'
    prov = "".join(f"<li>{html.escape(k)}: {html.escape(str(v))}</li>" for k, v in provenance.items())
    body = "\n".join(paper_section(p, "figures", covs.get(p.key)) for p in papers)
    if studied is not None:
        body += "\n" + studies_section(studied, "figures")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>schedlab reproduction report</title>
<style>{_CSS}</style></head><body>
<h1>schedlab reproduction report</h1>
{lead}
{summary_section(overall, covs)}
{scales}
{robustness}
<nav>{nav}</nav>
<ul class="note">{prov}</ul>
{body}
{not_run_section(overall)}
{_SCRIPT}
</body></html>
"""


def build_report(results_dir: Path, papers: Sequence[str], out_html: Path, out_scorecard: Path,
                 provenance: dict, studied_traces: Mapping[str, int | None] | None = None,
                 claims_dir: Path | None = None,
                 extra_scorecards: Mapping[str, Sequence[str]] | None = None, *,
                 scale: str = "default", root: Path | None = None,
                 other_scorecards: Mapping[str, Path] | None = None,
                 out_sensitivity: Path | None = None,
                 scale_causes: Path | None = None) -> None:
    """Collect outputs, write the combined scorecard parquet and the HTML page (+ figure copies).

    ``extra_scorecards``: by paper, scorecards its target builds outside results/<paper>/ (paths
    relative to ``results_dir``; the scorecards among the contract's ``extra_targets``).

    ``studied_traces``: the studied logs, config ``study_traces`` (name -> registry machine size) whose
    studies form the last section; ``None`` leaves the section out. ``claims_dir``: where the
    claim inventories are (``config/papers``; None: no coverage shown).

    Scales: the run's papers are under ``root`` (default ``results_dir``) at ``scale``; its merged
    scorecard records the papers' settings (metadata ``settings``). ``other_scorecards``: the other
    scale's merged scorecard (by scale) when it exists. With a paper-scale one the page leads with
    the paper scale (its papers, robustness matrix and scorecard) and says so; with both the
    default and the paper scale, the table of :mod:`schedlab.report.scale_sensitivity` is written
    to ``out_sensitivity`` and shown in the "Scale sensitivity" section, its flips' causes from
    ``scale_causes`` (:mod:`schedlab.report.scale_causes`; None: none recorded)."""
    root = root or results_dir
    found = collect(results_dir, papers, extra_scorecards, root)
    studied = collect_studies(results_dir, studied_traces) if studied_traces is not None else None
    overall = combine_scorecards(p.scorecard for p in found)
    settings = recorded_settings(root, list(papers))
    write_parquet(out_scorecard, overall, provenance | {"scale": scale, "settings": settings})
    cards = {scale: ScaleCard(scale, root, overall, settings, provenance)}
    for other, path in (other_scorecards or {}).items():
        sc, recorded = read_scale(path.parent)
        cards[other] = ScaleCard(other, path.parent, sc, recorded, read_parquet_metadata(path))
    lead = lead_scale(cards)
    table = None
    if {"default", "paper"} <= set(cards):
        d, p = cards["default"], cards["paper"]
        causes = read_scale_causes(scale_causes) if scale_causes is not None else None
        table = scale_sensitivity(d.scorecard, p.scorecard, d.settings, p.settings, causes)
        write_parquet(out_sensitivity or results_dir / "scale_sensitivity.parquet", table,
                      {k: str(cards[k].root) for k in ("default", "paper")})
    if lead != scale:
        found = collect(results_dir, papers, extra_scorecards, cards[lead].root)
        overall = cards[lead].scorecard
    covs = claim_coverage(claims_dir, papers, overall) if claims_dir is not None else {}
    fig_dir = out_html.parent / "figures"
    copies = [(png, fig_dir / p.key) for p in found for png in p.figures]
    copies += [(png, fig_dir / "studies" / sr.trace / sr.study)
               for t in studied or () for sr in t.studies for png in sr.figures]
    for png, dest_dir in copies:
        for src in (png, png.with_suffix(".pdf")):
            if src.exists():
                dest_dir.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest_dir / src.name)
    rob = cards[lead].root / "robustness.parquet"  # the matrix (rule robustness), when built
    robustness = robustness_section(read_parquet(rob)[0], VERDICT_COLORS, {
        p: paper_title(p) for p in PAPERS}) if rob.is_file() else ""
    write_text(out_html, render_html(found, overall, provenance, studied, covs, robustness,
                                     lead_html(lead, cards, table), scale_section(table, html_table)))


def claim_coverage(claims_dir: Path, papers: Sequence[str], sc: pd.DataFrame
                   ) -> dict[str, Coverage]:
    """Each paper's claim inventory (``claims_dir``) against the combined scorecard ``sc``."""
    return {p: coverage(p, claims, sc if p in set(sc["paper"]) else None)
            for p, claims in load_inventories(claims_dir, papers).items()}
