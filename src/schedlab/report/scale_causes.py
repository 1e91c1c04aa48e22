"""The tested causes of verdict flips between the default and the paper scale.

A flip (:mod:`schedlab.report.scale_sensitivity`) moves with everything the two scales change at
once; which setting moved it is found by experiment, not inferred: the default run is made again
with one paper-scale setting changed, and the row's verdict read. Those runs are costly (a paper's
whole target each), so their outcome is recorded as data, ``config/scale_causes.tsv``
(:data:`SCALE_CAUSES`; lines starting with ``#`` are comments), one line per flipped row, with the
header :data:`FIELDS`:

``paper, item, quantity, condition``
    the scorecard row's key, exactly as in the scorecard;
``explained``
    ``explained`` (changing only ``setting`` gives the default run the paper scale's verdict) or
    ``unexplained`` (no one setting tried does; ``setting`` lists those tried);
``setting``
    the one setting changed (its paper-scale value), or for ``unexplained`` the settings tried;
``override``
    the ``--config`` that makes the default run with only that change (a reader can rerun it);
``evidence_verdict``, ``evidence_value``
    the row's verdict and value in that run (for ``unexplained``: the tried run closest to it);
``run``
    the commit, date and cost of the run.

:func:`cause_text` holds an entry against the row it names: an ``explained`` entry whose
``evidence_verdict`` is not the paper scale's verdict (the code or the settings moved since it was
recorded) is shown as not attributed and says why, so a stale entry never explains a flip.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError

#: Where the causes are recorded (relative to the workflow's directory).
SCALE_CAUSES = "config/scale_causes.tsv"
#: The file's header.
FIELDS = ("paper", "item", "quantity", "condition", "explained", "setting", "override",
          "evidence_verdict", "evidence_value", "run")
#: What an entry may say of its row.
STATUSES = ("explained", "unexplained")
#: The verdicts a reading's run may give a row.
VERDICTS = ("match", "close", "differs", "holds", "fails")
#: The cause of a flipped row nobody has recorded.
NOT_ATTRIBUTED = "not attributed"

Key = tuple[str, str, str, str]


def parse_scale_causes(text: str, source: str) -> dict[Key, dict[str, str]]:
    """The entries of a causes file's ``text``, by row key; a malformed line is a one-line
    ConfigError naming ``source``, the line and the field."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.startswith("#")]
    if not lines:
        raise ConfigError(f"{source}: empty (the header is {', '.join(FIELDS)})")
    n, head = lines[0]
    if tuple(head.split("\t")) != FIELDS:
        raise ConfigError(f"{source}:{n}: the header must be the tab-separated fields "
                          f"{', '.join(FIELDS)}")
    out: dict[Key, dict[str, str]] = {}
    for n, line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != len(FIELDS):
            raise ConfigError(f"{source}:{n}: {len(cells)} fields, expected {len(FIELDS)}")
        e = dict(zip(FIELDS, (c.strip() for c in cells), strict=True))
        for f in ("paper", "item", "quantity", "setting", "override", "run"):
            if not e[f]:
                raise ConfigError(f"{source}:{n}: {f}: empty")
        if e["explained"] not in STATUSES:
            raise ConfigError(f"{source}:{n}: explained: {e['explained']!r}, not one of "
                              f"{', '.join(STATUSES)}")
        if e["evidence_verdict"] not in VERDICTS:
            raise ConfigError(f"{source}:{n}: evidence_verdict: {e['evidence_verdict']!r}, not "
                              f"one of {', '.join(VERDICTS)}")
        key = (e["paper"], e["item"], e["quantity"], e["condition"])
        if key in out:
            raise ConfigError(f"{source}:{n}: a second entry for {' | '.join(key)}")
        out[key] = e
    return out


def read_scale_causes(path: str | Path) -> dict[Key, dict[str, str]]:
    """The entries of the file at ``path``; none when it does not exist."""
    path = Path(path)
    if not path.is_file():
        return {}
    return parse_scale_causes(path.read_text(encoding="utf-8"), str(path))


def cause_text(row: Mapping[str, Any], entry: Mapping[str, str] | None) -> str:
    """What the recorded ``entry`` says of a flipped ``row`` (a scale-sensitivity row), held
    against the row's paper-scale verdict; :data:`NOT_ATTRIBUTED` without one."""
    if entry is None:
        return NOT_ATTRIBUTED
    if entry["explained"] == "unexplained":
        return f"unexplained: tried {entry['setting']} ({entry['run']})"
    value = f", {entry['evidence_value']}" if entry["evidence_value"] else ""
    said = (f"the default run with only {entry['setting']} gives {entry['evidence_verdict']}"
            f"{value} (`--config {entry['override']}`; {entry['run']})")
    if entry["evidence_verdict"] != row["verdict_paper"]:
        return (f"{NOT_ATTRIBUTED} (stale record: {said}, the paper scale now "
                f"{row['verdict_paper']})")
    return f"explained by {entry['setting']}: {said}"


def is_explained(cause: str) -> bool:
    """Whether a cause text (:func:`cause_text`) explains its flip."""
    return cause.startswith("explained by ")
