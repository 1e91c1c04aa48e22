# schedlab: reproduce five parallel-job-scheduling studies from Parallel Workloads Archive logs.
# See README.md for the two entry commands and ../shared/DESIGN.md for the data flow.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


# `--config quick=true` arrives as the string "true" (Snakemake parses only True/False as booleans).
for _flag in ("quick", "full"):
    if isinstance(config.get(_flag), str) and config[_flag].lower() in ("true", "false"):
        config[_flag] = config[_flag].lower() == "true"
validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/traces.smk"
include: "workflow/rules/talby2005.smk"
include: "workflow/rules/clean.smk"
include: "workflow/rules/models.smk"
include: "workflow/rules/schroeder2004.smk"
include: "workflow/rules/perkovic2000.smk"
include: "workflow/rules/sim.smk"
include: "workflow/rules/tang2013.smk"
include: "workflow/rules/cirne2001.smk"
include: "workflow/rules/studies.smk"


# Keep this include last: the report reads the paper target rules defined above.
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        ALL_TARGETS,
