# Tang, Ren, Lan & Desai 2013 (metric-aware scheduling, adaptive tuning): one job per sweep point
# (log x BF x W, adaptive schemes), Table 4 timings per log, then one rule assembling the tables,
# figures and scorecard. Target: `snakemake tang2013`. Offline, the BG/P study runs on a labelled
# substitute log (config/papers/tang2013.yaml, logs.BGP.substitute).
from dataclasses import asdict

import yaml

from schedlab.papers.tang2013 import ADAPTIVE as TANG_ADAPTIVE
from schedlab.papers.tang2013 import BASE_READINGS as TANG_BASE_READING_SPECS
from schedlab.papers.tang2013 import log_specs as tang_log_specs
from schedlab.papers.tang2013 import sweep_points as tang_sweep_points

TANG_CFG = yaml.safe_load(Path("config/papers/tang2013.yaml").read_text())
_tang_overrides = config.get("papers", {}).get("tang2013", {})
TANG_CFG.update({k: v for k, v in _tang_overrides.items() if k != "quick"})
TANG_QUICK = bool(config.get("quick") or _tang_overrides.get("quick"))
TANG_FULL = bool(config.get("full"))
TANG_SPECS = tang_log_specs(TANG_CFG, trace_is_local(TANG_CFG["logs"]["BGP"]["trace"]),
                            TANG_QUICK, TANG_FULL)
TANG_SPEC = {s.label: asdict(s) for s in TANG_SPECS}
TANG_POINTS = tang_sweep_points(TANG_CFG, TANG_QUICK, TANG_FULL)
TANG_OUT = "results/tang2013"
TANG_TIMING_JOBS = TANG_CFG["quick_settings"]["timing_jobs"] if TANG_QUICK else TANG_CFG["timing_jobs"]
TANG_SERIES_KEYS = [(s.label, p) for s in TANG_SPECS for p in TANG_POINTS]
# Attribution (issue 22), part of the paper target (~100 CPU-s; alone: `snakemake
# tang2013_attribution`): SP2 under both readings of "the first 5000 jobs", each with every
# fair-start reading and both thresholds -> tables attribution_runs / attribution_table3 /
# attribution_unfair / attribution_unfair_margins; and the Step-5 search with and without a cap on
# both logs -> table search_cap.
TANG_SELECTIONS = ["records", "runnable"]
TANG_ATTRIBUTION = [f"{TANG_OUT}/tables/{n}.parquet" for n in (
    "attribution_runs", "attribution_table3", "attribution_unfair", "attribution_unfair_margins",
    "search_cap", "attribution_base")]
# Base-schedule readings (issue 22): the cheap ones in the default target, all with full=True.
TANG_BASE_READINGS = [n for n, r in TANG_BASE_READING_SPECS.items()
                      if TANG_FULL or r["cost"] == "default"]
TANG_OUTPUTS = [
    *[f"{TANG_OUT}/tables/table{s.table.split()[-1]}_{s.label}.parquet" for s in TANG_SPECS],
    *[f"{TANG_OUT}/tables/{n}.parquet" for n in ("sweep", "scores", "gains", "gains_published",
                                                 "table4", "thresholds")],
    *[f"{TANG_OUT}/figures/{s.figures[k]}_{s.label}.{ext}" for s in TANG_SPECS
      for k in ("metrics", "bf_adapt", "util", "twod") for ext in ("png", "pdf")],
    *[f"{TANG_OUT}/figures/{f}.{ext}" for f in ("fig11_radar", "fig12_gains")
      for ext in ("png", "pdf")],
    f"{TANG_OUT}/scorecard.parquet",
]




rule tang2013_run:
    input:
        trace=lambda wc: f"results/traces/{TANG_SPEC[wc.log]['trace']}/jobs.parquet",
        base=lambda wc: ([f"{TANG_OUT}/runs/{wc.log}/bf1_w1/series.parquet"]
                         if wc.point in TANG_ADAPTIVE else []),
    output:
        jobs=f"{TANG_OUT}/runs/{{log}}/{{point}}/jobs.parquet",
        series=f"{TANG_OUT}/runs/{{log}}/{{point}}/series.parquet",
        summary=f"{TANG_OUT}/runs/{{log}}/{{point}}/summary.parquet",
    wildcard_constraints:
        log="|".join(re.escape(k) for k in TANG_SPEC),
        point="|".join(re.escape(p) for p in TANG_POINTS),
    params:
        spec=lambda wc: TANG_SPEC[wc.log],
        cfg=TANG_CFG,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/{log}/{point}.log",
    script:
        "../../scripts/tang2013_run.py"


rule tang2013_table4:
    input:
        trace=lambda wc: f"results/traces/{TANG_SPEC[wc.log]['trace']}/jobs.parquet",
    output:
        f"{TANG_OUT}/runs/{{log}}/table4.parquet",
    wildcard_constraints:
        log="|".join(re.escape(k) for k in TANG_SPEC),
    params:
        spec=lambda wc: TANG_SPEC[wc.log],
        jobs=TANG_TIMING_JOBS,
        selection=TANG_CFG.get("job_selection", "records"),
        windows=[1, 2, 3, 4, 5],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/{log}/table4.log",
    script:
        "../../scripts/tang2013_table4.py"


rule tang2013_attribution_run:
    input:
        trace=lambda wc: f"results/traces/{TANG_SPEC['SP2']['trace']}/jobs.parquet",
    output:
        f"{TANG_OUT}/attribution/SP2_{{selection}}.parquet",
    wildcard_constraints:
        selection="|".join(TANG_SELECTIONS),
    params:
        spec=TANG_SPEC["SP2"],
        cfg=TANG_CFG,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/attribution_{selection}.log",
    script:
        "../../scripts/tang2013_attribution.py"


rule tang2013_attribution_assemble:
    input:
        [f"{TANG_OUT}/attribution/SP2_{s}.parquet" for s in TANG_SELECTIONS],
    output:
        runs=f"{TANG_OUT}/tables/attribution_runs.parquet",
        table=f"{TANG_OUT}/tables/attribution_table3.parquet",
        unfair=f"{TANG_OUT}/tables/attribution_unfair.parquet",
        margins=f"{TANG_OUT}/tables/attribution_unfair_margins.parquet",
    params:
        cfg=TANG_CFG,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/attribution.log",
    script:
        "../../scripts/tang2013_attribution_assemble.py"


rule tang2013_search_cap:
    input:
        traces=[f"results/traces/{s.trace}/jobs.parquet" for s in TANG_SPECS],
        bases=[f"{TANG_OUT}/runs/{s.label}/bf1_w1/series.parquet" for s in TANG_SPECS],
    output:
        f"{TANG_OUT}/tables/search_cap.parquet",
    params:
        cfg=TANG_CFG,
        specs=[asdict(s) for s in TANG_SPECS],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/search_cap.log",
    script:
        "../../scripts/tang2013_search_cap.py"


rule tang2013_base_attribution:
    input:
        trace=f"results/traces/{TANG_SPEC['SP2']['trace']}/jobs.parquet",
        base=f"{TANG_OUT}/runs/SP2/bf1_w1/series.parquet",
        jobs=[f"{TANG_OUT}/runs/SP2/{p}/jobs.parquet" for p in TANG_CFG["configurations"].values()],
    output:
        f"{TANG_OUT}/tables/attribution_base.parquet",
    params:
        cfg=TANG_CFG,
        spec=TANG_SPEC["SP2"],
        readings=TANG_BASE_READINGS,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/attribution_base.log",
    script:
        "../../scripts/tang2013_base_attribution.py"


rule tang2013_assemble:
    input:
        summaries=[f"{TANG_OUT}/runs/{l}/{p}/summary.parquet" for l, p in TANG_SERIES_KEYS],
        series=[f"{TANG_OUT}/runs/{l}/{p}/series.parquet" for l, p in TANG_SERIES_KEYS],
        table4=[f"{TANG_OUT}/runs/{s.label}/table4.parquet" for s in TANG_SPECS],
    output:
        TANG_OUTPUTS,
    params:
        cfg=TANG_CFG,
        specs=[asdict(s) for s in TANG_SPECS],
        series_keys=TANG_SERIES_KEYS,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/tang2013/assemble.log",
    script:
        "../../scripts/tang2013_assemble.py"


rule tang2013:
    input:
        TANG_OUTPUTS,
        TANG_ATTRIBUTION,


rule tang2013_attribution:
    input:
        TANG_ATTRIBUTION,


ALL_TARGETS.extend([*TANG_OUTPUTS, *TANG_ATTRIBUTION])
