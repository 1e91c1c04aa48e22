"""Exception types. Every error a user can cause derives from :class:`SchedlabError`,
which the CLI and the Snakemake scripts print as one line, without a traceback."""

from __future__ import annotations

import os
from pathlib import Path


class SchedlabError(Exception):
    """Base class for errors caused by input or configuration (not by bugs)."""


class SWFFormatError(SchedlabError):
    """A Standard Workload Format file that cannot be read.

    The message names the file, the 1-based line number and the offending text.
    """

    def __init__(self, path: str, line: int | None, reason: str, text: str | None = None):
        self.path = str(path)
        self.line = line
        self.reason = reason
        self.text = text
        where = f"{self.path}:{line}" if line is not None else self.path
        msg = f"{where}: {reason}"
        if text is not None:
            shown = text if len(text) <= 120 else text[:117] + "..."
            msg += f": {shown!r}"
        super().__init__(msg)


class RegistryError(SchedlabError):
    """A trace registry entry that is invalid (names the entry and the field)."""


class DownloadError(SchedlabError):
    """A trace that could not be fetched or whose checksum does not match."""


class ConfigError(SchedlabError):
    """An invalid option, e.g. an unknown scheduler name."""


class CorruptFileError(SchedlabError):
    """A file written by the pipeline that cannot be read back, or that no longer matches the size
    and sha256 recorded when it was written (names the file and why)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}")
