"""Two scorecards side by side: which verdicts a change moved, and how the counts shift.

Used to report what a change of reading, claim check or run size did to the verdicts (the
before/after tables an engine reading, a claim fix or a paper-scale run owes its reader). Rows are
matched on :data:`KEY` (``paper, item, quantity, condition``); where a key occurs more than once in a
scorecard, its occurrences are matched in order. A row present on one side only is ``added`` or
``removed``, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .scorecard import DEVIATING, EXPLAINED, VERDICTS

KEY = ["paper", "item", "quantity", "condition"]
#: The change of one row: ``same``, ``changed`` (the verdict moved), ``added`` or ``removed``.
CHANGES = ("changed", "added", "removed", "same")


def _keyed(sc: pd.DataFrame) -> pd.DataFrame:
    out = sc.reset_index(drop=True).copy()
    for c in KEY:
        out[c] = out[c].fillna("").astype(str)
    out["occurrence"] = out.groupby(KEY, sort=False).cumcount()
    return out


def verdict_changes(before: pd.DataFrame, after: pd.DataFrame,
                    carry: Sequence[str] = ()) -> pd.DataFrame:
    """One row per scorecard row of either side: its key, verdict, reproduced value and ``explained``
    before and after, and ``change`` (:data:`CHANGES`). ``cause`` and the columns ``carry`` are the
    after side's (the before side's for a removed row). Order: after's rows first (in its order),
    then the removed ones."""
    carried = ["cause", *carry]
    cols = ["verdict", "reproduced", "explained", *carried]
    on = [*KEY, "occurrence"]
    b = _keyed(before)[[*on, *cols]]
    a = _keyed(after)[[*on, *cols]]
    m = a.merge(b, on=on, how="outer", suffixes=("_after", "_before"),
                indicator=True, sort=False)
    change = pd.Series("same", index=m.index)
    change[m["_merge"] == "left_only"] = "added"
    change[m["_merge"] == "right_only"] = "removed"
    moved = (m["_merge"] == "both") & (m["verdict_before"] != m["verdict_after"])
    change[moved] = "changed"
    m["change"] = change
    for c in carried:
        m[c] = m[f"{c}_after"].where(m["_merge"] != "right_only", m[f"{c}_before"])
    order = [*KEY, "verdict_before", "verdict_after", "reproduced_before", "reproduced_after",
             "explained_before", "explained_after", *carried, "change"]
    return m[order].reset_index(drop=True)


def verdict_counts(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Per paper and verdict (:data:`VERDICTS` order): rows before, after, and the difference."""
    def counts(sc: pd.DataFrame) -> pd.Series:
        return sc.groupby(["paper", "verdict"]).size()

    both = pd.concat({"before": counts(before), "after": counts(after)}, axis=1).fillna(0)
    both = both.astype(int)
    both["delta"] = both["after"] - both["before"]
    papers = list(dict.fromkeys([*after["paper"], *before["paper"]]))
    idx = pd.MultiIndex.from_product([papers, list(VERDICTS)], names=["paper", "verdict"])
    return both.reindex(idx, fill_value=0).reset_index()


def explained_counts(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Per paper: the deviating rows (:data:`DEVIATING`) by ``explained`` status, before and after."""
    def counts(sc: pd.DataFrame) -> pd.Series:
        dev = sc[sc["verdict"].isin(DEVIATING)]
        return dev.groupby(["paper", dev["explained"].fillna("").replace("", "none")]).size()

    both = pd.concat({"before": counts(before), "after": counts(after)}, axis=1).fillna(0)
    both = both.astype(int)
    both.index = both.index.set_names(["paper", "explained"])
    papers = list(dict.fromkeys([*after["paper"], *before["paper"]]))
    statuses = [*EXPLAINED, *sorted(set(both.index.get_level_values(1)) - set(EXPLAINED))]
    idx = pd.MultiIndex.from_product([papers, statuses], names=["paper", "explained"])
    both = both.reindex(idx, fill_value=0)
    both["delta"] = both["after"] - both["before"]
    return both.reset_index()


def format_diff(before: pd.DataFrame, after: pd.DataFrame, labels: tuple[str, str]) -> str:
    """The terminal text: verdict counts per paper, deviating rows by ``explained``, then every row
    whose verdict changed (or which one side lacks)."""
    vc = verdict_counts(before, after)
    wide = vc.pivot(index="paper", columns="verdict", values=["before", "after"])
    lines = [f"before: {labels[0]}", f"after:  {labels[1]}", "",
             "verdicts per paper (before -> after)"]
    header = f"{'paper':<14}" + "".join(f"{v:>14}" for v in VERDICTS)
    lines += [header, "-" * len(header)]
    for paper in dict.fromkeys(vc["paper"]):
        cells = [f"{wide.loc[paper, ('before', v)]} -> {wide.loc[paper, ('after', v)]}"
                 for v in VERDICTS]
        lines.append(f"{paper:<14}" + "".join(f"{c:>14}" for c in cells))
    ec = explained_counts(before, after)
    ec = ec[(ec["before"] > 0) | (ec["after"] > 0)]
    lines += ["", "close/differs/fails rows by explained (before -> after)"]
    for paper, grp in ec.groupby("paper", sort=False):
        parts = [f"{r.explained} {r.before} -> {r.after}" for r in grp.itertuples()]
        lines.append(f"{paper:<14}" + "; ".join(parts))
    ch = verdict_changes(before, after)
    ch = ch[ch["change"] != "same"]
    lines += ["", f"rows whose verdict changed or which one side lacks: {len(ch)}"]
    for r in ch.itertuples():
        what = {"added": f"(new) -> {r.verdict_after}", "removed": f"{r.verdict_before} -> (gone)"}
        move = what.get(r.change, f"{r.verdict_before} -> {r.verdict_after}")
        cond = f" [{r.condition}]" if r.condition else ""
        cause = f"  cause: {r.cause}" if isinstance(r.cause, str) and r.cause else ""
        lines.append(f"  {r.paper} | {r.item} | {r.quantity}{cond}: {move}{cause}")
    return "\n".join(lines)
