# Traces: download (mirror first, sha256-checked) -> parse -> per-trace parquet and a summary table.


wildcard_constraints:
    trace="|".join(re.escape(n) for n in TRACE_NAMES),


rule download_trace:
    output:
        "resources/traces/{trace}.swf.gz",
    params:
        mirror=str(MIRROR) if MIRROR else None,
        registry=config["registry"],
        timeout=config["download"]["timeout_s"],
        retries=config["download"]["retries"],
    localrule: True
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/download_trace/{trace}.log",
    script:
        "../../scripts/download_trace.py"


rule parse_trace:
    input:
        "resources/traces/{trace}.swf.gz",
    output:
        "results/traces/{trace}/jobs.parquet",
    params:
        registry=config["registry"],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/parse_trace/{trace}.log",
    script:
        "../../scripts/parse_trace.py"


rule trace_summary:
    input:
        expand("results/traces/{trace}/jobs.parquet", trace=selected_traces()),
    output:
        "results/traces/summary.parquet",
    params:
        names=selected_traces(),
        registry=config["registry"],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/trace_summary.log",
    script:
        "../../scripts/trace_summary.py"


ALL_TARGETS.append("results/traces/summary.parquet")
