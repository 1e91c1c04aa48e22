"""schedlab.sim.kernel_cache: the cached kernels are dropped whenever any kernel source changed."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from schedlab.sim import kernel_cache as KC

MODULES = ("a.py", "sub/b.py")


def _cached(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.nb[ic]"))


def _tree(root: Path) -> None:
    for name in MODULES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"# {name}\n")
    for name, kernel in (("a.py", "a.k-1"), ("sub/b.py", "b.k-3")):
        folder = (root / name).parent / "__pycache__"
        folder.mkdir(exist_ok=True)
        (folder / f"{kernel}.py311.nbi").write_bytes(b"i")
        (folder / f"{kernel}.py311.1.nbc").write_bytes(b"c")


def test_the_list_names_every_module_that_caches_kernels():
    found = sorted(p.relative_to(KC.SIM).as_posix() for p in KC.SIM.rglob("*.py")
                   if re.search(r"^@njit\(.*cache=True", p.read_text(), re.MULTILINE))
    assert sorted(KC.KERNEL_MODULES) == found


def test_a_changed_callee_drops_every_cached_kernel_and_an_unchanged_tree_keeps_them(tmp_path):
    _tree(tmp_path)
    assert KC.drop_stale_kernels(tmp_path, MODULES)  # no stamp yet: the cache's sources are unknown
    assert _cached(tmp_path) == []
    _tree(tmp_path)  # compiled again, from these sources
    assert not KC.drop_stale_kernels(tmp_path, MODULES)
    assert len(_cached(tmp_path)) == 4
    (tmp_path / "sub" / "b.py").write_text("# b, new layout\n")  # only the callee's file changes
    assert KC.drop_stale_kernels(tmp_path, MODULES)
    assert _cached(tmp_path) == []  # a.py's kernels too, though a.py did not change


def test_a_cache_that_cannot_be_written_is_left_alone(tmp_path):
    _tree(tmp_path)
    shutil.rmtree(tmp_path / "__pycache__")
    (tmp_path / "__pycache__").write_text("not a folder")  # the stamp cannot be written
    assert not KC.drop_stale_kernels(tmp_path, MODULES)


def test_the_simulator_stamps_its_cache_when_it_loads_the_kernels():
    import schedlab.sim.cbf_layout  # noqa: F401

    assert (KC.SIM / KC.STAMP).read_text() == KC.fingerprint()
