"""Tang et al. 2013 scorecard rows on the paper's own numbers."""

from __future__ import annotations

import pandas as pd
import pytest
from tang2013_cases import CFG

from schedlab.papers.tang2013.base_readings import EASY_READING
from schedlab.papers.tang2013.config import log_specs, parse_point
from schedlab.papers.tang2013.gains import all_gains, published_table
from schedlab.papers.tang2013.scoring import scorecard_rows
from schedlab.report.scorecard import scorecard_frame


def _inputs(table: str, label: str):
    """The paper's own Table 2 or 3 as our summary, tables and gains."""
    pub = published_table(CFG, table, label)
    summary = pub.rename(columns={"avg_wait_min": "mean_wait_min"}).copy()
    parsed = summary["point"].map(parse_point)
    summary["bf"] = [b for b, _ in parsed]
    summary["window"] = [w for _, w in parsed]
    return pub, summary, all_gains(pub, CFG.weightings)


def _bgp_rows(pub, summary, gains):
    spec = log_specs(CFG, bgp_available=True)[1]
    table4 = pd.DataFrame({"log": "BGP", "window": [1, 2], "placements_per_iteration": [1.0, 2.0]})
    return pd.DataFrame(scorecard_rows(CFG, [spec], summary, {"BGP": pub}, gains, table4, {},
                                       {}, None))


def test_unfair_ratios_are_table_2s_not_the_rounded_words():
    """§4.4.4 "four times more unfair jobs" is Table 2's 49/10 = 4.9 (and "only doubling" its
    19/10 = 1.9): the paper's own table matches both; a run with exactly 4x (the words read as
    the number) is 18% off Table 2's ratio, close, not a match."""
    pub, summary, gains = _inputs("Table 2", "BGP")
    rows = _bgp_rows(pub, summary, gains).set_index("quantity")
    four = rows.loc['BF=0.5/W=4 unfair jobs / base ("four times more")']
    assert (four["published"], four["verdict"], four["phrase"]) == (4.9, "match", "times")
    assert rows.loc['2D adaptive unfair jobs / base ("only doubling")', "published"] == 1.9
    summary.loc[summary["configuration"] == "BF=0.5/W=4", "unfair_jobs"] = 40
    pub.loc[pub["configuration"] == "BF=0.5/W=4", "unfair_jobs"] = 40
    rows = _bgp_rows(pub, summary, gains).set_index("quantity")
    assert rows.loc['BF=0.5/W=4 unfair jobs / base ("four times more")', "verdict"] == "close"


def test_scorecard_on_the_papers_own_numbers():
    """Fed Table 3 itself, every Table 3 value matches and the Fig. 12 claims hold under the
    chosen gain reading; the §4.4.1 row compares our month average with the stated 400 min."""
    spec = log_specs(CFG, False)[0]
    pub = published_table(CFG, "Table 3", "SP2")
    summary = pub.rename(columns={"avg_wait_min": "mean_wait_min"}).copy()
    parsed = summary["point"].map(parse_point)
    summary["bf"] = [b for b, _ in parsed]
    summary["window"] = [w for _, w in parsed]
    gains = all_gains(pub, CFG.weightings)
    table4 = pd.DataFrame({"log": "SP2", "window": [1, 2, 3, 4, 5],
                           "placements_per_iteration": [3.0, 4.0, 6.0, 9.0, 20.0]})
    maxqd = {"bf1_w1": 800.0, "bf0.5_w1": 300.0, "adapt-bf": 350.0}
    base = pub.set_index("configuration").loc["BF=1/W=1"]
    easy = pd.DataFrame({"reading": [EASY_READING], "BF=1/W=1 wait": [base["avg_wait_min"]],
                         "BF=1/W=1 LoC": [base["loc_pct"]]})
    sc = scorecard_frame(scorecard_rows(CFG, [spec], summary, {"SP2": pub}, gains, table4,
                                      {"SP2": maxqd}, {"SP2": 900.0}, easy))
    t3 = sc[(sc["item"] == "Table 3") & sc["check"].eq("")]
    assert len(t3) == 21 and (t3["verdict"] == "match").all()
    assert (sc["tolerance"].dropna() == 0.15).all()
    th = sc[sc["item"] == "§4.4.1"].iloc[0]
    assert (th["published"], th["reproduced"], th["verdict"]) == (400.0, 900.0, "differs")
    best = sc[sc["check"] == "best_by_average_gain"].iloc[0]
    assert best["verdict"] == "holds"
    up15 = sc[sc["quantity"].str.contains("up to 15%")].iloc[0]
    # the paper's own tables give 12.5% against its "up to 15%": -17%, close, not match
    assert up15["reproduced"] == pytest.approx(0.125, abs=0.002) and up15["verdict"] == "close"
    assert 3 <= int(sc["headline"].sum()) <= 5
    fcfs = sc[sc["check"] == "fcfs_plus_backfilling"]
    assert fcfs["verdict"].tolist() == ["holds"]
    # the engine's easy 1% slower, or its row missing: fails
    for other in (easy.assign(**{"BF=1/W=1 wait": 1.01 * base["avg_wait_min"]}),
                  easy.assign(reading="something else")):
        rows = scorecard_rows(CFG, [spec], summary, {"SP2": pub}, gains, table4,
                              {"SP2": maxqd}, {"SP2": 900.0}, other)
        assert [r["verdict"] for r in rows if r["check"] == "fcfs_plus_backfilling"] == ["fails"]
    assert set(sc["verdict"]) <= {"match", "close", "differs", "holds", "fails"}


def test_fig12_gain_rows_reach_at_most_close():
    """Fig. 12's "up to 15%" cannot be recovered from the paper's own Table 3 (12.5% / -25%
    under the two formulas): our best adaptive gain at exactly 15% is capped at close, with the
    reason and a data cause; at 30% it differs as before."""
    spec = log_specs(CFG, bgp_available=False)[0]
    pub, summary, gains = _inputs("Table 3", "SP2")
    gp = gains.assign(source="published Table 3")
    table4 = pd.DataFrame({"log": "SP2", "window": [1, 2], "placements_per_iteration": [1.0, 2.0]})

    def row(gain):
        g = gains.copy()
        g.loc[(g["configuration"] == "W Adapt.") & (g["weighting"] == "average"), "gain"] = gain
        sc = scorecard_frame(scorecard_rows(CFG, [spec], summary, {"SP2": pub}, g, table4, {},
                                            {}, None, gp))
        return sc[sc["quantity"].str.contains("up to 15%")].iloc[0]

    r = row(0.15)
    assert r["relative_error"] == pytest.approx(0.0) and r["verdict"] == "close"
    assert r["check"] == "at most close" and "0.125" in r["note"] and r["explained"] == "data"
    assert (r["phrase"], r["threshold_source"]) == ("up_to", "ours")
    assert row(0.30)["verdict"] == "differs"


def test_fig12a_adaptive_schemes_only_need_to_beat_the_static_ones():
    """BG/P: on the paper's own Table 2 (score_points) BF Adapt. and 2D Adapt. beat every static
    scheme: holds, whatever W Adapt. does; a static scheme above BF Adapt. fails it."""
    pub, summary, gains = _inputs("Table 2", "BGP")
    avg = (gains["weighting"] == "average") & (gains["reading"] == "score_points")
    g = gains.copy()
    g.loc[avg & (g["configuration"] == "W Adapt."), "gain"] = 0.9
    quantity = "BF Adapt. and 2D Adapt. beat every non-adaptive scheme by average gain"
    r = _bgp_rows(pub, summary, g).set_index("quantity").loc[quantity]
    assert (r["verdict"], r["phrase"], r["threshold_source"]) == ("holds", "in_all", "paper")
    g.loc[avg & (g["configuration"] == "BF=0.5/W=4"), "gain"] = 0.8
    assert _bgp_rows(pub, summary, g).set_index("quantity").loc[quantity, "verdict"] == "fails"


def test_threshold_basis_is_the_whole_months_average():
    """§4.4.1 "set based on the whole month's average": a run whose queue is 400 min deep in
    its first 30 days and 1400 min after averages 900 min over the whole run (differs from the
    paper's 400) but 400 over its month (matches)."""
    from schedlab.papers.tang2013.runs import month_average_threshold_min
    hours = [h / 2 for h in range(2 * 60 * 24)]   # 60 days of 30-min samples
    series = pd.DataFrame({"hours": hours,
                           "queue_depth_min": [400.0 if h < 720 else 1400.0 for h in hours]})
    assert month_average_threshold_min(series, CFG) == 400.0
    assert round(series["queue_depth_min"].mean() / 100) * 100 == 900
    series.loc[series["hours"] < 24, "queue_depth_min"] = 40000.0
    assert month_average_threshold_min(series, CFG) > 1000.0


def test_fig4_is_checked_with_the_sp2_wording():
    """Fig. 4 (SP2): "The average wait times and slowdown decrease when the queuing policy gets
    closer to SJF" (a trend), not Fig. 3's BG/P "drops ... from 1 to 0.5 then stays": Table 3's
    BF = 1 -> 0.5 (77.4 -> 55.8 min) holds; wait rising toward SJF fails."""
    spec = log_specs(CFG, bgp_available=False)[0]
    pub, summary, gains = _inputs("Table 3", "SP2")
    summary["mean_bsld"] = summary["mean_wait_min"] / 10
    table4 = pd.DataFrame({"log": "SP2", "window": [1, 2], "placements_per_iteration": [1.0, 2.0]})

    def rows(summ):
        sc = pd.DataFrame(scorecard_rows(CFG, [spec], summ, {"SP2": pub}, gains, table4, {}, {},
                                         None))
        return sc[sc["item"] == "Fig. 4"].set_index("quantity")

    r = rows(summary)
    assert "wait drops significantly from BF 1 to 0.5, then stays at the same level" not in r.index
    assert r.loc["average wait decreases as BF approaches SJF", "verdict"] == "holds"
    assert r.loc["average slowdown decreases as BF approaches SJF", "phrase"] == "increases_as"
    flipped = summary.copy()
    flipped.loc[flipped["point"] == "bf0.5_w1", "mean_wait_min"] = 90.0
    assert rows(flipped).loc["average wait decreases as BF approaches SJF", "verdict"] == "fails"


def test_stated_window_and_loc_rows_on_the_papers_tables():
    """The §4.3-§4.4.4 sentences added as rows hold on the paper's own tables: SP2 (Table 3)
    W = 4 best and W = 1 worst, a slight help, every enhanced and adaptive LoC below the base;
    BG/P (Table 2) LoC lower 'with one or two exceptions' (BF=0.5/W=1's 15.8 > 15.7)."""
    spec = log_specs(CFG, bgp_available=False)[0]
    pub, summary, gains = _inputs("Table 3", "SP2")
    table4 = pd.DataFrame({"log": "SP2", "window": [1, 2], "placements_per_iteration": [1.0, 2.0]})
    sc = pd.DataFrame(scorecard_rows(CFG, [spec], summary, {"SP2": pub}, gains, table4, {}, {},
                                     None)).set_index("quantity")["verdict"]
    for q in ("W=4 has the best average wait and W=1 the worst",
              "a larger window slightly lowers the average wait",
              "enhanced configurations mostly lower loss of capacity",
              "every adaptive scheme lowers loss of capacity"):
        assert sc[q] == "holds", q
    rows = _bgp_rows(*_inputs("Table 2", "BGP")).set_index("quantity")
    assert rows.loc["enhanced configurations mostly lower loss of capacity", "verdict"] == "holds"
    assert rows.loc["larger W raises unfair jobs (a general trend)", "verdict"] == "holds"
