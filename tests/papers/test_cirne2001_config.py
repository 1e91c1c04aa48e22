"""Cirne 2001 settings (schedlab.papers.cirne2001.config): the SA file's quick/full sections, bad
values, and the contract's settings from the pipeline config."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.papers import cirne2001 as C


def test_settings_quick_and_bad_values():
    cfg = {"seed": 1, "machine_procs": 500,
           "single_target": {"experiments": 10, "targets_per_workload": 4,
                             "jobs_per_workload": 100},
           "quick": {"single_target": {"experiments": 3}}}
    assert C.resolve_settings(cfg)["n_workloads"] == 3
    assert C.resolve_settings(cfg, quick=True)["n_workloads"] == 1
    with pytest.raises(ConfigError, match="experiments"):
        C.resolve_settings({**cfg, "single_target": {**cfg["single_target"], "experiments": 0}})
    with pytest.raises(ConfigError, match="scale"):
        C.resolve_settings(cfg, scale="huge")
    cfg["full"] = {"single_target": {"experiments": 20}}
    assert C.resolve_settings(cfg, scale="full")["n_workloads"] == 5
    assert C.resolve_settings(cfg, scale="paper")["n_workloads"] == 5  # the thesis' scale is full
    assert C.resolve_settings(cfg, quick=True, scale="full")["n_workloads"] == 1  # quick wins
    with pytest.raises(ConfigError, match="lacks columns"):
        C.workload_from_tables(pd.DataFrame({"job_id": [1]}), pd.DataFrame(), 10)

