"""The robustness matrix: every paper's claim checks on every studied log (docs/robustness.md).

A paper's scorecard (:mod:`schedlab.report.scorecard`) computed on its own log(s) and, by its study,
on each registry log marked ``study: true`` gives one verdict per claim and log. The matrix holds the
**claim rows** only: rows without a tolerance (``holds``/``fails``/``not_run``), not the value rows
(a published number compares with the paper's own log only) and not our own checks
(:data:`~schedlab.report.scorecard.OUR_CHECKS`, which are not the paper's findings).

One long frame, :data:`COLUMNS`: ``paper, claim, log, own_log, verdict, value, checked, note``.

* ``claim`` is the row's key as the claim inventories write it: ``item | quantity`` or
  ``item | quantity | condition`` (:func:`claim_key`), the log the row ran on written :data:`LOG`
  in the condition, whether by its registry name (Schroeder's conditions begin with it) or by the
  name the paper's scorecard gives it (the contract's ``log_names``: Talby's ``KTH``). A row whose
  key still differs on another log (a condition naming the log otherwise) is another claim: its
  cells on the other logs are absent.
* ``log`` is the studied log, or for ``own_log`` rows the paper's own log that the condition names
  (one of several: Talby's per-log claims), else all of them (the contract's ``log_names``,
  joined with ``+``).
* ``verdict`` is the scorecard's, unchanged. A claim whose inputs do not exist on a log keeps the
  verdict its scorecard gives it (``not_run`` with a listed reason, or ``fails`` with the note
  :data:`~schedlab.report.scorecard.UNCHECKABLE`); ``checked`` is False on such a cell, so that the
  counts (:func:`claim_counts`) do not read a claim that could not be tested as a claim that failed.
  A claim the log's scorecard has no row for is absent from the frame (an empty cell).
* ``value`` is the row's reproduced number (NaN when the claim has none).

:func:`claim_counts` gives, per claim, on how many logs it was checked and holds, and its reading
(:data:`READINGS`). :func:`collect` is the only I/O (reading the scorecards); the rule
``robustness`` (``workflow/rules/robustness.smk``) writes ``results/robustness.parquet``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..errors import ConfigError
from ..io import read_parquet
from ..papers import PAPERS, RESULTS, paper_dir
from .scorecard import UNCHECKABLE, is_our_check

COLUMNS = ["paper", "claim", "log", "own_log", "verdict", "value", "checked", "note"]
#: A claim's reading across the logs (:func:`reading`), most general first.
READINGS = {
    "general": "holds on the paper's log and on every studied log where it was checked",
    "mixed": "holds on the paper's log and on some studied logs, fails on others",
    "own log only": "holds on the paper's log, fails on every studied log where it was checked",
    "not checked elsewhere": "holds on the paper's log; no studied log could check it",
    "elsewhere only": "does not hold on the paper's log (or has no row there), holds on some "
                      "studied log",
    "fails everywhere": "fails on the paper's log and on every studied log where it was checked",
    "not on own log": "does not hold on the paper's log (or has no row there); no studied log "
                      "checked it",
}
#: The file a study's scorecard sits beside: the study's completion marker, written last.
STUDY_DONE = "done.json"


@dataclass(frozen=True)
class Card:
    """One scorecard of the matrix: ``paper``'s rows computed on ``log``."""

    paper: str
    log: str
    own_log: bool
    scorecard: pd.DataFrame
    #: the registry logs the scorecard ran on (an own card may have several; ``log`` joins them):
    #: a sequence, or a mapping from the name the scorecard's conditions give a log (the
    #: contract's ``log_names``, e.g. Talby's ``KTH``) to its registry name
    logs: Sequence[str] | Mapping[str, str] = ()

    @property
    def log_names(self) -> dict[str, str]:
        """The names to replace in a claim's condition, each with its registry log: ``logs``
        (a sequence names each log by itself), else ``{log: log}``."""
        if isinstance(self.logs, Mapping):
            return dict(self.logs) or {self.log: self.log}
        return {n: n for n in self.logs} or {self.log: self.log}


#: What a log's registry name becomes in a claim's condition (:func:`claim_key`).
LOG = "<log>"


def _name_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """The names as whole words (not inside a longer name such as ``BLUE`` in
    ``SDSC-BLUE-2000-4.2-cln``), longest first; None for no names."""
    names = sorted(set(names), key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w.-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w.-])")


def named_logs(condition: str, names: Mapping[str, str]) -> list[str]:
    """The registry logs (values of ``names``) that ``condition`` names, in order, once each."""
    pattern = _name_pattern(names)
    found = pattern.findall(condition) if pattern else []
    return list(dict.fromkeys(names[n] for n in found))


def claim_key(item: str, quantity: str, condition: str = "",
              logs: Sequence[str] | Mapping[str, str] = ()) -> str:
    """``item | quantity`` or ``item | quantity | condition``: the row's name in the inventories,
    each of the card's ``logs`` (registry names, or the names its conditions give them) named
    in the condition as a word replaced by :data:`LOG` (so that a claim whose condition names
    the log it ran on is one claim across logs)."""
    pattern = _name_pattern(logs)
    if pattern:
        condition = pattern.sub(LOG, condition)
    return " | ".join([item, quantity, condition] if condition else [item, quantity])


def claim_rows(sc: pd.DataFrame) -> pd.DataFrame:
    """The paper's claim rows of scorecard ``sc``: no tolerance, not one of our checks."""
    return sc[sc["tolerance"].isna() & ~is_our_check(sc)]


def is_checked(verdict: str, note: str) -> bool:
    """Whether a claim cell was tested on its log: it holds, or it fails with its quantities
    present (not ``not_run``, not a ``fails`` because a quantity is missing)."""
    return verdict == "holds" or (verdict == "fails" and not note.startswith(UNCHECKABLE))


def row_log(card: Card, condition: str) -> str:
    """The column of a claim row: on an own card of several logs, the one log its condition
    names (Talby's ``§2.3 | ... | KTH`` is KTH's cell); otherwise the card's ``log``."""
    if not card.own_log:
        return card.log
    named = named_logs(condition, card.log_names)
    return named[0] if len(named) == 1 else card.log


def card_rows(card: Card) -> pd.DataFrame:
    """One scorecard's claims as matrix rows (:data:`COLUMNS`)."""
    c = claim_rows(card.scorecard)
    c = c[c["paper"] == card.paper]
    notes = c["note"].fillna("").astype(str)
    conditions = c["condition"].fillna("").astype(str)
    return pd.DataFrame({
        "paper": card.paper,
        "claim": [claim_key(*k, logs=card.log_names)
                  for k in zip(c["item"], c["quantity"], c["condition"], strict=True)],
        "log": [row_log(card, cond) for cond in conditions], "own_log": card.own_log,
        "verdict": c["verdict"].astype(str).to_numpy(),
        "value": c["reproduced"].astype("float64").to_numpy(),
        "checked": [is_checked(v, n) for v, n in zip(c["verdict"], notes, strict=True)],
        "note": notes.to_numpy(),
    }, columns=COLUMNS)


def build_matrix(cards: Iterable[Card]) -> pd.DataFrame:
    """The long matrix from the scorecards: papers in :data:`~schedlab.papers.PAPERS` order, each
    paper's claims in the order its own scorecard lists them (then any claim only a studied log
    has), the paper's own log first, then the studied logs by name. A claim listed twice on one
    log is an error (its cell would be ambiguous)."""
    frames = [card_rows(c) for c in cards]
    m = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    m = m.astype({"own_log": bool, "checked": bool, "value": "float64"})
    dup = m[m.duplicated(["paper", "claim", "log", "own_log"], keep=False)]
    if len(dup):
        r = dup.iloc[0]
        raise ConfigError(f"{r['paper']} on {r['log']}: claim {r['claim']!r} has "
                          f"{int((dup['claim'] == r['claim']).sum())} rows in one scorecard")
    paper_rank = {p: i for i, p in enumerate(PAPERS)}
    first = m.sort_values("own_log", ascending=False, kind="stable") \
        .drop_duplicates(["paper", "claim"])
    claim_rank = {(p, c): i for i, (p, c) in enumerate(zip(first["paper"], first["claim"],
                                                           strict=True))}
    key = pd.DataFrame({
        "p": m["paper"].map(lambda p: paper_rank.get(p, len(paper_rank))),
        "c": [claim_rank[k] for k in zip(m["paper"], m["claim"], strict=True)],
        "o": ~m["own_log"], "l": m["log"]})
    order = key.sort_values(["p", "c", "o", "l"], kind="stable").index
    return m.loc[order].reset_index(drop=True)


def reading(own: str | None, study_verdicts: Sequence[str]) -> str:
    """A claim's reading (:data:`READINGS`) from its verdict on the paper's own log (None: no row)
    and its verdicts on the studied logs where it was checked (``holds``/``fails``)."""
    holds = sum(v == "holds" for v in study_verdicts)
    if own != "holds":
        if holds:
            return "elsewhere only"
        return "fails everywhere" if study_verdicts and own == "fails" else "not on own log"
    if not study_verdicts:
        return "not checked elsewhere"
    if holds == len(study_verdicts):
        return "general"
    return "own log only" if holds == 0 else "mixed"


def own_reading(own: pd.DataFrame) -> str:
    """A claim's verdict on the paper's own log(s) from its own cells (several when the paper
    reads several logs and the claim names one, as Talby's per-log claims): ``holds`` when it
    holds on every own log where it was checked, ``fails`` when it fails on one, else the first
    cell's verdict (``""`` without a cell)."""
    if not len(own):
        return ""
    tested = own[own["checked"]]
    if len(tested):
        return "holds" if (tested["verdict"] == "holds").all() else "fails"
    return str(own["verdict"].iloc[0])


def claim_counts(m: pd.DataFrame) -> pd.DataFrame:
    """Per claim (matrix order): ``own`` (its verdict on the paper's log, ``""`` without a row),
    ``logs`` (studied logs with a cell), ``checked`` and ``holds`` (studied logs where it was
    tested and where it holds), ``holds_on`` (e.g. ``"3/4"``), and its ``reading``."""
    rows = []
    for (paper, claim), g in m.groupby(["paper", "claim"], sort=False):
        own = g[g["own_log"]]
        study = g[~g["own_log"]]
        tested = study[study["checked"]]
        own_verdict = own_reading(own)
        holds = int((tested["verdict"] == "holds").sum())
        rows.append({"paper": paper, "claim": claim, "own": own_verdict, "logs": len(study),
                     "checked": len(tested), "holds": holds,
                     "holds_on": f"{holds}/{len(tested)}",
                     "reading": reading(own_verdict or None, list(tested["verdict"]))})
    return pd.DataFrame(rows, columns=["paper", "claim", "own", "logs", "checked", "holds",
                                       "holds_on", "reading"])


def log_columns(m: pd.DataFrame) -> list[tuple[str, bool]]:
    """The matrix's columns, ``(log, own_log)``: every paper's own log(s) first (paper order),
    then the studied logs by name."""
    own = list(dict.fromkeys(m.loc[m["own_log"], "log"]))
    return [(log, True) for log in own] + [(log, False) for log in sorted(set(m.loc[~m["own_log"], "log"]))]


def size(m: pd.DataFrame) -> tuple[int, int]:
    """(claims, log columns) of the matrix: its shape as the heatmap draws it."""
    return len(m.drop_duplicates(["paper", "claim"])), len(log_columns(m))


def select(m: pd.DataFrame, papers: Sequence[str] = (), logs: Sequence[str] = ()) -> pd.DataFrame:
    """The rows of the given papers and studied logs (the paper's own column always kept); an
    unknown paper or a log the matrix lacks is a one-line error."""
    unknown = [p for p in papers if p not in PAPERS]
    if unknown:
        raise ConfigError(f"unknown paper {unknown[0]!r}; known: {', '.join(PAPERS)}")
    have = sorted(set(m["log"]))
    missing = [log for log in logs if log not in have]
    if missing:
        raise ConfigError(f"log {missing[0]!r} is not in the robustness matrix; "
                          f"it has: {', '.join(have) or 'no logs'}")
    if papers:
        m = m[m["paper"].isin(papers)]
    if logs:
        m = m[m["own_log"] | m["log"].isin(logs)]
    return m.reset_index(drop=True)


def wide(m: pd.DataFrame) -> pd.DataFrame:
    """Claims x logs of verdicts (index ``paper, claim`` in matrix order; columns
    :func:`log_columns`; ``""`` where a log has no row for the claim)."""
    cols = log_columns(m)
    index = pd.MultiIndex.from_frame(m[["paper", "claim"]].drop_duplicates())
    out = pd.DataFrame("", index=index, columns=pd.MultiIndex.from_tuples(cols, names=["log", "own_log"]))
    for r in m.itertuples(index=False):
        out.loc[(r.paper, r.claim), (r.log, r.own_log)] = r.verdict
    return out


def matrix_inputs(pairs: Iterable[tuple[str, str]], papers: Sequence[str],
                  root: str = RESULTS, study_file: str = STUDY_DONE) -> dict[str, list[str]]:
    """The files the rule ``robustness`` reads: ``own``, each paper's scorecard on its own log(s)
    (``<root>/<paper>/scorecard.parquet``, ``root`` the run's: :func:`schedlab.papers.run_root`),
    and ``studies``, for each ``(log, paper)`` pair of a study of a paper in ``papers``,
    ``results/studies/<log>/<paper>/<study_file>`` (the study's scorecard is
    ``scorecard.parquet`` beside it; :func:`schedlab.papers.paper_dir`)."""
    run = set(papers)
    return {"own": [f"{paper_dir(p, None, root)}/scorecard.parquet" for p in papers],
            "studies": [f"{paper_dir(p, log)}/{study_file}" for log, p in pairs if p in run]}


def collect(results: Path, pairs: Iterable[tuple[str, str]],
            own_logs: Mapping[str, Sequence[str] | Mapping[str, str]],
            root: Path | None = None) -> tuple[list[Card], list[str]]:
    """The scorecards of the matrix: each paper of ``own_logs`` on its own logs (registry names,
    or the contract's ``log_names``: the names its conditions give them) under ``root`` (default
    ``results``), and each ``(log, paper)`` study of such a paper under ``results``; also the
    studies that have no ``scorecard.parquet`` (listed, not an error: a study that computes no
    scorecard)."""
    cards, missing = [], []
    for paper, logs in own_logs.items():
        sc, _ = read_parquet((root or results) / paper / "scorecard.parquet")
        names = dict(logs) if isinstance(logs, Mapping) else {n: n for n in logs}
        joined = "+".join(dict.fromkeys(names.values()))
        cards.append(Card(paper, joined, True, sc, names))
    for log, paper in pairs:
        if paper not in own_logs:
            continue
        path = results / "studies" / log / paper / "scorecard.parquet"
        if path.is_file():
            cards.append(Card(paper, log, False, read_parquet(path)[0]))
        else:
            missing.append(f"{log}/{paper}")
    return cards, missing
