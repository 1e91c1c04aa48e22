"""Schroeder & Harchol-Balter (2004) settings: the paper config at each scale, bad options, and the
pipeline's choice of scale (schedlab.papers.schroeder2004.config and ``settings``)."""

import copy
from pathlib import Path

import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.papers import Env
from schedlab.papers import schroeder2004 as s04
from schedlab.papers.schroeder2004.config import resolve_config

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def raw():
    return yaml.safe_load((REPO / "config/papers/schroeder2004.yaml").read_text())


@pytest.mark.parametrize("scale", ["quick", "default", "paper", "study"])
def test_every_scale_resolves(raw, scale):
    cfg = resolve_config(raw, scale)
    assert cfg.trace == "CTC-SP2-1996-3.1-cln"
    assert cfg.subset == {"procs": [8], "max_run_time": 43200}  # Table 1: 12-hour limit
    assert cfg.service_orders[0] == "shuffled"  # i.i.d. service times (module docstring)
    assert cfg.scale == scale and 2 in cfg.hosts
    assert cfg.loads == tuple(sorted(cfg.loads))


@pytest.mark.parametrize(("key", "value", "match"), [
    ("loads", [0.5, 1.2], "loads"), ("service_orders", ["reversed"], "service_orders"),
    ("slowdown", "bogus", "slowdown"), ("hosts", [4], "include 2"), ("many_hosts", [3], "even"),
    ("subset", {"cores": 8}, "subset"), ("replications", "many", "replications"),
])
def test_bad_options_name_the_option(raw, key, value, match):
    with pytest.raises(ConfigError, match=match):
        resolve_config(raw, "default", {key: value}, "cfg.yaml")


def test_unknown_scale_and_missing_option(raw):
    with pytest.raises(ConfigError, match="no scale 'huge'"):
        resolve_config(raw, "huge")
    broken = copy.deepcopy(raw)
    del broken["trace"]
    with pytest.raises(ConfigError, match="'trace'"):
        resolve_config(broken, "default")


def test_command_line_strings_are_coerced(raw):
    cfg = resolve_config(raw, "quick", {"loads": ["0.5", "0.3"], "replications": "3",
                                            "hosts": ["2"]})
    assert cfg.loads == (0.3, 0.5) and cfg.replications == 3 and cfg.hosts == (2,)
    with pytest.raises(ConfigError, match="list of numbers"):
        resolve_config(raw, "quick", {"hosts": ["two"]})




def env(known=("CTC-SP2-1996-3.1-cln",)):
    """A pipeline environment whose registry knows ``known`` (hash 'sha-<name>')."""

    def machine_size(name):
        if name not in known:
            raise ConfigError(f"unknown trace {name!r}")
        return 512

    return Env(trace_local=lambda name: True, machine_size=machine_size,
               expected_sha256=lambda name: f"sha-{name}")


@pytest.mark.parametrize(("config", "scale"), [
    ({}, "default"), ({"quick": True}, "quick"), ({"full": True}, "paper"),
    ({"quick": True, "full": True}, "quick"),
    ({"papers": {"schroeder2004": {"scale": "paper"}}}, "paper"),
    ({"papers": {"schroeder2004": {"quick": True}}}, "quick"),
    ({"full": True, "papers": {"schroeder2004": {"scale": "quick"}}}, "quick"),  # the paper's own
])
def test_pipeline_switches_choose_the_scale(monkeypatch, raw, config, scale):
    monkeypatch.chdir(REPO)
    s = s04.settings(config, env())
    assert s.scale == scale
    assert s.replications == resolve_config(raw, scale).replications
    assert s.published == raw["published"]
    assert s.trace_sha256 == {"CTC-SP2-1996-3.1-cln": "sha-CTC-SP2-1996-3.1-cln"}


def test_pipeline_overrides_reach_the_settings(monkeypatch):
    monkeypatch.chdir(REPO)
    s = s04.settings({"papers": {"schroeder2004": {"loads": [0.7, 0.2], "hosts": [2]}}}, env())
    assert s.loads == (0.2, 0.7) and s.hosts == (2,) and s.scale == "default"
    with pytest.raises(ConfigError, match="'huge' is not one of quick, default, paper, study"):
        s04.settings({"papers": {"schroeder2004": {"scale": "huge"}}}, env())


def test_unknown_log_is_a_clear_error(monkeypatch):
    from schedlab.pipeline.config import papers_to_run
    from schedlab.traces.registry import load_registry

    monkeypatch.chdir(REPO)
    s = s04.settings({"papers": {"schroeder2004": {"trace": "NOPE"}}}, env())
    assert s04.logs(s)[0] == "NOPE"
    with pytest.raises(ConfigError, match=r"paper schroeder2004: log.s. NOPE not in the registry"):
        papers_to_run({"schroeder2004": s04.logs(s)}, load_registry("config/traces.yaml"),
                      strict=True)
