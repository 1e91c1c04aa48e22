# Tang, Ren, Lan & Desai 2013 (metric-aware scheduling, adaptive tuning) runs on the generic rule
# family (workflow/rules/papers.smk: tang2013_point per point, tang2013_assemble, target tang2013;
# the points and tables: src/schedlab/papers/tang2013/). Offline, the BG/P study runs on a
# labelled substitute log (config/papers/tang2013.yaml, logs.BGP.substitute).
# Paper-specific here: only the target `tang2013_attribution`, the issue-22 attribution tables
# (attribution_runs / attribution_table3 / attribution_unfair / attribution_unfair_margins,
# search_cap, attribution_base; built by tang2013_assemble, i.e. with the whole paper).
from schedlab.papers.tang2013.tabulate import ATTRIBUTION_TABLES as _TANG_ATTRIBUTION_TABLES


rule tang2013_attribution:
    input:
        [
            f"{_papers.paper_dir('tang2013', None, RUN_ROOT)}/tables/{n}.parquet"
            for n in _TANG_ATTRIBUTION_TABLES
        ],
