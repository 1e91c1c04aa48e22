"""Cirne 2001 figures (schedlab.papers.cirne2001.plots): what the thesis prints is marked."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.papers.cirne2001 import plots as P


def test_decile_figures_mark_what_the_thesis_prints():
    published = {"table13_geomean_tt_s": {"best": 1264, "sa": 1429, "user": 2878},
                 "generator": {"L_decile_edges_s": [92, 348]},
                 "decile_marks": {"A": {"at": 100, "text": "tapers at A = 100"}}}
    assert P._published_marks(published, "L") == [(92.0, "decile edge L = 92 s (§5.3.1)"),
                                                   (348.0, "decile edge L = 348 s (§5.3.1)")]
    assert P._published_marks(published, "A") == [(100.0, "tapers at A = 100")]
    assert P._published_marks(published, "sigma") == []
    rows = [{"factor": "A", "bin": b, "bin_median": m, "measure": "tt", "request": r,
             "geomean": 10.0, "ci_low": 9.0, "ci_high": 11.0, "relative": 0.5,
             "rel_ci_low": 0.4, "rel_ci_high": 0.6}
            for b, m in (("lo", 10.0), ("mid", 50.0), ("hi", 150.0)) for r in ("user", "sa")]
    fig = P._breakdown_figure(pd.DataFrame(rows), "A", "tt", "t", published)
    xs = [ln.get_xdata()[0] for ln in fig.axes[1].get_lines() if ln.get_linestyle() == "-."]
    assert xs == [pytest.approx(1.5)]  # A = 100 lies halfway between the medians 50 and 150
