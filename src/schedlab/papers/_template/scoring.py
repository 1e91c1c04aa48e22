"""The template's scorecard rows: the published values beside ours, then the claims."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...report.scorecard import claim_row, scorecard_frame, tolerance_for, value_row
from .checks import mean_positive
from .config import PAPER, Settings


def scorecard(s: Settings, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """A value row per published mean run time; a claim row per log."""
    t = tables["summary"].set_index("log")
    pub = s.published.get("mean_run_time_s", {})
    rows = [value_row(PAPER, "Table 1", "mean run time", log, float(pub[log]),
                      float(t.loc[log, "mean_run_time_s"]), "s",
                      tolerance_for(s.tolerance, "Table 1")) for log in t.index if log in pub]
    rows += [claim_row(PAPER, "§1", "mean run time is positive", log,
                       mean_positive(float(t.loc[log, "mean_run_time_s"])),
                       reproduced=float(t.loc[log, "mean_run_time_s"]), unit="s",
                       check=mean_positive) for log in t.index]
    return scorecard_frame(rows)
