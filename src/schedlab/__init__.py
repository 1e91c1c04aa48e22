"""schedlab: reproducible parallel-job-scheduling studies on Parallel Workloads Archive logs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["__version__", "lazy_getattr"]


def lazy_getattr(package: str, table: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` importing ``name`` from the submodule ``table[name]`` of
    ``package`` on first use (and caching it), so that importing the package stays cheap."""
    import sys
    from importlib import import_module

    def __getattr__(name: str) -> Any:
        if name in table:
            value = getattr(import_module(f".{table[name]}", package), name)
            vars(sys.modules[package])[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


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
