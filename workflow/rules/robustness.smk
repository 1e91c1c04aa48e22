# The robustness matrix (docs/robustness.md; schedlab.report.robustness): every paper's claim rows on
# its own log(s) and, by its study, on every studied log -> <root>/robustness.parquet (RUN_ROOT:
# results, or results/paper-scale for config `full`; the studies are shared by both) (the report's
# "Robustness" section; `schedlab robustness`). Cheap (it reads scorecards), so a default target.
# The (log, paper) studies are papers.smk's STUDY_PAIRS (schedlab.papers.study_pairs). Each
# study's scorecard is read from beside its done.json (results/studies/<log>/<paper>/), a study
# without one is listed in the log; a new `study: true` registry entry is a new column with no code.
from schedlab.report.robustness import matrix_inputs

ROBUSTNESS_INPUTS = matrix_inputs(STUDY_PAIRS, PAPERS_RUN, RUN_ROOT)


rule robustness:
    input:
        own=ROBUSTNESS_INPUTS["own"],
        studies=ROBUSTNESS_INPUTS["studies"],
    output:
        f"{RUN_ROOT}/robustness.parquet",
    params:
        pairs=[list(p) for p in STUDY_PAIRS],
        own_logs={p: PAPER_MODULES[p].log_names(PAPER_SETTINGS[p]) for p in PAPERS_RUN},
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/robustness.log",
    script:
        "../../scripts/robustness.py"


ALL_TARGETS.append(f"{RUN_ROOT}/robustness.parquet")
