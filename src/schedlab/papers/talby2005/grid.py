"""Talby & Feitelson 2005: the experiment grid — which sweep points the settings run.

A sweep point is a log x version (clean/raw) x one of

* ``sched/<name>``: a plain scheduler of §2.1 (conservative, easy, flex, maui);
* ``pbas/<cands>-<metric>-<frame>``: PBAS (§3) with candidates ``fm`` (Flex, Maui) or ``all4``
  (Flex, Maui, EASY, conservative: §3.4), switching metric and time frame in seconds;
* ``wbas/maf<MAF>-sw<frame>``: WBAS (§4.2) with its moving-average factor and switch time;
* ``attr/batch``: every run of the attribution experiment on the log that is not a main run
  (:func:`attr_batch`), in one job: each reading (config ``attribution.readings``: a scheduler with
  options) on the log normalized with its cancelled-job rule ``keep``/``drop``/``withdraw``
  (:func:`schedlab.traces.normalize.normalize`); the output holds monthly sums
  (:func:`.months.month_sums`) per ``reading`` and ``cancelled``. (One job per log
  instead of one per run: the runs are seconds each, the per-job start-up is not.)

:func:`grid` lists the points of the settings (their scale sets the grid's sizes: the logs run,
the adaptive logs, the PBAS/WBAS frames); each becomes one point of the paper contract
(:mod:`schedlab.papers`), id :attr:`SweepPoint.path`. What a point simulates is :mod:`.runs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import ConfigError
from .config import Settings

CANDIDATE_SETS = {"fm": ("flex", "maui"), "all4": ("flex", "maui", "easy", "conservative")}
#: Variants of the attribution runs (config ``attribution.variants``), added to the cancelled rule
#: as ``<rule>+<variant>``: ``flurries`` = the cleaned log with its removed flurries modelled back
#: in (:mod:`.flurries`; the paper's raw logs, Table 1); ``exact_estimates`` = requested
#: time := run time; ``separate_months`` = every calendar month simulated on its own (empty
#: machine at its start) instead of cut from one run of the whole log (§2.3 "we re-ran the
#: simulations and gathered per-month results ... 67 unique workloads").
VARIANTS = ("flurries", "exact_estimates", "separate_months")
@dataclass(frozen=True)
class SweepPoint:
    """One sweep point (see module docstring); ``path`` is its file stem under the runs folder."""

    log: str
    version: str
    kind: str       # sched | pbas | wbas | attr
    name: str       # scheduler name, "<cands>-<metric>-<frame>", "maf<MAF>-sw<frame>" or
                    # "<reading>~<cancelled>"

    @property
    def path(self) -> str:
        return f"{self.log}-{self.version}/{self.kind}/{self.name}"


def pbas_name(cands: str, metric: str, frame: int) -> str:
    return f"{cands}-{metric}-{int(frame)}"


def wbas_name(maf: float, frame: int) -> str:
    return f"maf{int(maf)}-sw{int(frame)}"


def attr_name(reading: str, cancelled: str) -> str:
    return f"{reading}~{cancelled}"


def attribution_keys(cfg: Settings, logs: Sequence[str]) -> list[tuple[str, str, str]]:
    """(log, reading, cancelled) of the attribution experiment (config ``attribution``), on the
    ``logs`` of ``logs`` that are also in ``attribution.logs`` (null: every one): every reading of
    ``run_readings`` (null: every reading) under the configured ``cancelled`` rule, the variants
    and the ``cancelled_readings`` under every rule of ``cancelled_rules``; and Flex's slack
    factors (reading ``flex_slack<f>``) under the configured rule on the ``logs`` that are in
    ``slack_logs`` (null: every one), whether or not ``attribution.logs`` names them (with the
    main runs there, which are the sched points)."""
    at = cfg.attribution
    slack_logs = logs if at.get("slack_logs") is None else [x for x in logs if x in at["slack_logs"]]
    if at.get("logs") is not None:
        logs = [x for x in logs if x in at["logs"]]
    run = at.get("run_readings")
    keys = [(log, r, cfg.cancelled) for log in logs
            for r in (at["readings"] if run is None else run)]
    keys += [(log, r, variant_rule(cfg.cancelled, mod)) for log in logs
             for mod, rs in (at.get("variants") or {}).items() for r in rs]
    keys += [(log, r, c) for log in logs for r in at["cancelled_readings"]
             for c in at["cancelled_rules"]]
    keys += [(log, slack_reading(f), cfg.cancelled) for log in slack_logs
             for f in at["slack_factors"]]
    # a slack log the rest leaves out keeps its main runs (no run of their own): the readings
    # change one thing against them
    keys += [(log, r, cfg.cancelled) for log in slack_logs if log not in logs
             for r in at["readings"] if attr_point(cfg, log, r, cfg.cancelled).kind == "sched"]
    return sorted(set(keys))


def attr_point(cfg: Settings, log: str, reading: str, cancelled: str) -> SweepPoint:
    """The run of an attribution key: the main ``sched`` point when the reading is exactly a main
    scheduler with its configured options under the configured cancelled rule (no duplicate run),
    else an ``attr`` point."""
    sname, opts = attr_reading(cfg, reading)
    version = cfg.main_version
    if (cancelled == cfg.cancelled and sname in cfg.schedulers
            and opts == dict(cfg.scheduler_options.get(sname) or {})):
        return SweepPoint(log, version, "sched", sname)
    return SweepPoint(log, version, "attr", "batch")


def attr_batch(cfg: Settings, log: str) -> list[tuple[str, str]]:
    """(reading, cancelled) of the attribution runs of ``log`` that are not main runs."""
    return [(r, c) for lg, r, c in attribution_keys(cfg, [log])
            if attr_point(cfg, lg, r, c).kind == "attr"]


def variant_rule(cancelled: str, mod: str) -> str:
    """The rule string of a variant run: cancelled rule ``+`` modifier (:data:`VARIANTS`)."""
    if mod not in VARIANTS:
        raise ConfigError(f"talby2005: unknown attribution variant {mod!r}; choose {VARIANTS}")
    return f"{cancelled}+{mod}"


def split_rule(rule: str) -> tuple[str, tuple[str, ...]]:
    """(cancelled rule, variant modifiers) of a rule string such as ``drop+flurries``."""
    cancelled, *mods = rule.split("+")
    return cancelled, tuple(mods)


def slack_reading(factor: float) -> str:
    return f"flex_slack{factor:g}"


def attr_reading(cfg: Settings, reading: str) -> tuple[str, dict[str, Any]]:
    """(scheduler, options) of an attribution reading (``flex_slack<f>``: Flex with the configured
    options and slack factor ``f``)."""
    if reading.startswith("flex_slack"):
        opts = dict(cfg.scheduler_options.get("flex", {}))
        opts["slack_factor"] = float(reading.removeprefix("flex_slack"))
        return "flex", opts
    try:
        r = cfg.attribution["readings"][reading]
    except KeyError:
        raise ConfigError(f"talby2005: unknown attribution reading {reading!r}") from None
    return r["scheduler"], dict(r.get("options") or {})


def run_logs(cfg: Settings) -> list[str]:
    """The logs simulated: ``run_logs`` (null: every configured log)."""
    return list(cfg.logs) if cfg.run_logs is None else list(cfg.run_logs)


def grid(cfg: Settings) -> list[SweepPoint]:
    """All sweep points: the four schedulers on every log run; on ``adaptive_logs`` (null: every
    log run) PBAS with Flex and Maui at every metric x frame of ``pbas`` and Table 5's best,
    Figure 3's four candidates at ``pbas.four.figure3_time_frames_s`` (and Table 6's frames on
    its log when ``pbas.four.table6``), WBAS at the sweeps of ``wbas`` and Table 8's best; the
    attribution runs. Raw-log points (Table 4 raw rows) only when the raw log is available
    locally."""
    logs = run_logs(cfg)
    pb, wb = cfg.pbas, cfg.wbas
    adaptive_logs = logs if cfg.adaptive_logs is None else list(cfg.adaptive_logs)
    version = cfg.main_version
    pts: list[SweepPoint] = []
    for log in logs:
        for s in cfg.schedulers:
            pts.append(SweepPoint(log, version, "sched", s))
            if version == "clean" and cfg.raw_local.get(log):
                pts.append(SweepPoint(log, "raw", "sched", s))
        if log not in adaptive_logs:
            continue
        pbas = {(m, f) for m in pb["metrics"] for f in pb["time_frames_s"]}
        pbas |= {(b["metric"], b["time_frame_s"]) for b in pb["best"]}
        for m, f in sorted(pbas):
            pts.append(SweepPoint(log, version, "pbas", pbas_name("fm", m, f)))
        # Figure 3 on every log with adaptive runs; Table 6 (its log, BLUE) at every frame of
        # ``pbas.four`` when ``table6`` (each BLUE point costs ~25-30 CPU-s)
        four = pb["four"]
        table6 = set(four["time_frames_s"]) if log == four["log"] and four["table6"] else set()
        for f in sorted(set(four["figure3_time_frames_s"]) | table6):
            pts.append(SweepPoint(log, version, "pbas", pbas_name("all4", four["metric"], f)))
        wbas = {(wb["maf_fixed"], s) for s in wb["switch_times_s"]}
        wbas |= {(m, wb["switch_fixed_s"]) for m in wb["mafs"]}
        wbas |= {(b["maf"], b["switch_s"]) for b in wb["best"]}
        for maf, sw in sorted(wbas):
            pts.append(SweepPoint(log, version, "wbas", wbas_name(maf, sw)))
    if cfg.attribution:
        pts += [attr_point(cfg, *k) for k in attribution_keys(cfg, logs)]
    # (attribution runs equal to a main run are that run; the others are one batch per log)
    return sorted(set(pts), key=lambda p: p.path)


def parse_name(kind: str, name: str) -> dict[str, Any]:
    """Parameters from a point name (inverse of :func:`pbas_name` / :func:`wbas_name`)."""
    try:
        if kind == "sched":
            return {"scheduler": name}
        if kind == "pbas":
            cands, metric, frame = name.split("-")
            return {"candidates": list(CANDIDATE_SETS[cands]), "metric": metric,
                    "time_frame": int(frame)}
        if kind == "wbas":
            maf, sw = name.split("-")
            return {"maf": float(maf.removeprefix("maf")), "time_frame": int(sw.removeprefix("sw"))}
        if kind == "attr":
            reading, cancelled = name.split("~")
            return {"reading": reading, "cancelled": cancelled}
    except (ValueError, KeyError):
        pass
    raise ConfigError(f"talby2005: bad sweep point {kind}/{name}")
