"""Workload models of Cirne's thesis, chapter 3: distributions, arrival polynomials, Downey's
speedup, and fitting them to a trace (:mod:`schedlab.models.fit`)."""

from typing import TYPE_CHECKING

from .. import lazy_getattr

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


__getattr__ = lazy_getattr(__name__, _LAZY)


__all__ = ["Fit", "FitError", "JointUniformLog", "UniformLog", "c_max", "fit_gamma",
           "fit_uniform_log", "speedup"]
