"""Snakemake adapter: the robustness matrix from the papers' and the studies' scorecards (rule
robustness) -> <root>/robustness.parquet (results/, or results/paper-scale/ at paper scale)."""

from schedlab.pipeline import smk

smk.quiet_interrupt(snakemake)  # before the slow imports: a Ctrl-C now ends the job in one line

from pathlib import Path

from schedlab import __version__
from schedlab.io import write_parquet
from schedlab.report.robustness import build_matrix, collect, size


def main(sm):
    log = smk.log_to(sm)
    own_logs = {p: dict(names) for p, names in sm.params.own_logs.items()}
    # the run's root is the matrix's folder (results/ or results/paper-scale/)
    cards, missing = collect(Path("results"), [tuple(p) for p in sm.params.pairs], own_logs,
                             Path(sm.output[0]).parent)
    m = build_matrix(cards)
    claims, logs = size(m)
    write_parquet(sm.output[0], m, {"schedlab_version": __version__, "claims": claims,
                                    "log_columns": logs, "studies_without_scorecard": missing})
    log(f"robustness matrix: {claims} claims x {logs} log columns ({len(m)} cells); "
        f"{len(missing)} studies without a scorecard: {', '.join(missing) or 'none'}")


smk.run(main, snakemake)
