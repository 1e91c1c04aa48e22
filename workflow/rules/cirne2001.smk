# Cirne 2001 (thesis ch. 2, 4-6): SA choosing moldable requests (issue 9).
# Target: snakemake cirne2001   (quick: --config quick=True; larger samples: --config full=True;
# the thesis' sizes: --config 'papers={cirne2001: {scale: paper}}')
# Settings: config/papers/cirne2001_sa.yaml (override path: --config cirne2001_sa=PATH).
# §5.4 NAS validation (Table 16, Figure 57): one job per real log, only when the SP2 execution
# times are configured (nas_validation.execution_times); otherwise Table 16 reports "not run".
import yaml

from schedlab.papers import cirne2001 as C01
from schedlab.papers import cirne2001_nas as C01N

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
    scale=C01_OVR.get("scale") or ("full" if config.get("full") else "default"),
)
C01_DIR = "results/cirne2001"
# quick: every run inside the tables job (few Snakemake jobs); otherwise one job per workload
C01_INLINE = bool(C01_S.get("inline_runs"))
C01_NAS_LOGS = (
    list(C01_S["nas_validation"]["logs"])
    if C01N.not_run_reason(C01_S["nas_validation"]) is None
    else []
)
C01_NAS_TRACES = [f"results/traces/{log}/jobs.parquet" for log in C01_NAS_LOGS]
C01_SINGLE = (
    []
    if C01_INLINE
    else expand(f"{C01_DIR}/runs/single/w{{w}}.parquet", w=range(C01_S["n_workloads"]))
)
C01_SWEEP = (
    []
    if C01_INLINE
    else expand(
        f"{C01_DIR}/runs/sweep/{{param}}/w{{w}}.parquet",
        param=["kappa_L", "kappa_sigma"],
        w=range(C01_S["offered_load"]["workloads_per_point"]),
    )
)
C01_NAS_RUNS = (
    [] if C01_INLINE else [f"{C01_DIR}/runs/nas/{log}.parquet" for log in C01_NAS_LOGS]
)
C01_TABLES = expand(f"{C01_DIR}/tables/{{t}}.parquet", t=C01.TABLES)
C01_FIGURES = expand(
    f"{C01_DIR}/figures/{{f}}.{{ext}}",
    f=[*C01.FIGURES, *([C01.NAS_FIGURE] if C01_NAS_LOGS else [])],
    ext=["png", "pdf"],
)


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
        f"{C01_DIR}/runs/sweep/{{param}}/w{{w}}.parquet",
    wildcard_constraints:
        param="kappa_L|kappa_sigma",
        w=r"\d+",
    params:
        tie_rule=SIM_TIE_RULE,
        settings=C01_S,
        model=C01_MODEL,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/sweep_{param}_w{w}.log",
    script:
        "../../scripts/cirne2001_sweep.py"


rule cirne2001_nas:
    input:
        "results/traces/{log}/jobs.parquet",
    output:
        f"{C01_DIR}/runs/nas/{{log}}.parquet",
    wildcard_constraints:
        log="|".join(C01_S["nas_validation"]["logs"]),
    params:
        settings=C01_S,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/nas_{log}.log",
    script:
        "../../scripts/cirne2001_nas.py"


C01_ATT = C01_S.get("attribution") or {}
C01_ATT_RUNS = expand(
    f"{C01_DIR}/runs/attribution/{{reading}}/w{{w}}.parquet",
    reading=list(C01_ATT.get("readings") or {}),
    w=range(int(C01_ATT.get("workloads", 0))),
)


rule cirne2001_attribution_run:
    output:
        f"{C01_DIR}/runs/attribution/{{reading}}/w{{w}}.parquet",
    wildcard_constraints:
        w=r"\d+",
    params:
        settings=C01_S,
        model=C01_MODEL,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/attribution_{reading}_w{w}.log",
    script:
        "../../scripts/cirne2001_attribution.py"


# Attribution of unstated choices (condition_on_request, kind, arrival rate): SA/user side by side.
rule cirne2001_attribution:
    input:
        C01_ATT_RUNS,
    output:
        f"{C01_DIR}/tables/attribution.parquet",
    params:
        settings=C01_S,
        table=True,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/cirne2001/attribution.log",
    script:
        "../../scripts/cirne2001_attribution.py"


rule cirne2001_tables:
    input:
        single=C01_SINGLE,
        sweep=C01_SWEEP,
        nas=C01_NAS_RUNS,
        traces=C01_NAS_TRACES if C01_INLINE else [],
    output:
        C01_TABLES,
    params:
        settings=C01_S,
        model=C01_MODEL,
        inline=C01_INLINE,
        nas_logs=C01_NAS_LOGS,
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
    params:
        settings=C01_S,
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
        [f"{C01_DIR}/tables/attribution.parquet"] if C01_ATT_RUNS else [],
        C01_FIGURES,
        f"{C01_DIR}/scorecard.parquet",
        # the chapter-3 workload-model scorecard (Tables 1-10), shown with the thesis in the report
        [f"{MODELS_OUT}/scorecard.parquet"]
        if all(trace_is_local(t) for t in MODELS_COMPARED)
        else [],


ALL_TARGETS.extend([*C01_TABLES, *C01_FIGURES, f"{C01_DIR}/scorecard.parquet"])
if C01_ATT_RUNS:
    ALL_TARGETS.append(f"{C01_DIR}/tables/attribution.parquet")
