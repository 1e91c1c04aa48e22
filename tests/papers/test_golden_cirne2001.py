"""Golden frames (issue 18): Cirne 2001's single-target experiments, whole-run schedules, a §6.2
sweep point and §5.4 NAS experiments are identical to the frames saved before the experiments
moved onto the engine (tests/papers/cirne2001_cases.py; fixtures in tests/fixtures/golden/cirne/)."""

from __future__ import annotations

import pandas as pd
import pytest
from cirne2001_cases import GOLDEN, cases


@pytest.fixture(scope="module")
def frames() -> dict[str, pd.DataFrame]:
    return cases()


def test_every_golden_case_is_run(frames):
    assert sorted(frames) == sorted(p.stem for p in GOLDEN.glob("*.parquet"))


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.parquet")))
def test_frame_identical_to_the_golden_one(frames, name):
    want = pd.read_parquet(GOLDEN / f"{name}.parquet")
    assert len(want) > 0
    pd.testing.assert_frame_equal(frames[name].reset_index(drop=True), want, check_exact=True)
