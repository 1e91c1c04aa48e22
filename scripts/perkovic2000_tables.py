"""Snakemake adapter: Perković & Keleher 2000 runs -> Tables 1-3, Figures 3-9, scorecard.

Figures 3-4, Table 3 and the §4/§5/§8 rows come from the paper setting (the whole log on 430 nodes,
with seed replicates) when it is configured, Figures 5-9 from the default sweep scale.
"""

from pathlib import Path

import pandas as pd

from schedlab import __version__
from schedlab.papers import perkovic2000 as pk
from schedlab.pipeline import smk
from schedlab.pipeline.io import read_parquet, write_parquet
from schedlab.report.plotting import save_figure
from schedlab.report.scorecard import scorecard_frame


def _summaries(points, paths):
    rows, bf = [], {}
    for point, path in zip(points, paths, strict=True):
        df, _ = read_parquet(path)
        rows += pk.summarize(df, point)
        if point.experiment == "base" and point.algorithm == "BF" and not point.replicate:
            bf[point.machine] = df
    return pd.DataFrame(rows), bf


def main(sm):
    log = smk.log_to(sm)
    s = sm.params.settings
    pub = s["published"]
    tol = s.get("tolerance")
    out = Path(sm.output[0]).parents[1]  # results/perkovic2000 (first output: tables/summary)
    jobs_all, meta_all = read_parquet(sm.input.jobs_all)
    trace, _ = read_parquet(sm.input.trace)
    _, meta_sim = read_parquet(sm.input.jobs_sim)
    provenance = {"paper": pk.PAPER, "trace": s["trace"], "trace_sha256": meta_all.get("trace_sha256"),
                  "seed_entropy": int(s["seed_entropy"]), "max_jobs": s["max_jobs"],
                  "normalization": meta_sim.get("normalization"), "schedlab_version": __version__}
    points = [pk.RunPoint(**p) for p in sm.params.points]
    summary, bf = _summaries(points, sm.input.runs)
    default_summary = summary
    machines = [int(s["machine"]), *[int(m) for m in s.get("extra_machines", [])]]
    n_sim = int(summary.loc[summary["group"] == "all", "jobs"].max())

    def note(m):
        return (f"{m} nodes, first {n_sim} jobs of the cleaned log" if s["max_jobs"]
                else f"{m} nodes, whole cleaned log")

    frames = pk.figure_frames(summary, machines[0])
    base_summary, base_machine, where = summary, machines[0], note(machines[0])
    whole_log = not s["max_jobs"]
    t3 = pk.table3(bf[machines[0]])
    t3s = [pk.table3(bf[m]).assign(machine=m, setting="default") for m in machines if m in bf]
    paper_points = [pk.RunPoint(**p) for p in sm.params.paper_points]
    if paper_points:  # Figures 3-4, Table 3, §4/§5/§8 in the paper's setting (whole log, 430 nodes)
        psum, pbf = _summaries(paper_points, sm.input.paper_runs)
        pm = paper_points[0].machine
        pmax = s["paper_setting"].get("max_jobs")
        reps = int(psum["replicate"].max()) + 1
        where = (f"{pm} nodes, " + (f"first {pmax} jobs" if pmax else "whole cleaned log")
                 + (f", {reps} seeds of {', '.join(s['paper_setting'].get('seed_algorithms', []))}"
                    if reps > 1 else ""))
        pframes = pk.figure_frames(psum, pm)
        frames["fig3"], frames["fig4"] = pframes["fig3"], pframes["fig4"]
        t3 = pk.table3(pbf[pm])
        t3s.append(t3.assign(machine=pm, setting="paper"))
        base_summary, base_machine, whole_log = psum, pm, not pmax
        summary = pd.concat([summary, psum.assign(setting="paper")], ignore_index=True)
    write_parquet(out / "tables/summary.parquet", summary, provenance)
    t1 = pk.table1(trace, jobs_all, machines, pub["table1"], int(s["machine_paper"]))
    t2 = pk.table2(jobs_all)
    write_parquet(out / "tables/table1.parquet", t1, provenance)
    write_parquet(out / "tables/table2.parquet", t2, provenance)
    write_parquet(out / "tables/table3.parquet", pd.concat(t3s, ignore_index=True), provenance)
    for name, frame in frames.items():
        setting = where if name in ("fig3", "fig4") else note(machines[0])
        write_parquet(out / f"figures/{name}.parquet", frame, {**provenance, "setting": setting})
        save_figure(pk.make_figure(name, frame, pub), out / f"figures/{name}")

    write_parquet(out / "tables/section8.parquet",
                  pk.section8_table(base_summary, base_machine, pub), {**provenance, "setting": where})
    card = pk.scorecard(t1, t2, t3, frames, pub, note(machines[0]), tolerance=tol,
                        note_base=where, whole_log=whole_log)
    parts = [card, pk.section8_rows(base_summary, base_machine, pub, where, tol, whole_log)]
    for m in machines[1:]:
        f3 = pk.figure_frames(default_summary, m)["fig3"]
        write_parquet(out / f"figures/fig3_{m}.parquet", f3, {**provenance, "machine": m})
        save_figure(pk.make_figure("fig3", f3, pub), out / f"figures/fig3_{m}")
        rows = pk.fig3_rows(f3, pub, note(m), tol)
        parts.append(scorecard_frame([{**r, "condition": f"{r['condition']} ({m} nodes)",
                                       "headline": False} for r in rows]))
    card = pd.concat(parts, ignore_index=True)
    write_parquet(out / "scorecard.parquet", card, provenance)
    log(f"perkovic2000: {len(points)} + {len(paper_points)} runs summarized; scorecard "
        f"{card['verdict'].value_counts().to_dict()}")


smk.run(main, snakemake)
