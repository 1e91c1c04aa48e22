"""Claim inventories: every finding a paper states, where it stands and how it is checked.

One tab-separated file per paper, ``config/papers/<paper>_claims.tsv`` (lines starting with ``#``
are comments), with the header :data:`FIELDS`:

``id``
    short, unique in the file (``[a-z0-9._-]+``), e.g. ``s3.2-random-worst``;
``location``
    section, figure or table of the paper (``§3.2``, ``Fig. 4``, ``Abstract``);
``line``
    the line of the paper's text (:data:`PAPER_TEXTS`, under ``../shared/papers/``) holding the
    quote, or ``?`` when it could not be located (then the quote starts with ``NOT LOCATED:`` and
    gives our own words, never passed off as the paper's);
``quote``
    the paper's words, verbatim (`` ... `` skips text);
``row``
    the scorecard rows that check it: ``item | quantity`` or ``item | quantity | condition``, exactly
    as in the scorecard (every condition when none is given; a quantity ending in ``*`` names every
    quantity it begins, e.g. the cells of a table: ``Table 7 | correlation *``);
``reason``
    when there is no row: one of :data:`REASONS` (the last one names the run).

Exactly one of ``row`` and ``reason`` is filled. :func:`load_inventory` reads a file with one-line
errors (file:line: field: what is wrong); :func:`coverage` sets an inventory against the paper's
scorecard: claims found, with a row, not checkable by reason, and the entries naming a row the
scorecard lacks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import ConfigError
from .scorecard import is_our_check

FIELDS = ("id", "location", "line", "quote", "row", "reason")
#: The only reasons a claim may have no scorecard row; the last is followed by ": <the run>".
REASONS = ("data unavailable offline", "not a finding about the experiments",
           "needs a run we do not do")
NOT_LOCATED = "NOT LOCATED:"
#: Each paper's text (under ``../shared/papers/`` beside the repository).
PAPER_TEXTS = {
    "schroeder2004": "schroeder-harchol-balter-2004-task-assignment.txt",
    "talby2005": "talby-feitelson-2005-adaptive-backfilling.txt",
    "tang2013": "tang-ren-lan-desai-2013-metric-aware-scheduling.txt",
    "perkovic2000": "perkovic-keleher-2000-randomization-speculation.txt",
    "cirne2001": "cirne-2001-moldability-thesis.txt",
}
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass(frozen=True)
class Claim:
    """One inventory entry."""

    id: str
    location: str
    line: int | None  #: None: not located in the paper's text
    quote: str
    row: str  #: "item | quantity[ | condition]", or ""
    reason: str  #: one of REASONS (the last with its run), or ""
    file_line: int = 0  #: where the entry is in its file

    @property
    def key(self) -> tuple[str, ...]:
        """(item, quantity) or (item, quantity, condition) of the named row."""
        return tuple(p.strip() for p in self.row.split("|"))

    @property
    def reason_class(self) -> str:
        """The reason without the named run ("needs a run we do not do")."""
        return self.reason.split(":")[0].strip() if self.reason else ""


def inventory_path(paper: str, config_dir: Path = Path("config/papers")) -> Path:
    return config_dir / f"{paper}_claims.tsv"


def _reason_error(reason: str) -> str | None:
    cls = reason.split(":")[0].strip()
    if cls not in REASONS:
        return f"reason {reason!r} is not one of: {'; '.join(REASONS)}"
    if cls == REASONS[-1] and not reason.partition(":")[2].strip():
        return f"reason {reason!r} must name the run: '{REASONS[-1]}: <the run>'"
    if cls != REASONS[-1] and reason != cls:
        return f"reason {reason!r}: only '{REASONS[-1]}' takes a ': <the run>'"
    return None


def parse_inventory(text: str, name: str) -> list[Claim]:
    """The entries of one inventory file's ``text`` (``name`` for the errors)."""
    claims: list[Claim] = []
    header_seen = False
    seen: dict[str, int] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = raw.split("\t")
        if not header_seen:
            if tuple(c.strip() for c in cells) != FIELDS:
                raise ConfigError(f"{name}:{n}: header must be the tab-separated fields "
                                  f"{', '.join(FIELDS)}")
            header_seen = True
            continue
        if len(cells) != len(FIELDS):
            raise ConfigError(f"{name}:{n}: {len(cells)} tab-separated fields, expected "
                              f"{len(FIELDS)} ({', '.join(FIELDS)})")
        f = dict(zip(FIELDS, (c.strip() for c in cells), strict=True))

        def bad(fld: str, msg: str, line: int = n) -> ConfigError:
            return ConfigError(f"{name}:{line}: {fld}: {msg}")

        if not _ID.match(f["id"]):
            raise bad("id", f"{f['id']!r} is not a short id ([a-z0-9._-], lower case)")
        if f["id"] in seen:
            raise bad("id", f"{f['id']!r} already used on line {seen[f['id']]}")
        seen[f["id"]] = n
        if not f["location"]:
            raise bad("location", "empty (a section, figure or table of the paper)")
        if f["line"] == "?":
            line = None
            if not f["quote"].startswith(NOT_LOCATED):
                raise bad("quote", f"line '?' (not located) needs a quote starting "
                                   f"'{NOT_LOCATED}' and our own words")
        else:
            if not f["line"].isdigit() or int(f["line"]) < 1:
                raise bad("line", f"{f['line']!r} is not a line number of the paper's text or ?")
            line = int(f["line"])
            if not f["quote"] or f["quote"].startswith(NOT_LOCATED):
                raise bad("quote", "empty or marked not located on a located entry")
        if bool(f["row"]) == bool(f["reason"]):
            raise bad("row", "give exactly one of row (a scorecard row) and reason (" +
                      "; ".join(REASONS) + ")")
        if f["row"] and not 2 <= len(f["row"].split("|")) <= 3:
            raise bad("row", f"{f['row']!r} is not 'item | quantity' or "
                             "'item | quantity | condition'")
        if f["reason"]:
            err = _reason_error(f["reason"])
            if err:
                raise bad("reason", err)
        claims.append(Claim(f["id"], f["location"], line, f["quote"], f["row"], f["reason"], n))
    if not header_seen:
        raise ConfigError(f"{name}: no header line ({', '.join(FIELDS)})")
    return claims


def load_inventory(path: Path) -> list[Claim]:
    """The entries of ``path`` (ConfigError with one line when the file is missing or malformed)."""
    if not path.is_file():
        raise ConfigError(f"{path}: no claim inventory (docs/scorecard.md, 'Claim inventories')")
    return parse_inventory(path.read_text(encoding="utf-8"), str(path))


def load_inventories(config_dir: Path, papers: Sequence[str]) -> dict[str, list[Claim]]:
    """The inventories of those ``papers`` that have one under ``config_dir``."""
    return {p: load_inventory(inventory_path(p, config_dir)) for p in papers
            if inventory_path(p, config_dir).is_file()}


_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-",
                         "−": "-", "ﬁ": "fi", "ﬂ": "fl"})


def normalize(text: str) -> str:
    """Text for quote matching: straight quotes and dashes, no ``*``/``$``, collapsed spaces."""
    return " ".join(text.translate(_QUOTES).replace("*", "").replace("$", "").split())


def quote_at(lines: Sequence[str], claim: Claim, span: int = 3) -> bool:
    """Whether ``claim``'s quote is in the paper's text at its line (the quote may run over the
    next ``span - 1`` lines; `` ... `` in the quote skips text)."""
    if claim.line is None or claim.line > len(lines):
        return False
    where = normalize(" ".join(lines[claim.line - 1:claim.line - 1 + span]))
    pos = 0
    for part in (normalize(p) for p in claim.quote.split("...")):
        if not part:
            continue
        at = where.find(part, pos)
        if at < 0:
            return False
        pos = at + len(part)
    return True


@dataclass
class Coverage:
    """One paper's inventory against its scorecard."""

    paper: str
    claims: int = 0
    rows: int = 0  #: entries with a scorecard row
    by_reason: dict[str, int] = field(default_factory=dict)  #: not checkable, by reason class
    not_located: int = 0
    missing_rows: list[str] = field(default_factory=list)  #: "id: row" naming no scorecard row
    unlisted: list[str] = field(default_factory=list)  #: claim rows no entry names

    @property
    def not_checkable(self) -> int:
        return sum(self.by_reason.values())


def _named(sc: pd.DataFrame, key: tuple[str, ...]) -> pd.Series:
    """The rows of ``sc`` an entry's key names (a quantity ending in ``*`` is a prefix)."""
    q = key[1]
    m = (sc["item"] == key[0]) & (sc["quantity"].str.startswith(q[:-1]) if q.endswith("*")
                                  else sc["quantity"] == q)
    if len(key) > 2:
        m &= sc["condition"] == key[2]
    return m


def coverage(paper: str, claims: Sequence[Claim], sc: pd.DataFrame | None) -> Coverage:
    """Counts of ``claims`` (claims found, with a row, not checkable by reason, not located), the
    entries naming a row the paper's scorecard ``sc`` lacks, and the scorecard's claim rows (no
    tolerance) that no entry names (``sc`` None: no scorecard, no row checks). Our own checks
    (:data:`~schedlab.report.scorecard.OUR_CHECKS`) are not the paper's claims: left out."""
    cov = Coverage(paper, len(claims), sum(bool(c.row) for c in claims),
                   dict(Counter(c.reason_class for c in claims if c.reason)),
                   sum(c.line is None for c in claims))
    if sc is None:
        return cov
    own = sc[(sc["paper"] == paper) & ~is_our_check(sc)]
    named = pd.Series(False, index=own.index)
    for c in claims:
        if not c.row:
            continue
        m = _named(own, c.key)
        if not m.any():
            cov.missing_rows.append(f"{c.id}: {c.row}")
        named |= m
    claim_rows = own[own["tolerance"].isna() & ~named]
    cov.unlisted = list(dict.fromkeys(f"{r.item} | {r.quantity}"
                                      for r in claim_rows.itertuples(index=False)))
    return cov


def coverage_table(covs: Mapping[str, Coverage]) -> pd.DataFrame:
    """Per paper: claims found, with a row, not checkable per reason, not located, rows named
    but absent, claim rows not in the inventory."""
    out = []
    for p, c in covs.items():
        out.append({"paper": p, "claims found": c.claims, "with a row": c.rows,
                    **{f"not checkable: {r}": c.by_reason.get(r, 0) for r in REASONS},
                    "not located in the text": c.not_located,
                    "naming an absent row": len(c.missing_rows),
                    "claim rows not in the inventory": len(c.unlisted)})
    return pd.DataFrame(out)
