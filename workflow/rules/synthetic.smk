# Synthetic workloads (Cirne 2001 §3.5, Tables 11-12): results/synthetic/{model}/{seed}.*
#   model = cirne2001          published parameters (Tables 3, 11, 12)
#   model = cirne2001-{trace}  rigid-model parameters fitted from results/models/{trace}/
# Settings: config/papers/cirne2001.yaml models.synthetic (n_jobs, machine_size, seeds, params);
# `--config quick=True` uses quick_n_jobs.
SYNTH_CFG = CIRNE_MODELS["synthetic"]
SYNTH_N_JOBS = SYNTH_CFG["quick_n_jobs"] if config.get("quick") else SYNTH_CFG["n_jobs"]


rule synthesize:
    input:
        models=lambda wc: (
            [] if wc.model == "cirne2001" else f"results/models/{wc.model.removeprefix('cirne2001-')}"
        ),
    output:
        jobs="results/synthetic/{model}/{seed}.parquet",
        alternatives="results/synthetic/{model}/{seed}.alternatives.parquet",
        swf="results/synthetic/{model}/{seed}.swf",
    wildcard_constraints:
        model="cirne2001(-" + "|-".join(re.escape(n) for n in TRACE_NAMES) + ")?",
        seed=r"\d+",
    params:
        n_jobs=SYNTH_N_JOBS,
        machine_size=SYNTH_CFG["machine_size"],
        params=SYNTH_CFG.get("params") or {},
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/synthesize/{model}/{seed}.log",
    script:
        "../../scripts/synthesize.py"


ALL_TARGETS.extend(
    expand("results/synthetic/cirne2001/{seed}.parquet", seed=SYNTH_CFG["seeds"])
)
