"""benchmarks/point_costs.py: the points' benchmark files summed, and the resources derived."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "point_costs", Path(__file__).resolve().parents[2] / "benchmarks" / "point_costs.py")
point_costs = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(point_costs)

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _bench(path: Path, wall: float, rss: float, cpu: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{wall}\t0:00:01\t{rss}\t1\t1\t1\t0\t0\t90\t{cpu}\n")


def test_costs_by_kind_and_the_resources_they_ask(tmp_path):
    runs = tmp_path / "paper-scale" / "cirne2001" / "runs"
    _bench(runs / "single" / "w0.benchmark.tsv", 100.0, 400.0, 95.0)
    _bench(runs / "single" / "w1.benchmark.tsv", 300.0, 600.0, 290.0)
    _bench(runs / "sweep" / "kappa_L" / "w0.benchmark.tsv", 20.0, 300.0, 19.0)
    (runs / "single" / "w0.log").write_text("not a benchmark")
    s = point_costs.summarise(point_costs.read_costs(tmp_path))
    single = s[(s["run"] == "paper-scale/cirne2001") & (s["kind"] == "single")].iloc[0]
    assert single["n"] == 2 and single["cpu_sum"] == pytest.approx(385.0)
    assert single["wall_max"] == 300.0 and single["rss_max_mb"] == 600.0
    assert single["runtime_min"] == 15 and single["mem_mb"] == 1200  # 3 x 300 s; 2 x 600 MB
    sweep = s[s["kind"] == "sweep"].iloc[0]
    assert sweep["runtime_min"] == 5 and sweep["mem_mb"] == 1000  # the floors


def test_no_files_is_an_error(tmp_path, capsys):
    assert point_costs.main([str(tmp_path)]) == 2
    assert "no point benchmark files" in capsys.readouterr().err
    assert point_costs.main([str(tmp_path / "none")]) == 2


def test_set_resources_per_point_rule_the_most_any_kind_asks(tmp_path, capsys):
    runs = tmp_path / "paper-scale" / "cirne2001" / "runs"
    _bench(runs / "single" / "w0.benchmark.tsv", 300.0, 600.0, 290.0)  # 15 min, 1,200 MB
    _bench(runs / "sweep" / "kappa_L" / "w0.benchmark.tsv", 700.0, 300.0, 690.0)  # 35 min, 1,000
    _bench(tmp_path / "studies" / "HPC2N-2002-2.2-cln" / "tang2013" / "runs" / "fig4.benchmark.tsv",
           10.0, 100.0, 9.0)
    assert point_costs.main([str(tmp_path), "--set-resources"]) == 0
    assert capsys.readouterr().out.split() == [
        "cirne2001_point:runtime=35", "cirne2001_point:mem_mb=1200",
        "study_HPC2N_2002_2_2_cln_tang2013_point:runtime=5",
        "study_HPC2N_2002_2_2_cln_tang2013_point:mem_mb=1000"]
