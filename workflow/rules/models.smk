# Workload models (Cirne 2001, chapter 3): fit every quantity to a cleaned trace, and compare the
# thesis' reference workloads (CTC, KTH, SDSC) with its Tables 1-10.
# Targets: `snakemake results/models/{trace}/` (one trace) and `snakemake cirne2001_models`.
# Settings: the `models` section of Cirne's settings (config/papers/cirne2001.yaml deep-merged with
# the overrides papers.cirne2001.models: a partial section keeps the rest).
CIRNE_MODELS = PAPER_SETTINGS["cirne2001"].models
MODELS_COMPARED = [t for t in CIRNE_MODELS["workloads"].values() if t is not None]
MODELS_OUT = "results/models/cirne2001"


rule fit_models:
    input:
        "results/traces/{trace}/clean.parquet",
    output:
        directory("results/models/{trace}"),
    params:
        arrival=CIRNE_MODELS.get("arrival", {}),
        on_error=CIRNE_MODELS.get("on_error", "record"),
        workloads=CIRNE_MODELS["workloads"],
        published=CIRNE_MODELS["published"],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/fit_models/{trace}.log",
    script:
        "../../scripts/fit_models.py"


rule models_tables:
    input:
        models=expand("results/models/{trace}", trace=MODELS_COMPARED),
        clean=expand("results/traces/{trace}/clean.parquet", trace=MODELS_COMPARED),
    output:
        tables=directory(f"{MODELS_OUT}/tables"),
        period_fits=directory(f"{MODELS_OUT}/period_fits"),
        scorecard=f"{MODELS_OUT}/scorecard.parquet",
    params:
        cfg=CIRNE_MODELS,
        traces=MODELS_COMPARED,
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/models_tables.log",
    script:
        "../../scripts/models_tables.py"


rule cirne2001_models:
    input:
        rules.models_tables.output,


if all(trace_is_local(t) for t in MODELS_COMPARED):
    ALL_TARGETS.extend(rules.models_tables.output)


include: "synthetic.smk"
