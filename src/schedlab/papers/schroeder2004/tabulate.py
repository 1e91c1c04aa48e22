"""Schroeder & Harchol-Balter (2004): the tables (the points' frames by table name and the
service-order attribution table, the readings of the scorecard rows) and the assembly's declared
outputs."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...report.attribution import TABLE
from .. import Inputs, Outputs
from .config import Settings
from .plots import figure_stems
from .scoring import attribution_readings, service_order_attribution
from .simulations import experiment_rows, experiments

#: The service-order attribution table (every simulated claim under each order, package docstring).
ATTRIBUTION = "attribution_service_order"


def outputs(s: Settings) -> Outputs:
    """Table names (the report reads them) and figure stems."""
    return Outputs(tables=("table1", "cutoffs", *(f"sim_{e}" for e in experiments(s)),
                           "analysis", ATTRIBUTION, TABLE),
                   figures=tuple(figure_stems(s)))


def tables(s: Settings, runs: Mapping[str, Mapping[str, pd.DataFrame]],
           inputs: Inputs) -> dict[str, pd.DataFrame]:
    """The points' frames by table name, the service-order attribution table and the long frame
    of every reading of the scorecard rows (:data:`~schedlab.report.attribution.TABLE`, which the
    scorecard looks up)."""
    out = {"table1": runs["table1"]["table1"], "cutoffs": runs["cutoffs"]["cutoffs"],
           **{f"sim_{e}": runs[f"sim_{e}"]["sim"] for e in experiments(s)},
           "analysis": runs["analysis"]["analysis"]}
    out[ATTRIBUTION] = service_order_attribution(experiment_rows(s, out), out["cutoffs"],
                                                 out["analysis"], s)
    out[TABLE] = attribution_readings(s, out)
    return out
