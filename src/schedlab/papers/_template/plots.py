"""The template's figures (published values overlaid where the settings give them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from .config import Settings


def figures(s: Settings, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """``mean_run_time``: the mean run time of each log, the published value as a marker."""
    from ...report.plotting import new_figure

    t = tables["summary"]
    fig, ax = new_figure()
    ax.bar(t["log"], t["mean_run_time_s"], label="ours")
    pub = s.published.get("mean_run_time_s", {})
    ax.plot([log for log in t["log"] if log in pub], [pub[log] for log in t["log"] if log in pub],
            "k_", ms=20, mew=2, label="published")
    ax.set_ylabel("mean run time (s)")
    ax.legend()
    return {"mean_run_time": fig}
