"""Shared inputs of the Perković & Keleher 2000 tests: the paper config and a small SWF table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from schedlab.traces.swf import SWF_COLUMNS

CFG = yaml.safe_load(Path("config/papers/perkovic2000.yaml").read_text())


def settings_at(scale="default", **overrides):
    """The config file's settings at ``scale`` with ``overrides`` deep-merged."""
    from schedlab.papers.perkovic2000.config import resolve_settings

    return resolve_settings(CFG, scale, overrides)


def trace_table(n=60, seed=3):
    """A small synthetic SWF table (18 columns) with estimates and a few zero runtimes."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({c: -np.ones(n, dtype=np.int64) for c in SWF_COLUMNS})
    df["job_id"] = np.arange(1, n + 1)
    df["submit_time"] = np.sort(rng.integers(0, 4000, n))
    df["run_time"] = rng.integers(0, 900, n)
    df["req_time"] = df["run_time"] * rng.integers(1, 6, n) + 60
    df["req_procs"] = rng.integers(1, 9, n)
    df["alloc_procs"] = df["req_procs"]
    df["status"] = 1
    return df
