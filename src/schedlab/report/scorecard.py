"""Scorecard rows: published vs reproduced, one row per claim (docs/design.md §3).

Columns: ``paper, item, quantity, condition, published, reproduced, unit, relative_error,
tolerance, verdict, headline, check, note``.

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
tolerance``); the note says so.

Every claim check is a small pure function registered with :func:`claim_check`; the test modules
``tests/test_claims_<paper>.py`` give each one a hand-made case where it returns ``False`` and one
where it returns ``True``, and :func:`uncovered_checks` lists the checks that lack either, so that a
check mutated to return a constant makes a test fail.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

COLUMNS = ["paper", "item", "quantity", "condition", "published", "reproduced", "unit",
           "relative_error", "tolerance", "verdict", "headline", "check", "note"]
VERDICTS = ("match", "close", "differs", "holds", "fails", "not_run")
#: The only reasons a row may be ``not_run``.
NOT_RUN_REASONS = ("data unavailable offline", "needs download", "needs a larger run")
DEFAULT_TOLERANCE = 0.15

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
              headline: bool = False) -> dict[str, Any]:
    """A published number beside ours; verdict ``match``/``close``/``differs`` by relative error
    within ``tolerance`` (default :data:`DEFAULT_TOLERANCE`); ``fails`` when we computed nothing;
    ``not_run`` only with a listed ``not_run_reason``."""
    tol = DEFAULT_TOLERANCE if tolerance is None else float(tolerance)
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
    return _row(paper, item, quantity, condition, published, reproduced, unit, tol, verdict,
                headline, "", note)


def claim_row(paper: str, item: str, quantity: str, condition: str, holds: bool | None,
              published: float | None = None, reproduced: float | None = None, unit: str = "",
              note: str = "", not_run_reason: str | None = None, headline: bool = False,
              check: str | Callable[..., Any] = "") -> dict[str, Any]:
    """A claim checked on our results: ``holds``/``fails``; ``holds=None`` (not evaluable) is
    ``fails`` unless a listed ``not_run_reason`` is given; opposite signs of ``published`` and
    ``reproduced`` never hold."""
    _check_reason(not_run_reason)
    name = check if isinstance(check, str) else getattr(check, "__name__", str(check))
    if not_run_reason is not None:
        verdict, note = "not_run", _join(not_run_reason, note)
    elif holds is None:
        verdict, note = "fails", _join("could not be checked: a quantity is missing", note)
    elif holds and opposite_signs(published, reproduced):
        verdict, note = "fails", _join("published and reproduced have opposite signs", note)
    else:
        verdict = "holds" if holds else "fails"
    return _row(paper, item, quantity, condition, published, reproduced, unit, math.nan, verdict,
                headline, name, note)


def _join(first: str, rest: str) -> str:
    return f"{first}; {rest}" if rest else first


def _row(paper, item, quantity, condition, published, reproduced, unit, tol, verdict, headline,
         check, note) -> dict[str, Any]:
    return {"paper": paper, "item": item, "quantity": quantity, "condition": condition,
            "published": _num(published), "reproduced": _num(reproduced), "unit": unit,
            "relative_error": relative_error(published, reproduced), "tolerance": float(tol),
            "verdict": verdict, "headline": bool(headline), "check": check, "note": note}


def _num(x: float | None) -> float:
    return math.nan if x is None else float(x)


def scorecard_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Rows -> a typed frame with exactly :data:`COLUMNS` (validated verdicts and reasons)."""
    df = pd.DataFrame(list(rows), columns=COLUMNS)
    bad = set(df["verdict"]) - set(VERDICTS)
    if bad:
        raise ValueError(f"unknown scorecard verdicts: {sorted(bad)}")
    for c in ("published", "reproduced", "relative_error", "tolerance"):
        df[c] = df[c].astype("float64")
    df["headline"] = df["headline"].fillna(False).astype(bool)
    for c in ("check", "note", "unit"):
        df[c] = df[c].fillna("")
    for c in ("paper", "item", "quantity", "condition", "unit", "verdict", "check", "note"):
        df[c] = df[c].astype(str)
    problems = inconsistent_rows(df)
    if problems:
        raise ValueError("scorecard rows break the verdict rules: " + "; ".join(problems[:5])
                         + (f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""))
    return df


def inconsistent_rows(df: pd.DataFrame) -> list[str]:
    """Rows whose verdict does not follow from their own numbers and tolerance (a numeric verdict
    recomputed differently, ``holds``/``match`` with opposite signs, ``not_run`` without a listed
    reason), as short descriptions."""
    out = []
    for r in df.itertuples(index=False):
        where = f"{r.paper} {r.item} {r.quantity} ({r.condition}): {r.verdict}"
        if r.verdict in ("match", "close", "differs"):
            if _missing(r.published) or _missing(r.reproduced) or _missing(r.tolerance):
                out.append(f"{where} without published, reproduced and tolerance")
            elif numeric_verdict(r.published, r.reproduced, r.tolerance) != r.verdict:
                out.append(f"{where} but the numbers give "
                           f"{numeric_verdict(r.published, r.reproduced, r.tolerance)}")
        elif r.verdict == "holds" and opposite_signs(r.published, r.reproduced):
            out.append(f"{where} with opposite signs")
        elif r.verdict == "not_run" and not str(r.note).startswith(NOT_RUN_REASONS):
            out.append(f"{where} without a listed reason")
    return out


def verdict_summary(sc: pd.DataFrame) -> pd.DataFrame:
    """Per paper, the number of rows of each verdict (columns in :data:`VERDICTS` order, plus
    ``rows``), papers in first-seen order."""
    papers = list(dict.fromkeys(sc["paper"]))
    counts = (sc.groupby(["paper", "verdict"]).size().unstack(fill_value=0)
              .reindex(index=papers, columns=list(VERDICTS), fill_value=0))
    counts["rows"] = counts.sum(axis=1)
    return counts.astype("int64")


def headlines(sc: pd.DataFrame) -> pd.DataFrame:
    """The rows marked as a paper's headline claims, not_run last within each paper."""
    h = sc[sc["headline"].astype(bool)]
    return sort_rows(h)


def sort_rows(sc: pd.DataFrame) -> pd.DataFrame:
    """Rows in paper order with ``not_run`` rows last (stable otherwise)."""
    order = {p: i for i, p in enumerate(dict.fromkeys(sc["paper"]))}
    key = sc["paper"].map(order) * 2 + (sc["verdict"] == "not_run").astype(int)
    return sc.iloc[key.argsort(kind="stable")]
