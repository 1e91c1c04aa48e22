# Perković & Keleher 2000 (randomization, speculation, adaptation in backfilling): one job per sweep
# point (machine x experiment x algorithm), then one rule assembling Tables 1-3, Figures 3-9 and the
# scorecard. Target: `snakemake perkovic2000` (config quick=true: ~1 minute; full=true: paper scale).
import dataclasses

import yaml

from schedlab.papers.perkovic2000 import FIGURE_TITLES as PK_FIGURES
from schedlab.papers.perkovic2000 import grid as pk_grid
from schedlab.papers.perkovic2000 import paper_setting_points as pk_paper_points
from schedlab.papers.perkovic2000 import settings as pk_settings

PK_CFG = yaml.safe_load(Path("config/papers/perkovic2000.yaml").read_text())
_pk_overrides = config.get("papers", {}).get("perkovic2000", {})
PK_CFG.update({k: v for k, v in _pk_overrides.items() if k != "quick"})
PK_QUICK = bool(config.get("quick") or _pk_overrides.get("quick"))
PK_FULL = bool(config.get("full"))
PK_SETTINGS = pk_settings(PK_CFG, PK_QUICK, PK_FULL)
# What a simulation depends on (published values, tolerances and readings do not re-run the sweep).
PK_SIM_SETTINGS = {k: v for k, v in PK_SETTINGS.items()
                   if k not in ("published", "tolerance", "attribution", "quick_settings",
                                "full_settings", "flurry", "sweep_seeds")}
PK_POINTS = pk_grid(PK_CFG, PK_QUICK, PK_FULL)
PK_OUT = "results/perkovic2000"

# Runs of different job subsets never overwrite each other: runs/n5000/..., runs/all/...
_pk_scale = lambda max_jobs: f"n{max_jobs}" if max_jobs else "all"  # noqa: E731


PK_SCALE = _pk_scale(PK_SETTINGS["max_jobs"])
PK_PAPER = PK_SETTINGS.get("paper_setting") or {}
PK_PAPER_SCALE = _pk_scale(PK_PAPER.get("max_jobs"))
PK_PAPER_POINTS = pk_paper_points(PK_SETTINGS)
PK_SCALES = {PK_SCALE: PK_SETTINGS["max_jobs"]}
if PK_PAPER_POINTS:
    PK_SCALES[PK_PAPER_SCALE] = PK_PAPER.get("max_jobs")
PK_BY_PATH = {(PK_SCALE, p.path): dataclasses.asdict(p) for p in PK_POINTS}
PK_BY_PATH.update({(PK_PAPER_SCALE, p.path): dataclasses.asdict(p) for p in PK_PAPER_POINTS})
PK_EXTRA = [int(m) for m in PK_SETTINGS.get("extra_machines", [])]
PK_OUTPUTS = [
    *[f"{PK_OUT}/tables/{t}.parquet" for t in ("summary", "table1", "table2", "table3", "section8")],
    *[f"{PK_OUT}/figures/{f}.{ext}" for f in PK_FIGURES for ext in ("parquet", "png", "pdf")],
    *[f"{PK_OUT}/figures/fig3_{m}.{ext}" for m in PK_EXTRA for ext in ("parquet", "png", "pdf")],
    f"{PK_OUT}/scorecard.parquet",
]


rule perkovic2000_jobs:
    input:
        f"results/traces/{PK_SETTINGS['trace']}/jobs.parquet",
    output:
        all=f"{PK_OUT}/jobs/{{scale}}/all.parquet",
        sim=f"{PK_OUT}/jobs/{{scale}}/sim.parquet",
    wildcard_constraints:
        scale="|".join(PK_SCALES),
    params:
        settings={k: PK_SETTINGS[k] for k in ("trace", "machine")},
        max_jobs=lambda wc: PK_SCALES[wc.scale],
    log:
        "logs/perkovic2000/jobs_{scale}.log",
    conda:
        "../envs/schedlab.yaml"
    script:
        "../../scripts/perkovic2000_jobs.py"


rule perkovic2000_run:
    input:
        f"{PK_OUT}/jobs/{{scale}}/sim.parquet",
    output:
        f"{PK_OUT}/runs/{{scale}}/{{machine}}/{{variant}}/{{algo}}.parquet",
    wildcard_constraints:
        scale="|".join(PK_SCALES),
        machine=r"\d+",
    params:
        point=lambda wc: PK_BY_PATH[(wc.scale, f"{wc.machine}/{wc.variant}/{wc.algo}")],
        settings=PK_SIM_SETTINGS,
    log:
        "logs/perkovic2000/{scale}/{machine}/{variant}/{algo}.log",
    conda:
        "../envs/schedlab.yaml"
    script:
        "../../scripts/perkovic2000_run.py"


rule perkovic2000_tables:
    input:
        runs=[f"{PK_OUT}/runs/{PK_SCALE}/{p.path}.parquet" for p in PK_POINTS],
        jobs_all=f"{PK_OUT}/jobs/{PK_SCALE}/all.parquet",
        jobs_sim=f"{PK_OUT}/jobs/{PK_SCALE}/sim.parquet",
        trace=f"results/traces/{PK_SETTINGS['trace']}/jobs.parquet",
        paper_runs=[f"{PK_OUT}/runs/{PK_PAPER_SCALE}/{p.path}.parquet" for p in PK_PAPER_POINTS],
    output:
        PK_OUTPUTS,
    params:
        settings=PK_SETTINGS,
        points=[dataclasses.asdict(p) for p in PK_POINTS],
        paper_points=[dataclasses.asdict(p) for p in PK_PAPER_POINTS],
    log:
        "logs/perkovic2000/tables.log",
    conda:
        "../envs/schedlab.yaml"
    script:
        "../../scripts/perkovic2000_tables.py"


# Attribution of the load gap (issue 24; below): part of the paper target except in quick mode.
PK_ATTRIBUTION = [] if PK_QUICK else [f"{PK_OUT}/tables/attribution.parquet",
                                      f"{PK_OUT}/tables/attribution.md"]


rule perkovic2000:
    input:
        PK_OUTPUTS,
        PK_ATTRIBUTION,


ALL_TARGETS.extend(PK_OUTPUTS)
ALL_TARGETS.extend(PK_ATTRIBUTION)


# Attribution of the load gap (issue 24): the base experiment (BF, 1/L, P/L-NG, R/L-NG) under
# each reading of the paper's setup, on the whole log. Target: `snakemake perkovic2000_attribution`
# (part of `perkovic2000` and `all` unless quick=true).
# `full_readings` (the costly ones) join the readings with full=true.
PK_READINGS = {**PK_CFG.get("attribution", {}).get("readings", {}),
               **(PK_CFG.get("attribution", {}).get("full_readings", {}) if PK_FULL else {})}


rule perkovic2000_attribution_run:
    input:
        f"results/traces/{PK_SETTINGS['trace']}/jobs.parquet",
    output:
        f"{PK_OUT}/attribution/{{reading}}.parquet",
    wildcard_constraints:
        reading="|".join(PK_READINGS) or "none",
    params:
        settings=PK_SIM_SETTINGS,
        reading=lambda wc: PK_READINGS[wc.reading],
        flurry=PK_SETTINGS.get("flurry"),
        table1=PK_SETTINGS["published"]["table1"],
    log:
        "logs/perkovic2000/attribution_{reading}.log",
    conda:
        "../envs/schedlab.yaml"
    script:
        "../../scripts/perkovic2000_attribution_run.py"


rule perkovic2000_attribution:
    input:
        [f"{PK_OUT}/attribution/{r}.parquet" for r in PK_READINGS],
    output:
        table=f"{PK_OUT}/tables/attribution.parquet",
        markdown=f"{PK_OUT}/tables/attribution.md",
    params:
        settings=PK_SETTINGS,
        readings=PK_READINGS,
    log:
        "logs/perkovic2000/attribution.log",
    conda:
        "../envs/schedlab.yaml"
    script:
        "../../scripts/perkovic2000_attribution.py"

