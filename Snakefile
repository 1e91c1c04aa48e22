# schedlab: reproduce five parallel-job-scheduling studies from Parallel Workloads Archive logs.
# See README.md for the two entry commands and docs/design.md for the data flow.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


# Bad config -> one line `schedlab: error: ...` (exit 2) before any job: unknown keys (with the
# closest known one), wrong types; text is read as a number/boolean where the schema says so
# (`--config quick=true` and `download={"retries": 5}` arrive as strings).
from schedlab.pipeline import smk as _smk
from schedlab.pipeline.config import check_config
from schedlab.errors import SchedlabError

try:
    check_config(config, "workflow/schemas/config.schema.yaml")
except SchedlabError as _e:
    _smk.fail(_e)
validate(config, "workflow/schemas/config.schema.yaml")  # fills the schema's defaults


include: "workflow/rules/common.smk"
include: "workflow/rules/traces.smk"
include: "workflow/rules/clean.smk"
include: "workflow/rules/sim.smk"
# A paper whose logs the registry lacks is skipped (one warning line; common.smk). Every paper is
# served by the generic rule family (papers.smk; the contract: src/schedlab/papers/__init__.py);
# workflow/rules/<paper>.smk keeps its genuinely paper-specific steps.
for _paper in PAPERS_RUN:
    if Path(f"workflow/rules/{_paper}.smk").is_file():

        include: f"workflow/rules/{_paper}.smk"


include: "workflow/rules/papers.smk"
include: "workflow/rules/robustness.smk"


# Keep this include last: the report reads the paper target rules defined above.
include: "workflow/rules/report.smk"


# A trace named like another rule's output (results/models/cirne2001 is Cirne's model tables, not a
# trace's fits) would share its files: refused before any job (schedlab.pipeline.namespaces).
from schedlab.pipeline.namespaces import check_trace_names

try:
    check_trace_names(
        TRACE_NAMES,
        [(r.name, f) for r in workflow.rules for f in (*r.output, *r.log)],
        PAPER_KEYS,
        str(REGISTRY.source),
    )
except SchedlabError as _e:
    _smk.fail(_e)


rule all:
    default_target: True
    input:
        ALL_TARGETS,
