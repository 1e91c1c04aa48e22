"""The papers' words as tests: one function per phrase class, thresholds in one table.

The five papers state most findings in words ("similar", "slightly worse", "by far the worst",
"about 35%", "less than 15%", "in all algorithms", "four times more", "increases as ..."). Each phrase
class has exactly one test here, with its threshold in :data:`PHRASES` (a frozen table, shown in
docs/scorecard.md and on the report). A threshold the paper supplies (the N of "less than N%", the 10%
of Schroeder §4.4's "within 10%") is ``paper``; a threshold we had to choose is ``ours``, and the
scorecard row that uses it says so (columns ``phrase`` and ``threshold_source``).

The bands we choose all come from one number, :data:`TOLERANCE` (also the scorecard's default value
tolerance, :data:`schedlab.report.scorecard.DEFAULT_TOLERANCE`), so that the words mean the same in
every paper and line up with the verdict rules:

* "similar" is what would ``match`` as a value (the larger within ``1 + TOLERANCE`` of the smaller);
* "significantly / considerably / by far" is what would ``differ`` (a factor of at least
  ``1 + 2 x TOLERANCE``), the ``close`` zone between the two is neither;
* "slightly" is the stated direction with the two still "similar".

Every function returns a :class:`PhraseCheck` (the phrase, ``holds`` — ``None`` when a needed number
is missing —, the threshold, its source and a one-line detail); :func:`schedlab.report.scorecard.claim_row`
takes one in place of a bare ``holds``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

#: The project's one band: the value tolerance of the scorecard and the base of every band below.
TOLERANCE = 0.15
SOURCES = ("paper", "ours")


@dataclass(frozen=True)
class Phrase:
    """One phrase class: the papers' words it covers, its test, threshold and why."""

    key: str
    words: tuple[str, ...]
    test: str
    threshold: float | None
    source: str  #: ``paper``: the paper supplies the threshold; ``ours``: we chose it
    rationale: str


def _table(*phrases: Phrase) -> Mapping[str, Phrase]:
    return MappingProxyType({p.key: p for p in phrases})


#: Every phrase class, its test and threshold (the one place thresholds live).
PHRASES: Mapping[str, Phrase] = _table(
    Phrase("similar", ("similar", "about the same", "comparable", "close to", "quite similar"),
           "same sign and max(|a|, |b|) / min(|a|, |b|) <= T", 1 + TOLERANCE,
           "ours", "the band of a value match: two numbers the scorecard would call a match are "
           "'similar'; Talby's 'similar' Flex gains (9.0, 9.9) and Schroeder's 'within 10%' fall "
           "inside it"),
    Phrase("slightly", ("slightly", "a slight bit", "marginally"),
           "the stated direction holds strictly and the two are 'similar': "
           "1 < ratio <= T", 1 + TOLERANCE, "ours",
           "a difference in the stated direction that is still inside the 'similar' band"),
    Phrase("significantly", ("significantly", "considerably", "by far", "greatly", "much",
                             "substantially"),
           "the stated direction holds by a factor of at least T: ratio >= T", 1 + 2 * TOLERANCE,
           "ours", "what the verdict rules call 'differs' (beyond twice the tolerance); the papers "
           "run no significance tests, so the word is read as a size, not a p-value"),
    Phrase("about", ("about N", "around N", "nearly N", "~N", "roughly N"),
           "|x - N| <= T x |N|", TOLERANCE, "ours",
           "N is the paper's; the band is the scorecard's value tolerance"),
    Phrase("less_than", ("less than N", "below N", "fewer than N", "under N"),
           "x < N (strict)", None, "paper", "N is the paper's own bound; no band is added"),
    Phrase("within", ("within N%",), "|a / b - 1| <= N / 100", None, "paper",
           "the paper gives the band (Schroeder §4.4: 'within 10%')"),
    Phrase("up_to", ("up to N", "as much as N", "as high as N"),
           "the largest of the values is about N: |max - N| <= T x |N|", TOLERANCE, "ours",
           "'up to N' reports the best case: our best case must be about N, neither far below "
           "(the effect is smaller) nor far above (the paper understated it)"),
    Phrase("in_all", ("in all X", "every X", "always", "consistently"),
           "the statement holds in every case (fraction = 1)", 1.0, "paper",
           "the words fix the threshold: no exception is allowed"),
    Phrase("for_most", ("for most X", "usually", "mostly", "in most cases"),
           "the statement holds in more than the fraction T of the cases", 0.5, "ours",
           "the weakest reading of 'most': a strict majority"),
    Phrase("times", ("N times more", "N-fold", "a factor of N", "doubling"),
           "the ratio a / b is about N: |a / b - N| <= T x N", TOLERANCE, "ours",
           "N is the paper's; the band is the scorecard's value tolerance"),
    Phrase("increases_as", ("increases as", "grows with", "rises with", "decreases as",
                            "falls as"),
           "Spearman rank correlation of the values with the ordered condition >= T "
           "(<= -T for 'decreases')", 0.5, "ours",
           "a trend, not a strict rise at every step: the ranks agree more than they disagree by "
           "a clear margin; a strict monotone run is not what 'increases as' says"),
)


@dataclass(frozen=True)
class PhraseCheck:
    """The outcome of one phrase test on our numbers."""

    phrase: str  #: a key of :data:`PHRASES`
    holds: bool | None  #: None: a number the test needs is missing
    threshold: float | None
    source: str  #: ``paper`` or ``ours`` (from :data:`PHRASES`)
    detail: str  #: one line: the numbers and the test, for the row's note


def _result(key: str, holds: bool | None, detail: str, threshold: float | None = None
            ) -> PhraseCheck:
    p = PHRASES[key]
    return PhraseCheck(key, holds, p.threshold if threshold is None else threshold, p.source,
                       f"'{p.words[0]}' ({p.source} threshold): {detail}")


#: Rounding slack of the threshold comparisons: a value exactly at a threshold (10% computed as
#: 110 / 100 - 1 = 0.10000000000000009) sits at it, as the docs table says.
_EPS = 1e-12


def _at_most(x: float, t: float) -> bool:
    return x <= t + _EPS * max(1.0, abs(t))


def _at_least(x: float, t: float) -> bool:
    return x >= t - _EPS * max(1.0, abs(t))


def _finite(*xs: float | None) -> bool:
    return all(x is not None and math.isfinite(float(x)) for x in xs)


def _ratio(a: float, b: float) -> float:
    """max(|a|, |b|) / min(|a|, |b|) for two numbers of the same sign (1 for two zeros)."""
    hi, lo = max(abs(a), abs(b)), min(abs(a), abs(b))
    if hi == 0:
        return 1.0
    return math.inf if lo == 0 else hi / lo


def similar(a: float | None, b: float | None) -> PhraseCheck:
    """"similar / about the same / comparable": same sign and within a factor ``1 + TOLERANCE``."""
    t = PHRASES["similar"].threshold
    if not _finite(a, b):
        return _result("similar", None, "a value is missing")
    a, b = float(a), float(b)  # type: ignore[arg-type]
    if a * b < 0:
        return _result("similar", False, f"{a:.4g} and {b:.4g} have opposite signs")
    r = _ratio(a, b)
    ok = _at_most(r, t)
    return _result("similar", ok, f"ratio {r:.4g} {'<=' if ok else '>'} {t:g}")


def _directed(key: str, a: float | None, b: float | None, above: bool) -> PhraseCheck:
    """"a <phrase> above b" (``above=False``: below) for ``slightly`` (the direction holds and the
    ratio larger / smaller is at most the threshold) and ``significantly`` (at least it)."""
    t = PHRASES[key].threshold
    if not _finite(a, b):
        return _result(key, None, "a value is missing")
    a, b = float(a), float(b)  # type: ignore[arg-type]
    if a * b < 0:
        return _result(key, False, f"{a:.4g} and {b:.4g} have opposite signs")
    beyond, r = (a > b if above else a < b), _ratio(a, b)
    size = _at_most(r, t) if key == "slightly" else _at_least(r, t)
    return _result(key, beyond and size,
                   f"{a:.4g} {'is' if beyond else 'is not'} {'above' if above else 'below'} "
                   f"{b:.4g}, ratio {r:.4g} ({'<=' if key == 'slightly' else '>='} {t:g} for "
                   f"'{key}')")


def slightly(a: float | None, b: float | None, above: bool = True) -> PhraseCheck:
    """"a slightly above b" (``above=False``: below): the direction holds and the two are similar."""
    return _directed("slightly", a, b, above)


def significantly(a: float | None, b: float | None, above: bool = True) -> PhraseCheck:
    """"a significantly / considerably / by far above b" (``above=False``: below): the direction
    holds by a factor of at least ``1 + 2 x TOLERANCE``."""
    return _directed("significantly", a, b, above)


def about(x: float | None, n: float) -> PhraseCheck:
    """"about N": ``|x - N| <= TOLERANCE x |N|`` (for N = 0: ``|x| <= TOLERANCE``)."""
    t = PHRASES["about"].threshold
    if not _finite(x):
        return _result("about", None, "the value is missing")
    err = abs(float(x) - n) / abs(n) if n else abs(float(x))  # type: ignore[arg-type]
    return _result("about", _at_most(err, t), f"{float(x):.4g} vs {n:g}: "  # type: ignore[arg-type]
                   f"{'relative ' if n else 'absolute '}error {err:.3g} (<= {t:g})")


def less_than(x: float | None, n: float) -> PhraseCheck:
    """"less than N": ``x < N`` (the paper's bound, strict)."""
    if not _finite(x):
        return _result("less_than", None, "the value is missing", n)
    x = float(x)  # type: ignore[arg-type]
    return _result("less_than", x < n, f"{x:.4g} {'<' if x < n else '>='} {n:g}", n)


def within(a: float | None, b: float | None, percent: float) -> PhraseCheck:
    """"a within N% of b": ``|a / b - 1| <= N / 100`` (the paper's band)."""
    if not _finite(a, b) or not b:
        return _result("within", None, "a value is missing or the reference is 0", percent)
    d = abs(float(a) / float(b) - 1)  # type: ignore[arg-type]
    ok = _at_most(d, percent / 100)
    return _result("within", ok, f"|{float(a):.4g} / {float(b):.4g} - 1| = {d:.3g} "  # type: ignore[arg-type]
                   f"({'<=' if ok else '>'} {percent:g}%)", percent)


def up_to(values: Iterable[float | None], n: float) -> PhraseCheck:
    """"up to N": the largest value is about N (``|max - N| <= TOLERANCE x |N|``)."""
    t = PHRASES["up_to"].threshold
    vals = [float(v) for v in values if _finite(v)]  # type: ignore[arg-type]
    if not vals:
        return _result("up_to", None, "no values")
    m = max(vals)
    err = abs(m - n) / abs(n) if n else abs(m)
    return _result("up_to", _at_most(err, t), f"largest {m:.4g} vs {n:g}: error {err:.3g} (<= {t:g})")


def _outcomes(outcomes: Mapping[str, bool | None] | Sequence[bool | None]
              ) -> tuple[list[str], list[str], list[str]]:
    items = (list(outcomes.items()) if isinstance(outcomes, Mapping)
             else [(str(i), v) for i, v in enumerate(outcomes)])
    yes = [k for k, v in items if v is True]
    no = [k for k, v in items if v is False]
    missing = [k for k, v in items if v is None]
    return yes, no, missing


def in_all(outcomes: Mapping[str, bool | None] | Sequence[bool | None]) -> PhraseCheck:
    """"in all X": the statement holds for every case (None when a case could not be checked or
    there is none); ``outcomes`` maps each case to whether it holds there."""
    yes, no, missing = _outcomes(outcomes)
    if missing or not (yes or no):
        return _result("in_all", None, f"not checked for {', '.join(missing) or 'any case'}")
    return _result("in_all", not no, f"holds in {len(yes)} of {len(yes) + len(no)}"
                   + (f"; not in {', '.join(no)}" if no else ""))


def in_all_of(checks: Mapping[str, PhraseCheck]) -> PhraseCheck:
    """"<phrase> in all X": :func:`in_all` over the cases' own checks of one phrase. The result
    names that phrase and its threshold source (a case phrase whose threshold is ours makes the
    row's ours); the detail lists the cases that fail. ValueError when the cases test several
    phrases."""
    inner = sorted({c.phrase for c in checks.values()})
    if len(inner) > 1:
        raise ValueError(f"in_all_of: the cases test several phrases: {inner}")
    outer = in_all({k: c.holds for k, c in checks.items()})
    key = inner[0] if inner else "in_all"
    failed = "".join(f"; {k}: {c.detail.split(': ', 1)[1]}" for k, c in checks.items()
                     if c.holds is False)
    return _result(key, outer.holds, f"in every case ({outer.detail.split(': ', 1)[1]})"
                   f"{failed}"[:600], next(iter(checks.values())).threshold if checks else None)


def all_of(first: PhraseCheck, *rest: PhraseCheck) -> PhraseCheck:
    """One sentence stating several things ("drops significantly ... and then stays at the same
    level"): holds when every part holds (None when a part could not be checked); the row names
    the first part's phrase and threshold, and its threshold is ours when any part's is."""
    parts = (first, *rest)
    holds = (None if any(c.holds is None for c in parts)
             else all(bool(c.holds) for c in parts))
    source = "ours" if any(c.source == "ours" for c in parts) else first.source
    return PhraseCheck(first.phrase, holds, first.threshold, source,
                       "; and ".join(c.detail for c in parts))


def for_most(outcomes: Mapping[str, bool | None] | Sequence[bool | None]) -> PhraseCheck:
    """"for most X": the statement holds in more than half of the cases checked."""
    t = PHRASES["for_most"].threshold
    yes, no, missing = _outcomes(outcomes)
    n = len(yes) + len(no)
    if not n:
        return _result("for_most", None, "no case could be checked")
    frac = len(yes) / n
    return _result("for_most", frac > t, f"holds in {len(yes)} of {n} ({frac:.0%}; > {t:.0%})"
                   + (f"; {len(missing)} not checked" if missing else ""))


def times(a: float | None, b: float | None, n: float) -> PhraseCheck:
    """"N times more": ``a / b`` is about N (``|a / b - N| <= TOLERANCE x N``)."""
    t = PHRASES["times"].threshold
    if not _finite(a, b) or not b:
        return _result("times", None, "a value is missing or the reference is 0")
    r = float(a) / float(b)  # type: ignore[arg-type]
    err = abs(r - n) / abs(n)
    return _result("times", _at_most(err, t), f"ratio {r:.4g} vs {n:g}: error {err:.3g} (<= {t:g})")


def increases_as(x: Sequence[float], y: Sequence[float], decreasing: bool = False
                 ) -> PhraseCheck:
    """"y increases as x ..." (``decreasing=True``: decreases): Spearman's rank correlation of
    ``y`` with ``x`` is at least the threshold (at most minus it); None with fewer than two
    distinct points."""
    t = PHRASES["increases_as"].threshold
    pts = [(float(a), float(b)) for a, b in zip(x, y, strict=True) if _finite(a, b)]
    if len(pts) < 2 or len({a for a, _ in pts}) < 2 or len({b for _, b in pts}) < 2:
        return _result("increases_as", None, f"{len(pts)} usable points, too few for a trend")
    rho = _spearman([a for a, _ in pts], [b for _, b in pts])
    ok = _at_most(rho, -t) if decreasing else _at_least(rho, t)
    word = "decreases" if decreasing else "increases"
    return _result("increases_as", ok, f"{word}: Spearman {rho:+.3f} over {len(pts)} points "
                   f"({'<= -' if decreasing else '>= '}{t:g})")


def _spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(v: Sequence[float]) -> np.ndarray:
        a = np.asarray(v, dtype=float)
        order = a.argsort(kind="stable")
        r = np.empty(len(a))
        r[order] = np.arange(len(a), dtype=float)
        for val in np.unique(a):
            same = a == val
            r[same] = r[same].mean()
        return r
    rx, ry = ranks(x), ranks(y)
    return float(np.corrcoef(rx, ry)[0, 1])


#: The test function of each phrase class (the docs table and the tests walk this).
TESTS = MappingProxyType({
    "similar": similar, "slightly": slightly, "significantly": significantly, "about": about,
    "less_than": less_than, "within": within, "up_to": up_to, "in_all": in_all,
    "for_most": for_most, "times": times, "increases_as": increases_as,
})


def phrase_table() -> list[dict[str, str]]:
    """The vocabulary as rows (phrase, the papers' words, test, threshold, source, rationale), for
    docs/scorecard.md and the report."""
    return [{"phrase": p.key, "words": ", ".join(p.words), "test": p.test,
             "threshold": "" if p.threshold is None else f"{p.threshold:g}", "source": p.source,
             "rationale": p.rationale} for p in PHRASES.values()]
