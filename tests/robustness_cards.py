"""Small scorecards for the robustness-matrix tests (imported by tests in several packages; tests/
is on sys.path through tests/conftest.py)."""

from __future__ import annotations

import pandas as pd

from schedlab.report import robustness as R
from schedlab.report.scorecard import claim_row, our_check, scorecard_frame, value_row

P = "talby2005"


def card(holds: dict[str, bool | None], paper: str = P, extra: list[dict] | None = None
         ) -> pd.DataFrame:
    """A scorecard with one claim row per entry of ``holds`` (None: not checkable), one value row
    and one of our checks (neither belongs in the matrix)."""
    rows = [claim_row(paper, "§4", q, "all logs", h, reproduced=1.0 if h is not None else None,
                      check="order") for q, h in holds.items()]
    rows.append(value_row(paper, "Table 2", "mean wait", "SDSC", 100.0, 101.0, headline=True))
    rows.append(claim_row(paper, our_check("CI"), "narrow", "", True))
    return scorecard_frame(rows + (extra or []))


def cards(own: dict, studies: dict[str, dict]) -> list[R.Card]:
    return [R.Card(P, "SDSC-SP2", True, card(own)),
            *(R.Card(P, log, False, card(h)) for log, h in studies.items())]
