# Schroeder & Harchol-Balter (2004): task assignment in a distributed server (issue 5).
# Target: snakemake schroeder2004   (quick: --config quick=true; paper scale: --config full=true)
import yaml

from schedlab.papers import schroeder2004 as S04

with open("config/papers/schroeder2004.yaml") as _fh:
    S04_RAW = yaml.safe_load(_fh)
S04_OVERRIDES = (config.get("papers") or {}).get("schroeder2004") or {}
if config.get("quick") or S04_OVERRIDES.get("quick"):
    S04_SCALE = "quick"
elif config.get("full"):
    S04_SCALE = "paper"
else:
    S04_SCALE = S04_OVERRIDES.get("scale", "default")
S04_CFG = S04.resolve_config(S04_RAW, S04_SCALE, S04_OVERRIDES, "config/papers/schroeder2004.yaml")
S04_TRACE = S04_CFG["trace"]
REGISTRY[S04_TRACE]  # unknown trace name -> clear error
S04_SHA = REGISTRY.expected_sha256(S04_TRACE)
S04_DIR = "results/schroeder2004"
S04_EXPERIMENTS = S04.experiments(S04_CFG)
S04_FIGURES = expand(f"{S04_DIR}/figures/{{stem}}.{{ext}}", stem=S04.figure_stems(S04_CFG),
                     ext=["png", "pdf"])


rule schroeder2004_table1:
    input:
        [f"results/traces/{e['trace']}/jobs.parquet" for e in S04_CFG["table1"].values()],
    output:
        f"{S04_DIR}/tables/table1.parquet",
    params:
        entries=S04_CFG["table1"],
        registry=config["registry"],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/schroeder2004/table1.log",
    script:
        "../../scripts/schroeder2004_table1.py"


rule schroeder2004_cutoffs:
    input:
        f"results/traces/{S04_TRACE}/jobs.parquet",
    output:
        f"{S04_DIR}/tables/cutoffs.parquet",
    params:
        cfg=S04_CFG,
        sha256=S04_SHA,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/schroeder2004/cutoffs.log",
    script:
        "../../scripts/schroeder2004_cutoffs.py"


rule schroeder2004_simulate:
    input:
        jobs=f"results/traces/{S04_TRACE}/jobs.parquet",
        cutoffs=f"{S04_DIR}/tables/cutoffs.parquet",
    output:
        f"{S04_DIR}/tables/sim_{{s04experiment}}.parquet",
    wildcard_constraints:
        s04experiment="|".join(S04_EXPERIMENTS),
    params:
        cfg=S04_CFG,
        sha256=S04_SHA,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/schroeder2004/sim_{s04experiment}.log",
    script:
        "../../scripts/schroeder2004_simulate.py"


rule schroeder2004_analysis:
    input:
        jobs=f"results/traces/{S04_TRACE}/jobs.parquet",
        cutoffs=f"{S04_DIR}/tables/cutoffs.parquet",
    output:
        f"{S04_DIR}/tables/analysis.parquet",
    params:
        cfg=S04_CFG,
        sha256=S04_SHA,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/schroeder2004/analysis.log",
    script:
        "../../scripts/schroeder2004_analysis.py"


rule schroeder2004_report:
    input:
        table1=f"{S04_DIR}/tables/table1.parquet",
        cutoffs=f"{S04_DIR}/tables/cutoffs.parquet",
        analysis=f"{S04_DIR}/tables/analysis.parquet",
        sims=expand(f"{S04_DIR}/tables/sim_{{e}}.parquet", e=S04_EXPERIMENTS),
    output:
        scorecard=f"{S04_DIR}/scorecard.parquet",
        attribution=f"{S04_DIR}/tables/attribution_service_order.parquet",
        figures=S04_FIGURES,
    params:
        cfg=S04_CFG,
        sha256=S04_SHA,
        published=S04_RAW["published"],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/schroeder2004/report.log",
    script:
        "../../scripts/schroeder2004_report.py"


rule schroeder2004:
    input:
        rules.schroeder2004_report.output,
        rules.schroeder2004_table1.output,


ALL_TARGETS.extend([f"{S04_DIR}/scorecard.parquet", f"{S04_DIR}/tables/table1.parquet"])
