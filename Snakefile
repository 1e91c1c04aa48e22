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
# A paper whose logs a custom registry lacks is skipped (one warning line; common.smk).
if "talby2005" in PAPERS_RUN:

    include: "workflow/rules/talby2005.smk"


if "cirne2001" in PAPERS_RUN:

    include: "workflow/rules/models.smk"
    include: "workflow/rules/cirne2001.smk"


if "schroeder2004" in PAPERS_RUN:

    include: "workflow/rules/schroeder2004.smk"


if "perkovic2000" in PAPERS_RUN:

    include: "workflow/rules/perkovic2000.smk"


if "tang2013" in PAPERS_RUN:

    include: "workflow/rules/tang2013.smk"


include: "workflow/rules/studies.smk"


# Keep this include last: the report reads the paper target rules defined above.
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        ALL_TARGETS,
