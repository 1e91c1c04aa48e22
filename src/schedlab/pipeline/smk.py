"""Glue for the thin Snakemake adapter scripts in ``scripts/``.

:func:`run` calls the script's main function; a :class:`~schedlab.errors.SchedlabError` is printed as
one line naming the rule (and, through the message, the file and line), and the job fails without a
Python traceback. Outputs are written atomically by the library, so a failed job leaves none.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ..errors import SchedlabError


def run(main: Callable[[Any], None], snakemake: Any) -> None:
    """Run ``main(snakemake)``; turn user errors into one line on stderr and exit status 1."""
    rule = getattr(snakemake, "rule", "?")
    wildcards = dict(getattr(snakemake, "wildcards", {}) or {})
    try:
        main(snakemake)
    except SchedlabError as e:
        where = f"rule {rule}" + (f" ({', '.join(f'{k}={v}' for k, v in wildcards.items())})"
                                  if wildcards else "")
        msg = f"{where}: error: {e}"
        print(msg, file=sys.stderr)
        log = getattr(snakemake, "log", None)
        if log:
            with open(log[0], "a") as fh:
                fh.write(msg + "\n")
        sys.exit(1)


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
