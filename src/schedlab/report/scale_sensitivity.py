"""Scale sensitivity: every scorecard row at the default scale beside the paper scale, the verdict
flips counted, each row with a one-line reason.

The two runs (``make reproduce``: ``results/``, ``make reproduce-paper``: ``results/paper-scale/``,
:data:`schedlab.papers.ROOTS`) run the same code on the same logs and differ only in the settings
their scale resolves (``scales:`` of ``config/papers/<paper>.yaml``). So the reason a row moved is
stated, mechanically, as what differs for its paper: the settings the two runs recorded (a deep
diff, :func:`settings_diff`) and the row's value move against the published one. Nothing is
inferred about which setting moved which row: that is found by experiment, the default run made
again with one paper-scale setting changed, and recorded (:mod:`schedlab.report.scale_causes`); a
flipped row's ``cause`` says what the record shows, or that nobody has recorded one.

Rows are aligned as :mod:`schedlab.report.verdict_diff` aligns two scorecards (key ``paper, item,
quantity, condition``, repeated keys in order). A row **flips** when it is at both scales, neither
verdict is ``not_run`` and the verdicts differ (:func:`is_flip`); a row at one scale only, or
``not_run`` at either, is listed but never counted as a flip.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import ConfigError
from ..io import read_parquet, read_parquet_metadata
from ..papers import RESULTS, ROOTS
from .scale_causes import Key, cause_text, is_explained
from .verdict_diff import KEY, verdict_changes

#: The two scales compared, smaller first (:data:`schedlab.papers.ROOTS`).
SCALES = ("default", "paper")
#: Where a row is: at both scales, or at one only.
PRESENCE = ("both", "default only", "paper only")
#: The table's columns (docs/scorecard.md "Scale sensitivity").
COLUMNS = [*KEY, "published", "unit", "verdict_default", "verdict_paper", "reproduced_default",
           "reproduced_paper", "present", "flipped", "cause", "settings", "reason"]
#: Settings that name the run rather than size it (left out of the diff).
NOT_COMPARED = ("scale",)
#: The settings column of a paper whose settings one run did not record.
UNRECORDED = "settings not recorded by both runs"
#: Settings differences written out in a reason line (the rest counted; all in ``settings``).
REASON_SETTINGS = 12


def is_flip(verdict_default: object, verdict_paper: object) -> bool:
    """A verdict flip: both scales judged the row (neither missing nor ``not_run``) differently."""
    judged = [v for v in (verdict_default, verdict_paper)
              if isinstance(v, str) and v and v != "not_run"]
    return len(judged) == 2 and judged[0] != judged[1]


def settings_diff(default: Any, paper: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every setting whose value differs between two resolved settings mappings, as (dotted path,
    default value, paper value), in key order (the recorded settings' JSON is key-sorted); a key
    one side lacks has the value :data:`MISSING` there. Mappings are compared key by key, lists of
    mappings of one length item by item (``path[i].key``), anything else as a whole."""
    if isinstance(default, Mapping) and isinstance(paper, Mapping):
        out: list[tuple[str, Any, Any]] = []
        for k in sorted({*default, *paper}, key=str):
            if not path and k in NOT_COMPARED:
                continue
            out += settings_diff(default.get(k, MISSING), paper.get(k, MISSING),
                                 f"{path}.{k}" if path else str(k))
        return out
    if (isinstance(default, (list, tuple)) and isinstance(paper, (list, tuple))
            and len(default) == len(paper)
            and all(isinstance(x, Mapping) for x in (*default, *paper))):
        return [d for i, (a, b) in enumerate(zip(default, paper, strict=True))
                for d in settings_diff(a, b, f"{path}[{i}]")]
    return [] if default == paper else [(path, default, paper)]


class _Missing:
    def __repr__(self) -> str:
        return "unset"


#: A setting one scale does not have.
MISSING: Any = _Missing()


def setting_text(v: Any) -> str:
    """A setting's value in a reason line: lists of more than 4 as their length and range."""
    if v is MISSING:
        return "unset"
    if v is None:
        return "null"
    if isinstance(v, (list, tuple)):
        if len(v) > 4:
            return f"{len(v)} values {setting_text(v[0])}..{setting_text(v[-1])}"
        return "[" + ", ".join(setting_text(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {setting_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def diff_text(diff: list[tuple[str, Any, Any]], limit: int | None = None) -> str:
    """``path old→new`` for each difference, comma-separated; beyond ``limit``, ``+N more``."""
    if not diff:
        return "no setting differs"
    shown = diff if limit is None else diff[:limit]
    text = ", ".join(f"{p} {setting_text(a)}→{setting_text(b)}" for p, a, b in shown)
    return text + (f" (+{len(diff) - len(shown)} more)" if len(shown) < len(diff) else "")


def _number(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def reason(row: Mapping[str, Any], settings: str) -> str:
    """The one-line reason of a row (``settings``: its paper's settings differences): the verdict
    move, a flip's tested cause (its ``cause``), the value move against the published value, the
    settings that differ."""
    where = row["present"]
    if where != "both":
        other = "paper" if where == "default only" else "default"
        head = f"only at the {where.split()[0]} scale (no such row at the {other} scale)"
    else:
        head = f"{row['verdict_default']} → {row['verdict_paper']}"
        if not row["flipped"] and row["verdict_default"] != row["verdict_paper"]:
            head += " (not_run: not a flip)"
        if row.get("cause"):
            head += f"; cause: {row['cause']}"
    if settings != UNRECORDED:
        settings = f"settings: {settings}"
    values = (row["reproduced_default"], row["reproduced_paper"])
    if all(_number(v) == "–" for v in values):
        return f"{head}; {settings}"
    unit = f" {row['unit']}" if row.get("unit") else ""
    value = f"value {_number(values[0])} → {_number(values[1])}{unit}"
    if _number(row.get("published")) != "–":
        value += f" against published {_number(row['published'])}"
    return f"{head}; {value}; {settings}"


def scale_sensitivity(default: pd.DataFrame, paper: pd.DataFrame,
                      settings_default: Mapping[str, Mapping[str, Any]],
                      settings_paper: Mapping[str, Mapping[str, Any]],
                      causes: Mapping[Key, Mapping[str, str]] | None = None) -> pd.DataFrame:
    """Every row of either scorecard (:data:`COLUMNS`): its verdict and reproduced value at each
    scale, the published value, where it is (:data:`PRESENCE`), whether it flipped
    (:func:`is_flip`), a flip's cause from the recorded ``causes``
    (:func:`~schedlab.report.scale_causes.cause_text`), its paper's settings differences (all of
    them) and its reason line. A paper whose settings one run did not record says so. Order: the
    paper scale's rows, then those at the default scale only."""
    ch = verdict_changes(default, paper, carry=("published", "unit"))
    ch = ch.rename(columns=lambda c: c.replace("_before", "_default").replace("_after", "_paper"))
    ch["present"] = ch["change"].map({"added": "paper only", "removed": "default only"}
                                     ).fillna("both")
    ch["flipped"] = [is_flip(a, b) if p == "both" else False for a, b, p in
                     zip(ch["verdict_default"], ch["verdict_paper"], ch["present"], strict=True)]
    diffs = {p: settings_diff(settings_default[p], settings_paper[p])
             for p in dict.fromkeys(ch["paper"]) if p in settings_default and p in settings_paper}
    causes = causes or {}
    ch["cause"] = [cause_text(r, causes.get(tuple(r[k] for k in KEY))) if r["flipped"] else ""
                   for r in ch.to_dict("records")]
    ch["settings"] = [diff_text(diffs[p]) if p in diffs else UNRECORDED for p in ch["paper"]]
    ch["reason"] = [reason(r, diff_text(diffs[r["paper"]], REASON_SETTINGS)
                           if r["paper"] in diffs else UNRECORDED)
                    for r in ch.to_dict("records")]
    for c in ("verdict_default", "verdict_paper", "unit"):
        ch[c] = ch[c].fillna("").astype(str)
    return ch[COLUMNS].reset_index(drop=True)


def flip_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Per paper (then ``all``): rows, rows at both scales, verdict flips, the flips a recorded
    experiment explains, verdict changes that involve ``not_run`` (not flips) and rows at one
    scale only."""
    both = table["present"] == "both"
    moved = both & (table["verdict_default"] != table["verdict_paper"]) & ~table["flipped"]
    parts = pd.DataFrame({
        "paper": table["paper"], "rows": 1, "at_both": both.astype(int),
        "flips": table["flipped"].astype(int),
        "explained": (table["flipped"] & table["cause"].map(is_explained)).astype(int),
        "not_run_changes": moved.astype(int),
        "default_only": (table["present"] == "default only").astype(int),
        "paper_only": (table["present"] == "paper only").astype(int)})
    per = parts.groupby("paper", sort=False).sum().reset_index()
    total = per.drop(columns="paper").sum().to_frame().T.assign(paper="all")
    return pd.concat([per, total[per.columns]], ignore_index=True).astype(
        {c: "int64" for c in per.columns if c != "paper"})


def format_terminal(table: pd.DataFrame, every_row: bool = False) -> str:
    """Flip counts per paper, then each flipped row with its reason (with ``every_row``: every row
    whose verdict or presence differs)."""
    counts = flip_counts(table)
    cols = [c for c in counts.columns if c != "paper"]
    w = max(5, *(len(p) for p in counts["paper"]))
    lines = ["paper".ljust(w) + "".join(f"{c:>16}" for c in cols)]
    lines += [r.paper.ljust(w) + "".join(f"{getattr(r, c):>16}" for c in cols)
              for r in counts.itertuples(index=False)]
    shown = table if every_row else table[table["flipped"]]
    if not every_row:
        lines += ["", f"verdict flips between the default and the paper scale: {len(shown)}"]
    else:
        shown = shown[(shown["present"] != "both")
                      | (shown["verdict_default"] != shown["verdict_paper"])]
        lines += ["", f"rows whose verdict or presence differs: {len(shown)}"]
    for r in shown.itertuples(index=False):
        cond = f" [{r.condition}]" if r.condition else ""
        lines.append(f"  {r.paper} | {r.item} | {r.quantity}{cond}: {r.reason}")
    return "\n".join(lines)


def recorded_settings(root: Path, papers: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The settings each paper's run under ``root`` recorded (``<root>/<paper>/scorecard.parquet``
    metadata, written by :func:`schedlab.papers.runner.assemble`), by paper; a paper without a
    scorecard or without recorded settings is left out."""
    out = {}
    for p in papers:
        path = root / p / "scorecard.parquet"
        if path.is_file():
            s = read_parquet_metadata(path).get("settings")
            if isinstance(s, Mapping):
                out[p] = dict(s)
    return out


def read_scale(root: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """One scale's merged scorecard (``<root>/scorecard.parquet``) and its papers' recorded
    settings (its metadata's ``settings``, else :func:`recorded_settings`). A clear error when the
    scorecard is missing or is not one."""
    from .scorecard import COLUMNS as SCORECARD_COLUMNS

    path = root / "scorecard.parquet"
    if not path.is_file():
        raise ConfigError(f"{path}: no merged scorecard (built by `snakemake {path}` or the "
                          "report of that scale's run)")
    sc, meta = read_parquet(path)
    missing = [c for c in SCORECARD_COLUMNS if c not in sc.columns]
    if missing:
        raise ConfigError(f"{path}: not a scorecard: missing column(s) {', '.join(missing)}")
    settings = meta.get("settings")
    if not isinstance(settings, Mapping):
        settings = recorded_settings(root, list(dict.fromkeys(sc["paper"])))
    return sc, dict(settings)


def from_roots(default_root: Path, paper_root: Path,
               causes: Mapping[Key, Mapping[str, str]] | None = None) -> pd.DataFrame:
    """The table of the runs under two roots (:func:`read_scale` of each), with the recorded
    ``causes`` of its flips."""
    (d, sd), (p, sp) = read_scale(default_root), read_scale(paper_root)
    return scale_sensitivity(d, p, sd, sp, causes)


#: The table written beside both scales' roots by the report of either run.
SENSITIVITY = f"{RESULTS}/scale_sensitivity.parquet"


def report_scorecards(run_scale: str, exists: Callable[[str], bool]) -> dict[str, str]:
    """The merged scorecards the report shows, by scale: this run's (``<root>/scorecard.parquet``,
    built by its report) and, for a default or a paper-scale run, the other scale's when
    ``exists`` (decided when the workflow is parsed: the file becomes a declared input). A quick
    run shows its own only."""
    if run_scale not in ROOTS:
        return {run_scale: f"{RESULTS}/scorecard.parquet"}
    return {s: f"{r}/scorecard.parquet" for s, r in ROOTS.items()
            if s == run_scale or exists(f"{r}/scorecard.parquet")}


def lead_scale(scales: Iterable[str]) -> str:
    """The scale the report leads with: the paper scale when its scorecard is among ``scales``,
    else the first (the run's own)."""
    scales = list(scales)
    return "paper" if "paper" in scales else scales[0]
