"""A flurry detector for logs without published filters (cf. Tsafrir & Feitelson, "Workload
flurries", cited in Talby & Feitelson 2005 §2.3: bursts of activity by a single user that dominate
a log for a while and distort simulation results).

Statistic. Jobs are binned by user and day (``day = submit_time // 86400``, log time). For user
``u`` and day ``d`` let ``c(u, d)`` be the jobs ``u`` submitted that day, ``b(u)`` the user's
*normal activity*: the 75th percentile of ``c(u, .)`` over all days of the log (inactive days
count as 0; at least 1), and ``m`` the log's mean jobs per day. A (user, day) is *hot* when all of

* ``c(u, d) >= min_jobs``            (default 500: a burst is large in absolute terms),
* ``c(u, d) >= user_ratio * b(u)``   (default 10: far above that user's normal activity),
* ``c(u, d) >= log_ratio * m``       (default 3: the user alone submits three average days of
  the whole log's jobs in one day, so the burst visibly distorts the log).

With these defaults the 14 mirrored cleaned logs give no candidate in 9 logs, 1-2 in CEA-Curie,
LANL-CM5, SDSC-SP2 and Sandia-Ross, and 24 in HPC2N (its users submit bursts of hundreds of
jobs); the un-cleaned RICC log gives 4 (91,576 jobs, mostly one user). How the defaults were
chosen: among round values (min_jobs 200 or 500, log_ratio 2, 3 or 5) we took the least strict
pair that leaves most cleaned logs without candidates (a cleaned log should show few flurries).
They are options (``config clean: flurry: {...}``).

Hot days of one user separated by at most ``max_gap_days`` quiet days (default 1) form one flurry;
it is extended to the user's jobs just before and after it while consecutive submissions of that
user are at most ``extend_gap_s`` apart (default 3600 s: a burst crossing midnight is one
flurry). Each candidate is reported with its job range (first/last job number of the user's
jobs in it), job count, time span and ``score = max over its days of c(u, d) / b(u)``. Nothing is removed unless the
caller asks (:func:`remove_flurries`); ``config clean: remove_flurries: true`` makes the
``clean_trace`` rule drop the candidates' jobs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from ..errors import ConfigError

DAY = 86400
CANDIDATE_COLUMNS = ["user_id", "first_job", "last_job", "jobs", "first_submit", "last_submit",
                     "span_hours", "days", "peak_jobs_per_day", "normal_jobs_per_day", "score"]


@dataclass(frozen=True)
class FlurrySettings:
    """Detector thresholds (see module docstring)."""

    min_jobs: int = 500
    user_ratio: float = 10.0
    log_ratio: float = 3.0
    baseline_quantile: float = 0.75
    max_gap_days: int = 1
    extend_gap_s: int = 3600

    def __post_init__(self) -> None:
        bad = [k for k, v in vars(self).items() if not np.isfinite(v)]
        if bad:
            raise ConfigError(f"flurry detector: {', '.join(bad)} must be a finite number")
        if self.min_jobs < 1 or self.user_ratio <= 0 or self.log_ratio < 0:
            raise ConfigError("flurry detector: min_jobs >= 1, user_ratio > 0, log_ratio >= 0")
        if not 0 <= self.baseline_quantile <= 1 or self.max_gap_days < 0:
            raise ConfigError("flurry detector: baseline_quantile in [0,1], max_gap_days >= 0")

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def daily_activity(jobs: pd.DataFrame) -> pd.DataFrame:
    """Jobs per (user, day): a users x days count matrix over the whole log span."""
    day = (jobs["submit_time"].to_numpy(np.int64) - int(jobs["submit_time"].min())) // DAY
    df = pd.DataFrame({"user_id": jobs["user_id"].to_numpy(), "day": day})
    counts = df.groupby(["user_id", "day"]).size().unstack(fill_value=0)
    return counts.reindex(columns=np.arange(int(day.max()) + 1), fill_value=0)


def detect_flurries(jobs: pd.DataFrame, settings: FlurrySettings | None = None) -> pd.DataFrame:
    """Candidate flurries, one row each (columns :data:`CANDIDATE_COLUMNS`), by score."""
    s = settings or FlurrySettings()
    for col in ("job_id", "submit_time", "user_id"):
        if col not in jobs.columns:
            raise ConfigError(f"flurry detector: job table lacks {col!r}")
    if len(jobs) == 0:
        return pd.DataFrame(columns=CANDIDATE_COLUMNS)
    counts = daily_activity(jobs)
    mat = counts.to_numpy()
    base = np.maximum(np.quantile(mat, s.baseline_quantile, axis=1), 1.0)
    mean_day = len(jobs) / mat.shape[1]
    hot = (mat >= s.min_jobs) & (mat >= s.user_ratio * base[:, None]) & (mat >= s.log_ratio * mean_day)
    day = (jobs["submit_time"].to_numpy(np.int64) - int(jobs["submit_time"].min())) // DAY
    rows = []
    for ui in np.flatnonzero(hot.any(axis=1)):
        user = counts.index[ui]
        days = np.flatnonzero(hot[ui])
        groups = np.split(days, np.flatnonzero(np.diff(days) > s.max_gap_days + 1) + 1)
        mine = np.flatnonzero(jobs["user_id"].to_numpy() == user)
        mine = mine[np.argsort(jobs["submit_time"].to_numpy(np.int64)[mine], kind="stable")]
        t_mine = jobs["submit_time"].to_numpy(np.int64)[mine]
        d_mine = day[mine]
        for g in groups:
            core = np.flatnonzero((d_mine >= g[0]) & (d_mine <= g[-1]))
            lo, hi = int(core[0]), int(core[-1])
            while lo > 0 and t_mine[lo] - t_mine[lo - 1] <= s.extend_gap_s:
                lo -= 1
            while hi < t_mine.size - 1 and t_mine[hi + 1] - t_mine[hi] <= s.extend_gap_s:
                hi += 1
            sel = np.zeros(len(jobs), dtype=bool)
            sel[mine[lo:hi + 1]] = True
            j = jobs.loc[sel]
            peak = int(mat[ui, g].max())
            rows.append({"user_id": int(user), "first_job": int(j["job_id"].min()),
                         "last_job": int(j["job_id"].max()), "jobs": int(sel.sum()),
                         "first_submit": int(j["submit_time"].min()),
                         "last_submit": int(j["submit_time"].max()),
                         "span_hours": float(j["submit_time"].max() - j["submit_time"].min()) / 3600,
                         "days": int(g[-1] - g[0] + 1), "peak_jobs_per_day": peak,
                         "normal_jobs_per_day": float(base[ui]), "score": peak / float(base[ui])})
    out = pd.DataFrame(rows, columns=CANDIDATE_COLUMNS)
    return out.sort_values(["score", "user_id"], ascending=[False, True], kind="stable"
                           ).reset_index(drop=True)


def remove_flurries(jobs: pd.DataFrame, candidates: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Drop each candidate's jobs (its user, job numbers in its range). Returns (kept, removed)."""
    gone = np.zeros(len(jobs), dtype=bool)
    jid, uid = jobs["job_id"].to_numpy(), jobs["user_id"].to_numpy()
    for c in candidates.itertuples():
        gone |= (uid == c.user_id) & (jid >= c.first_job) & (jid <= c.last_job)
    return jobs.loc[~gone].reset_index(drop=True), int(gone.sum())


def plot_activity(jobs: pd.DataFrame, candidates: pd.DataFrame, title: str = "",
                  top_users: int = 8):
    """Per-user activity: jobs per day of the busiest users (and every flagged user), flagged
    days marked. Returns a matplotlib figure (saved by the caller with ``save_figure``)."""
    from ..report.plotting import new_figure

    counts = daily_activity(jobs)
    users = list(counts.sum(axis=1).nlargest(top_users).index)
    users += [u for u in candidates["user_id"].unique() if u not in users]
    fig, ax = new_figure(width=9, height=4.5)
    for u in users:
        ax.plot(counts.columns, counts.loc[u].to_numpy(), lw=0.8, label=f"user {u}")
    t0 = int(jobs["submit_time"].min())
    for c in candidates.itertuples():
        ax.axvspan((c.first_submit - t0) / DAY, (c.last_submit - t0) / DAY + 1, color="red",
                   alpha=0.15)
    ax.set_yscale("symlog", linthresh=10)
    ax.set_xlabel("day of log")
    ax.set_ylabel("jobs submitted per day")
    ax.set_title(title or f"per-user activity ({len(candidates)} flurry candidates shaded)")
    ax.legend(fontsize=7, ncol=2, loc="upper right")
    return fig
