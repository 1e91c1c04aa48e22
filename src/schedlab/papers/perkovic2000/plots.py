"""Perković & Keleher 2000: Figures 3-9 (matplotlib), published values overlaid; the contract's
``figures`` (``fig3``-``fig9``, and ``fig3_<nodes>`` for each of ``extra_machines``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...sim.schedulers.queue_orders import ORDERS
from .config import Settings
from .sweep import GROUPS
from .tabulate import figure_frames, views

METRICS = ("bounded_slowdown", "delay", "response")
FIGURE_TITLES = {
    "fig3": "Figure 3: algorithm mixes",
    "fig4": "Figure 4: bounded slowdown per shape group",
    "fig5": "Figure 5: speculative backfilling",
    "fig6": "Figure 6: speculative backfilling with test runs",
    "fig7": "Figure 7: half-sized and quarter-sized jobs",
    "fig8": "Figure 8: greedy adaptation",
    "fig9": "Figure 9: half-sizing, start-time widening, speculation",
}


NG = "no guarantees (-NG)"


def _pair_bars(ax, hues: list[str]) -> None:
    """A policy's bars with and without guarantees share a colour; the -NG bar is hatched (the
    colour is the hue without its variant: the experiment, or one colour when the hue is only the
    variant). Rebuilds a legend the axes already has."""
    import seaborn as sns
    from matplotlib.patches import Patch

    bases = list(dict.fromkeys(h.replace(NG, "").replace("guarantees", "").strip(" /")
                               for h in hues))
    palette = sns.color_palette(n_colors=len(bases))
    styles = {}
    for h in hues:
        color = palette[bases.index(h.replace(NG, "").replace("guarantees", "").strip(" /"))]
        styles[h] = {"facecolor": color, "hatch": "///" if NG in h else "", "edgecolor": "0.25"}
    for cont, h in zip(ax.containers, hues, strict=False):
        for bar in cont:
            bar.set(**styles[h])
    if ax.get_legend() is not None:
        ax.legend([Patch(**styles[h]) for h in hues], hues, fontsize=6)


def _axis_frame(df: pd.DataFrame) -> pd.DataFrame:
    d = df.copy()
    d["queue order"] = d["order"].map(lambda o: "BF/D" if o == "D" else o)
    d["variant "] = np.where(d["guarantees"], "guarantees", NG)
    return d


UNITS = {"bounded_slowdown": "bounded slowdown", "delay": "delay (s)",
         "response": "response time (s)"}


def published_ratios(pub: Mapping[str, Any] | None) -> dict[tuple[str, str], float]:
    """(metric, algorithm) -> published ratio to BF stated in §5 / §7.1 (1 - reduction)."""
    if not pub:
        return {}
    out = {}
    for metric, key in (("bounded_slowdown", "bsd_reduction"), ("delay", "delay_reduction")):
        for algo, refs in pub.get(key, {}).items():
            out[(metric, algo)] = 1.0 - float(refs["BF"])
    return out


def _overlay(ax, xorder: list[str], points: list[tuple[str, float]], label: str,
             hues: list[str], hue: str) -> None:
    """Published values as black stars on the bars of hue ``hue`` (seaborn dodges ``len(hues)``
    bars over a width of 0.8 around each x position)."""
    if hue not in hues:
        return
    off = -0.4 + 0.8 * (hues.index(hue) + 0.5) / len(hues)
    xs = [xorder.index(o) + off for o, _ in points if o in xorder]
    ys = [v for o, v in points if o in xorder]
    if xs:
        ax.scatter(xs, ys, marker="*", s=90, color="black", zorder=5, label=label)


def make_figure(name: str, frame: pd.DataFrame, pub: Mapping[str, Any] | None = None):
    """The matplotlib figure for one of Figures 3–9 from its frame (see :func:`figure_frames`).

    Bars are means over seeds with min–max error bars where replicates exist; published values
    (§5 reductions, §7.1 ratios) are drawn on the same axes as stars / dashed lines "published"."""
    import seaborn as sns

    from ...report.plotting import new_figure

    d = _axis_frame(frame)
    xorder = [("BF/D" if o == "D" else o) for o in ORDERS if o in set(d["order"])]
    hue = "variant "
    err = ("pi", 100) if "replicate" in d and d["replicate"].max() > 0 else None
    pubr = published_ratios(pub)
    if name in ("fig3", "fig7", "fig8", "fig9"):
        fig, axes = new_figure(2, 3, width=4.2, height=3.2, squeeze=False)
        extra = {"fig7": "experiment", "fig9": "experiment"}.get(name)
        for c, m in enumerate(METRICS):
            for r, col in enumerate((m, f"{m}_ratio")):
                ax = axes[r][c]
                dd = d if extra is None else d.assign(**{hue: d[extra] + " / " + d[hue]})
                hues = list(dict.fromkeys(dd[hue]))
                sns.barplot(data=dd, x="queue order", y=col, hue=hue, order=xorder, ax=ax,
                            errorbar=err, hue_order=hues)
                _pair_bars(ax, hues)
                ax.set_ylabel(UNITS[m] + (" (ratio to BF)" if r else ""))
                ax.set_xlabel("queue order (Table 4)")
                if r:
                    ax.axhline(1.0, color="k", lw=0.8)
                    if name == "fig3":
                        _overlay(ax, xorder, [(a.split("-")[0], v) for (mm, a), v in pubr.items()
                                              if mm == m], "published (§5)", hues,
                                 NG)
                    if name == "fig9" and pub and m == "bounded_slowdown":
                        ax.axhline(float(pub["combined_bsd_ratio"]), color="k", ls="--", lw=1,
                                   label="published (~15%, §7.1)")
                    if name == "fig9" and pub and m == "delay":
                        _overlay(ax, xorder, [("R/L", float(pub["rl_ng_delay_ratio"]))],
                                 "published (R/L-NG, §7.1)", hues,
                                 f"half_widen_spec / {NG}")
                leg = ax.get_legend()
                if leg is not None and (r, c) != (0, 0) and not (r and name in ("fig3", "fig9")):
                    leg.remove()
                elif r and name in ("fig3", "fig9"):
                    h, lab = ax.get_legend_handles_labels()
                    keep = [(hh, ll) for hh, ll in zip(h, lab, strict=True) if "published" in ll]
                    if keep:
                        ax.legend(*zip(*keep, strict=True), fontsize=6)
                    elif leg is not None:
                        leg.remove()
    elif name == "fig4":
        fig, axes = new_figure(2, 4, width=3.4, height=3.0, squeeze=False)
        for c, g in enumerate(GROUPS):
            for r, col in enumerate(("bounded_slowdown", "bounded_slowdown_ratio")):
                ax = axes[r][c]
                hues = list(dict.fromkeys(d[hue]))
                sns.barplot(data=d[d["group"] == g], x="queue order", y=col, hue=hue,
                            order=xorder, ax=ax, errorbar=err, hue_order=hues)
                _pair_bars(ax, hues)
                ax.set_title(g if r == 0 else "")
                ax.set_ylabel("bounded slowdown" + (" (ratio to BF)" if r else ""))
                ax.set_xlabel("queue order (Table 4)")
                if (r, c) != (0, 0) and ax.get_legend() is not None:
                    ax.get_legend().remove()
    else:  # fig5, fig6: sweep over the speculation percentage
        fig, axes = new_figure(1, 2, width=5.0, height=3.6, squeeze=False)
        # a policy and its -NG variant: one colour (the queue order), two line styles
        for c, col in enumerate(("bounded_slowdown", "bounded_slowdown_improvement")):
            ax = axes[0][c]
            sns.lineplot(data=d, x="percentage", y=col, hue="queue order", hue_order=xorder,
                         style="variant ", style_order=["guarantees", NG], markers=True,
                         dashes=True, ax=ax, errorbar=err)
            ax.set_xlabel("speculation percentage (speculated / estimated time)")
            ax.set_ylabel("bounded slowdown" if c == 0 else
                          "improvement in bounded slowdown (fraction)")
            if c and ax.get_legend() is not None:
                ax.get_legend().remove()
            elif ax.get_legend() is not None:
                ax.legend(fontsize=6, ncol=2)
    fig.suptitle(FIGURE_TITLES[name])
    return fig


def figures(s: Settings, tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Figures 3-9 (:func:`make_figure`) and Figure 3 on each extra machine size."""
    v = views(s, tables)
    pub = s.published
    out = {name: make_figure(name, frame, pub) for name, frame in v.frames.items()}
    for m in v.machines[1:]:
        out[f"fig3_{m}"] = make_figure("fig3", figure_frames(v.default, m)["fig3"], pub)
    return out
