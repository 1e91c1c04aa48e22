# The reproduction report: every paper target, then results/scorecard.parquet and
# results/report/index.html. Included after the paper rule files (it reads their target rules).

PAPER_KEYS = ["schroeder2004", "talby2005", "tang2013", "perkovic2000", "cirne2001"]


def paper_outputs(wildcards):
    """Everything the included paper targets produce (a paper without a rule file is skipped)."""
    defined = {r.name for r in workflow.rules}
    return [f for key in PAPER_KEYS if key in defined for f in getattr(rules, key).input]


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
