# Talby & Feitelson 2005 (adaptive backfilling): every sweep point is one job, then one rule
# assembles Tables 1-8, the figures and the scorecard. Target: `snakemake talby2005`.
import yaml

from schedlab.papers.talby2005_runs import attr_batch, attr_point, attribution_keys
from schedlab.papers.talby2005_runs import grid as talby_grid

TALBY_CFG = yaml.safe_load(Path("config/papers/talby2005.yaml").read_text())
_talby_overrides = config.get("papers", {}).get("talby2005", {})
TALBY_CFG.update({k: v for k, v in _talby_overrides.items() if k != "quick"})
TALBY_QUICK = bool(config.get("quick") or _talby_overrides.get("quick"))
TALBY_FULL = bool(config.get("full"))
TALBY_RAW_LOCAL = {log: trace_is_local(v["raw"]) for log, v in TALBY_CFG["logs"].items()}
TALBY_POINTS = talby_grid(TALBY_CFG, TALBY_QUICK, TALBY_FULL, TALBY_RAW_LOCAL)
TALBY_TRACE_KEYS = sorted({(p.log, p.version) for p in TALBY_POINTS})
TALBY_ATTR = [(*k, attr_point(TALBY_CFG, *k)) for k in attribution_keys(
    TALBY_CFG, TALBY_CFG["quick"]["logs"] if TALBY_QUICK else list(TALBY_CFG["logs"]), TALBY_QUICK,
    TALBY_FULL)]
TALBY_OUT = "results/talby2005"
TALBY_OUTPUTS = [
    *[f"{TALBY_OUT}/tables/{t}.parquet" for t in
      ("table1", "table2", "monthly", "table3", "table4", "adaptive", "table5", "table6",
       "table7", "table8", "attr_runs", "attr_easy_maui", "attr_easy_maui_fit", "attr_cancelled",
       "attr_slack")],
    *[f"{TALBY_OUT}/figures/{f}.{ext}" for f in
      ("monthly_wait", "fig2_pbas", "fig3_pbas_candidates", "fig5_wbas", "attr_easy_maui",
       "attr_cancelled_slack") for ext in ("png", "pdf")],
    f"{TALBY_OUT}/scorecard.parquet",
]
TALBY_TRACE = {(log, v): names[v] for log, names in TALBY_CFG["logs"].items() for v in names}


rule talby2005_run:
    input:
        lambda wc: f"results/traces/{TALBY_TRACE[wc.log, wc.version]}/jobs.parquet",
    output:
        "results/talby2005/runs/{log}-{version}/{kind}/{name}.parquet",
    wildcard_constraints:
        log="|".join(TALBY_CFG["logs"]),
        version="clean|raw",
        kind="sched|pbas|wbas|attr",
    params:
        trace=lambda wc: TALBY_TRACE[wc.log, wc.version],
        machine_size=lambda wc: REGISTRY[TALBY_TRACE[wc.log, wc.version]].machine_size,
        cfg={k: TALBY_CFG[k] for k in ("scheduler_options", "cancelled", "attribution")},
        tie_rule=SIM_TIE_RULE,
        batch=lambda wc: attr_batch(TALBY_CFG, wc.log, TALBY_QUICK, TALBY_FULL) if wc.kind == "attr" else [],
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/talby2005/{log}-{version}/{kind}/{name}.log",
    script:
        "../../scripts/talby2005_run.py"


rule talby2005_tables:
    input:
        runs=[f"{TALBY_OUT}/runs/{p.path}.parquet" for p in TALBY_POINTS],
        traces=[f"results/traces/{TALBY_TRACE[k]}/jobs.parquet" for k in TALBY_TRACE_KEYS],
    output:
        TALBY_OUTPUTS,
    params:
        cfg=TALBY_CFG,
        points=[(p.log, p.version, p.kind, p.name) for p in TALBY_POINTS],
        attr=[(log, r, c, (p.log, p.version, p.kind, p.name)) for log, r, c, p in TALBY_ATTR],
        trace_keys=TALBY_TRACE_KEYS,
        machine_sizes={f"{l}-{v}": REGISTRY[TALBY_TRACE[l, v]].machine_size
                       for l, v in TALBY_TRACE_KEYS},
        raw_available=TALBY_RAW_LOCAL,
        adaptive_logs=sorted({p.log for p in TALBY_POINTS if p.kind in ("pbas", "wbas")}),
        main_logs=sorted({p.log for p in TALBY_POINTS if p.kind == "sched"}),
        outdir=lambda wc, output: str(Path(output[-1]).parent),
    conda:
        "../envs/schedlab.yaml"
    log:
        "logs/talby2005/tables.log",
    script:
        "../../scripts/talby2005_tables.py"


rule talby2005:
    input:
        TALBY_OUTPUTS,


ALL_TARGETS.extend(TALBY_OUTPUTS)
