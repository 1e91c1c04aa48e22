# Traces: download (mirror first, sha256-checked) -> parse -> per-trace parquet and a summary table.


wildcard_constraints:
    trace="|".join(re.escape(n) for n in TRACE_NAMES),


rule download_trace:
    output:
        "resources/traces/{trace}.swf.gz",
    # Where the file comes from (mirror, timeout, retries) is not a param: the output is the same,
    # sha256-checked file either way, so changing the mirror must not trigger a re-run.
    params:
        registry=config["registry"],
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
