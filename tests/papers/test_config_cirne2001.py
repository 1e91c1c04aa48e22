"""Cirne 2001 settings (schedlab.papers.cirne2001.config): the SA file's scales, bad
values, and the contract's settings from the pipeline config."""

from __future__ import annotations

import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.papers import cirne2001 as C


def test_settings_scales_and_bad_values():
    cfg = {"seed": 1, "machine_procs": 500,
           "single_target": {"experiments": 10, "targets_per_workload": 4,
                             "jobs_per_workload": 100},
           "scales": {"quick": {"single_target": {"experiments": 3}}, "default": {},
                      "paper": {"single_target": {"experiments": 20}}}}
    assert C.resolve_settings(cfg).n_workloads == 3
    assert C.resolve_settings(cfg, "quick").n_workloads == 1
    with pytest.raises(ConfigError, match="experiments"):
        C.resolve_settings({**cfg, "single_target": {**cfg["single_target"], "experiments": 0}})
    with pytest.raises(ConfigError, match="no scale 'huge'"):
        C.resolve_settings(cfg, "huge")
    assert C.resolve_settings(cfg, "paper").n_workloads == 5  # the thesis' scale
    # a partial override keeps the rest of its section (deep merge)
    s = C.resolve_settings(cfg, overrides={"single_target": {"experiments": 8}})
    assert s.single_target == {"experiments": 8, "targets_per_workload": 4,
                               "jobs_per_workload": 100} and s.n_workloads == 2
    with pytest.raises(ConfigError, match="lacks columns"):
        C.workload_from_tables(pd.DataFrame({"job_id": [1]}), pd.DataFrame(), 10)

