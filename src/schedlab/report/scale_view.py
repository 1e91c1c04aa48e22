"""The report's scale parts: the first-screen line saying which scale's scorecard the page leads
with, and the "Scale sensitivity" section (the table of :mod:`schedlab.report.scale_sensitivity`).

Pure functions of the scales found (:class:`ScaleCard`) and the table; the HTML tables are drawn by
the ``table`` function the page passes (:func:`schedlab.report.html.html_table`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .scale_sensitivity import SENSITIVITY, flip_counts

#: The command that builds each scale's run, as the report names it.
COMMANDS = {"default": "make reproduce", "paper": "make reproduce-paper", "quick": "make quick"}
#: The columns of the flipped rows and of every row, as the section shows them.
FLIP_COLUMNS = ["paper", "item", "quantity", "condition", "verdict_default", "verdict_paper",
                "cause", "reason"]
ROW_COLUMNS = ["paper", "item", "quantity", "condition", "published", "reproduced_default",
               "reproduced_paper", "unit", "verdict_default", "verdict_paper", "present",
               "flipped"]

Table = Callable[..., str]


@dataclass(frozen=True)
class ScaleCard:
    """One scale's merged scorecard as the report found it."""

    scale: str
    root: Path  #: the run's output root (:data:`schedlab.papers.ROOTS`)
    scorecard: pd.DataFrame
    settings: Mapping[str, Any] = field(default_factory=dict)  #: recorded, by paper
    provenance: Mapping[str, Any] = field(default_factory=dict)  #: the scorecard's metadata


def _made(card: ScaleCard) -> str:
    version = card.provenance.get("schedlab_version")
    where = f"<code>{html.escape(str(card.root))}/</code>"
    return f"{where}, schedlab {html.escape(str(version))}" if version else where


def lead_html(lead: str, cards: Mapping[str, ScaleCard], table: pd.DataFrame | None) -> str:
    """The first-screen line when a paper-scale scorecard exists (empty otherwise: the report is
    then as a single run's): the page leads with the paper scale, the default scale beside it in
    the "Scale sensitivity" section with its number of verdict flips, or that no default-scale
    scorecard exists yet."""
    if lead != "paper":
        return ""
    text = (f"Scorecard at the papers' own scale (<code>{COMMANDS['paper']}</code>; "
            f"{_made(cards['paper'])})")
    if "default" in cards and table is not None:
        flips = int(table["flipped"].sum())
        text += (f", default scale beside it (<code>{COMMANDS['default']}</code>; "
                 f"{_made(cards['default'])}): <a href=\"#scale-sensitivity\">scale sensitivity"
                 f"</a>, {flips} verdict flip{'s' * (flips != 1)}.")
    else:
        text += (f"; no default-scale scorecard yet (<code>{COMMANDS['default']}</code> adds it "
                 "beside this one).")
    return f'<p class="scale-lead"><b>{text}</b></p>'


def scale_section(table: pd.DataFrame | None, draw: Table) -> str:
    """The "Scale sensitivity" section: flips counted per paper, each flipped row with its reason,
    then every row at both scales (collapsed). Empty without a table."""
    if table is None:
        return ""
    flips = table[table["flipped"]]
    parts = ['<section id="scale-sensitivity"><h2>Scale sensitivity</h2>',
             "<p>Every scorecard row at the default scale (<code>make reproduce</code>, "
             "<code>results/</code>) beside the papers' own scale (<code>make reproduce-paper"
             "</code>, <code>results/paper-scale/</code>). The two runs differ only in the "
             "settings their scales resolve (<code>scales:</code> of <code>config/papers/"
             "&lt;paper&gt;.yaml</code>), so each row's reason states its verdict move, its value "
             "move against the published value and the settings that differ for its paper, as "
             "recorded by the two runs. Which setting moved a flipped row is not inferred but "
             "tested: the default run made again with one paper-scale setting changed; its "
             "<i>cause</i> gives the recorded outcome (<code>config/scale_causes.tsv</code>) or "
             "says it is not attributed. A flip is a row at both scales whose verdicts differ, "
             "neither being <code>not_run</code>. The table: "
             f"<code>{SENSITIVITY}</code> (<code>schedlab scale-sensitivity</code>).</p>",
             "<h3>Verdict flips per paper</h3>", draw(flip_counts(table), cls="scale-counts"),
             f"<h3>Rows whose verdict flips ({len(flips)})</h3>"]
    if len(flips):
        parts.append(draw(flips[FLIP_COLUMNS].reset_index(drop=True), max_rows=1000,
                          cls="scale-flips"))
    else:
        parts.append('<p class="note">No verdict differs between the two scales.</p>')
    parts.append(f"<details><summary>Every row at both scales ({len(table)})</summary>"
                 + draw(table[[*ROW_COLUMNS, "reason"]].reset_index(drop=True), max_rows=5000,
                        cls="scale-rows") + "</details></section>")
    return "\n".join(parts)
