# Cleaning: the archive's published filters (config/flurries.yaml) and our flurry detector.
# config (optional):  clean: {remove_flurries: false, strict_precedence: false,
#                             flurry: {min_jobs: 500, user_ratio: 10, log_ratio: 3, ...}}
CLEAN_CFG = config.get("clean", {}) or {}


rule detect_flurries:
    input:
        "results/traces/{trace}/jobs.parquet",
    output:
        candidates="results/traces/{trace}/flurries.parquet",
        plot=multiext("results/traces/{trace}/figures/user_activity", ".png", ".pdf"),
    params:
        settings=CLEAN_CFG.get("flurry", {}),
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/detect_flurries/{trace}.log",
    script:
        "../../scripts/detect_flurries.py"


rule clean_trace:
    input:
        jobs="results/traces/{trace}/jobs.parquet",
        filters="config/flurries.yaml",
        flurries=(
            "results/traces/{trace}/flurries.parquet"
            if CLEAN_CFG.get("remove_flurries", False)
            else []
        ),
    output:
        clean="results/traces/{trace}/clean.parquet",
        report="results/traces/{trace}/clean_report.parquet",
    params:
        strict_precedence=CLEAN_CFG.get("strict_precedence", False),
        remove_flurries=CLEAN_CFG.get("remove_flurries", False),
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/clean_trace/{trace}.log",
    script:
        "../../scripts/clean_trace.py"


ALL_TARGETS.extend(
    expand(
        [
            "results/traces/{trace}/clean.parquet",
            "results/traces/{trace}/flurries.parquet",
        ],
        trace=selected_traces(),
    )
)
