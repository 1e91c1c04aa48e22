"""Snakemake adapter: Perković & Keleher 2000 runs -> Tables 1-3, Figures 3-9, scorecard."""

from pathlib import Path

import pandas as pd

from schedlab import __version__, smk
from schedlab.io import read_parquet, write_parquet
from schedlab.papers import perkovic2000 as pk
from schedlab.plotting import save_figure
from schedlab.scorecard import scorecard_frame


def main(sm):
    log = smk.log_to(sm)
    s = sm.params.settings
    pub = s["published"]
    out = Path(sm.output[0]).parents[1]  # results/perkovic2000 (first output: tables/summary)
    jobs_all, meta_all = read_parquet(sm.input.jobs_all)
    trace, _ = read_parquet(sm.input.trace)
    _, meta_sim = read_parquet(sm.input.jobs_sim)
    provenance = {"paper": pk.PAPER, "trace": s["trace"], "trace_sha256": meta_all.get("trace_sha256"),
                  "seed_entropy": int(s["seed_entropy"]), "max_jobs": s["max_jobs"],
                  "normalization": meta_sim.get("normalization"), "schedlab_version": __version__}
    points = [pk.RunPoint(**p) for p in sm.params.points]
    rows, bf = [], {}
    for point, path in zip(points, sm.input.runs, strict=True):
        df, _ = read_parquet(path)
        rows += pk.summarize(df, point)
        if point.experiment == "base" and point.algorithm == "BF":
            bf[point.machine] = df
    summary = pd.DataFrame(rows)
    write_parquet(out / "tables/summary.parquet", summary, provenance)
    machines = [int(s["machine"]), *[int(m) for m in s.get("extra_machines", [])]]
    t1 = pk.table1(trace, jobs_all, machines, pub["table1"], int(s["machine_paper"]))
    t2 = pk.table2(jobs_all)
    t3 = pk.table3(bf[machines[0]])
    write_parquet(out / "tables/table1.parquet", t1, provenance)
    write_parquet(out / "tables/table2.parquet", t2, provenance)
    t3s = [pk.table3(bf[m]).assign(machine=m, setting="default") for m in machines if m in bf]
    write_parquet(out / "tables/table3.parquet", pd.concat(t3s, ignore_index=True), provenance)
    frames = pk.figure_frames(summary, machines[0])
    for name, frame in frames.items():
        write_parquet(out / f"figures/{name}.parquet", frame, {**provenance, "machine": machines[0]})
        save_figure(pk.make_figure(name, frame), out / f"figures/{name}")
    n_sim = int(summary.loc[summary["group"] == "all", "jobs"].max())

    def note(m):
        return (f"{m} nodes, first {n_sim} jobs of the cleaned log" if s["max_jobs"]
                else f"{m} nodes, whole cleaned log")

    card = pk.scorecard(t1, t2, t3, frames, pub, note(machines[0]))
    parts = [card, pk.section8_rows(summary, machines[0], pub, note(machines[0]))]
    for m in machines[1:]:
        f3 = pk.figure_frames(summary, m)["fig3"]
        write_parquet(out / f"figures/fig3_{m}.parquet", f3, {**provenance, "machine": m})
        save_figure(pk.make_figure("fig3", f3), out / f"figures/fig3_{m}")
        rows = pk.fig3_rows(f3, pub, note(m), float(pub.get("tolerance", 0.10)))
        parts.append(scorecard_frame([{**r, "condition": f"{r['condition']} ({m} nodes)"}
                                         for r in rows]))
    paper_points = [pk.RunPoint(**p) for p in sm.params.paper_points]
    if paper_points:  # the base experiment in the paper's own setting (whole log, 430 nodes)
        prow, pbf = [], None
        for point, path in zip(paper_points, sm.input.paper_runs, strict=True):
            df, _ = read_parquet(path)
            prow += pk.summarize(df, point)
            if point.algorithm == "BF":
                pbf = df
        psum = pd.DataFrame(prow)
        pm = paper_points[0].machine
        pmax = s["paper_setting"].get("max_jobs")
        where = f"{pm} nodes, " + (f"first {pmax} jobs" if pmax else "whole cleaned log")
        f3 = pk.figure_frames(psum, pm)["fig3"]
        write_parquet(out / "figures/fig3_paper.parquet", f3, {**provenance, "machine": pm,
                                                              "max_jobs": pmax})
        save_figure(pk.make_figure("fig3", f3), out / "figures/fig3_paper")
        t3p = pk.table3(pbf)
        t3s.append(t3p.assign(machine=pm, setting="paper"))
        rows = pk.fig3_rows(f3, pub, where, float(pub.get("tolerance", 0.10)))
        rows += pk.table3_rows(t3p, pub, where)
        parts.append(scorecard_frame([{**r, "condition": f"{r['condition']} (paper setting: "
                                                         f"{where})"} for r in rows]))
        write_parquet(out / "tables/table3.parquet", pd.concat(t3s, ignore_index=True), provenance)
    card = pd.concat(parts, ignore_index=True)
    write_parquet(out / "scorecard.parquet", card, provenance)
    log(f"perkovic2000: {len(points)} runs summarized; scorecard {card['verdict'].value_counts().to_dict()}")


smk.run(main, snakemake)
