"""Glue for the thin Snakemake adapter scripts in ``scripts/``.

:func:`run` calls the script's main function; a :class:`~schedlab.errors.SchedlabError` is printed as
one line naming the rule (and, through the message, the file and line), and the job fails without a
Python traceback. Outputs are written atomically by the library, so a failed job leaves none.

An input that cannot be read back or no longer matches its record (:class:`CorruptFileError`: a
parquet cut short, a point's frame changed since its ``done.json`` was written) is removed with the
output of this run that stands for it (the file itself, the directory output holding it, or the
point's ``done.json``), so that Snakemake rebuilds it when a job needs it; the line says so. SIGINT (Ctrl-C) ends a job
with one line and exit status 130: inside :func:`run`, and from :func:`quiet_interrupt` on, which every
adapter script calls before its other imports (loading pandas or numba takes up to a second, and a
Ctrl-C landing then would otherwise print a traceback). Snakemake's own preamble before the script
(unpickling the job, about 0.2 s) stays outside it.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..errors import CorruptFileError, SchedlabError

#: Exit status of a job ended by SIGINT (128 + 2, as a shell reports it).
INTERRUPTED = 130
#: The only directory whose files a job may remove besides its own outputs (``results/``).
RESULTS = Path("results")


def _where(snakemake: Any) -> str:
    """``rule NAME (wildcard=value, ...)``."""
    rule = getattr(snakemake, "rule", "?")
    wildcards = dict(getattr(snakemake, "wildcards", {}) or {})
    return f"rule {rule}" + (f" ({', '.join(f'{k}={v}' for k, v in wildcards.items())})"
                             if wildcards else "")


def quiet_interrupt(snakemake: Any) -> None:
    """Until :func:`run` starts, SIGINT ends the job with one line and exit status 130."""

    def interrupted(signum: int, frame: Any) -> None:
        _report(snakemake, f"{_where(snakemake)}: interrupted")
        raise SystemExit(INTERRUPTED)

    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, interrupted)


def run(main: Callable[[Any], None], snakemake: Any) -> None:
    """Run ``main(snakemake)``; turn user errors into one line on stderr and exit status 1."""
    where = _where(snakemake)
    if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        main(snakemake)
    except KeyboardInterrupt:
        _report(snakemake, f"{where}: interrupted")
        sys.exit(INTERRUPTED)
    except CorruptFileError as e:
        _report(snakemake, f"{where}: error: {e}; {rebuild(e.path, _inputs(snakemake))}")
        sys.exit(1)
    except SchedlabError as e:
        _report(snakemake, f"{where}: error: {e}")
        sys.exit(1)


def _report(snakemake: Any, msg: str) -> None:
    """``msg`` on stderr and appended to the job's log."""
    print(msg.replace("\n", " "), file=sys.stderr)
    log = getattr(snakemake, "log", None)
    if log:
        with open(log[0], "a") as fh:
            fh.write(msg + "\n")


def _inputs(snakemake: Any) -> list[str]:
    return [str(f) for f in (getattr(snakemake, "input", None) or [])]


def rebuild(path: Path, inputs: Iterable[str]) -> str:
    """Remove the input of this job that stands for the bad file ``path`` -- the file itself, the
    directory output holding it, or the ``done.json`` of the directory holding it (a point's frames,
    a study's tables) -- if it is under ``results/``, so that the next run rebuilds it; returns what
    to tell the user."""
    bad = Path(os.path.abspath(path))
    results = Path(os.path.abspath(RESULTS))

    def stands_for(given: Path) -> bool:
        if given.name == "done.json":
            return bad.is_relative_to(given.parent)
        return given == bad or bad.is_relative_to(given)

    found = [(Path(os.path.abspath(n)), n) for n in inputs]
    found = [(g, n) for g, n in found if g.is_relative_to(results) and stands_for(g)]
    if not found:
        return f"rebuild it with `snakemake --forcerun {path}` and the options of your run"
    given, name = max(found, key=lambda gn: len(gn[0].parts))  # the most specific
    if given.is_dir():
        shutil.rmtree(given, ignore_errors=True)
    elif given.exists():
        given.unlink(missing_ok=True)
    else:
        return "Snakemake rebuilds it when a job needs it (run the same command again)"
    return f"removed {name}: Snakemake rebuilds it when a job needs it (run the same command again)"


def log_to(snakemake: Any) -> Callable[[str], None]:
    """A logger that appends to the rule's first log file (and stderr)."""
    path = snakemake.log[0] if getattr(snakemake, "log", None) else None

    def log(msg: str) -> None:
        print(msg, file=sys.stderr)
        if path:
            with open(path, "a") as fh:
                fh.write(msg + "\n")

    return log


def fail(error: BaseException) -> None:
    """For the Snakefile: print a user error as one line ``schedlab: error: ...`` and exit with
    status 2 before any job runs (no Python traceback)."""
    print(f"schedlab: error: {str(error).replace(chr(10), ' ')}", file=sys.stderr)
    sys.exit(2)
