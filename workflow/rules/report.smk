# The reproduction report: every paper target, every study on the logs marked `study: true`
# (papers.smk) and the robustness matrix (robustness.smk), then results/scorecard.parquet and
# results/report/index.html. Included after the paper rule files (it reads their target rules).

rule report:
    input:
        paper_outputs,
        studies=STUDY_OUTPUTS,
        robustness="results/robustness.parquet",
        studied_traces=expand(
            "results/traces/{trace}/{kind}.parquet", trace=STUDY_TRACES, kind=["clean", "jobs"]
        ),
        claims=[
            f"config/papers/{paper}_claims.tsv"
            for paper in PAPERS_RUN
            if Path(f"config/papers/{paper}_claims.tsv").is_file()
        ],
    output:
        html="results/report/index.html",
        scorecard="results/scorecard.parquet",
    params:
        papers=list(PAPERS_RUN),
        studied_traces={t: REGISTRY[t].machine_size for t in STUDY_TRACES},
        # scorecards a paper's target builds outside results/<paper>/ (its extra_targets)
        extra_scorecards={
            p: [
                str(Path(t).relative_to("results"))
                for t in PAPER_MODULES[p].extra_targets(PAPER_SETTINGS[p])
                if t.endswith("scorecard.parquet")
            ]
            for p in PAPERS_RUN
        },
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/report.log",
    script:
        "../../scripts/build_report.py"


ALL_TARGETS.append("results/report/index.html")
