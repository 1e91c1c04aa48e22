"""Synthetic workloads from Cirne's rigid and moldability models (thesis §3.5, Tables 11 and 12).

Library entry points (pure, in memory; files are written by ``scripts/synthesize.py``):

* :func:`rigid_workload` — Table 11: arrivals from one arrival polynomial (chosen at random among
  the configured ones, by default the four of Table 3) scaled by ``P/O`` and ``kappa_L``;
  cancellation with probability ``pc`` and uniform-log lag; uniform-log partition size rounded to
  the closest power of two with probability ``pb``; uniform-log requested time times ``kappa_L``;
  gamma accuracy; ``te = tr * a``.
* :func:`apply_moldability` — Table 12 on any job table (synthetic or a real log's).
* :func:`moldable_workload` — both: ``moldable_workload(params, n_jobs, seed) -> (jobs,
  alternatives)``. For experiment drivers that need thousands of workloads without files::

      from schedlab.models.synth import WorkloadParams, moldable_workload
      jobs, alts = moldable_workload(WorkloadParams(), n_jobs=10_000, seed=42)
      # jobs: job_id, submit, runtime, estimate, procs, user_id, cancel_time, + model columns
      # alts: job_id, procs, runtime, estimate  (one row per alternative request; the user's
      #       request (jobs.procs) is always one of them)

  ``seed`` is an int or a ``numpy.random.SeedSequence``; the same seed gives identical frames.
  Three independent child streams (arrival polynomial + instants, job attributes, moldability)
  are spawned from it, so e.g. changing the moldability parameters leaves the rigid jobs unchanged.

Units: seconds. ``submit`` is an integer (floor of the arrival instant, day 0 starts at local
midnight); ``runtime = max(1, round(te))`` and ``estimate = max(runtime, ceil(tr))`` are integers
(the simulator's time is discrete seconds); the exact model values are kept in ``te``, ``tr``,
``L`` columns. ``cancel_time`` is ``submit + lc`` for cancelled jobs and NaN otherwise.
``user_id`` is -1 (the model has no users).

Choices where the thesis is silent or ambiguous (each documented where it is made):

* sigma is *normal* (Table 12 and §3.4.3; §3.5's text says "uniformly distributed" with the
  normal's parameters mu and sigma — a slip). Negative draws are redrawn (Downey's model needs
  sigma >= 0): a normal truncated at 0. ``kappa_sigma`` multiplies mu_sigma (§6.2.2).
* accuracy is gamma(alpha, scale beta) kept in (0, 1] (a = te/tr <= 1, §3.3.4): by redrawing or
  clipping, ``accuracy_above_1`` (below, "Accuracy above 1").
* A given c_min: the joint uniform-log's conditional law of log2 A is uniform (see
  :meth:`JointUniformLog.conditional_log2_range`), truncated to A >= c_min.
* The user's request and the moldability range (§5.1 lists the user request among the job's
  requests; whether (c_min, A, sigma) are drawn knowing n is not stated).
  ``condition_on_request=False`` (default) draws (c_min, A, sigma) once and includes the user's
  request among the alternatives only when it lies in [c_min, c_max] (the experiment driver
  :mod:`schedlab.papers.cirne2001` always keeps it as one request); ``True`` redraws until
  c_min <= n <= c_max; after ``max_redraws`` rounds the range is widened to include n (counted in
  ``info["moldability"]["widened"]``). c_max is also capped at P. Evidence for the default (issue
  23): §5.3.1 reports c_min = 1 in 62.6% of the experiments — unconditioned draws give 62.6%,
  conditioned 78%; and single-target experiments (200 per reading, 8 x 1,000-job workloads,
  same seeds) give SA/user 0.496 / best/user 0.423 / SA/best 1.172 unconditioned against
  0.581 / 0.497 / 1.167 conditioned (thesis Table 13: 0.497 / 0.439 / 1.131).
* Alternatives: the user's n plus c_u - 1 sizes uniform on the integers of [c_min, c_max], turned
  into the closest power of two inside [c_min, c_max]; duplicates dropped, so v <= c_u (§3.4.1).
  Which sizes are rounded is ambiguous. §3.4.1: "a chosen partition size is turned into its
  closest power-of-2 with probability pb" (``kind="per_request"``: each size, independently).
  §5.3.2: "there are no power-of-2 jobs with nu > 9 ... power-of-2 jobs cannot have more than 9
  requests (1, 2, 4, ..., 256)", which holds only if a power-of-2 job's requests are all powers
  of two (``kind="per_job"``: the sizes of a job whose user request is a power of two are all
  rounded, the others' never). Evidence (cirne2001 generator_check table, 20,000 jobs): per
  request gives power-of-2 targets with up to 14-15 requests, nu = 2 for 27% and sum(1/nu)/J =
  0.35; per job gives at most 7-8, 32% and 0.40 (thesis: 9, 37.1%, 0.448, §5.2-5.3.2). Neither
  reaches the thesis' nu statistics (the c_u discretisation is another unstated choice); the
  SA/user attribution is in the report's attribution table.
* Closest power of two = 2**round(log2 n) (ties impossible for integers > 2; 3 -> 4).
* Arrivals: a non-homogeneous Poisson process with the polynomial's rate (clipped at 0), by
  thinning, at ``arrival_scale`` times the polynomial read in arrivals per minute
  (:func:`arrival_scale`; :mod:`schedlab.models.arrival`). Integrated over a day, Table 3's
  polynomials give about twice the job counts of the thesis' own logs (Table 1 jobs / Table 2
  days: ANL 195 vs 102.5, CTC 455 vs 233.9, KTH 76 vs 38.2, SDSC 210 vs 109.2 jobs/day on the
  origin machine). The thesis states the rate (§3.5, Table 11: "Polynomial (P/O) · lambda_a(m_s)
  describes the arrival rate within a day") but not its unit nor which count it reproduces; the
  readings are options of :class:`RigidParams` (``arrival_unit``, ``arrival_normalisation``,
  ``arrival_factor``, ``scale_to_machine``), compared by the cirne2001 table
  ``attribution_load`` (offered load, Figure 59's load per processor D, Table 13's user
  turn-around at 10,000 jobs; docs/papers/cirne2001.md "Load"). The default keeps the
  polynomials as printed, in arrivals per minute: the rate Table 11 states. The reading that
  reproduces Figure 59 and Table 13's user turn-around there, ``arrival_normalisation=
  "log_daily_count"`` with ``accuracy_above_1="clip"``, is not stated by the thesis.
* Accuracy above 1: §3.5 draws a from gamma(0.6, 0.6), of which 8.8% lies above 1, and sets
  te = tr · a, while §3.3.4 says a "is always a number between 0 and 1" (a job cannot run longer
  than it requested). ``accuracy_above_1="redraw"`` (default) draws again (a gamma truncated to
  (0, 1], mean 0.247); ``"clip"`` sets a = 1, the job running to its requested time as a machine
  that kills jobs there would (mean 0.313: 27% more work per job).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError
from .arrival import MINUTES_PER_DAY, PUBLISHED_POLYNOMIALS, ArrivalPolynomial
from .distributions import JointUniformLog, UniformLog
from .downey import c_max as downey_c_max
from .downey import speedup

JOB_COLUMNS = ["job_id", "submit", "runtime", "estimate", "procs", "user_id", "cancel_time"]
ALT_COLUMNS = ["job_id", "procs", "runtime", "estimate"]


@dataclass(frozen=True)
class RigidParams:
    """Cirne's rigid workload model, Table 11 defaults."""

    arrival: tuple[ArrivalPolynomial, ...] = PUBLISHED_POLYNOMIALS  # Table 3
    pc: float = 0.15                                                # cancellation probability
    lc: UniformLog = UniformLog(0.065, -0.32)  # noqa: RUF009 - cancellation lag [s]
    n: UniformLog = UniformLog(0.12, 0.20)  # noqa: RUF009 - partition size
    pb: float = 0.75                                                # power-of-2 probability
    tr: UniformLog = UniformLog(0.10, -0.75)  # noqa: RUF009 - requested time [s]
    alpha_a: float = 0.6                                            # accuracy gamma shape
    beta_a: float = 0.6                                             # accuracy gamma scale
    kappa_L: float = 1.0                                            # load multiplier (§3.5)
    # Readings of the arrival rate (module docstring; :func:`arrival_scale` combines them):
    # multiplies the arrival rate only (not the requested time); 0.5: the logs' daily counts
    arrival_factor: float = 1.0
    # the time unit lambda_a(m_s) counts arrivals per: "minute" (the moving average of §3.3.1
    # divided by its 10 minutes), "ten_minutes" (the count in "the 10 minute interval centered
    # on m" itself), "hour" (Figure 10 "indicates how many jobs arrived by hour of the day")
    arrival_unit: str = "minute"
    # "printed": Table 3 as printed; "log_daily_count": each polynomial rescaled so that a day
    # holds its log's jobs per day (Table 1 jobs / Table 2 days) on its own machine, the unit
    # then immaterial
    arrival_normalisation: str = "printed"
    # multiply by P/O (§3.5: "the selected polynomial must be multiplied by P / O"); False only
    # to measure what the stated scaling does
    scale_to_machine: bool = True
    # "redraw" or "clip" a gamma draw above 1 (module docstring "Accuracy above 1")
    accuracy_above_1: str = "redraw"


@dataclass(frozen=True)
class MoldabilityParams:
    """Cirne's moldability model, Table 12 defaults."""

    c_min: UniformLog = UniformLog(0.06920, 0.6279)  # noqa: RUF009
    p_cu1: float = 0.05
    c_u: UniformLog = UniformLog(0.1918, 0.1876)  # noqa: RUF009
    A: JointUniformLog = JointUniformLog(0.009548, -0.01877, 0.07468, -0.009198)  # noqa: RUF009
    mu_sigma: float = 1.209
    sd_sigma: float = 1.132
    kappa_sigma: float = 1.0  # multiplies mu_sigma (§6.2.2)
    condition_on_request: bool = False  # True: redraw until c_min <= n <= c_max (docstring)
    kind: str = "per_request"  # power-of-2 rounding of the alternatives (module docstring)
    max_redraws: int = 200


@dataclass(frozen=True)
class WorkloadParams:
    """A moldable workload: machine size P, rigid and moldability parameters."""

    machine_size: int = 500  # §5.1: the simulated supercomputer had 500 processors
    rigid: RigidParams = field(default_factory=RigidParams)
    moldability: MoldabilityParams = field(default_factory=MoldabilityParams)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["rigid"]["arrival"] = [p.to_dict() for p in self.rigid.arrival]
        return d


def params_from_dict(d: dict[str, Any] | None) -> WorkloadParams:
    """WorkloadParams from a (partial) nested dict, e.g. YAML config; unknown keys are errors."""
    d = dict(d or {})
    base = WorkloadParams()
    allowed = {"machine_size", "rigid", "moldability"}
    if set(d) - allowed:
        raise ConfigError(f"synthetic workload: unknown parameter(s) {sorted(set(d) - allowed)}")
    rigid = _replace(base.rigid, d.get("rigid") or {}, "rigid")
    mold = _replace(base.moldability, d.get("moldability") or {}, "moldability")
    out = WorkloadParams(int(d.get("machine_size", base.machine_size)), rigid, mold)
    validate_params(out)
    return out


def _replace(obj: Any, upd: dict[str, Any], where: str) -> Any:
    kw: dict[str, Any] = {}
    for k, v in upd.items():
        if not hasattr(obj, k):
            raise ConfigError(f"synthetic workload: unknown parameter {where}.{k}")
        cur = getattr(obj, k)
        if k == "arrival":
            if v in (None, "published"):
                continue
            names = {p.name: p for p in PUBLISHED_POLYNOMIALS}
            kw[k] = tuple(names[x] if isinstance(x, str) and x in names
                          else ArrivalPolynomial.from_dict(x) for x in v)
        elif isinstance(cur, UniformLog | JointUniformLog):
            kw[k] = type(cur)(**{kk: float(vv) for kk, vv in v.items()})
        else:
            kw[k] = type(cur)(v)
    return replace(obj, **kw)


def validate_params(p: WorkloadParams) -> None:
    """Raise ConfigError for parameters outside their domain."""
    r, m = p.rigid, p.moldability
    checks = [
        (p.machine_size >= 1, "machine_size must be >= 1"),
        (0 <= r.pc <= 1, "rigid.pc must be in [0, 1]"),
        (0 <= r.pb <= 1, "rigid.pb must be in [0, 1]"),
        (r.alpha_a > 0 and r.beta_a > 0, "rigid.alpha_a and beta_a must be > 0"),
        (r.kappa_L > 0, "rigid.kappa_L must be > 0"),
        (r.arrival_factor > 0, "rigid.arrival_factor must be > 0"),
        (r.arrival_unit in ARRIVAL_UNITS,
         f"rigid.arrival_unit must be one of {sorted(ARRIVAL_UNITS)}"),
        (r.arrival_normalisation in ("printed", "log_daily_count"),
         "rigid.arrival_normalisation must be printed or log_daily_count"),
        (r.accuracy_above_1 in ("redraw", "clip"), "rigid.accuracy_above_1 must be redraw or clip"),
        (len(r.arrival) > 0, "rigid.arrival needs at least one polynomial"),
        (0 <= m.p_cu1 <= 1, "moldability.p_cu1 must be in [0, 1]"),
        (m.sd_sigma >= 0 and m.kappa_sigma > 0, "moldability sd_sigma >= 0, kappa_sigma > 0"),
        (m.kind in ("per_request", "per_job"), "moldability.kind must be per_request or per_job"),
    ]
    for ok, msg in checks:
        if not ok:
            raise ConfigError(f"synthetic workload: {msg}")
    for poly in r.arrival:
        if poly.rate_per_minute(np.arange(MINUTES_PER_DAY)).max() <= 0:
            raise ConfigError(f"arrival polynomial {poly.name} is <= 0 all day")
        if r.arrival_normalisation == "log_daily_count" and not (poly.jobs_per_day or 0) > 0:
            raise ConfigError(f"rigid.arrival_normalisation log_daily_count: arrival polynomial "
                              f"{poly.name} has no jobs_per_day")


#: arrivals per minute of one unit of lambda_a under each ``RigidParams.arrival_unit``
ARRIVAL_UNITS = {"minute": 1.0, "ten_minutes": 0.1, "hour": 1.0 / 60.0}


def arrival_scale(params: WorkloadParams, poly: ArrivalPolynomial) -> float:
    """What multiplies ``poly.rate_per_minute`` to give arrivals per minute on the simulated
    machine under the readings of ``params.rigid`` (module docstring): P/O (unless
    ``scale_to_machine`` is off), kappa_L, ``arrival_factor``, and either the unit's arrivals per
    minute (``arrival_unit``) or the factor that makes a day hold ``poly.jobs_per_day``
    (``arrival_normalisation="log_daily_count"``)."""
    r = params.rigid
    if r.arrival_normalisation == "log_daily_count":
        if not (poly.jobs_per_day or 0) > 0:
            raise ConfigError(f"arrival polynomial {poly.name} has no jobs_per_day to normalise to")
        reading = float(poly.jobs_per_day) / poly.daily_integral()  # type: ignore[arg-type]
    else:
        reading = ARRIVAL_UNITS[r.arrival_unit]
    machine = params.machine_size / poly.procs if r.scale_to_machine else 1.0
    return machine * r.kappa_L * r.arrival_factor * reading


def _seed_sequence(seed: int | np.random.SeedSequence) -> np.random.SeedSequence:
    return seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)


def _child(ss: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """Child stream ``i`` of ``ss`` (what ``ss.spawn`` would give, without mutating ``ss``, so a
    SeedSequence passed twice gives the same workload twice)."""
    return np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, i),
                                  pool_size=ss.pool_size)


def closest_power_of_two(n: np.ndarray) -> np.ndarray:
    """2**round(log2 n) for n >= 1."""
    return np.exp2(np.round(np.log2(np.maximum(n, 1)))).astype(np.int64)


def arrival_instants(poly: ArrivalPolynomial, scale: float, n_jobs: int,
                     rng: np.random.Generator) -> np.ndarray:
    """``n_jobs`` arrival instants [s] of a Poisson process with rate scale * poly(minute of day)."""
    rate_min = poly.rate_per_minute(np.arange(MINUTES_PER_DAY)) * scale  # per minute
    lam_max = float(rate_min.max()) / 60.0  # per second
    if lam_max <= 0:
        raise ConfigError(f"arrival polynomial {poly.name} gives no arrivals")
    out: list[np.ndarray] = []
    t0, have = 0.0, 0
    while have < n_jobs:
        k = max(1024, int(1.5 * (n_jobs - have) * lam_max / max(rate_min.mean() / 60, 1e-12)))
        t = t0 + np.cumsum(rng.exponential(1.0 / lam_max, k))
        minute = (t // 60).astype(np.int64) % MINUTES_PER_DAY
        accept = rng.uniform(0.0, 1.0, k) * lam_max < rate_min[minute] / 60.0
        out.append(t[accept])
        have += int(accept.sum())
        t0 = float(t[-1])
    return np.concatenate(out)[:n_jobs]


def _accuracy(rng: np.random.Generator, alpha: float, beta: float, size: int,
              above_1: str = "redraw") -> np.ndarray:
    """Gamma(alpha, scale beta) accuracies in (0, 1]: draws above 1 drawn again (``"redraw"``)
    or set to 1 (``"clip"``); a draw of 0 is always drawn again."""
    cap = 1.0 if above_1 == "clip" else np.inf
    a = np.minimum(rng.gamma(alpha, beta, size), cap)
    bad = (a > 1) | (a <= 0)
    while bad.any():
        a[bad] = np.minimum(rng.gamma(alpha, beta, int(bad.sum())), cap)
        bad = (a > 1) | (a <= 0)
    return a


def rigid_workload(params: WorkloadParams, n_jobs: int,
                   seed: int | np.random.SeedSequence) -> tuple[pd.DataFrame, dict[str, Any]]:
    """``n_jobs`` rigid jobs (Table 11); returns (jobs, info). See the module docstring."""
    if n_jobs < 1:
        raise ConfigError(f"synthetic workload: n_jobs must be >= 1 (got {n_jobs})")
    validate_params(params)
    ss = _seed_sequence(seed)
    s_arr, s_job = _child(ss, 0), _child(ss, 1)
    r, P = params.rigid, params.machine_size
    rng = np.random.default_rng(s_arr)
    which = int(rng.integers(len(r.arrival)))
    poly = r.arrival[which]
    scale = arrival_scale(params, poly)
    t = arrival_instants(poly, scale, n_jobs, rng)
    rng = np.random.default_rng(s_job)
    n = r.n.sample_int(rng, n_jobs, high=P)
    to_p2 = rng.uniform(size=n_jobs) < r.pb
    p2 = closest_power_of_two(n)
    n = np.where(to_p2 & (p2 <= P), p2, n)
    tr = r.tr.sample(rng, n_jobs) * r.kappa_L
    a = _accuracy(rng, r.alpha_a, r.beta_a, n_jobs, r.accuracy_above_1)
    te = tr * a
    cancelled = rng.uniform(size=n_jobs) < r.pc
    lag = r.lc.sample(rng, n_jobs)
    submit = np.floor(t).astype(np.int64)
    runtime = np.maximum(1, np.round(te)).astype(np.int64)
    jobs = pd.DataFrame({
        "job_id": np.arange(1, n_jobs + 1, dtype=np.int64),
        "submit": submit,
        "runtime": runtime,
        "estimate": np.maximum(runtime, np.ceil(tr)).astype(np.int64),
        "procs": n.astype(np.int64),
        "user_id": np.full(n_jobs, -1, dtype=np.int64),
        "cancel_time": np.where(cancelled, submit + lag, np.nan),
        "te": te, "tr": tr, "accuracy": a,
    })
    info = {"arrival_polynomial": poly.name,
            "arrival_scale": scale,
            "entropy": str(ss.entropy), "spawn_key": list(ss.spawn_key), "n_jobs": n_jobs}
    return jobs, info


def _moldability_draws(n: np.ndarray, P: int, m: MoldabilityParams,
                       rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """(c_min, A, sigma, c_max, widened) per job, redrawn until c_min <= n <= c_max."""
    k = n.size
    cmin = np.zeros(k, np.int64)
    A = np.zeros(k)
    sig = np.zeros(k)
    cmax = np.zeros(k, np.int64)
    todo = np.arange(k)
    x_max = float(m.c_min.ppf(1.0))
    lo, hi = m.A.conditional_log2_range(x_max)
    mu = m.mu_sigma * m.kappa_sigma
    for _ in range(m.max_redraws if m.condition_on_request else 1):
        if todo.size == 0:
            break
        j = todo.size
        c = m.c_min.sample_int(rng, j)
        la = rng.uniform(np.maximum(lo, np.log2(c)), hi)
        a_ = np.exp2(la)
        s = rng.normal(mu, m.sd_sigma, j)
        neg = s < 0
        while neg.any():
            s[neg] = rng.normal(mu, m.sd_sigma, int(neg.sum()))
            neg = s < 0
        cm = np.minimum(np.floor(downey_c_max(a_, s) + 1e-9).astype(np.int64), P)
        cmin[todo], A[todo], sig[todo], cmax[todo] = c, a_, s, cm
        ok = (c <= n[todo]) & (n[todo] <= cm)
        todo = todo[~ok]
    widened = np.zeros(k, bool)
    if not m.condition_on_request:
        # a machine smaller than c_min caps c_max below it: the range keeps c_max only
        return np.minimum(cmin, cmax), A, sig, cmax, widened
    widened[todo] = True
    cmin[todo] = np.minimum(cmin[todo], n[todo])
    cmax[todo] = np.maximum(cmax[todo], n[todo])
    return cmin, A, sig, cmax, widened


def apply_moldability(jobs: pd.DataFrame, params: WorkloadParams,
                      seed: int | np.random.SeedSequence | np.random.Generator
                      ) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """Moldability model (Table 12) on a job table with ``job_id, procs, runtime, estimate``.

    Returns (jobs with model columns c_min, c_max, c_u, A, sigma, L added, alternatives, info).
    ``te`` / ``accuracy`` columns are used when present, else runtime and runtime/estimate.
    """
    for col in ("job_id", "procs", "runtime", "estimate"):
        if col not in jobs.columns:
            raise ConfigError(f"moldability model: job table lacks column {col!r}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    m, P = params.moldability, params.machine_size
    n = jobs["procs"].to_numpy(np.int64)
    if (n < 1).any() or (n > P).any():
        raise ConfigError(f"moldability model: procs must be in [1, {P}] (machine size)")
    te = jobs["te"].to_numpy(float) if "te" in jobs else jobs["runtime"].to_numpy(float)
    if "accuracy" in jobs:
        acc = jobs["accuracy"].to_numpy(float)
    else:
        est = jobs["estimate"].to_numpy(float)
        acc = np.clip(np.divide(te, est, out=np.ones_like(te), where=est > 0), 1e-9, 1.0)
    cmin, A, sig, cmax, widened = _moldability_draws(n, P, m, rng)
    k = n.size
    cu = np.where(rng.uniform(size=k) < m.p_cu1, 1, m.c_u.sample_int(rng, k, low=1))
    L = te * speedup(n, A, sig)
    # c_u - 1 extra sizes per job, uniform on [c_min, c_max], pb -> closest power of two inside.
    extra = cu - 1
    owner = np.repeat(np.arange(k), extra)
    lo, hi = cmin[owner], cmax[owner]
    size = rng.integers(lo, hi + 1)
    p2 = closest_power_of_two(size)
    p2 = np.where(p2 > hi, p2 // 2, p2)
    p2 = np.where(p2 < lo, p2 * 2, p2)
    inside = (p2 >= lo) & (p2 <= hi)
    coin = rng.uniform(size=owner.size) < params.rigid.pb
    if m.kind == "per_job":  # a power-of-2 job's requests are all powers of two; others never
        coin = (n[owner] & (n[owner] - 1)) == 0
    size = np.where(coin & inside, p2, size)
    user = np.arange(k)
    if not m.condition_on_request:
        user = user[(cmin <= n) & (n <= cmax)]
        # keep c_u choices: a user request outside the range is replaced by one more draw
        more = np.setdiff1d(np.arange(k), user)
        owner = np.concatenate([owner, more])
        extra_n = rng.integers(cmin[more], cmax[more] + 1)
        if m.kind == "per_job":  # the replacement size of a power-of-2 job is one too
            q = closest_power_of_two(extra_n)
            q = np.where(q > cmax[more], q // 2, q)
            q = np.where(q < cmin[more], q * 2, q)
            ok = (q >= cmin[more]) & (q <= cmax[more]) & ((n[more] & (n[more] - 1)) == 0)
            extra_n = np.where(ok, q, extra_n)
        size = np.concatenate([size, extra_n])
    alt_owner = np.concatenate([user, owner])
    alt_n = np.concatenate([n[user], size])
    alts = pd.DataFrame({"i": alt_owner, "procs": alt_n}).drop_duplicates()
    alts = alts.sort_values(["i", "procs"], kind="stable")
    i = alts["i"].to_numpy()
    n_alt = alts["procs"].to_numpy()
    te_alt = L[i] / speedup(n_alt, A[i], sig[i])
    run_alt = np.maximum(1, np.round(te_alt)).astype(np.int64)
    alternatives = pd.DataFrame({
        "job_id": jobs["job_id"].to_numpy(np.int64)[i],
        "procs": n_alt.astype(np.int64),
        "runtime": run_alt,
        "estimate": np.maximum(run_alt, np.ceil(te_alt / acc[i])).astype(np.int64),
    }).reset_index(drop=True)
    out = jobs.copy()
    out["c_min"], out["c_max"], out["c_u"] = cmin, cmax, cu.astype(np.int64)
    out["A"], out["sigma"], out["L"] = A, sig, L
    info = {"widened": int(widened.sum()), "alternatives": len(alternatives),
            "mean_alternatives": len(alternatives) / max(k, 1)}
    return out, alternatives, info


def moldable_workload(params: WorkloadParams | None, n_jobs: int,
                      seed: int | np.random.SeedSequence
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A moldable workload in memory: ``(jobs, alternatives)`` (module docstring for columns).

    ``jobs.attrs["info"]`` records the seed entropy, the chosen arrival polynomial and counts.
    """
    params = params or WorkloadParams()
    ss = _seed_sequence(seed)
    jobs, info = rigid_workload(params, n_jobs, ss)
    jobs, alts, minfo = apply_moldability(jobs, params, np.random.default_rng(_child(ss, 2)))
    jobs.attrs["info"] = info | {"moldability": minfo}
    return jobs, alts


def offered_load(jobs: pd.DataFrame, machine_size: int) -> float:
    """sum(runtime * procs) / (P * span of submits) (cancellations ignored)."""
    span = float(jobs["submit"].max() - jobs["submit"].min())
    work = float((jobs["runtime"].astype(float) * jobs["procs"]).sum())
    return work / (machine_size * span) if span > 0 else math.nan


def params_from_fits(fits: dict[str, dict[str, Any]], trace_procs: int,
                     base: WorkloadParams | None = None) -> tuple[WorkloadParams, list[str]]:
    """Rigid-model parameters fitted from a trace (``results/models/{trace}/*.json`` contents,
    by model name); moldability stays as in ``base`` (Table 12 comes from the survey, not from
    logs). Returns (params, notes on what could not be fitted and kept its base value)."""
    base = base or WorkloadParams()
    notes: list[str] = []
    unfitted = [k for k in ("arrival", "partition_size", "accuracy", "requested_time")
                if k in fits and not fits[k].get("fitted", True)]
    if unfitted:
        raise ConfigError(f"cannot synthesize from fits of {fits[unfitted[0]].get('trace')}: "
                          f"model(s) {unfitted} were not fitted ({fits[unfitted[0]]['notes']})")
    try:
        arr = fits["arrival"]["params"]
        poly = ArrivalPolynomial(fits["arrival"].get("trace") or "fitted",
                                 tuple(float(c) for c in arr["coef_ascending"]), int(trace_procs))
        c = fits["cancellation"]["params"]
        n = fits["partition_size"]["params"]
        a = fits["accuracy"]["params"]
        t = fits["requested_time"]["params"]
    except KeyError as e:
        raise ConfigError(f"fitted models lack {e} (need arrival, cancellation, partition_size, "
                          "accuracy, requested_time)") from None
    upd: dict[str, Any] = {"arrival": (poly,), "n": UniformLog(n["chi_n"], n["rho_n"]),
                           "pb": n["pb"], "tr": UniformLog(t["chi_tr"], t["rho_tr"]),
                           "alpha_a": a["alpha_a"], "beta_a": a["beta_a"]}
    if c.get("pc") is None:
        notes.append("the trace has no cancellations: pc and the lag model keep their "
                     "published values (Table 11)")
    else:
        upd |= {"pc": c["pc"], "lc": UniformLog(c["chi_lc"], c["rho_lc"])}
    out = replace(base, rigid=replace(base.rigid, **upd))
    validate_params(out)
    return out, notes


def swf_workload(jobs: pd.DataFrame, machine_size: int, note: str = "") -> tuple[pd.DataFrame, Any]:
    """The user requests of a synthetic workload as an SWF table and header (cancelled jobs get
    status 5; fields the model does not produce are -1). Cancellation instants and the moldable
    alternatives have no SWF field: they stay in the parquet tables."""
    from ..traces.swf import SWF_COLUMNS, SWFHeader

    out = pd.DataFrame({c: np.full(len(jobs), -1, dtype=np.int64) for c in SWF_COLUMNS})
    for c in ("avg_cpu_time", "used_mem_kb", "req_mem_kb"):
        out[c] = out[c].astype(np.float64)
    out["job_id"] = jobs["job_id"].to_numpy()
    out["submit_time"] = jobs["submit"].to_numpy()
    out["run_time"] = jobs["runtime"].to_numpy()
    out["alloc_procs"] = jobs["procs"].to_numpy()
    out["req_procs"] = jobs["procs"].to_numpy()
    out["req_time"] = jobs["estimate"].to_numpy()
    out["status"] = np.where(jobs["cancel_time"].notna(), 5, 1)
    header = SWFHeader.parse([
        "; Version: 2.2",
        "; Computer: synthetic workload, Cirne 2001 rigid + moldability models (Tables 11-12)",
        f"; MaxJobs: {len(jobs)}", f"; MaxRecords: {len(jobs)}",
        f"; MaxProcs: {machine_size}", f"; MaxNodes: {machine_size}",
        *([f"; Note: {note}"] if note else []),
        "; Note: cancelled jobs have status 5; cancellation instants and the moldable",
        ";       alternatives are in the parquet tables written with this file",
    ])
    return out, header
