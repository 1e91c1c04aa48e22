"""The paper contract's runner (schedlab.papers.runner) on a toy paper, and every paper package."""

import subprocess
import sys
from dataclasses import dataclass
from types import SimpleNamespace

import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.io import CorruptFileError
from schedlab.papers import PAPERS, Outputs, PaperSettings, Point, load
from schedlab.papers.runner import read_point, run_paper


@dataclass(frozen=True, kw_only=True)
class ToySettings(PaperSettings):
    factor: int = 10


TOY = ToySettings()


def toy(tables_declared=("total",), cyclic=False):
    """A paper with two points (b needs a) and one table summing their frames."""

    def points(s):
        return [Point("b", needs=("a",), spec={"k": 2}),
                Point("a", needs=("b",) if cyclic else (), spec={"k": 1})]

    def run_point(s, point, inputs):
        prev = sum(int(f["x"].sum()) for f in (fr["main"] for fr in inputs.points.values()))
        return {"main": pd.DataFrame({"x": [point.spec["k"] * s.factor + prev]})}

    def tables(s, runs, inputs):
        return {"total": pd.DataFrame({"x": [sum(int(r["main"]["x"].sum()) for r in runs.values())]})}

    return SimpleNamespace(
        title="toy", summary="a toy paper", Settings=ToySettings,
        settings=lambda config, env: TOY,
        logs=lambda s: (), extra_targets=lambda s: (), points=points, run_point=run_point,
        outputs=lambda s: Outputs(tables=tables_declared), tables=tables,
        figures=lambda s, t: {},
        scorecard=lambda s, t: pd.DataFrame({"item": ["total"], "reproduced": [t["total"]["x"][0]]}))


def test_points_run_in_dependency_order_and_feed_the_assembly(tmp_path):
    tables = run_paper(toy(), "toy", TOY, tmp_path)
    assert read_point(tmp_path / "toy/runs/a/done.json")["main"]["x"].tolist() == [10]
    assert read_point(tmp_path / "toy/runs/b/done.json")["main"]["x"].tolist() == [30]  # 20 + a
    assert tables["total"]["x"].tolist() == [40]
    assert (tmp_path / "toy/tables/total.parquet").is_file()
    assert pd.read_parquet(tmp_path / "toy/scorecard.parquet")["reproduced"].tolist() == [40]


def test_point_frames_are_read_when_asked_not_kept(tmp_path):
    run_paper(toy(), "toy", TOY, tmp_path)
    frames = read_point(tmp_path / "toy/runs/a/done.json")
    assert list(frames) == ["main"] and len(frames) == 1
    (tmp_path / "toy/runs/a/main.parquet").unlink()  # nothing was loaded by read_point itself
    with pytest.raises(CorruptFileError, match=r"main.parquet: missing, though .*done.json records"):
        frames["main"]
    with pytest.raises(KeyError):
        frames["other"]


def test_the_runner_leaves_the_plotting_stack_to_the_assembly():
    """Every point job imports the runner: matplotlib/seaborn (~0.9 CPU-s) only when assembling."""
    code = "import sys, schedlab.papers.runner; print(sorted({'matplotlib', 'seaborn'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_undeclared_or_missing_tables_are_an_error(tmp_path):
    with pytest.raises(ConfigError, match=r"missing \['other'\], undeclared \['total'\]"):
        run_paper(toy(tables_declared=("other",)), "toy", TOY, tmp_path)


def test_points_needing_each_other_are_an_error(tmp_path):
    with pytest.raises(ConfigError, match="points need each other"):
        run_paper(toy(cyclic=True), "toy", TOY, tmp_path)


def test_unknown_paper_is_a_clear_error():
    with pytest.raises(ConfigError, match="unknown paper 'nopaper'"):
        load("nopaper")


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_follows_the_contract(paper):
    from schedlab.papers import CONTRACT

    m = load(paper)
    assert [n for n in CONTRACT if not hasattr(m, n)] == []


def test_outputs_record_their_provenance(tmp_path):
    from schedlab.io import read_parquet_metadata

    run_paper(toy(), "toy", TOY, tmp_path)
    table = read_parquet_metadata(tmp_path / "toy/tables/total.parquet")
    assert table["settings"] == {"scale": "default", "sim": {}, "factor": 10}
    assert table["table"] == "total"
    frame = read_parquet_metadata(tmp_path / "toy/runs/b/main.parquet")
    assert frame["spec"] == {"k": 2} and frame["point"] == "b"


def test_a_package_lacking_part_of_the_contract_is_a_clear_error(monkeypatch):
    import schedlab.papers.talby2005 as talby

    monkeypatch.delattr(talby, "scorecard")
    with pytest.raises(ConfigError, match=r"talby2005 lacks scorecard of the paper contract"):
        load("talby2005")
