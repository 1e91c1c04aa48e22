"""schedlab: reproducible parallel-job-scheduling studies on Parallel Workloads Archive logs."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("schedlab")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
