# The reproduction report: every paper target, then results/scorecard.parquet and
# results/report/index.html. Included after the paper rule files (it reads their target rules).

rule report:
    input:
        paper_outputs,
    output:
        html="results/report/index.html",
        scorecard="results/scorecard.parquet",
    params:
        papers=[key for key in PAPER_KEYS],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/report.log",
    script:
        "../../scripts/build_report.py"


ALL_TARGETS.append("results/report/index.html")
