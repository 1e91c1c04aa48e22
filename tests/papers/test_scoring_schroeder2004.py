"""The Schroeder & Harchol-Balter (2004) scorecard rows on hand-made simulation tables: each claim
in the paper's words fails and holds (thresholds from the vocabulary, the paper's where it gives
one)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.papers.schroeder2004.config import CONFIDENCE, resolve_config
from schedlab.papers.schroeder2004.scoring import (
    _ci,
    analysis_rows,
    claim_rows,
    comparable_beyond_70,
    opt_not_far_from_fair,
    random_by_far_the_worst,
    random_the_same,
    rule_within_10,
    unbalancing_rows,
)

LOADS = [0.3, 0.5, 0.8, 0.9]
REPS = 5
JITTER = np.array([0.98, 1.0, 1.02, 0.99, 1.01])


def sims(slowdown: dict[str, list[float]], variance: dict[str, list[float]] | None = None,
         experiment: str = "poisson", index: str = "load", hosts: int = 2,
         long_short: float = 1.0) -> pd.DataFrame:
    """Poisson-experiment rows: per policy, a mean slowdown per load (or host count) with five
    replications around it (the same jitter for every policy: tight paired intervals)."""
    variance = variance or {p: [10 * v for v in vals] for p, vals in slowdown.items()}
    rows = []
    for pol, vals in slowdown.items():
        for i, x in enumerate(LOADS if index == "load" else sorted(vals)):
            v = vals[i] if index == "load" else vals[x]
            var = variance[pol][i] if index == "load" else 10 * v
            rows.append({"experiment": experiment, "service_order": "shuffled",
                         "hosts": hosts if index == "load" else x,
                         "load": x if index == "load" else 0.7, "policy": pol,
                         "cutoff_method": "analytic" if pol.startswith("SITA") else "",
                         "mean_slowdown": v, "var_slowdown": var,
                         "mean_slowdown_lo": 0.98 * v, "mean_slowdown_hi": 1.02 * v,
                         "rep_mean_slowdown": list(v * JITTER),
                         "rep_var_slowdown": list(var * JITTER),
                         "mean_response": 100 * v, "rep_mean_response": list(100 * v * JITTER),
                         "rep_mean_slowdown_long": list(v * JITTER * long_short),
                         "rep_mean_slowdown_short": list(v * JITTER)})
    return pd.DataFrame(rows)


def ci(d, num, den, metric="mean_slowdown", index="load"):
    return _ci(d, num, den, metric, index, CONFIDENCE)


def rows_by_item(df: pd.DataFrame) -> dict[str, dict]:
    out = {}
    for r in unbalancing_rows(df, "hand-made", ci):
        key = r["item"] + (" variance" if "variance" in r["quantity"] else "") + \
            (" range" if "ranges" in r["quantity"] else "")
        out[key] = r
    return out


# SITA-U-fair 12x better than SITA-E at load 0.9, 4-10x at 0.5-0.8 (the paper's C90 picture)
C90_LIKE = {"Random": [30.0, 80.0, 400.0, 900.0], "Least-Work-Left": [3.0, 20.0, 90.0, 200.0],
            "SITA-E": [2.0, 8.0, 50.0, 120.0], "SITA-U-fair": [1.5, 2.0, 5.0, 10.0],
            "SITA-U-opt": [1.4, 1.9, 4.8, 9.5]}
# SITA-U-fair only 2x better: the factor of our old reading, short of every one of the paper's
CTC_LIKE = {**C90_LIKE, "SITA-U-fair": [1.8, 4.0, 25.0, 60.0], "SITA-U-opt": [1.7, 3.9, 24.0, 58.0]}


def test_headline_is_the_papers_order_of_magnitude():
    """§1.4 "more than an order of magnitude": < 1/10 at some load (the paper's bound)."""
    good = rows_by_item(sims(C90_LIKE))
    assert good["§1.4"]["verdict"] == "holds" and good["§1.4"]["headline"]
    assert (good["§1.4"]["phrase"], good["§1.4"]["threshold_source"]) == ("less_than", "paper")
    bad = rows_by_item(sims(CTC_LIKE))
    assert bad["§1.4"]["verdict"] == "fails"  # a factor of 2 held under the old '> 2' reading
    assert bad["§1.4"]["reproduced"] == pytest.approx(60 / 120)


def test_section_4_2_ranges_from_4_to_10():
    good = rows_by_item(sims(C90_LIKE))["§4.2 / Fig 4 range"]
    assert good["verdict"] == "holds"  # 8/2 = 4 and 50/5 = 10
    assert (good["phrase"], good["threshold_source"]) == ("about", "ours")
    bad = rows_by_item(sims(CTC_LIKE))["§4.2 / Fig 4 range"]
    assert bad["verdict"] == "fails" and "lowest" in bad["note"]


def test_greatly_and_significantly_better_use_the_vocabulary_factor():
    good = rows_by_item(sims(C90_LIKE))
    assert good["§4.2 / Fig 4"]["verdict"] == "holds"
    assert good["Abstract"]["verdict"] == "holds"
    assert good["Abstract"]["phrase"] == "significantly"
    # 1.2x better everywhere: "better", not "significantly better" (factor 1.3, ours)
    slight = {**C90_LIKE, "SITA-U-fair": [v / 1.2 for v in C90_LIKE["SITA-E"]],
              "SITA-U-opt": [v / 1.2 for v in C90_LIKE["SITA-E"]]}
    bad = rows_by_item(sims(slight))
    assert bad["§4.2 / Fig 4"]["verdict"] == "fails"
    assert bad["Abstract"]["verdict"] == "fails"


HOSTS = [60, 70, 80, 90]


def many_hosts(by_policy: dict[str, list[float]]) -> pd.DataFrame:
    return sims({p: dict(zip(HOSTS, v, strict=True)) for p, v in by_policy.items()},
                experiment="many_hosts", index="hosts")


def mh_ci(d, num, den, metric="mean_slowdown", index="hosts"):
    return _ci(d, num, den, metric, index, CONFIDENCE)


def test_comparable_only_when_larger_than_70():
    """"larger than 70": 70 itself is not included (strict)."""
    at_70_apart = many_hosts({"Least-Work-Left": [9.0, 9.0, 2.05, 2.0],
                              "SITA-E": [3.0, 3.0, 2.05, 2.0],  # 2.05 / 2 = 1.025: similar
                              "SITA-U-fair": [2.0, 2.0, 2.0, 2.0],
                              "SITA-U-opt": [2.0, 2.0, 2.0, 2.0]})
    row = comparable_beyond_70(at_70_apart, "hand-made", mh_ci)
    assert row["verdict"] == "holds" and row["condition"].endswith("h > 70")
    at_80_apart = at_70_apart.copy()
    lwl80 = (at_80_apart["policy"] == "Least-Work-Left") & (at_80_apart["hosts"] == 80)
    at_80_apart.loc[lwl80, "rep_mean_slowdown"] = pd.Series([list(9.0 * JITTER)] * int(lwl80.sum()),
                                                            index=at_80_apart.index[lwl80])
    assert comparable_beyond_70(at_80_apart, "hand-made", mh_ci)["verdict"] == "fails"


def test_all_policies_comparable_not_only_lwl():
    """"all policies": SITA-E and SITA-U-opt too, not only LWL against SITA-U-fair."""
    sita_e_apart = many_hosts({"Least-Work-Left": [9.0, 9.0, 2.0, 2.0],
                               "SITA-E": [3.0, 3.0, 5.0, 5.0],
                               "SITA-U-fair": [2.0, 2.0, 2.0, 2.0],
                               "SITA-U-opt": [2.0, 2.0, 2.0, 2.0]})
    row = comparable_beyond_70(sita_e_apart, "hand-made", mh_ci)
    assert row["verdict"] == "fails" and "SITA-E" in row["note"]


def test_comparable_is_the_vocabularys_similar_not_a_factor_of_2():
    """A factor 1.8 sat inside the old hard-coded [0.5, 2]; 'comparable' is 'similar' (1.15)."""
    apart = many_hosts({"Least-Work-Left": [9.0, 9.0, 3.6, 3.6], "SITA-E": [3.0, 3.0, 2.0, 2.0],
                        "SITA-U-fair": [2.0, 2.0, 2.0, 2.0], "SITA-U-opt": [2.0, 2.0, 2.0, 2.0]})
    row = comparable_beyond_70(apart, "hand-made", mh_ci)
    assert row["verdict"] == "fails"
    assert (row["phrase"], row["threshold_source"]) == ("similar", "ours")
    close = many_hosts({"Least-Work-Left": [9.0, 9.0, 2.2, 2.2], "SITA-E": [3.0, 3.0, 2.0, 2.0],
                        "SITA-U-fair": [2.0, 2.0, 2.0, 2.0], "SITA-U-opt": [2.0, 2.0, 2.0, 2.0]})
    assert comparable_beyond_70(close, "hand-made", mh_ci)["verdict"] == "holds"


def test_random_the_same_uses_the_vocabulary_band():
    """"the same": the vocabulary's 'similar' band (ours), not the value tolerance 0.15."""
    two = sims(C90_LIKE)
    same = sims({"Random": [v * 1.1 for v in C90_LIKE["Random"]]}, hosts=4)
    row = random_the_same(two, same, "hand-made")
    assert row["verdict"] == "holds"
    assert (row["phrase"], row["threshold_source"]) == ("similar", "ours")
    worse = sims({"Random": [v * 1.16 for v in C90_LIKE["Random"]]}, hosts=4)
    assert random_the_same(two, worse, "hand-made")["verdict"] == "fails"


def test_rule_of_thumb_within_10_percent_is_the_papers_threshold():
    rule = {**C90_LIKE, "SITA-U-rule": [v * 1.1 for v in C90_LIKE["SITA-U-opt"]]}
    row = rule_within_10(sims(rule), "hand-made")
    assert row["verdict"] == "holds"
    assert (row["phrase"], row["threshold_source"]) == ("within", "paper")
    off = {**C90_LIKE, "SITA-U-rule": [v * 1.12 for v in C90_LIKE["SITA-U-opt"]]}
    assert rule_within_10(sims(off), "hand-made")["verdict"] == "fails"


def analysis(factor: float = 1.0) -> pd.DataFrame:
    return pd.DataFrame([{"hosts": 2, "load": x, "policy": p, "mean_slowdown": v * factor}
                         for p, vals in C90_LIKE.items() for x, v in zip(LOADS, vals, strict=True)])


@pytest.mark.parametrize("mgh", ["standard", "paper"])
def test_analysis_rows_name_their_formula_and_use_the_vocabulary_band(mgh):
    near = {r["item"]: r for r in analysis_rows(sims(C90_LIKE), analysis(1.1), "hand-made", mgh)}
    assert near["Fig 8"]["verdict"] == "holds" and near["Fig 9"]["verdict"] == "holds"
    assert ("(1+C²)/2" if mgh == "standard" else "E[X²]/E[X]²") in near["Fig 8"]["quantity"]
    assert "no M/G/h factor" in near["Fig 9"]["quantity"]
    assert (near["Fig 8"]["phrase"], near["Fig 8"]["threshold_source"]) == ("similar", "ours")
    far = {r["item"]: r for r in analysis_rows(sims(C90_LIKE), analysis(1.2), "hand-made", mgh)}
    assert far["Fig 8"]["verdict"] == "fails"
    assert far["Fig 8"]["reproduced"] == pytest.approx(1.2 / 1.02)


def test_the_papers_similar_is_the_vocabularys_band_in_every_row():
    """'quite similar', 'close to', 'only a slight bit worse' and the title claim's 'equal' are
    the vocabulary's 'similar' (1.15, ours), not the config's factors 2 and 1.5."""
    pols = {**C90_LIKE, "Round-Robin": C90_LIKE["Random"], "Central-Queue":
            C90_LIKE["Least-Work-Left"], "SITA-U-fair": [v * 1.1 for v in C90_LIKE["SITA-U-opt"]]}
    low_similar = {**pols, "SITA-E": [2.8, 8.0, 50.0, 120.0]}  # LWL 3.0 at 0.3
    raw = yaml.safe_load((Path(__file__).resolve().parents[2]
                          / "config/papers/schroeder2004.yaml").read_text())
    cfg = dataclasses.replace(resolve_config(raw), trace="hand-made", subset={},
                              confidence=CONFIDENCE)

    def rows(p, long_short=1.1):
        d = pd.concat([sims(p, long_short=long_short), sims(p, hosts=4, long_short=long_short)])
        return {r["quantity"].split(" (")[0]: r for r in claim_rows(
            d, pd.DataFrame(), analysis(), cfg, "shuffled")}

    good = rows(low_similar)
    for q in ("SITA-E and LWL similar at low load", "Round-Robin close to Random",
              "SITA-U-fair only slightly worse than SITA-U-opt",
              "SITA-U-fair is fair: long and short jobs have equal mean slowdown"):
        assert good[q]["verdict"] == "holds", q
        assert (good[q]["phrase"], good[q]["threshold_source"]) == ("similar", "ours"), q
    wide = good["task assignment policies differ by an order of magnitude or more in mean slowdown"]
    assert wide["verdict"] == "holds" and wide["phrase"] == "less_than"
    # factors inside the old bands (2, 1.5, 2) but outside 'similar'
    bad = rows({**pols, "Round-Robin": [v * 1.5 for v in C90_LIKE["Random"]],
                "SITA-U-fair": [v * 1.3 for v in C90_LIKE["SITA-U-opt"]]}, long_short=1.8)
    for q in ("SITA-E and LWL similar at low load", "Round-Robin close to Random",
              "SITA-U-fair only slightly worse than SITA-U-opt",
              "SITA-U-fair is fair: long and short jobs have equal mean slowdown"):
        assert bad[q]["verdict"] == "fails", q


def test_random_by_far_the_worst():
    """§3.2 "Random is by far the worst policy" (mean response time, load > 0.5) on CTC."""
    row = random_by_far_the_worst(sims(C90_LIKE), "§3.2", "mean_response", "hand-made", ci)
    assert row["verdict"] == "holds" and "SITA-U" not in row["quantity"]
    assert (row["phrase"], row["threshold_source"]) == ("significantly", "ours")
    close = {**C90_LIKE, "Random": [v * 1.2 for v in C90_LIKE["Least-Work-Left"]]}
    assert random_by_far_the_worst(sims(close), "§3.2", "mean_response", "hand-made",
                                   ci)["verdict"] == "fails"  # worst, but not by far
    no_random = sims({p: v for p, v in C90_LIKE.items() if p != "Random"})
    assert random_by_far_the_worst(no_random, "§3.2", "mean_response", "hand-made",
                                   ci)["verdict"] == "fails"  # not checkable: a missing quantity


def test_opt_not_far_from_fair():
    cuts = pd.DataFrame({"policy": ["SITA-U-opt"] * 2 + ["SITA-U-fair"] * 2,
                         "load": [0.5, 0.8] * 2, "load_fraction_host1": [0.25, 0.38, 0.24, 0.40]})
    row = opt_not_far_from_fair(cuts, "hand-made")
    assert row["verdict"] == "holds" and row["phrase"] == "similar"
    far = cuts.assign(load_fraction_host1=[0.25, 0.38, 0.20, 0.40])
    assert opt_not_far_from_fair(far, "hand-made")["verdict"] == "fails"
