"""Tang et al. 2013 config: the published tables it carries, the logs run, the sweep points."""

from __future__ import annotations

import pytest
from tang2013_cases import CFG, RAW

from schedlab.errors import ConfigError
from schedlab.papers.tang2013.config import (
    SUBSTITUTE,
    log_specs,
    parse_point,
    resolve_settings,
    sweep_points,
)


def test_config_carries_published_tables():
    assert CFG.published["Table 3"]["BF=1/W=1"] == [77.4, 14, 5.88]
    assert CFG.published["Table 3"]["2D Adapt."] == [53.8, 33, 4.15]
    assert CFG.published["Table 2"]["BF=0.5/W=4"] == [70.4, 49, 13.9]
    assert len(CFG.published["Table 4"]["SP2"]) == 5
    assert set(CFG.configurations) == set(CFG.published["Table 2"])


def test_log_specs_label_the_substitute():
    specs = log_specs(CFG, False)
    assert [s.label for s in specs] == ["SP2", SUBSTITUTE]
    sub = specs[1]
    assert sub.substitute and sub.trace == "LANL-CM5-1994-4.1-cln"
    assert (sub.backfill, sub.allocation) == ("conservative", "contiguous")
    assert "SUBSTITUTE" in sub.describe()
    bgp = log_specs(CFG, True)[1]
    assert (bgp.label, bgp.proc_unit, bgp.machine_size) == ("BGP", 4, 40960)
    quick = resolve_settings(RAW, "quick")
    assert log_specs(quick, False)[0].jobs == RAW["scales"]["quick"]["logs"]["SP2"]["jobs"]


def test_sweep_points_and_parse():
    pts = sweep_points(resolve_settings(RAW, "paper"))
    assert len(pts) == 25 + 3 and pts[0] == "bf1_w1" and pts[-1] == "adapt-2d"
    default = sweep_points(CFG)
    assert set(default) < set(pts) and set(CFG.configurations.values()) <= set(default)
    quick = sweep_points(resolve_settings(RAW, "quick"))
    assert set(CFG.configurations.values()) <= set(quick)
    assert parse_point("bf0.75_w3") == (0.75, 3)
    assert parse_point("adapt-w") == (None, None)
    with pytest.raises(ConfigError, match="sweep point"):
        parse_point("bfx_w1")
