"""Cirne 2001 (PhD thesis) applied to any log: its workload model, and SA on workloads like it.

(a) ``model_parameters`` — chapter 3: the rigid workload model fitted to this log (rule
``fit_models`` -> ``results/models/{trace}/*.json``, read from ``inputs.models_dir``) beside the
thesis' published values for its ANL, CTC, KTH and SDSC logs (Tables 1–10, from
``config/papers/cirne2001.yaml`` ``models.published``, passed as ``inputs.paper``; rows and
quantities as in
:func:`schedlab.models.compare.comparison_tables`). The thesis columns are reference points from
other logs, not targets.

(b) §5.1 single-target experiment (Tables 13 and 14) and §6.1 (Table 18), run by
:mod:`schedlab.papers.cirne2001` (:func:`~schedlab.papers.cirne2001.run_single_workload`,
:func:`~schedlab.papers.cirne2001.table13` / ``table14`` / ``table18``) on synthetic moldable
workloads whose rigid part is fitted from this log (:func:`schedlab.models.synth.params_from_fits`, as rule
``synthesize`` does for ``results/synthetic/cirne2001-{trace}/``) and whose moldability is the
thesis' Table 12 model (it comes from the survey, not from logs): for each target job, the
turn-around with the user's request, with the request SA picks and with the best request,
conservative backfilling. ``table13``: geometric mean turn-around of best / SA / user with a
bootstrap CI (resampling whole workloads); ``table14``: % of targets for which SA (and the best
request) did better / same / worse than the user request; ``table18``: SA and user request for the
target in static and adaptive workloads. Column ``Cirne thesis`` = the thesis' value (Tables 11–12
model, 500 processors, 360,000 experiments on 10,000-job workloads): a reference, not a target.

Readings chosen:

* machine: the log's own size (``machine_procs: log``); the thesis simulated 500 processors (set
  ``machine_procs: 500``). The fitted arrival rate is scaled by machine size / log size, as
  :mod:`schedlab.models.synth` does, so the offered load follows the log's;
* a quantity the log cannot give (e.g. no cancelled jobs -> pc and the cancellation lag) keeps the
  thesis' Table 11 value; each such case is listed in ``synthetic_model`` (column ``source``);
* sizes: ``experiments`` targets on workloads of ``jobs_per_workload`` jobs, ``targets_per_workload``
  per workload (the thesis: one target per 10,000-job workload; ours share a workload's history,
  which the bootstrap resamples by workload);
* seeds: ``seed`` is the root SeedSequence entropy (workload ``w`` from spawn key (0, w), its
  targets from (2, w), the bootstrap from (3,) — the paper driver's scheme).

Cost (HPC2N, shared 2-core machine): default (400 targets on ten 2,000-job workloads) ~14 s CPU;
quick (40 targets, 500-job workloads) ~2 s CPU; full: 4,000 targets on 10,000-job workloads (the
thesis' workload size).

Settings: ``machine_procs`` ("log" or int), ``seed``, ``experiments``, ``targets_per_workload``,
``jobs_per_workload``, ``resamples``, ``confidence``, ``sa_version`` (cb | g), ``params``
(overrides of :func:`schedlab.models.synth.params_from_dict`, applied before the fitted values),
``sa_config`` (path of ``config/papers/cirne2001_sa.yaml``, relative to the working directory: the
published values of Tables 13, 14 and 18 live there, not in the paper config the pipeline passes).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from ..errors import ConfigError
from ..models.compare import comparison_tables
from ..models.synth import params_from_dict, params_from_fits
from ..papers import cirne2001 as c01
from ..sim.options import SimOptions
from . import StudyInputs

TITLE = ("Cirne 2001: the workload model fitted to the log (ch. 3) and SA choosing moldable "
         "requests on workloads fitted from it (§5.1, Tables 13–14; §6.1, Table 18)")
NOTES = ("Synthetic moldable workloads: rigid part fitted from this log, moldability from the "
         "thesis' Table 12; conservative backfilling on the log's machine size. Columns 'Cirne …' "
         "are the thesis' values for its own logs and model: reference points, not targets.")
REF = "Cirne thesis"
THESIS_LOGS = ("ANL", "CTC", "KTH", "SDSC")
_BASE = {"machine_procs": "log", "seed": 20010601, "sa_version": "cb", "confidence": 0.95,
         "params": {}, "sa_config": "config/papers/cirne2001_sa.yaml"}
DEFAULTS: dict[str, dict[str, Any]] = {
    "default": {**_BASE, "experiments": 400, "targets_per_workload": 40, "jobs_per_workload": 2000,
                "resamples": 1000},
    "quick": {**_BASE, "experiments": 40, "targets_per_workload": 20, "jobs_per_workload": 500,
              "resamples": 200},
    "full": {**_BASE, "experiments": 4000, "targets_per_workload": 50,
             "jobs_per_workload": 10000, "resamples": 1000},
}


def _yaml(path: str) -> dict[str, Any]:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"trace study cirne2001: config {path} not found")
    return yaml.safe_load(p.read_text())


def read_fits(models_dir: Path | None, trace: str) -> dict[str, dict[str, Any]]:
    """The fitted models of ``trace`` (``results/models/{trace}/*.json``) by model name."""
    if models_dir is None or not Path(models_dir).is_dir():
        raise ConfigError(f"trace study cirne2001: fitted models of {trace} not found "
                          f"({models_dir}); rule fit_models builds them")
    fits = {p.stem: json.loads(p.read_text()) for p in sorted(Path(models_dir).glob("*.json"))}
    if not fits:
        raise ConfigError(f"trace study cirne2001: no fitted model in {models_dir}")
    return fits


def model_table(fits: dict[str, dict[str, Any]], published: dict[str, Any], trace: str,
                info: dict[str, Any]) -> pd.DataFrame:
    """One row per (thesis table, quantity): this log's fitted value beside the thesis' ANL / CTC /
    KTH / SDSC values (every thesis workload mapped to this log in
    :func:`~schedlab.models.compare.comparison_tables`, so ``reproduced`` is this log's value)."""
    tables = comparison_tables(published, dict.fromkeys(THESIS_LOGS, trace), {trace: fits},
                               {trace: info})
    long = pd.concat(list(tables.values()), ignore_index=True)
    keys = ["ref", "quantity", "unit"]
    wide = long.drop_duplicates(keys)[[*keys, "reproduced"]].rename(
        columns={"reproduced": "this log"}).reset_index(drop=True)
    for wl in THESIS_LOGS:
        pub = long[long["workload"] == wl].set_index(keys)["published"]
        wide[f"Cirne {wl}"] = [pub.get(k, math.nan) for k in wide[keys].itertuples(index=False)]
    return wide


def synthetic_params(fits: dict[str, dict[str, Any]], settings: dict[str, Any]
                     ) -> tuple[dict[str, Any], pd.DataFrame]:
    """The workload model dict for :func:`~schedlab.papers.cirne2001.run_single_workload` (rigid
    part fitted from the log) and a table of the rigid parameters with their source."""
    base = params_from_dict(settings.get("params") or {})
    procs = int(fits["partition_size"]["params"].get("machine_size") or base.machine_size)
    params, notes = params_from_fits(fits, procs, base)
    model = params.to_dict()
    model.pop("machine_size")
    kept = {"pc", "lc"} if any("no cancellations" in n for n in notes) else set()
    rows = []
    for k, v in model["rigid"].items():
        if k == "arrival":
            v = f"polynomial of degree {len(v[0]['coef']) - 1}, fitted for {v[0]['procs']} procs"
        rows.append({"parameter": k, "value": json.dumps(v) if isinstance(v, dict) else str(v),
                     "source": "Table 11 (thesis)" if k in kept or k == "kappa_L"
                     else "fitted from the log"})
    return model, pd.DataFrame(rows)


def sa_settings(settings: dict[str, Any], machine_size: int, sim: SimOptions = SimOptions()
                ) -> c01.Settings:
    """The paper driver's settings (validated by
    :func:`~schedlab.papers.cirne2001.config.resolve_settings`); the single-target experiments'
    engine options are ``sim`` with their pinned tie rule (:data:`~schedlab.papers.cirne2001.TIE_RULE`)."""
    m = settings.get("machine_procs", "log")
    procs = int(machine_size) if m == "log" else int(m)
    if procs < 1:
        raise ConfigError(f"trace study cirne2001: machine_procs must be 'log' or >= 1, got {m!r}")
    return c01.resolve_settings({
        "machine_procs": procs, "seed": int(settings["seed"]),
        "sa_version": settings.get("sa_version", "cb"),
        "single_target": {**{k: settings[k] for k in ("experiments", "targets_per_workload",
                                                      "jobs_per_workload")},
                          "sim": sim.pinned({"tie_rule": c01.TIE_RULE}).as_dict()},
    })


def _with_reference(df: pd.DataFrame, values: dict[str, float]) -> pd.DataFrame:
    df[REF] = [float(values.get(r, math.nan)) for r in df["request"]]
    return df


def run(inputs: StudyInputs, settings: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Model comparison and Tables 13/14/18 on workloads fitted from ``inputs``' log."""
    fits = read_fits(inputs.models_dir, inputs.trace)
    if "models" not in inputs.paper:
        raise ConfigError("trace study cirne2001 needs config/papers/cirne2001.yaml "
                          "(StudyInputs.paper)")
    published = inputs.paper["models"]["published"]
    models = model_table(fits, published, inputs.trace,
                         {"jobs": len(inputs.jobs), "machine_size": inputs.machine_size})
    model, synth = synthetic_params(fits, settings)
    s = sa_settings(settings, inputs.machine_size, inputs.sim)
    exp = pd.concat([c01.run_single_workload(s, w, model)[0] for w in range(s.n_workloads)],
                    ignore_index=True)
    rng = np.random.default_rng(np.random.SeedSequence(int(s.seed), spawn_key=(3,)))
    B, conf = int(settings["resamples"]), float(settings["confidence"])
    pub = _yaml(settings["sa_config"])["published"]
    t13 = c01.table13(exp, rng, B, conf)
    t13 = t13[t13["unit"] == "s"].drop(columns="unit").reset_index(drop=True)  # seconds only
    t13 = _with_reference(t13, pub["table13_geomean_tt_s"])
    t14 = c01.table14(exp)
    shares = pub["table14_share_pct"]
    t14[REF] = [100 * pub["expected_same_fraction"] if r == "expected"
                else float(shares.get(r, {}).get(o, math.nan))
                for r, o in zip(t14["request"], t14["outcome"], strict=True)]
    t18 = _with_reference(c01.table18(exp, rng, B, conf), pub["table18_geomean_tt_s"])
    out = {"model_parameters": models, "synthetic_model": synth, "table13": t13, "table14": t14,
           "table18": t18}
    for name, df in out.items():
        df.insert(0, "trace", inputs.trace)
        if name.startswith("table"):
            df.insert(1, "machine_procs", s.machine_procs)
            df.insert(2, "workloads", s.n_workloads)
            df.insert(3, "jobs_per_workload", s.single_target["jobs_per_workload"])
    return out


def figures(tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """Table 13 (geometric mean turn-around with CI; thesis values as markers) and Table 14
    (better / same / worse shares) side by side."""
    import seaborn as sns

    from ..report.plotting import new_figure

    t13, t14 = tables["table13"], tables["table14"]
    fig, (a, b) = new_figure(1, 2, width=5.0, height=3.8)
    x = np.arange(len(t13))
    a.errorbar(x, t13["geomean_s"], yerr=np.vstack([t13["geomean_s"] - t13["ci_low"],
                                                    t13["ci_high"] - t13["geomean_s"]]),
               fmt="o", capsize=4, label="this log's model (95% bootstrap CI)")
    a.plot(x, t13[REF], "D", color="k", label="thesis (its model, 500 procs)")
    a.set_xticks(x, t13["request"])
    a.set_xlim(-0.5, len(t13) - 0.5)
    a.set_yscale("log")
    a.set_ylabel("geometric mean turn-around [s]")
    a.set_title("Table 13: target turn-around", fontsize=9)
    a.legend(fontsize=7)
    d = t14[t14["request"] != "expected"]
    sns.barplot(data=d, x="outcome", y="percent", hue="request", ax=b, errorbar=None)
    b.set_ylabel("% of targets vs the user request")
    b.set_title("Table 14: adaptive request vs user request", fontsize=9)
    fig.suptitle(f"Cirne §5.1 on workloads fitted from {t13['trace'].iloc[0]} "
                 f"({int(t13['machine_procs'].iloc[0])} processors, "
                 f"{int(t13['n'].iloc[0])} targets)", fontsize=10)
    return {"table13_14": fig}
