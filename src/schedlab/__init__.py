"""schedlab: reproducible parallel-job-scheduling studies on Parallel Workloads Archive logs."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # the installed version, looked up on first use (importlib.metadata costs ~0.1 s at start-up)
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("schedlab")
        except PackageNotFoundError:  # running from a source tree without installation
            value = "0.0.0+unknown"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
