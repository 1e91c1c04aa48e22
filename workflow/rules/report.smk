# The reproduction report: every paper target, every study on the logs marked `study: true`
# (papers.smk) and the robustness matrix (robustness.smk), then <root>/scorecard.parquet (RUN_ROOT:
# results, or results/paper-scale for config `full`) and results/report/index.html. Included after
# the paper rule files (it reads their target rules).
# Both scales build the one page results/report/index.html: a default run (`make reproduce`) and a
# paper-scale run (`make reproduce-paper`) each add the other scale's merged scorecard when it exists
# now (decided here, at parse time: the file becomes a declared input, so the report is rebuilt when
# it appears), and then also write results/scale_sensitivity.parquet. With a paper-scale scorecard
# the page leads with it (schedlab.report.scale_sensitivity.report_scorecards, lead_scale).
from schedlab.report.scale_causes import SCALE_CAUSES
from schedlab.report.scale_sensitivity import SENSITIVITY, report_scorecards

REPORT_SCORECARDS = report_scorecards(RUN_SCALE, lambda f: Path(f).is_file())
OTHER_SCORECARDS = {s: f for s, f in REPORT_SCORECARDS.items() if s != RUN_SCALE}


rule report:
    input:
        paper_outputs,
        studies=STUDY_OUTPUTS,
        robustness=f"{RUN_ROOT}/robustness.parquet",
        studied_traces=expand(
            "results/traces/{trace}/{kind}.parquet", trace=STUDY_TRACES, kind=["clean", "jobs"]
        ),
        claims=[
            f"config/papers/{paper}_claims.tsv"
            for paper in PAPERS_RUN
            if Path(f"config/papers/{paper}_claims.tsv").is_file()
        ],
        other_scale=list(OTHER_SCORECARDS.values()),
        # the tested causes of the scale flips (schedlab.report.scale_causes), when recorded
        scale_causes=[SCALE_CAUSES] if Path(SCALE_CAUSES).is_file() else [],
    output:
        html="results/report/index.html",
        scorecard=REPORT_SCORECARDS[RUN_SCALE],
        **({"sensitivity": SENSITIVITY} if {"default", "paper"} <= set(REPORT_SCORECARDS) else {}),
    params:
        papers=list(PAPERS_RUN),
        studied_traces={t: REGISTRY[t].machine_size for t in STUDY_TRACES},
        # scorecards a paper's target builds outside <root>/<paper>/ (its extra_targets)
        extra_scorecards={
            p: [
                str(Path(t).relative_to("results"))
                for t in PAPER_MODULES[p].extra_targets(PAPER_SETTINGS[p])
                if t.endswith("scorecard.parquet")
            ]
            for p in PAPERS_RUN
        },
        scale=RUN_SCALE,
        # the scales of input other_scale, in its order
        other_scales=list(OTHER_SCORECARDS),
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/report.log",
    script:
        "../../scripts/build_report.py"


ALL_TARGETS.append("results/report/index.html")
