# Every paper's study on any registered log (issue 10, "new traces as inputs"): a registry entry
# with `study: true` (config/traces.yaml) that is available locally (or each log of config
# `study_traces` when it is a list) gets one job per study,
# results/studies/{trace}/{study}/ (tables/*.parquet, figures/*.png|.pdf, done.json), and a section
# in the report. Settings: each module's DEFAULTS[default|quick|full] (config quick/full), updated
# with config `trace_studies: {<study>: {...}}`. Target: `snakemake trace_studies`.
import schedlab.trace_studies as _trace_studies

# Only studies whose module exists (the five are written by different people at different times).
STUDY_MODULES = [
    s
    for s in _trace_studies.STUDIES
    if (Path(_trace_studies.__file__).parent / f"{s}.py").is_file()
]
STUDY_VARIANT = (
    "quick" if config.get("quick") else "full" if config.get("full") else "default"
)
STUDY_OVERRIDES = config.get("trace_studies", {}) or {}
try:  # unknown or wrong-typed settings: one line before any job runs
    for _study, _ovr in STUDY_OVERRIDES.items():
        if _study in STUDY_MODULES:
            _trace_studies.study_settings(_trace_studies.load(_study), STUDY_VARIANT, _ovr)
except SchedlabError as _e:
    _smk.fail(_e)
STUDY_TRACES = study_traces()
STUDY_OUTPUTS = expand(
    "results/studies/{trace}/{study}/done.json",
    trace=STUDY_TRACES,
    study=STUDY_MODULES,
)


rule trace_study:
    input:
        clean="results/traces/{trace}/clean.parquet",
        jobs="results/traces/{trace}/jobs.parquet",
        paper=lambda wc: (
            f"config/papers/{wc.study}.yaml"
            if Path(f"config/papers/{wc.study}.yaml").is_file()
            else []
        ),
        models=lambda wc: (
            f"results/models/{wc.trace}" if wc.study == "cirne2001" else []
        ),
    output:
        done="results/studies/{trace}/{study}/done.json",
    wildcard_constraints:
        study="|".join(STUDY_MODULES) or "no-study-module",
    params:
        machine_size=lambda wc: REGISTRY[wc.trace].machine_size,
        sim=SIM_OPTIONS.as_dict(),
        variant=STUDY_VARIANT,
        overrides=lambda wc: STUDY_OVERRIDES.get(wc.study, {}) or {},
        # the module's defaults of this variant: editing them reruns the study (params trigger)
        defaults=lambda wc: _trace_studies.load(wc.study).DEFAULTS[STUDY_VARIANT],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/trace_study/{trace}/{study}.log",
    script:
        "../../scripts/trace_study.py"


rule trace_studies:
    input:
        STUDY_OUTPUTS,


ALL_TARGETS.extend(STUDY_OUTPUTS)
