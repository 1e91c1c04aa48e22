"""Workload models of Cirne's thesis, chapter 3: distributions, arrival polynomials, Downey's
speedup, and fitting them to a trace (:mod:`schedlab.models.fit`)."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .distributions import (
        Fit,
        FitError,
        JointUniformLog,
        UniformLog,
        fit_gamma,
        fit_uniform_log,
    )
    from .downey import c_max, speedup

#: public name -> submodule, imported on first use (the CLI imports ``models.cli`` for its help;
#: scipy stays unloaded until a model is used)
_LAZY = {"Fit": "distributions", "FitError": "distributions", "JointUniformLog": "distributions",
         "UniformLog": "distributions", "fit_gamma": "distributions",
         "fit_uniform_log": "distributions", "c_max": "downey", "speedup": "downey"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Fit", "FitError", "JointUniformLog", "UniformLog", "c_max", "fit_gamma",
           "fit_uniform_log", "speedup"]
