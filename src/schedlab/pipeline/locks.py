"""Snakemake's lock after a killed run: cleared when no Snakemake process works in the directory.

A run killed with SIGKILL (a crashed node, a lost session) leaves ``.snakemake/locks/``, and the next
run stops at it until the user runs ``snakemake --unlock``. ``make reproduce`` and ``make quick``
first run :func:`main`: if the directory holds a lock and no process alive has it as its working
directory and is Snakemake or one of its job scripts (``/proc``), the lock is stale and is removed,
saying so; a lock of a live run stays (Snakemake refuses the second run, as it should). Where
``/proc`` cannot be read, the line says the one command that clears the lock.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

LOCKS = Path(".snakemake") / "locks"
PROC = Path("/proc")


def _is_snakemake(argv: list[str]) -> bool:
    """Whether a command line is Snakemake (``snakemake``, ``python -m snakemake``) or one of its
    job scripts (``.snakemake/scripts/...``)."""
    for i, arg in enumerate(argv):
        if Path(arg).name == "snakemake" or ".snakemake/scripts/" in arg:
            return True
        if arg == "-m" and i + 1 < len(argv) and argv[i + 1].startswith("snakemake"):
            return True
    return False


def snakemake_processes(workdir: Path, proc: Path = PROC) -> list[int]:
    """Process ids of Snakemake runs and job scripts whose working directory is ``workdir``
    (other users' processes, whose directory cannot be read, are not counted)."""
    here = workdir.resolve()
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if cwd == here and _is_snakemake(argv):
            found.append(int(entry.name))
    return sorted(found)


def clear_stale_lock(workdir: Path = Path("."), proc: Path = PROC) -> str | None:
    """Remove Snakemake's lock in ``workdir`` if no Snakemake process works there; returns the
    line to print (None when there is no lock)."""
    locks = sorted((workdir / LOCKS).glob("*.lock"))
    if not locks:
        return None
    if not proc.is_dir():
        return (f"make: {workdir / LOCKS} holds a Snakemake lock; if no Snakemake run is working "
                "here, clear it with: .venv/bin/snakemake --unlock")
    alive = snakemake_processes(workdir, proc)
    if alive:
        return (f"make: a Snakemake run is working here (pid {', '.join(map(str, alive))}); its "
                "lock stays")
    for lock in locks:
        lock.unlink(missing_ok=True)
    return (f"make: removed the stale Snakemake lock in {workdir / LOCKS} (left by an interrupted "
            "run; no Snakemake process is working here)")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m schedlab.pipeline.locks [DIR]``: clear a stale lock of ``DIR`` (default .)."""
    args = list(sys.argv[1:] if argv is None else argv)
    line = clear_stale_lock(Path(args[0]) if args else Path("."))
    if line:
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
