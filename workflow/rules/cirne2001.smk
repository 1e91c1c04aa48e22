# Cirne 2001 (thesis ch. 2, 4-6): SA choosing moldable requests (issue 9).
# Target: snakemake cirne2001   (quick: --config quick=true; thesis scale: --config full=true)
# Settings: config/papers/cirne2001_sa.yaml (override path: --config cirne2001_sa=PATH).
import yaml

from schedlab.papers import cirne2001 as C01

C01_CONFIG = config.get("cirne2001_sa", "config/papers/cirne2001_sa.yaml")
with open(C01_CONFIG) as _fh:
    C01_RAW = yaml.safe_load(_fh)
C01_OVR = (config.get("papers") or {}).get("cirne2001") or {}
# the synthetic-workload parameter overrides of the chapter-3 models (issue 4), shared with them
with open("config/papers/cirne2001.yaml") as _fh:
    C01_MODEL = ((yaml.safe_load(_fh) or {}).get("models") or {}).get("synthetic", {}).get("params")
C01_S = C01.settings(
    C01_RAW,
    quick=bool(config.get("quick") or C01_OVR.get("quick")),
    scale="paper" if config.get("full") else C01_OVR.get("scale", "default"),
)
C01_DIR = "results/cirne2001"
C01_SINGLE = expand(f"{C01_DIR}/runs/single/w{{w}}.parquet", w=range(C01_S["n_workloads"]))
C01_SWEEP = [
    f"{C01_DIR}/runs/sweep/{param}/{value:g}/w{w}.parquet"
    for param in ("kappa_L", "kappa_sigma")
    for value in C01_S["offered_load"][param]
    for w in range(C01_S["offered_load"]["workloads_per_point"])
]
C01_TABLES = expand(f"{C01_DIR}/tables/{{t}}.parquet", t=C01.TABLES)
C01_FIGURES = expand(f"{C01_DIR}/figures/{{f}}.{{ext}}", f=C01.FIGURES, ext=["png", "pdf"])


rule cirne2001_single:
    output:
        f"{C01_DIR}/runs/single/w{{w}}.parquet",
    wildcard_constraints:
        w=r"\d+",
    params:
        settings=C01_S,
        model=C01_MODEL,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/single_w{w}.log",
    script:
        "../../scripts/cirne2001_single.py"


rule cirne2001_sweep:
    output:
        f"{C01_DIR}/runs/sweep/{{param}}/{{value}}/w{{w}}.parquet",
    wildcard_constraints:
        param="kappa_L|kappa_sigma",
        value=r"[0-9.]+",
        w=r"\d+",
    params:
        settings=C01_S,
        model=C01_MODEL,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/sweep_{param}_{value}_w{w}.log",
    script:
        "../../scripts/cirne2001_sweep.py"


rule cirne2001_tables:
    input:
        single=C01_SINGLE,
        sweep=C01_SWEEP,
    output:
        C01_TABLES,
    params:
        settings=C01_S,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/tables.log",
    script:
        "../../scripts/cirne2001_tables.py"


rule cirne2001_figures:
    input:
        tables=C01_TABLES,
    output:
        C01_FIGURES,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/figures.log",
    script:
        "../../scripts/cirne2001_figures.py"


rule cirne2001_scorecard:
    input:
        tables=C01_TABLES,
    output:
        f"{C01_DIR}/scorecard.parquet",
    params:
        settings=C01_S,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/scorecard.log",
    script:
        "../../scripts/cirne2001_scorecard.py"


rule cirne2001:
    input:
        C01_TABLES,
        C01_FIGURES,
        f"{C01_DIR}/scorecard.parquet",


ALL_TARGETS.extend([*C01_TABLES, *C01_FIGURES, f"{C01_DIR}/scorecard.parquet"])
