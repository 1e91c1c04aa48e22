"""Shared fixtures. Tests that need the real archive logs use ``mirror`` and skip without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The directory of real PWA logs ($SCHEDLAB_TRACE_MIRROR); skips the test when unset."""
    value = os.environ.get("SCHEDLAB_TRACE_MIRROR")
    if not value:
        pytest.skip("needs the real PWA logs: set SCHEDLAB_TRACE_MIRROR (CI uses ../shared/traces)")
    path = Path(value)
    if not path.is_dir():
        pytest.skip(f"SCHEDLAB_TRACE_MIRROR={value} is not a directory")
    return path


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
