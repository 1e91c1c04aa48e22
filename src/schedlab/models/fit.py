"""Fitting Cirne's rigid workload model (thesis §3.3) and Downey's distributions to a trace.

Each ``fit_*`` function takes the trace's job table (SWF columns, docs/design.md §3) and returns a
:class:`ModelResult` (parameters, goodness of fit, n, notes); :func:`fit_all` adds the trace name
and sha256 and returns them by model name, as written to ``results/models/{trace}/{model}.json``.

Data selection (thesis wording where it exists, our choice otherwise — all listed in ``notes``):

* partition size ``n``: processors as the archive counts them (allocated, else requested), > 0.
* cancellation (§3.3.2): a job is cancelled when ``status == 5``; a log without any status 5
  "does not discriminate" (ANL, KTH in the thesis) and gets ``pc = null`` with a note instead of a
  fit. The lag ``lc = ic - ia`` is ``wait + run`` (missing parts as 0) of cancelled jobs; lags of
  0 s cannot enter a uniform-log and are dropped (counted).
* accuracy ``a = te / tr`` (§3.3.4): completed jobs only (``status == 1``; all jobs with a run
  time when the log has no status), ``te > 0`` and ``tr > 0``; runs longer than the request
  (``a > 1``, killed at the limit plus grace) are clipped to ``a = 1`` (counted).
* requested time: every job with ``req_time > 0``.
* Downey (1997): uniform-log fits of job size ``n`` and runtime ``te > 0`` (the speedup function
  itself, :func:`schedlab.models.downey.speedup`, has no trace parameters: logs hold one size per
  job).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..traces.lookup import procs_used
from .arrival import fit_arrival_rate
from .distributions import Fit, FitError, fit_gamma, fit_uniform_log

CANCELLED, COMPLETED = 5, 1


@dataclass
class ModelResult:
    """One fitted model of one trace (JSON-able via :meth:`to_dict`)."""

    model: str
    section: str
    params: dict[str, Any]
    gof: dict[str, Any]
    n: int
    notes: list[str] = field(default_factory=list)
    trace: str = ""
    sha256: str | None = None
    observed: dict[str, list[float]] = field(default_factory=dict)  # curves for fit plots
    fitted: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "thesis_section": self.section, "trace": self.trace,
                "trace_sha256": self.sha256, "fitted": self.fitted, "params": self.params,
                "gof": self.gof, "n": self.n, "notes": self.notes, "observed": self.observed}


def _fit_part(f: Fit, prefix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return ({f"{k}_{prefix}": v for k, v in f.params.items()},
            {f"{prefix}_{k}": v for k, v in f.gof.items()} | {f"{prefix}_n": f.n})


def _require(jobs: pd.DataFrame, cols: tuple[str, ...]) -> None:
    missing = [c for c in cols if c not in jobs.columns]
    if missing:
        raise FitError(f"job table lacks columns {missing}")
    if len(jobs) == 0:
        raise FitError("job table is empty")
    for c in cols:
        if jobs[c].isna().any():
            raise FitError(f"column {c!r} has {int(jobs[c].isna().sum())} NaN values")


def fit_arrival(jobs: pd.DataFrame, unix_start: int | None, tz: str | None,
                **kw: Any) -> ModelResult:
    """§3.3.1, Tables 2-3 (see :mod:`schedlab.models.arrival`)."""
    _require(jobs, ("submit_time",))
    notes = []
    if unix_start is None:
        unix_start = 0
        notes.append("no UnixStartTime in the header: submit times taken as seconds after a "
                     "midnight (time of day is then relative)")
    fit = fit_arrival_rate(jobs["submit_time"].to_numpy(np.int64) + unix_start, tz, **kw)
    d = fit.to_dict()
    params = d["params"] | {"mean_jobs_per_day": float(fit.observed.mean() * 1440),
                            "days_total": fit.days_total, "days_removed": fit.days_removed,
                            "unit": "arrivals per minute"}
    settings = ", ".join(f"{k}={v}" for k, v in fit.settings.items() if k != "sse_by_degree")
    observed = {"rate_per_minute": [float(v) for v in fit.observed],
                "sse_by_degree": fit.settings["sse_by_degree"]}
    return ModelResult("arrival", "3.3.1", params, d["gof"], fit.n, [*notes, f"settings: {settings}"],
                       observed=observed)


def fit_cancellation(jobs: pd.DataFrame) -> ModelResult:
    """§3.3.2, Table 4 and the cancellation-lag uniform-log."""
    _require(jobs, ("status", "wait_time", "run_time"))
    status = jobs["status"].to_numpy()
    cancelled = status == CANCELLED
    failed = float(np.mean(status == 0))
    if not cancelled.any():
        return ModelResult("cancellation", "3.3.2", {"pc": None, "frac_status_0": failed}, {},
                           len(jobs), ["the log has no cancelled jobs (status 5): cancellations "
                                       "cannot be told apart, as for ANL and KTH in the thesis"])
    lag = (np.maximum(jobs["wait_time"].to_numpy(), 0) + np.maximum(jobs["run_time"].to_numpy(), 0)
           )[cancelled].astype(float)
    f = fit_uniform_log(lag, "cancellation lag")
    params, gof = _fit_part(f, "lc")
    params = {"pc": float(cancelled.mean()), "cancelled": int(cancelled.sum()),
              "frac_status_0": failed} | params
    params["frac_lag_below_10min"] = float(np.mean(lag < 600))
    return ModelResult("cancellation", "3.3.2", params, gof, len(jobs), list(f.notes))


def is_power_of_two(n: np.ndarray) -> np.ndarray:
    n = np.asarray(n, dtype=np.int64)
    return (n > 0) & ((n & (n - 1)) == 0)


def fit_partition_size(jobs: pd.DataFrame) -> ModelResult:
    """§3.3.3, Tables 5-7: uniform-log by least squares, power-of-2 fraction, other kinds."""
    _require(jobs, ("alloc_procs", "req_procs"))
    n = procs_used(jobs)
    n = n[n > 0]
    if n.size == 0:
        raise FitError("partition size: no job has a positive processor count")
    f = fit_uniform_log(n, "partition size", discrete=True)
    params, gof = _fit_part(f, "n")
    p2 = is_power_of_two(n)
    other = n[~p2]
    root = np.round(np.sqrt(other)).astype(np.int64)
    kinds = {"square": root * root == other, "even": other % 2 == 0,
             "multiple_of_4": other % 4 == 0, "multiple_of_10": other % 10 == 0}
    params["pb"] = float(p2.mean())
    params |= {f"non_pow2_{k}": float(v.mean()) if other.size else None for k, v in kinds.items()}
    return ModelResult("partition_size", "3.3.3", params, gof, int(n.size), list(f.notes))


def accuracy_sample(jobs: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(te, tr) of the jobs used for accuracy, and notes (selection in the module docstring)."""
    _require(jobs, ("run_time", "req_time", "status"))
    te = jobs["run_time"].to_numpy(float)
    tr = jobs["req_time"].to_numpy(float)
    status = jobs["status"].to_numpy()
    notes = []
    if (tr <= 0).all():
        raise FitError("accuracy: no job has a requested time (req_time all missing)")
    if (status == COMPLETED).any():
        done = status == COMPLETED
    else:
        done = np.ones(len(jobs), dtype=bool)
        notes.append("the log has no status 1: every job with a run time is taken as completed")
    sel = done & (te > 0) & (tr > 0)
    if sel.sum() < 3:
        raise FitError(f"accuracy: only {int(sel.sum())} completed jobs with te > 0 and tr > 0")
    over = int(np.sum(te[sel] > tr[sel]))
    if over:
        notes.append(f"{over} jobs ran longer than requested: accuracy clipped to 1")
    return te[sel], tr[sel], notes


def fit_accuracy(jobs: pd.DataFrame) -> ModelResult:
    """§3.3.4, Tables 8-9: gamma MLE of a = te/tr and correlations r(a, te), r(a, tr)."""
    te, tr, notes = accuracy_sample(jobs)
    a = np.minimum(te / tr, 1.0)
    f = fit_gamma(a, "accuracy")
    params, gof = _fit_part(f, "a")
    corr = {"r_a_te": float(np.corrcoef(a, te)[0, 1]), "r_a_tr": float(np.corrcoef(a, tr)[0, 1])}
    params |= corr | {"mean_a": float(a.mean()), "frac_a_below_0.01": float(np.mean(a < 0.01))}
    return ModelResult("accuracy", "3.3.4", params, gof, int(a.size), notes)


def fit_requested_time(jobs: pd.DataFrame) -> ModelResult:
    """§3.3.4, Table 10: requested time uniform-log."""
    _require(jobs, ("req_time",))
    tr = jobs["req_time"].to_numpy(float)
    if (tr <= 0).all():
        raise FitError("requested time: req_time is missing (-1) for every job")
    f = fit_uniform_log(tr, "requested time")
    params, gof = _fit_part(f, "tr")
    return ModelResult("requested_time", "3.3.4", params, gof, f.n, list(f.notes))


def fit_downey(jobs: pd.DataFrame) -> ModelResult:
    """Downey's uniform-log job size and runtime (thesis §3.3.3 after Downey; speedup §3.4.3)."""
    _require(jobs, ("run_time", "alloc_procs", "req_procs"))
    size = fit_uniform_log(procs_used(jobs), "job size", discrete=True)
    run = fit_uniform_log(jobs["run_time"].to_numpy(float), "runtime")
    p1, g1 = _fit_part(size, "size")
    p2, g2 = _fit_part(run, "runtime")
    return ModelResult("downey", "3.4.3", p1 | p2, g1 | g2, len(jobs),
                       list(size.notes) + list(run.notes))


def select_period(jobs: pd.DataFrame, unix_start: int | None, tz: str | None, start: str,
                  end: str) -> pd.DataFrame:
    """Jobs submitted in ``[start, end)`` (local dates ``YYYY-MM-DD`` in the log's time zone),
    e.g. the thesis' SDSC window Jan-May 1999 of the longer archive log."""
    if unix_start is None:
        raise FitError("a period needs the log's UnixStartTime header")
    zone = tz or "UTC"
    lo = pd.Timestamp(start).tz_localize(zone).timestamp() - unix_start
    hi = pd.Timestamp(end).tz_localize(zone).timestamp() - unix_start
    t = jobs["submit_time"].to_numpy()
    out = jobs.loc[(t >= lo) & (t < hi)].reset_index(drop=True)
    if out.empty:
        raise FitError(f"no job submitted in [{start}, {end})")
    return out


FITTERS = ("arrival", "cancellation", "partition_size", "accuracy", "requested_time", "downey")


def fit_all(jobs: pd.DataFrame, *, trace: str = "", sha256: str | None = None,
            unix_start: int | None = None, tz: str | None = None,
            arrival: dict[str, Any] | None = None,
            machine_size: int | None = None, on_error: str = "raise") -> dict[str, ModelResult]:
    """Every model of the trace, by name (:data:`FITTERS`).

    A model whose data are unusable (no requested times, too few days, constant values, NaN...)
    raises :class:`FitError` naming the trace and model; with ``on_error="record"`` it is instead
    returned with ``fitted=False``, empty parameters and the reason in ``notes`` (the documented
    fallback of the ``fit_models`` rule, so e.g. a log without estimates still gets its other
    fits). ``machine_size`` is recorded with the partition size fit (the O of the P/O arrival
    scaling when a synthetic workload uses this fit)."""
    if on_error not in ("raise", "record"):
        raise FitError(f"on_error must be 'raise' or 'record' (got {on_error!r})")
    out: dict[str, ModelResult] = {}
    for name in FITTERS:
        try:
            if name == "arrival":
                r = fit_arrival(jobs, unix_start, tz, **(arrival or {}))
            else:
                r = globals()[f"fit_{name}"](jobs)
        except FitError as e:
            if on_error == "raise":
                raise FitError(f"{trace or 'trace'}: model {name}: {e}") from None
            r = ModelResult(name, "", {}, {}, 0, [f"not fitted: {e}"], fitted=False)
        r.trace, r.sha256 = trace, sha256
        out[name] = r
    if out["partition_size"].fitted:
        out["partition_size"].params["machine_size"] = machine_size
    return out
