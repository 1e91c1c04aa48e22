# Baseline simulations: any registry trace x any registered scheduler (schedlab.sim.schedulers).
# Build one with e.g. `snakemake --cores 1 results/sim/KTH-SP2-1996-2.1-cln/easy/summary.json`.
# Options under config key `sim` (all optional): procs_field, cancelled, machine_size (normalization)
# and the engine options (tie_rule: schedlab.sim.options.SimOptions).
from schedlab.sim.schedulers import SCHEDULERS as SIM_SCHEDULERS


wildcard_constraints:
    scheduler="|".join(SIM_SCHEDULERS),


rule simulate_baseline:
    input:
        "results/traces/{trace}/jobs.parquet",
    output:
        jobs="results/sim/{trace}/{scheduler}/jobs.parquet",
        summary="results/sim/{trace}/{scheduler}/summary.json",
    params:
        options=config.get("sim", {}),
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/sim/{trace}/{scheduler}.log",
    script:
        "../../scripts/simulate.py"
