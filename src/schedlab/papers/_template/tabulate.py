"""The template's tables and the assembly's declared outputs."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .. import Inputs, Outputs
from .config import Settings
from .points import points


def outputs(s: Settings) -> Outputs:
    """Table ``summary`` and figure ``mean_run_time``."""
    return Outputs(tables=("summary",), figures=("mean_run_time",))


def tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]],
           inputs: Inputs) -> dict[str, pd.DataFrame]:
    """``summary``: one row per log, in the settings' order."""
    return {"summary": pd.concat([runs[p.id]["summary"] for p in points(s)], ignore_index=True)}
