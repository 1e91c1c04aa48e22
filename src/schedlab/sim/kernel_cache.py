"""numba's on-disk cache of the simulator's compiled kernels, kept whole across source changes.

numba knows a cached kernel by its own source file only (that file's modification time and size).
A kernel that calls another file's kernel (:mod:`.cbf_search` calls :mod:`.cbf_levels`,
:mod:`.schedulers.perkovic_kernel` calls :mod:`.cbf_kernel`) is compiled with the callee's code
inside it, and keeps the old callee when only the callee's file changes: after a pull that changes
the array layout of :mod:`.cbf_layout`, wrong results or a crash. So the kernels are one unit here:
:func:`drop_stale_kernels` fingerprints the source of every module in :data:`KERNEL_MODULES` and,
when the fingerprint differs from the one written beside the cache, removes every cached kernel of
those modules. numba then compiles them afresh at their first call (``make setup`` warms them).
:mod:`.cbf_layout`, which every kernel module imports, calls it once per process.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: Every module of :mod:`schedlab.sim` with ``@njit(cache=True)`` kernels, relative to it
#: (tests/sim/test_kernel_cache.py checks the list against the sources).
KERNEL_MODULES = ("cbf_edit.py", "cbf_kernel.py", "cbf_layout.py", "cbf_levels.py", "cbf_search.py",
                  "cbf_stable.py", "schedulers/perkovic_kernel.py")
SIM = Path(__file__).resolve().parent
#: The fingerprint of the sources the cached kernels were compiled from.
STAMP = "__pycache__/kernel_sources.sha256"


def fingerprint(root: Path = SIM, modules: tuple[str, ...] = KERNEL_MODULES) -> str:
    """sha256 over the names and contents of the kernel modules."""
    h = hashlib.sha256()
    for name in modules:
        h.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return h.hexdigest()


def drop_stale_kernels(root: Path = SIM, modules: tuple[str, ...] = KERNEL_MODULES) -> bool:
    """Remove the cached kernels of ``modules`` if their sources changed since the cache was
    stamped, then stamp it; True if they were removed. A cache that cannot be written (a read-only
    install: numba then caches elsewhere) is left alone."""
    digest = fingerprint(root, modules)
    stamp = root / STAMP
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        for folder in {(root / name).parent / "__pycache__" for name in modules}:
            for cached in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        tmp.write_text(digest)
        os.replace(tmp, stamp)
    except OSError:
        return False
    return True
