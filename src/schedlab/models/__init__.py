"""Workload models of Cirne's thesis, chapter 3: distributions, arrival polynomials, Downey's
speedup, and fitting them to a trace (:mod:`schedlab.models.fit`)."""

from .distributions import Fit, FitError, JointUniformLog, UniformLog, fit_gamma, fit_uniform_log
from .downey import c_max, speedup

__all__ = ["Fit", "FitError", "JointUniformLog", "UniformLog", "c_max", "fit_gamma",
           "fit_uniform_log", "speedup"]
