"""Tang et al. 2013 Tables 2-3 layout, Fig. 11's normalized scores and Fig. 12's relative gains."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...errors import ConfigError
from .config import METRICS, Settings


def config_table(summary: pd.DataFrame, cfg: Settings, label: str) -> pd.DataFrame:
    """Table 2/3 layout: the seven configurations x (avg wait, unfair, LoC) of one log."""
    s = summary[summary["log"] == label].set_index("point")
    rows = []
    for name, point in cfg.configurations.items():
        r = s.loc[point]
        rows.append({"log": label, "configuration": name, "point": point,
                     "avg_wait_min": r["mean_wait_min"], "unfair_jobs": int(r["unfair_jobs"]),
                     "loc_pct": r["loc_pct"]})
    return pd.DataFrame(rows)


def scores(table: pd.DataFrame) -> pd.DataFrame:
    """Fig. 11: each metric as 100 x value / max over the configurations (lower is better)."""
    out = table[["log", "configuration"]].copy()
    for m in METRICS:
        mx = float(table[m].max())
        out[m] = 100.0 * table[m].astype(float) / mx if mx > 0 else 0.0
    return out


GAIN_READINGS = ("as_written", "score_points")


def relative_gains(table: pd.DataFrame, weightings: dict[str, list[float]],
                   reading: str = "as_written") -> pd.DataFrame:
    """Fig. 12: weighted relative gains vs BF = 1 / W = 1 on the scores, plus their average.

    §4.4.4: "The calculation is based on the normalized score used in the radar charts. The
    relative gain of scheme B to scheme A is calculated as G = 100% * (S_A - S_B)/S_A".
    Two readings (``reading``):

    * ``"as_written"``: ``G = (S_A - S_B) / S_A`` on the scores. The max-normalization cancels,
      so this is ``1 - value_B / value_A``: a base with few unfair jobs (14 on SP2) makes
      ``G_unfair`` large and negative (-136% for 2D Adapt.) and it dominates every weighting.
      From the paper's own Tables 2-3 it gives 2D Adapt. an average gain of +1% (BG/P) and
      -25% (SP2) and negative adaptive bars under EQUAL and UNFAIR+, against the text's "nearly
      35%", "up to 15%" and "adaptive policy tuning has no such issue".
    * ``"score_points"``: ``G = (S_A - S_B) / 100``, the drop in score points of the 0-100
      radar scale (the percentage of the scale). From Tables 2-3 it gives 2D Adapt. +25%
      (BG/P) and +10.5% (SP2), BF-/2D-adapt best on BG/P, W-/2D-adapt best on SP2 and negative
      bars only for static schemes under UNFAIR+ on BG/P — the text's description.

    The report carries both (table ``gains``, column ``reading``; ``gains_published`` gives both
    readings of the paper's own tables); the paper target plots config ``gain_reading``.
    """
    if reading not in GAIN_READINGS:
        raise ConfigError(f"tang2013: unknown gain reading {reading!r}; choose from "
                          f"{GAIN_READINGS}")
    sc = scores(table).set_index("configuration")
    base = sc.iloc[0]
    rows = []
    for name, r in sc.iloc[1:].iterrows():
        if reading == "as_written":
            g = {m: (base[m] - r[m]) / base[m] if base[m] > 0 else math.nan for m in METRICS}
        else:
            g = {m: (base[m] - r[m]) / 100.0 for m in METRICS}
        vals = {}
        for wname, (w1, w2, w3) in weightings.items():
            vals[wname] = w1 * g["avg_wait_min"] + w2 * g["unfair_jobs"] + w3 * g["loc_pct"]
        vals["average"] = float(np.mean(list(vals.values())))
        for wname, v in vals.items():
            rows.append({"log": r["log"], "configuration": name, "weighting": wname,
                         "gain": float(v), "g_wait": g["avg_wait_min"],
                         "g_unfair": g["unfair_jobs"], "g_loc": g["loc_pct"],
                         "reading": reading})
    return pd.DataFrame(rows)


def published_table(cfg: Settings, table: str, label: str) -> pd.DataFrame:
    """The paper's Table 2 or 3 in :func:`config_table`'s layout (for gains and overlays)."""
    rows = [{"log": label, "configuration": c, "point": cfg.configurations[c],
             "avg_wait_min": float(v[0]), "unfair_jobs": float(v[1]), "loc_pct": float(v[2])}
            for c, v in cfg.published[table].items()]
    return pd.DataFrame(rows)


def all_gains(table: pd.DataFrame, weightings: dict[str, list[float]]) -> pd.DataFrame:
    """:func:`relative_gains` under both readings, stacked."""
    return pd.concat([relative_gains(table, weightings, r) for r in GAIN_READINGS],
                     ignore_index=True)
