"""``schedlab robustness``: the matrix printed, filtered by paper and log; one-line errors, exit 2."""

from __future__ import annotations

import pytest
from robustness_cards import P, cards

from schedlab.cli.main import main
from schedlab.io import write_parquet
from schedlab.report import robustness as R


@pytest.fixture
def matrix_file(tmp_path):
    m = R.build_matrix(cards({"a": True, "b": False},
                             {"KTH": {"a": True, "b": True}, "CTC": {"a": False, "b": None}}))
    path = tmp_path / "robustness.parquet"
    write_parquet(path, m)
    return path


def test_prints_the_matrix(matrix_file, capsys):
    assert main(["robustness", "--file", str(matrix_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("robustness matrix: 2 claims x 3 log columns")
    assert "SDSC-SP2 (own)" in out and "CTC" in out and "KTH" in out
    assert "1/2" in out and "mixed" in out


def test_filters_by_log_keeping_the_own_column(matrix_file, capsys):
    assert main(["robustness", "--file", str(matrix_file), "--paper", P, "--log", "KTH"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("robustness matrix: 2 claims x 2 log columns")
    assert "CTC" not in out and "SDSC-SP2 (own)" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--paper", "talby"], "unknown paper 'talby'"),
    (["--log", "NOPE"], "log 'NOPE' is not in the robustness matrix"),
])
def test_unknown_paper_or_log_is_one_line_exit_2(matrix_file, capsys, args, message):
    assert main(["robustness", "--file", str(matrix_file), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_no_matrix_yet_is_one_line_exit_2(tmp_path, capsys):
    assert main(["robustness", "--file", str(tmp_path / "none.parquet")]) == 2
    assert "no robustness matrix yet" in capsys.readouterr().err
    write_parquet(tmp_path / "other.parquet", R.build_matrix([]).drop(columns=["claim"]))
    assert main(["robustness", "--file", str(tmp_path / "other.parquet")]) == 2
    assert "missing column(s) claim" in capsys.readouterr().err
