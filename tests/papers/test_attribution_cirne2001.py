"""Cirne 2001 attribution of unstated choices (schedlab.papers.cirne2001.attribution): the readings
share seeds and differ where they should."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.papers import cirne2001 as C
from schedlab.papers.cirne2001.attribution import attribution_table


def test_attribution_runs_share_seeds_and_differ_by_reading():
    path = Path(__file__).resolve().parents[2] / "config/papers/cirne2001_sa.yaml"
    s = C.resolve_settings(yaml.safe_load(path.read_text()))
    readings = {"a": {}, "b": {"rigid": {"arrival_factor": 0.5}}}
    s = dataclasses.replace(s, attribution={"readings": readings, "workloads": 1,
                                            "targets_per_workload": 3, "jobs_per_workload": 80})
    a, ma = C.run_attribution_workload(s, "a", 0)
    b, meta = C.run_attribution_workload(s, "b", 0)
    assert meta["overrides"] == {"rigid": {"arrival_factor": 0.5}}
    assert len(a) == len(b) == 3 and set(a["reading"]) == {"a"}
    # same workload seed, same polynomial, half the arrival rate
    wa, wb = ma["workload_info"], meta["workload_info"]
    assert wa["arrival_polynomial"] == wb["arrival_polynomial"]
    assert wb["arrival_scale"] == pytest.approx(wa["arrival_scale"] / 2)
    assert list(a["job_id"]) == list(b["job_id"])
    t = attribution_table({"a": a, "b": b}, s.published).set_index("reading")
    assert list(t.index) == ["a", "b", "thesis"]
    assert t.loc["thesis", "sa_over_user"] == pytest.approx(1429 / 2878)
    # Table 14's shares per reading, beside the thesis' (best is never worse: not printed)
    for req in ("best", "sa"):
        cols = [f"t14_{req}_{o}_pct" for o in ("better", "same", "worse")]
        assert t.loc[["a", "b"], cols].sum(axis=1).tolist() == pytest.approx([100.0, 100.0])
    assert t.loc["thesis", "t14_sa_worse_pct"] == 8.8
    assert math.isnan(t.loc["thesis", "t14_best_worse_pct"])
    with pytest.raises(ConfigError, match="no reading"):
        C.run_attribution_workload(s, "zzz", 0)
    # a reading may set the workload size: the same first jobs, more of them
    readings["big"] = {"jobs_per_workload": 160}
    big, mbig = C.run_attribution_workload(s, "big", 0)
    assert (ma["jobs"], mbig["jobs"], len(big)) == (80, 160, 3)
    assert mbig["overrides"] == {"jobs_per_workload": 160}
    readings["bad"] = {"jobs_per_workload": 0}
    with pytest.raises(ConfigError, match=r"bad\.jobs_per_workload"):
        C.run_attribution_workload(s, "bad", 0)
    # a reading may set the experiments' engine options (their pinned same-time order); the
    # workload is the same
    readings["pe"] = {"sim": {"tie_rule": "per_event"}}
    pe, mpe = C.run_attribution_workload(s, "pe", 0)
    assert (ma["sim"], mpe["sim"]) == ({"tie_rule": C.TIE_RULE}, {"tie_rule": "per_event"})
    assert list(pe["job_id"]) == list(a["job_id"]) and (pe["nu"] == a["nu"]).all()
    readings["bad_rule"] = {"sim": {"tie_rule": "whenever"}}
    with pytest.raises(ConfigError, match=r"bad_rule\.sim: unknown tie_rule 'whenever'"):
        C.run_attribution_workload(s, "bad_rule", 0)

