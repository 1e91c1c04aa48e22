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


def _twin_settings(**attribution) -> C.Settings:
    """Paper-like sizes in small: the attribution's workloads as large as the single-target ones."""
    path = Path(__file__).resolve().parents[2] / "config/papers/cirne2001_sa.yaml"
    raw = yaml.safe_load(path.read_text())
    s = C.resolve_settings(raw, overrides={"single_target": {
        "experiments": 6, "targets_per_workload": 3, "jobs_per_workload": 80}})
    readings = {"as_configured": {}, "half": {"rigid": {"arrival_factor": 0.5}},
                "pe": {"sim": {"tie_rule": "per_event"}},
                "one": {"compression": {"compress_passes": "one"}},
                "pinned": {"sim": {"tie_rule": C.TIE_RULE}}}
    return dataclasses.replace(s, attribution={
        "readings": readings, "workloads": 3, "targets_per_workload": 3, "jobs_per_workload": 80,
        **attribution})


def test_a_reading_with_the_single_target_settings_is_its_twin():
    from schedlab.papers.cirne2001.attribution import single_target_twin
    from schedlab.papers.cirne2001.points import points

    s = _twin_settings()
    assert s.n_workloads == 2
    twins = {(r, w) for r in s.attribution["readings"] for w in range(3)
             if single_target_twin(s, r, w)}
    # no model override, the same engine options (a pin equal to the single target's own counts
    # as the same), compression, size and targets; workload 2 has no single-target twin
    assert twins == {(r, w) for r in ("as_configured", "pinned") for w in (0, 1)}
    for other in ({"jobs_per_workload": 160}, {"targets_per_workload": 2}):
        assert not single_target_twin(_twin_settings(**other), "as_configured", 0)
    needs = {p.id: p.needs for p in points(s) if p.id.startswith("attribution/")}
    assert needs["attribution/as_configured/w1"] == ("single/w1",)
    assert needs["attribution/as_configured/w2"] == needs["attribution/half/w0"] == ()


def test_a_twin_reads_the_single_target_frames_and_they_are_its_own(tmp_path, monkeypatch):
    """The attribution point that reads its twin runs nothing and writes the frame it would have
    computed, frame-exact."""
    import importlib

    import pandas as pd

    from schedlab.io import read_parquet, write_parquet
    from schedlab.papers.runner import run_point

    P = importlib.import_module("schedlab.papers.cirne2001.points")  # the package binds `points`

    s = _twin_settings()
    pts = {p.id: p for p in P.points(s)}
    single = tmp_path / "single" / "done.json"
    run_point(C, "cirne2001", s, pts["single/w1"], {}, {}, single)
    own, _ = C.run_attribution_workload(s, "as_configured", 1)

    def no_run(*args, **kw):
        raise AssertionError("a twin ran its workload again")

    monkeypatch.setattr(P, "run_attribution_workload", no_run)
    twin = tmp_path / "twin" / "done.json"
    run_point(C, "cirne2001", s, pts["attribution/as_configured/w1"], {}, {"single/w1": single},
              twin)
    got, _ = read_parquet(twin.parent / "experiments.parquet")
    write_parquet(tmp_path / "own.parquet", own, {})
    want, _ = read_parquet(tmp_path / "own.parquet")
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert len(got) == 3 and set(got["reading"]) == {"as_configured"}
    with pytest.raises(AssertionError, match="ran its workload again"):  # no twin: it runs
        run_point(C, "cirne2001", s, pts["attribution/half/w1"], {}, {}, tmp_path / "h" / "d.json")
