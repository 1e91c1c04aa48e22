"""Scorecard rows: published vs reproduced, one row per claim (docs/design.md §3).

Columns: ``paper, item, quantity, condition, published, reproduced, unit, relative_error,
tolerance, verdict, headline, check, note``; the cause of a deviation, ``cause, evidence, explained,
evidence_value, evidence_verdict`` (:data:`EXPLAINED_RULES`); and the paper's words the row tests,
``phrase, threshold_source`` (:mod:`schedlab.report.vocabulary`).

The verdict rules (:data:`VERDICT_RULES`, printed in the report and by ``schedlab scorecard``):

* **match** — a published number beside ours: ``|relative error| <= tolerance`` (the row's own
  tolerance, shown in the ``tolerance`` column; default :data:`DEFAULT_TOLERANCE` = 15%, per paper
  and per item in ``config/papers/<paper>.yaml`` under ``tolerance:``).
* **close** — ``tolerance < |relative error| <= 2 x tolerance``.
* **differs** — anything further, and always when the two numbers have opposite signs.
* **holds** / **fails** — a claim (ordering, sign, trend, threshold) checked on our data by a named
  check function (:func:`claim_check`; its name is in the ``check`` column). A claim whose published
  and reproduced numbers have opposite signs never holds. A claim the paper states with a number is
  checked against that number (a value row), not only for its direction.
* **fails** also when a quantity we do compute is missing (no reproduced number, a check that could
  not be evaluated): a missing value is a failure of the reproduction, not a reason to skip.
* **not_run** — only with a reason from the closed list :data:`NOT_RUN_REASONS` (``not_run_reason=``);
  the row's note then says what it would take.

Relative error is ``(reproduced - published) / |published|``. Where the published value is 0 the
relative error is undefined and the tolerance is read as an absolute one (``|reproduced| <=
tolerance``); the note says so. A row may set that band in its own unit (``value_row(zero_band=)``,
the paper's resolution: one month of a months-won share), which then is its ``tolerance``.

Every claim check is a small pure function registered with :func:`claim_check`; the test modules
``tests/test_claims_<paper>.py`` give each one a hand-made case where it returns ``False`` and one
where it returns ``True``, and :func:`uncovered_checks` lists the checks that lack either, so that a
check mutated to return a constant makes a test fail.

Every ``differs``, ``fails`` and ``close`` row carries its cause (:data:`EXPLAINED_RULES`): ``cause``
(one sentence), ``evidence`` (the table, reading and value of the experiment that tests it) and
``explained``; ``evidence_value`` is the row's quantity under the reading the evidence names and
``evidence_verdict`` the row's verdict under it, so that :func:`inconsistent_rows` recomputes whether
``explained`` follows from the numbers. A deviating row nobody has attributed yet carries the gap
marker :data:`NOT_ATTRIBUTED` (filled by :func:`value_row` and :func:`claim_row`); reports count those
rows as "not attributed", never as a result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from .vocabulary import PHRASES, SOURCES, TOLERANCE, PhraseCheck

#: The columns every row had before causes and phrases: a verdict and its numbers.
VERDICT_COLUMNS = ["paper", "item", "quantity", "condition", "published", "reproduced", "unit",
                   "relative_error", "tolerance", "verdict", "headline", "check", "note"]
#: Why a row deviates (:data:`EXPLAINED_RULES`).
CAUSE_COLUMNS = ["cause", "evidence", "explained", "evidence_value", "evidence_verdict"]
#: Which of the papers' phrases the row tests, and whether its threshold is the paper's.
PHRASE_COLUMNS = ["phrase", "threshold_source"]
COLUMNS = VERDICT_COLUMNS + CAUSE_COLUMNS + PHRASE_COLUMNS
VERDICTS = ("match", "close", "differs", "holds", "fails", "not_run")
#: The only reasons a row may be ``not_run``.
NOT_RUN_REASONS = ("data unavailable offline", "needs download", "needs a larger run")
DEFAULT_TOLERANCE = TOLERANCE
#: Verdicts whose rows must say why (columns :data:`CAUSE_COLUMNS`).
DEVIATING = ("close", "differs", "fails")
#: The values of ``explained`` and what each requires of the row.
EXPLAINED_RULES = {
    "explained": "changing only the reading named in evidence brings the value within the row's "
                 "tolerance (a value row) or makes the claim hold (a claim row)",
    "partly": "the reading closes at least half the gap: |value under it - published| <= "
              "|reproduced - published| / 2, without explaining it fully",
    "unexplained": "no reading tried explains it; evidence lists the readings tried and their values",
    "data": "the data needed to test a cause is not available; evidence names it",
}
EXPLAINED = tuple(EXPLAINED_RULES)
#: The gap marker of a deviating row nobody has attributed yet (not a result: reports count it
#: as "not attributed").
NOT_ATTRIBUTED = {"cause": "not yet attributed", "evidence": "no reading tried",
                  "explained": "unexplained"}
EVIDENCE_VERDICTS = ("", "match", "close", "differs", "holds", "fails")
#: Phrases whose band is a value tolerance: a value row testing one uses exactly that band.
BANDED_PHRASES = ("about", "up_to", "times")
#: Rows that are not the paper's (our own targets, e.g. a CI width; numbers we derive and the paper
#: does not print) have an item beginning ``"our checks: "`` (:func:`our_check`): the counts
#: (:func:`count_key`) and the claim inventories keep them apart from the paper's rows.
OUR_CHECKS = "our checks"
#: The ``check`` of a value row capped at ``close``: the paper's number cannot be recovered from
#: its own tables, so a match would be chance (:func:`value_row` ``at_most_close``).
AT_MOST_CLOSE = "at most close"
#: The note a claim row starts with when its check could not be evaluated (``holds=None``).
UNCHECKABLE = "could not be checked: a quantity is missing"

VERDICT_RULES = {
    "match": "numeric: |relative error| ≤ the row's tolerance (default 15%)",
    "close": "numeric: tolerance < |relative error| ≤ 2 × tolerance",
    "differs": "numeric: further off, or published and reproduced have opposite signs",
    "holds": "claim (ordering, sign, trend) true on our data, with no sign disagreement",
    "fails": "claim false on our data, or a quantity we compute is missing",
    "not_run": "not reproduced here, for a listed reason: " + ", ".join(NOT_RUN_REASONS),
}

#: paper -> check name -> function (filled by :func:`claim_check`).
CLAIM_CHECKS: dict[str, dict[str, Callable[..., bool | None]]] = {}


def claim_check(paper: str) -> Callable[[Callable[..., bool | None]], Callable[..., bool | None]]:
    """Register a claim check of ``paper`` (a pure function returning True/False, or None when
    the quantities it needs are missing). Registered checks must be covered by tests both ways."""
    def register(fn: Callable[..., bool | None]) -> Callable[..., bool | None]:
        CLAIM_CHECKS.setdefault(paper, {})[fn.__name__] = fn
        return fn
    return register


def uncovered_checks(paper: str, cases: Iterable[tuple[Callable[..., Any], bool]]) -> list[str]:
    """The registered checks of ``paper`` without a case expecting ``False`` and one expecting
    ``True`` among ``cases`` ((check, expected) pairs), as ``"name: never False"`` strings."""
    seen: dict[str, set[bool]] = {}
    for fn, expected in cases:
        seen.setdefault(getattr(fn, "__name__", str(fn)), set()).add(bool(expected))
    missing = []
    for name in sorted(CLAIM_CHECKS.get(paper, {})):
        for outcome in (False, True):
            if outcome not in seen.get(name, set()):
                missing.append(f"{name}: never {outcome}")
    return missing


def tolerance_for(spec: float | Mapping[str, float] | None, item: str = "",
                  default: float = DEFAULT_TOLERANCE) -> float:
    """A row's tolerance from a paper config's ``tolerance:`` entry: a number, or a mapping with
    ``default`` and per-item values (the item's own key wins; a key may also be a prefix such as
    ``"Table 3"`` for ``"Table 3 (SP2)"``)."""
    if spec is None:
        return default
    if isinstance(spec, int | float):
        return float(spec)
    if item in spec:
        return float(spec[item])
    prefixes = [k for k in spec if k != "default" and item.startswith(k)]
    if prefixes:
        return float(spec[max(prefixes, key=len)])
    return float(spec.get("default", default))


def relative_error(published: float | None, reproduced: float | None) -> float:
    """(reproduced - published) / |published|; NaN when either is missing or published is 0."""
    if _missing(published) or _missing(reproduced):
        return math.nan
    p, r = float(published), float(reproduced)  # type: ignore[arg-type]
    if p == 0:
        return math.nan
    return (r - p) / abs(p)


def _missing(x: object) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def opposite_signs(published: float | None, reproduced: float | None) -> bool:
    """True when both numbers are present, non-zero and of opposite sign."""
    if _missing(published) or _missing(reproduced):
        return False
    return float(published) * float(reproduced) < 0  # type: ignore[arg-type]


def _check_reason(reason: str | None) -> None:
    if reason is not None and reason not in NOT_RUN_REASONS:
        raise ValueError(f"not_run reason {reason!r} is not one of {NOT_RUN_REASONS}")


def numeric_verdict(published: float, reproduced: float, tolerance: float) -> str:
    """match / close / differs for two present numbers (rules in the module docstring)."""
    if opposite_signs(published, reproduced):
        return "differs"
    if float(published) == 0:
        err = abs(float(reproduced))
    else:
        err = abs(relative_error(published, reproduced))
    if err <= tolerance:
        return "match"
    return "close" if err <= 2 * tolerance else "differs"


def value_row(paper: str, item: str, quantity: str, condition: str, published: float | None,
              reproduced: float | None, unit: str = "", tolerance: float | None = None,
              note: str = "", not_run_reason: str | None = None,
              headline: bool = False, zero_band: float | None = None,
              at_most_close: str = "", **why: Any) -> dict[str, Any]:
    """A published number beside ours; verdict ``match``/``close``/``differs`` by relative error
    within ``tolerance`` (default :data:`DEFAULT_TOLERANCE`); ``fails`` when we computed nothing;
    ``not_run`` only with a listed ``not_run_reason``. ``zero_band``: for a published 0, the
    absolute band in the row's unit that replaces the tolerance (the paper's own resolution, e.g.
    one month of a months-won share); without it the tolerance is read as absolute.
    ``at_most_close``: why the paper's number cannot be recovered from its own tables; a value
    that would match is then ``close`` (``check`` :data:`AT_MOST_CLOSE`, the reason in the note).
    ``why``: the cause columns and ``phrase`` (:func:`_row`)."""
    tol = DEFAULT_TOLERANCE if tolerance is None else float(tolerance)
    if zero_band is not None and not _missing(published) and float(published) == 0:
        tol = float(zero_band)
    _check_reason(not_run_reason)
    if _missing(published):
        raise ValueError(f"{paper} {item} {quantity} ({condition}): a value row needs a published "
                         "number; use claim_row for a claim without one")
    if not_run_reason is not None:
        verdict, note = "not_run", _join(not_run_reason, note)
    elif _missing(reproduced):
        verdict, note = "fails", _join("no reproduced value", note)
    else:
        verdict = numeric_verdict(published, reproduced, tol)  # type: ignore[arg-type]
        if float(published) == 0:  # type: ignore[arg-type]
            note = _join(f"published 0: tolerance read as absolute ±{tol:g}", note)
    if at_most_close:
        verdict = "close" if verdict == "match" else verdict
        note = _join(note, f"at most close: {at_most_close}") if note else \
            f"at most close: {at_most_close}"
    return _row(paper, item, quantity, condition, published, reproduced, unit, tol, verdict,
                headline, AT_MOST_CLOSE if at_most_close else "", note, **why)


def claim_row(paper: str, item: str, quantity: str, condition: str,
              holds: bool | PhraseCheck | None, published: float | None = None,
              reproduced: float | None = None, unit: str = "", note: str = "",
              not_run_reason: str | None = None, headline: bool = False,
              check: str | Callable[..., Any] = "", **why: Any) -> dict[str, Any]:
    """A claim checked on our results: ``holds``/``fails``; ``holds=None`` (not evaluable) is
    ``fails`` unless a listed ``not_run_reason`` is given; opposite signs of ``published`` and
    ``reproduced`` never hold. ``holds`` may be a :class:`~schedlab.report.vocabulary.PhraseCheck`:
    its phrase and threshold source fill the row and its detail is added to the note."""
    _check_reason(not_run_reason)
    if isinstance(holds, PhraseCheck):
        why = {"phrase": holds.phrase, "threshold_source": holds.source} | why
        note = _join(holds.detail, note)
        check = check or f"vocabulary.{holds.phrase}"
        holds = holds.holds
    name = check if isinstance(check, str) else getattr(check, "__name__", str(check))
    if not_run_reason is not None:
        verdict, note = "not_run", _join(not_run_reason, note)
    elif holds is None:
        verdict, note = "fails", _join(UNCHECKABLE, note)
    elif holds and opposite_signs(published, reproduced):
        verdict, note = "fails", _join("published and reproduced have opposite signs", note)
    else:
        verdict = "holds" if holds else "fails"
    return _row(paper, item, quantity, condition, published, reproduced, unit, math.nan, verdict,
                headline, name, note, **why)


def _join(first: str, rest: str) -> str:
    return f"{first}; {rest}" if rest else first


def _row(paper, item, quantity, condition, published, reproduced, unit, tol, verdict, headline,
         check, note, cause: str = "", evidence: str = "", explained: str = "",
         evidence_value: float | None = None, evidence_verdict: str = "", phrase: str = "",
         threshold_source: str = "") -> dict[str, Any]:
    """One row; a deviating row without a cause gets the gap marker :data:`NOT_ATTRIBUTED`."""
    row = {"paper": paper, "item": item, "quantity": quantity, "condition": condition,
           "published": _num(published), "reproduced": _num(reproduced), "unit": unit,
           "relative_error": relative_error(published, reproduced), "tolerance": float(tol),
           "verdict": verdict, "headline": bool(headline), "check": check, "note": note,
           "phrase": phrase, "threshold_source": threshold_source}
    if not (cause or evidence or explained) and verdict in DEVIATING:
        return row | NOT_ATTRIBUTED | {"evidence_value": math.nan, "evidence_verdict": ""}
    return with_cause(row, cause, evidence, explained, evidence_value, evidence_verdict)


def _num(x: float | None) -> float:
    return math.nan if x is None else float(x)


def with_cause(row: dict[str, Any], cause: str, evidence: str, explained: str,
               evidence_value: float | None = None, evidence_verdict: str = "") -> dict[str, Any]:
    """``row`` with its cause (:data:`EXPLAINED_RULES`); a value row's ``evidence_verdict`` is
    recomputed from ``evidence_value``. Raises ValueError when ``explained`` contradicts the
    numbers (the same rules as :func:`inconsistent_rows`)."""
    out = row | {"cause": cause, "evidence": evidence, "explained": explained,
                 "evidence_value": _num(evidence_value), "evidence_verdict": evidence_verdict}
    if not _missing(out["evidence_value"]) and not _missing(row["tolerance"]) \
            and not _missing(row["published"]):
        out["evidence_verdict"] = numeric_verdict(row["published"], out["evidence_value"],
                                                  row["tolerance"])
    if explained or cause or evidence:
        problem = cause_problem(out)
        if problem:
            raise ValueError(f"{row['paper']} {row['item']} {row['quantity']} "
                             f"({row['condition']}): {problem}")
    return out


def reading_status(published: float, reproduced: float, tolerance: float,
                   value: float, holds: bool | None = None) -> str:
    """What one reading does to a row (:data:`EXPLAINED_RULES`): ``explained`` (a value row: the
    reading's ``value`` is within ``tolerance`` of ``published``; a claim row, ``tolerance`` NaN:
    the claim ``holds`` under it), ``partly`` (it closes at least half the gap), else ``""``."""
    claim = _missing(tolerance)
    if claim and holds:
        return "explained"
    if _missing(value) or _missing(published):
        return ""
    if not claim and numeric_verdict(published, value, tolerance) == "match":
        return "explained"
    if not _missing(reproduced) and abs(value - published) <= abs(reproduced - published) / 2:
        return "partly"
    return ""


def cause_problem(r: Mapping[str, Any]) -> str | None:
    """Why a row's cause columns break :data:`EXPLAINED_RULES` (None if they do not)."""
    cause, evidence, explained = (str(r.get(c) or "") for c in ("cause", "evidence", "explained"))
    ev_verdict = str(r.get("evidence_verdict") or "")
    if r["verdict"] in DEVIATING and not (cause and evidence and explained):
        return "without cause, evidence and explained"
    if explained and explained not in EXPLAINED:
        return f"explained {explained!r} is not one of {EXPLAINED}"
    if ev_verdict not in EVIDENCE_VERDICTS:
        return f"evidence_verdict {ev_verdict!r} is not one of {EVIDENCE_VERDICTS[1:]}"
    value = r.get("evidence_value")
    value = math.nan if value is None else float(value)
    claim = _missing(r["tolerance"])
    if ev_verdict and (ev_verdict in ("holds", "fails")) != claim:
        return (f"evidence_verdict {ev_verdict} on a {'claim' if claim else 'value'} row (a claim "
                "holds or fails, a value matches, is close or differs)")
    if not claim and not math.isnan(value) and ev_verdict and \
            ev_verdict != numeric_verdict(r["published"], value, r["tolerance"]):
        return (f"evidence_verdict {ev_verdict} but the reading's value {value:.4g} gives "
                f"{numeric_verdict(r['published'], value, r['tolerance'])}")
    if explained in ("", "data"):
        return None
    status = reading_status(r["published"], r["reproduced"], r["tolerance"], value,
                            ev_verdict == "holds" if claim else None)
    if explained in ("explained", "partly") and status != explained:
        if claim and explained == "explained":
            return ("explained=explained but the claim does not hold under the reading "
                    f"(evidence_verdict {ev_verdict or 'empty'})")
        if math.isnan(value):
            return f"explained={explained} without the reading's value (evidence_value)"
        return (f"explained={explained} but the reading's value {value:.4g} gives "
                f"{status or 'neither (it closes less than half the gap)'}")
    if explained == "unexplained" and status:
        what = "the claim holds under the reading" if claim and ev_verdict == "holds" else \
            f"the reading's value {value:.4g} gives {status}"
        return f"explained=unexplained but {what}"
    return None


def scorecard_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Rows -> a typed frame with exactly :data:`COLUMNS` (validated verdicts, reasons, causes and
    phrases). The gap marker :data:`NOT_ATTRIBUTED` stands only on deviating rows: a row whose
    verdict was changed to another after construction loses it."""
    df = pd.DataFrame(list(rows), columns=COLUMNS)
    bad = set(df["verdict"]) - set(VERDICTS)
    if bad:
        raise ValueError(f"unknown scorecard verdicts: {sorted(bad)}")
    for c in ("published", "reproduced", "relative_error", "tolerance", "evidence_value"):
        df[c] = df[c].astype("float64")
    df["headline"] = df["headline"].fillna(False).astype(bool)
    text = ["paper", "item", "quantity", "condition", "unit", "verdict", "check", "note",
            "cause", "evidence", "explained", "evidence_verdict", "phrase", "threshold_source"]
    for c in text:
        df[c] = df[c].fillna("").astype(str)
    marker = (~df["verdict"].isin(DEVIATING)) & (df["cause"] == NOT_ATTRIBUTED["cause"]) \
        & (df["evidence"] == NOT_ATTRIBUTED["evidence"])
    df.loc[marker, ["cause", "evidence", "explained"]] = ""
    problems = inconsistent_rows(df)
    if problems:
        raise ValueError("scorecard rows break the verdict rules: " + "; ".join(problems[:5])
                         + (f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""))
    return df


def inconsistent_rows(df: pd.DataFrame) -> list[str]:
    """Rows whose verdict does not follow from their own numbers and tolerance (a numeric verdict
    recomputed differently, ``holds``/``match`` with opposite signs, ``not_run`` without a listed
    reason), whose cause columns break :data:`EXPLAINED_RULES` (a deviating row without them,
    ``explained`` the reading's value contradicts), or whose phrase is not in the vocabulary or
    names the wrong threshold source, as short descriptions."""
    out = []
    for r in df.to_dict("records"):
        where = f"{r['paper']} {r['item']} {r['quantity']} ({r['condition']}): {r['verdict']}"
        if r["verdict"] in ("match", "close", "differs"):
            if _missing(r["published"]) or _missing(r["reproduced"]) or _missing(r["tolerance"]):
                out.append(f"{where} without published, reproduced and tolerance")
            elif _capped_verdict(r) != r["verdict"]:
                out.append(f"{where} but the numbers give {_capped_verdict(r)}")
        elif r["verdict"] == "holds" and opposite_signs(r["published"], r["reproduced"]):
            out.append(f"{where} with opposite signs")
        elif r["verdict"] == "not_run" and not str(r["note"]).startswith(NOT_RUN_REASONS):
            out.append(f"{where} without a listed reason")
        problem = cause_problem(r)
        if problem:
            out.append(f"{where} {problem}")
        problem = phrase_problem(r)
        if problem:
            out.append(f"{where}: {problem}")
    return out


def _capped_verdict(r: Mapping[str, Any]) -> str:
    """The numeric verdict of a value row, a match capped at close for :data:`AT_MOST_CLOSE`."""
    v = numeric_verdict(r["published"], r["reproduced"], r["tolerance"])
    return "close" if v == "match" and r.get("check") == AT_MOST_CLOSE else v


def phrase_problem(r: Mapping[str, Any]) -> str | None:
    """Why a row's ``phrase``/``threshold_source`` are wrong (None if they are not): an unknown
    phrase or source, or a source other than the vocabulary's for that phrase."""
    phrase, source = str(r.get("phrase") or ""), str(r.get("threshold_source") or "")
    if source and source not in SOURCES:
        return f"threshold_source {source!r} is not one of {SOURCES}"
    if phrase and phrase not in PHRASES:
        return f"phrase {phrase!r} is not in the vocabulary ({', '.join(PHRASES)})"
    if phrase and source != PHRASES[phrase].source:
        return (f"phrase {phrase!r} has a threshold of source {PHRASES[phrase].source!r}, "
                f"not {source!r}")
    band = PHRASES[phrase].threshold if phrase in BANDED_PHRASES else None
    tol = r.get("tolerance")
    if band is not None and not _missing(tol) and not math.isclose(float(tol), band):
        return (f"phrase {phrase!r} is tested with the vocabulary's band {band:g}, not the row's "
                f"tolerance {float(tol):g}")
    return None


def our_check(item: str) -> str:
    """The item of a row that is not the paper's (:data:`OUR_CHECKS`)."""
    return f"{OUR_CHECKS}: {item}"


def is_our_check(sc: pd.DataFrame) -> pd.Series:
    """Per row: whether it is one of our checks, not the paper's (:data:`OUR_CHECKS`)."""
    return sc["item"].astype(str).str.startswith(f"{OUR_CHECKS}: ")


def count_key(sc: pd.DataFrame) -> pd.Series:
    """Per row, the line it is counted on: its paper, or ``"<paper> (our checks)"``."""
    return sc["paper"].where(~is_our_check(sc), sc["paper"] + f" ({OUR_CHECKS})")


def count_keys(sc: pd.DataFrame) -> list[str]:
    """The count lines of ``sc``: papers in first-seen order, each followed by its own checks."""
    keys = set(count_key(sc))
    return [k for p in dict.fromkeys(sc["paper"]) for k in (p, f"{p} ({OUR_CHECKS})")
            if k in keys]


def verdict_summary(sc: pd.DataFrame) -> pd.DataFrame:
    """Per paper, the number of rows of each verdict (columns in :data:`VERDICTS` order, plus
    ``rows``), papers in first-seen order; a paper's own checks (:data:`OUR_CHECKS`) on a line of
    their own after it."""
    counts = (sc.assign(paper=count_key(sc)).groupby(["paper", "verdict"]).size()
              .unstack(fill_value=0)
              .reindex(index=count_keys(sc), columns=list(VERDICTS), fill_value=0))
    counts["rows"] = counts.sum(axis=1)
    return counts.astype("int64")


def headlines(sc: pd.DataFrame) -> pd.DataFrame:
    """The rows marked as a paper's headline claims, not_run last within each paper."""
    h = sc[sc["headline"].astype(bool)]
    return sort_rows(h)


def sort_rows(sc: pd.DataFrame) -> pd.DataFrame:
    """Rows in paper order with ``not_run`` rows last (stable otherwise)."""
    order = {p: i for i, p in enumerate(dict.fromkeys(sc["paper"]))}
    # typed: on no rows, map() keeps the column's string dtype, which cannot be added to integers
    key = sc["paper"].map(order).astype("int64") * 2 + (sc["verdict"] == "not_run").astype("int64")
    return sc.iloc[key.argsort(kind="stable")]
