"""Settings of every paper (schedlab.papers.settings): overrides merge deeply, the switches pick
one scale, and every setting a paper's schema accepts takes effect or is refused."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.papers import PAPERS, Env, PaperSettings, load
from schedlab.papers.settings import SCALES, deep_merge, resolve, scale_of, switches
from schedlab.pipeline.config import check_paper_overrides

REPO = Path(__file__).resolve().parents[2]
ENV = Env(trace_local=lambda n: False, machine_size=lambda n: 128, expected_sha256=lambda n: "h")


def test_deep_merge_keeps_the_rest_of_a_section():
    base = {"a": {"b": 1, "c": {"d": 2, "e": 3}}, "f": [1, 2]}
    assert deep_merge(base, {"a": {"c": {"d": 9}}, "f": [3]}) == {
        "a": {"b": 1, "c": {"d": 9, "e": 3}}, "f": [3]}
    assert base["a"]["c"]["d"] == 2  # not modified
    assert deep_merge(base, {"a": 5})["a"] == 5  # a non-mapping replaces


def test_resolve_merges_file_scale_and_overrides_in_order():
    raw = {"n": 1, "sec": {"x": 1, "y": 1}, "scales": {"default": {"sec": {"x": 2}},
                                                        "quick": {"n": 3}}}
    assert resolve(raw, "default", {"sec": {"y": 5}, "quick": True}) == {
        "n": 1, "sec": {"x": 2, "y": 5}}
    assert resolve(raw, "quick")["n"] == 3
    assert resolve(raw, "default", {"scales": {"default": {"n": 7}}})["n"] == 7
    with pytest.raises(ConfigError, match="no scale 'paper'"):
        resolve(raw, "paper")


@pytest.mark.parametrize(("overrides", "quick", "full", "scale"), [
    ({}, False, False, "default"), ({}, True, False, "quick"), ({}, False, True, "paper"),
    ({}, True, True, "quick"), ({"scale": "study"}, True, True, "study"),
])
def test_the_switches_pick_one_scale(overrides, quick, full, scale):
    assert scale_of(overrides, quick, full) == scale


def test_an_unknown_scale_is_refused():
    with pytest.raises(ConfigError, match="'huge' is not one of quick, default, paper, study"):
        assert switches({"papers": {"p": {"scale": "huge"}}}, "p").scale


def test_settings_refuse_unknown_and_missing_fields():
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class S(PaperSettings):
        n: int
        m: tuple[int, ...] = ()

    assert S.from_dict({"n": 1, "m": [1, 2]}).m == (1, 2)
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) z"):
        S.from_dict({"n": 1, "z": 2})
    with pytest.raises(ConfigError, match=r"missing setting\(s\) n"):
        S.from_dict({"m": []})


def _files(paper: str) -> list[Path]:
    return sorted((REPO / "config" / "papers").glob(f"{paper}*.yaml"))


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_file_has_every_scale(paper):
    scaled = [f for f in _files(paper) if "scales" in yaml.safe_load(f.read_text())]
    assert len(scaled) == 1
    assert set(yaml.safe_load(scaled[0].read_text())["scales"]) == set(SCALES)


def leaves(x: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(key path, value) of every leaf of a YAML document (a list is a leaf)."""
    if isinstance(x, Mapping) and x:
        for k, v in x.items():
            yield from leaves(v, (*path, k))
    else:
        yield path, x


def changed(value: Any) -> list[Any]:
    """Other values of the same kind, most likely valid first."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1 if value > 1 else value + 2]
    if isinstance(value, float):
        return [value / 2, min(value * 1.5, 0.99) if value < 1 else value * 1.5]
    if isinstance(value, str):
        return [value + "x"]
    if isinstance(value, list):
        if not value:
            return [[1], ["x"], [1.0]]
        return [value[:-1], [*value[1:], value[0]], [(changed(v) or [v])[0] for v in value]]
    if value is None:
        return [1, "x", [1], 0.5]
    return []


def nested(path: tuple, value: Any) -> dict[str, Any]:
    out: Any = value
    for k in reversed(path):
        out = {k: out}
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_every_accepted_setting_takes_effect_or_is_refused(paper, monkeypatch):
    """Each leaf of the paper's files set to a changed value the schema accepts: the resolved
    settings (the rules' param) change, or settings() refuses it with one line."""
    monkeypatch.chdir(REPO)
    module = load(paper)
    base = {s: module.settings({"papers": {paper: {"scale": s}}}, ENV).to_dict() for s in SCALES}
    tried = took = refused = 0
    ignored = []
    for f in _files(paper):
        for path, value in leaves(yaml.safe_load(f.read_text())):
            if path and path[0] == "scales" and len(path) < 3:
                continue  # an empty scale block: nothing to set
            scale = path[1] if path and path[0] == "scales" else "default"
            for new in [c for c in changed(value) if c != value]:
                over = nested(path, copy.deepcopy(new)) | {"scale": scale}
                try:
                    check_paper_overrides({paper: over}, REPO / "config" / "papers")
                except ConfigError:
                    continue  # not a valid value: try another
                tried += 1
                try:
                    s = module.settings({"papers": {paper: over}}, ENV).to_dict()
                except ConfigError:
                    refused += 1
                    break
                if s == base[scale]:
                    ignored.append(".".join(map(str, path)))
                else:
                    took += 1
                break
    assert ignored == []
    assert tried > 20 and took > refused
