"""The distributions of Cirne's workload model (thesis ch. 3) and their fits.

* :class:`UniformLog` — the *uniform-log* distribution (§3.3.2, after Downey): ``cdf(x) = chi *
  log2(x) + rho``, i.e. ``log2(x)`` is uniform on ``[-rho/chi, (1-rho)/chi]``. Fitted, as in the
  thesis, by least-squares linear regression of the empirical CDF on ``log2(x)``
  (:func:`fit_uniform_log`).
* :class:`JointUniformLog` — the joint uniform-log of (c_min, A) (§3.4.3): ``cdf(x, y) = phi *
  log2 x * log2 y + gamma * log2 x + eta * log2 y + rho``.
* :func:`fit_gamma` — gamma by maximum likelihood (§3.3.4, Table 9). ``beta`` is the *scale*
  (MATLAB ``gamfit`` convention; with it Table 9's means, alpha*beta = 0.29-0.65, are plausible
  mean accuracies, while a rate reading would give means up to 1.16 > 1).

Integer quantities (partition sizes, c_min, c_u) are discretised with ``ceil``: the thesis fits the
CDF at integer points, so P(X <= k) = cdf(k); e.g. Table 12's c_min model gives
P(c_min = 1) = rho = 0.628, the 62.6% the thesis reports in §5.3.1.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..errors import SchedlabError


class FitError(SchedlabError):
    """Data that cannot support a fit (too few values, constant, NaN...)."""


def _clean_positive(values: Any, what: str, min_n: int = 2) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    if np.isnan(x).any():
        raise FitError(f"{what}: {int(np.isnan(x).sum())} NaN values; drop them explicitly first")
    x = x[x > 0]
    if x.size < min_n:
        raise FitError(f"{what}: only {x.size} positive values; need at least {min_n}")
    return x


@dataclass(frozen=True)
class UniformLog:
    """Uniform-log distribution, ``cdf(x) = chi * log2(x) + rho`` clipped to [0, 1] (§3.3.2)."""

    chi: float
    rho: float

    def __post_init__(self) -> None:
        if not (self.chi > 0 and math.isfinite(self.chi) and math.isfinite(self.rho)):
            raise FitError(f"uniform-log needs chi > 0 and finite rho (got {self.chi}, {self.rho})")

    @property
    def log2_min(self) -> float:
        return -self.rho / self.chi

    @property
    def log2_max(self) -> float:
        return (1.0 - self.rho) / self.chi

    def cdf(self, x: Any) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(divide="ignore"):
            lx = np.where(x > 0, np.log2(np.where(x > 0, x, 1.0)), -np.inf)
        return np.clip(self.chi * lx + self.rho, 0.0, 1.0)

    def ppf(self, u: Any) -> np.ndarray:
        return np.exp2((np.asarray(u, dtype=np.float64) - self.rho) / self.chi)

    def sample(self, rng: np.random.Generator, size: int, low: float | None = None,
               high: float | None = None) -> np.ndarray:
        """Continuous draws, optionally conditioned on ``low < x <= high``."""
        u_lo = float(self.cdf(low)) if low is not None else 0.0
        u_hi = float(self.cdf(high)) if high is not None else 1.0
        return self.ppf(rng.uniform(u_lo, u_hi, size))

    def sample_int(self, rng: np.random.Generator, size: int, low: int | None = None,
                   high: int | None = None) -> np.ndarray:
        """Integer draws ``ceil(x)`` (>= 1), optionally conditioned on ``low < X <= high``."""
        x = self.sample(rng, size, low, high)
        return np.maximum(np.ceil(x - 1e-9), 1).astype(np.int64)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class JointUniformLog:
    """Joint uniform-log of (x, y) = (c_min, A) (§3.4.3), parameters as in Table 12."""

    phi: float
    gamma: float
    eta: float
    rho: float

    def cdf(self, x: Any, y: Any) -> np.ndarray:
        lx, ly = np.log2(np.asarray(x, float)), np.log2(np.asarray(y, float))
        return np.clip(self.phi * lx * ly + self.gamma * lx + self.eta * ly + self.rho, 0.0, 1.0)

    def conditional_log2_range(self, x_max: float) -> tuple[float, float]:
        """Support of log2(y) given x.

        d cdf / d log2(x) = phi * log2(y) + gamma does not depend on x, so the conditional law of
        log2(y) given x is uniform on [-gamma/phi, ly_hi], where ly_hi solves cdf(x_max, y) = 1
        (x_max: upper end of the x marginal). The dependence between c_min and A enters through
        the constraint A >= c_min (see :mod:`schedlab.models.synth`).
        """
        if self.phi <= 0:
            raise FitError("joint uniform-log needs phi > 0")
        lo = -self.gamma / self.phi
        lx = math.log2(x_max)
        hi = (1.0 - self.rho - self.gamma * lx) / (self.phi * lx + self.eta)
        if not hi > lo:
            raise FitError(f"joint uniform-log: empty support for y ({lo:.3g} >= {hi:.3g})")
        return lo, hi

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def ecdf_points(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and the empirical CDF P(X <= value) at each."""
    values, counts = np.unique(x, return_counts=True)
    return values, np.cumsum(counts) / x.size


def ks_distance(x: np.ndarray, cdf: Any, discrete: bool = False) -> float:
    """Kolmogorov-Smirnov distance between the sample's ECDF and a model CDF.

    Continuous: at the sample's distinct values, after and before each jump. ``discrete``
    (integer-valued quantities such as partition sizes, whose model CDF is read at integers): at
    the distinct values only.
    """
    values, F = ecdf_points(np.sort(x))
    model = np.asarray(cdf(values), dtype=np.float64)
    d = float(np.max(np.abs(F - model)))
    if discrete:
        return d
    before = np.concatenate([[0.0], F[:-1]])
    return max(d, float(np.max(np.abs(before - model))))


@dataclass(frozen=True)
class Fit:
    """A fitted distribution with its goodness of fit."""

    model: str
    params: dict[str, float]
    n: int
    gof: dict[str, float]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "params": self.params, "n": self.n, "gof": self.gof,
                "notes": list(self.notes)}


def fit_uniform_log(values: Any, what: str = "values", discrete: bool = False) -> Fit:
    """Least-squares fit of ``cdf = chi * log2(x) + rho`` to the empirical CDF (§3.3.2).

    Regression points are the distinct positive values and the ECDF there (non-positive values
    are dropped and counted in ``notes``). Goodness of fit: R^2 of the regression and the KS
    distance between the sample and the fitted CDF.
    """
    raw = np.asarray(values, dtype=np.float64)
    x = _clean_positive(raw, what)
    dropped = int(raw.size - x.size)
    vals, F = ecdf_points(x)
    if vals.size < 2:
        raise FitError(f"{what}: all {x.size} values equal ({vals[0]:g}); uniform-log undefined")
    lx = np.log2(vals)
    chi, rho = np.polyfit(lx, F, 1)
    pred = chi * lx + rho
    ss_res = float(np.sum((F - pred) ** 2))
    ss_tot = float(np.sum((F - F.mean()) ** 2))
    dist = UniformLog(float(chi), float(rho))
    notes = (f"{dropped} non-positive values dropped",) if dropped else ()
    return Fit("uniform_log", dist.to_dict(), int(x.size),
               {"r2": 1.0 - ss_res / ss_tot if ss_tot > 0 else float("nan"),
                "ks": ks_distance(x, dist.cdf, discrete), "points": int(vals.size)}, notes)


def fit_gamma(values: Any, what: str = "values") -> Fit:
    """Gamma by maximum likelihood (location 0); ``beta`` is the scale (§3.3.4, Table 9)."""
    from scipy import stats  # only fitting needs it: generating workloads stays light

    x = _clean_positive(values, what, min_n=3)
    if np.ptp(x) == 0:
        raise FitError(f"{what}: all values equal; gamma MLE undefined")
    alpha, _, beta = stats.gamma.fit(x, floc=0)
    dist = stats.gamma(alpha, scale=beta)
    return Fit("gamma", {"alpha": float(alpha), "beta": float(beta)}, int(x.size),
               {"ks": ks_distance(x, dist.cdf), "loglik": float(np.sum(dist.logpdf(x)))})


def fit_normal(values: Any, what: str = "values") -> Fit:
    """Normal by maximum likelihood (sigma model of §3.4.3)."""
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    if x.size < 3 or np.isnan(x).any() or np.ptp(x) == 0:
        raise FitError(f"{what}: need >= 3 finite, non-constant values for a normal fit")
    mu, sd = float(x.mean()), float(x.std())
    return Fit("normal", {"mu": mu, "sigma": sd}, int(x.size),
               {"ks": ks_distance(x, stats.norm(mu, sd).cdf)})
