"""Snakemake adapter: one paper's study on one registered log -> tables, figures, done.json."""

import shutil
import time
from pathlib import Path

import yaml

from schedlab import __version__
from schedlab.io import read_parquet, write_json, write_parquet
from schedlab.pipeline import smk
from schedlab.report.plotting import save_figure
from schedlab.sim.options import SimOptions
from schedlab.trace_studies import StudyInputs, load, study_settings
from schedlab.traces.swf import SWFHeader


def main(sm):
    log = smk.log_to(sm)
    trace, study = sm.wildcards.trace, sm.wildcards.study
    module = load(study)
    settings = study_settings(module, sm.params.variant, sm.params.overrides)
    jobs, _ = read_parquet(sm.input.clean)
    _, meta = read_parquet(sm.input.jobs)
    header = SWFHeader.from_dict(meta["swf_header"])
    paper = yaml.safe_load(Path(sm.input.paper).read_text()) if sm.input.paper else {}
    inputs = StudyInputs(trace=trace, jobs=jobs, header=header,
                         machine_size=int(sm.params.machine_size or header.machine_size),
                         models_dir=Path(sm.input.models) if sm.input.models else None,
                         paper=paper or {},
                         sim=SimOptions.from_mapping(sm.params.sim, "config sim"))
    t0 = time.perf_counter()
    tables = module.run(inputs, settings)
    figures = module.figures(tables)
    out = Path(sm.output.done).parent
    for sub in ("tables", "figures"):  # no stale files from an earlier run with other names
        shutil.rmtree(out / sub, ignore_errors=True)
    provenance = {"study": study, "trace": trace, "trace_sha256": meta.get("sha256"),
                  "variant": sm.params.variant, "settings": settings,
                  "machine_size": inputs.machine_size, "schedlab_version": __version__}
    for name, df in tables.items():
        write_parquet(out / "tables" / f"{name}.parquet", df, provenance | {"table": name})
    for name, fig in figures.items():
        save_figure(fig, out / "figures" / name)
    log(f"{trace} {study} ({sm.params.variant}): {len(tables)} tables, {len(figures)} figures, "
        f"{time.perf_counter() - t0:.1f} s")
    notes = " ".join(n for n in (getattr(module, "NOTES", ""),
                                 getattr(module, "run_notes", lambda _: "")(inputs)) if n)
    write_json(sm.output.done, provenance | {
        "title": module.TITLE, "notes": notes,
        "tables": list(tables), "figures": list(figures)})


smk.run(main, snakemake)
