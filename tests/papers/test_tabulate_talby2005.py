"""Talby & Feitelson 2005 analyses: months, months won, gaps, features, gains, scorecard."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.papers.talby2005 import features, months, tabulate
from schedlab.papers.talby2005 import scoring as card


def test_month_labels_use_log_time_zone():
    # 1998-05-01 06:30 UTC is still April 30 in US/Pacific.
    start = int(pd.Timestamp("1998-05-01 06:30", tz="UTC").timestamp())
    labels = months.month_labels(np.array([0, 3600 * 2]), start, "US/Pacific")
    assert list(labels) == ["1998-04", "1998-05"]
    assert months.month_seconds("1998-02", "UTC") == 28 * 86400


def _monthly(rows):
    return pd.DataFrame(rows, columns=["month", "scheduler", "wait", "bsld"])


def test_months_won_counts_and_ties():
    m = _monthly([
        ("a", "flex", 10, 2), ("a", "maui", 20, 1),
        ("b", "flex", 30, 2), ("b", "maui", 15, 3),
        ("c", "flex", 0, 1), ("c", "maui", 0, 1),
    ])
    # a tie for the best is nobody's win: counted only under "tie"
    assert months.months_won(m, "wait", ["flex", "maui"]) == {"flex": 1, "maui": 1, "tie": 1}
    assert months.months_won(m, "bsld", ["flex", "maui"]) == {"flex": 1, "maui": 1, "tie": 1}
    m.loc[4, "wait"] = 1   # month c: Maui alone best
    assert months.months_won(m, "wait", ["flex", "maui"]) == {"flex": 1, "maui": 2, "tie": 0}


def test_gap_stats_relative_to_winner():
    m = _monthly([
        ("a", "flex", 10, 0), ("a", "maui", 25, 0),    # Flex wins, gap 150%
        ("b", "flex", 12, 0), ("b", "maui", 10, 0),    # Maui wins, gap 20%
        ("c", "flex", 13, 0), ("c", "maui", 10, 0),    # Maui wins, gap 30%
        ("d", "flex", 5, 0), ("d", "maui", 0, 0),      # Maui wins with zero wait: left out
    ])
    g = months.gap_stats(m)
    assert g["flex_avg"] == pytest.approx(150) and g["flex_max"] == pytest.approx(150)
    assert g["maui_avg"] == pytest.approx(25) and g["maui_max"] == pytest.approx(30)
    assert g["maui_months"] == 3 and g["zero_winner_months"] == 1


def test_features_and_correlation_sign():
    # Two months; month 2 has wider jobs. Flex better in the wide month -> negative correlation.
    trace = pd.DataFrame({
        "submit_time": [0, 100, 200, 3_000_000, 3_000_050, 3_000_300],
        "run_time": [10, 20, 30, 10, 20, 30],
        "alloc_procs": [1, 1, 2, 8, 8, 16],
        "req_procs": [1, 1, 2, 8, 8, 16],
        "avg_cpu_time": [-1] * 6,
        "user_id": [1, 1, 2, 1, 3, 4],
    })
    labels = np.array(["2000-01"] * 3 + ["2000-02"] * 3, dtype=object)
    f = features.monthly_features(trace, labels, machine_size=16, tz="UTC")
    assert list(f["jobs"]) == [3, 3]
    assert f.loc[0, "procs_median"] == 1 and f.loc[1, "procs_median"] == 8
    assert f.loc[0, "ia_median"] == 100 and f.loc[1, "ia_interval"] == pytest.approx(100)  # IQR of [50, 250]
    assert f.loc[0, "users_per_job"] == pytest.approx(2 / 3)
    assert f.loc[0, "load"] == pytest.approx((10 + 20 + 60) / (16 * 31 * 86400))
    assert math.isnan(f.loc[0, "cpu_median"])          # no CPU times, like KTH in the paper
    f = pd.concat([f, f.assign(month=["2000-03", "2000-04"], procs_median=[2.0, 4.0])])
    monthly = _monthly([
        ("2000-01", "flex", 30, 0), ("2000-01", "maui", 10, 0),
        ("2000-02", "flex", 5, 0), ("2000-02", "maui", 20, 0),
        ("2000-03", "flex", 20, 0), ("2000-03", "maui", 10, 0),
        ("2000-04", "flex", 10, 0), ("2000-04", "maui", 15, 0),
    ])
    c = features.feature_correlations(f, monthly)
    assert c["absolute"]["procs_median"] < 0 and c["relative"]["procs_median"] < 0
    assert math.isnan(c["absolute"]["cpu_median"])


def test_gains():
    assert tabulate.gain(100.0, 90.0) == pytest.approx(10.0)
    base = {"wait": 100.0, "monthly_wait_std": 50.0}
    g = tabulate.gains_vs({"wait": 110.0, "monthly_wait_std": 25.0}, base)
    assert g == {"performance": pytest.approx(-10.0), "stability": pytest.approx(50.0)}


def test_scorecard_covers_every_published_value(repo):
    cfg = yaml.safe_load((repo / "config/papers/talby2005.yaml").read_text())
    pub = cfg["published"]
    rows = card.scorecard_rows(pub, {}, "clean", {}, cfg["tolerance"], cfg["cancelled"],
                             list(cfg["logs"]))
    items = pd.DataFrame(rows)
    counts = items["item"].value_counts()
    assert counts["Table 1"] == 9
    # values + best-scheduler claims + 'comparable' and 'typically behind'
    assert counts["Table 2"] == 24 + 6 + 2
    assert counts["Table 3"] == 24 + 2          # values + Maui ~70% and Maui-vs-Flex ~75% claims
    assert counts["Table 4"] == 20 + 1
    # values + 'similar' and 'smaller' stability claims
    assert counts["Table 5"] == 24 + 2 and counts["Table 8"] == 36 + 2
    assert counts["Table 6"] == 20
    assert counts["Table 7"] == 66 + 6          # cells + the six same-sign exceptions (l. 234)
    # nothing computed: every row fails, except the raw-log rows, which need the download
    assert set(items["verdict"]) == {"fails", "not_run"}
    raw = items[(items["item"] == "Table 4") & items["condition"].str.endswith("raw")]
    assert (raw["verdict"] == "not_run").all()
    assert raw["note"].str.startswith("needs download").all()
    assert (items[items["verdict"] == "not_run"].index == raw.index).all()


def test_figure3_claim():
    ad = pd.DataFrame({
        "log": ["KTH"] * 4, "kind": ["pbas"] * 4, "metric": ["util"] * 4,
        "candidates": ["flex+maui", "flex+maui+easy+conservative"] * 2,
        "time_frame_s": [60, 60, 600, 600], "wait": [100.0, 150.0, 100.0, 90.0]})
    (row,) = card._figure3_rows(ad)
    assert row["verdict"] == "fails"          # worse in 1 of 2 frames: no majority
    ad.loc[3, "wait"] = 120.0
    (row,) = card._figure3_rows(ad)
    assert row["verdict"] == "holds" and row["reproduced"] == pytest.approx((1.5 + 1.2) / 2)


def test_table4_rows_compare_kth_clean_with_paper_raw(repo):
    pub = yaml.safe_load((repo / "config/papers/talby2005.yaml").read_text())["published"]
    t4 = pd.DataFrame([{"log": "KTH", "version": "clean", "flex_avg": 56.0, "flex_max": 100.0,
                        "maui_avg": 29.0, "maui_max": 53.0}])
    rows = pd.DataFrame(card._table4_rows(pub, t4, {}, lambda _: 0.15))
    kth = rows[rows["condition"] == "KTH clean (paper: raw)"]
    assert len(kth) == 4
    assert kth.set_index("quantity").loc["monthly wait gap flex_avg", "verdict"] == "match"
    assert kth.set_index("quantity").loc["monthly wait gap flex_max", "verdict"] == "differs"
