"""Perković & Keleher 2000 figures: a policy and its -NG variant share a colour and differ in line
style (Figures 5-6) or hatching (the bar figures)."""

from __future__ import annotations

import itertools

import matplotlib.colors as mcolors
import pandas as pd

from schedlab.papers.perkovic2000.plots import NG, make_figure


def frame(percentages=(0.5, 1.0)) -> pd.DataFrame:
    rows = []
    for (order, guar), pct in itertools.product(
            itertools.product(("D", "1/L", "R/L"), (True, False)), percentages):
        v = 10.0 + len(order) + (0 if guar else 1) + pct
        rows.append({"order": order, "guarantees": guar, "group": "all", "replicate": 0,
                     "algorithm": ("BF" if order == "D" else order) + ("" if guar else "-NG"),
                     "percentage": pct, "experiment": "half",
                     **{f"{m}{s}": v for m in ("bounded_slowdown", "delay", "response")
                        for s in ("", "_ratio", "_improvement")}})
    return pd.DataFrame(rows)


def test_lines_of_a_policy_and_its_ng_variant_share_a_colour():
    fig = make_figure("fig5", frame())
    ax = fig.axes[0]
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 2]
    assert len(lines) == 6
    by_color: dict[str, set[str]] = {}
    for ln in lines:
        by_color.setdefault(mcolors.to_hex(ln.get_color()), set()).add(ln.get_linestyle())
    assert len(by_color) == 3  # one colour per queue order
    assert all(len(styles) == 2 for styles in by_color.values())  # two line styles each


def test_bars_of_a_policy_and_its_ng_variant_share_a_colour():
    fig = make_figure("fig7", frame((1.0,)))
    ax = fig.axes[0]
    bars = [b for c in ax.containers for b in c]
    assert len(bars) == 6
    plain = [b for b in bars if not b.get_hatch()]
    hatched = [b for b in bars if b.get_hatch()]
    assert len(plain) == len(hatched) == 3
    assert {mcolors.to_hex(b.get_facecolor()) for b in bars} == \
        {mcolors.to_hex(plain[0].get_facecolor())}
    legend = ax.get_legend()
    assert legend is not None and [t.get_text() for t in legend.get_texts()] == \
        ["half / guarantees", f"half / {NG}"]
    handles = legend.legend_handles
    assert [h.get_hatch() or "" for h in handles] == ["", "///"]
    assert {mcolors.to_hex(h.get_facecolor()) for h in handles} == \
        {mcolors.to_hex(plain[0].get_facecolor())}
