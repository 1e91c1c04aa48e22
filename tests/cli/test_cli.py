"""The `schedlab` command line: parse and info, one-line errors with non-zero exit."""

from __future__ import annotations

import subprocess
import sys

import pytest

from schedlab.cli.main import main
from schedlab.io import read_parquet

SWF = "; MaxProcs: 8\n; UnixStartTime: 0\n" + "".join(
    f"{i} {i * 60} 0 100 2 -1 -1 2 200 -1 1 {i % 2} 1 -1 1 -1 -1 -1\n" for i in range(1, 11)
)


def test_parse_writes_parquet_with_header(tmp_path, capsys):
    src = tmp_path / "t.swf"
    src.write_text(SWF)
    out = tmp_path / "jobs.parquet"
    assert main(["parse", str(src), str(out)]) == 0
    jobs, meta = read_parquet(out)
    assert len(jobs) == 10
    assert meta["swf_header"]["MaxProcs"] == 8
    assert "10 jobs" in capsys.readouterr().out


def test_info_on_path(tmp_path, capsys):
    src = tmp_path / "t.swf"
    src.write_text(SWF)
    assert main(["info", str(src)]) == 0
    out = capsys.readouterr().out
    assert "10" in out and "8 processors" in out
    # 10 jobs x 100 s x 2 procs over 8 procs x 540 s
    assert f"{2000 / (8 * 540):.3f}" in out


def test_bad_file_one_line_error_no_traceback(tmp_path):
    bad = tmp_path / "bad.swf"
    bad.write_text(SWF + "11 700 0 100 2\n")
    r = subprocess.run([sys.executable, "-m", "schedlab.cli.main", "info", str(bad)],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1
    assert f"{bad}:13: expected 18 fields, found 5" in r.stderr


def test_lenient_flag(tmp_path, capsys):
    bad = tmp_path / "bad.swf"
    bad.write_text(SWF + "11 700 0 100 2\n")
    assert main(["parse", "--lenient", str(bad), str(tmp_path / "o.parquet")]) == 0
    assert "1 malformed lines skipped" in capsys.readouterr().out


def test_unknown_registry_name(capsys):
    assert main(["info", "No-Such-Trace"]) == 2
    assert "no trace named 'No-Such-Trace'" in capsys.readouterr().err


def test_info_registry_name_with_mirror(mirror, capsys):
    assert main(["info", "SDSC-SP2-1998-4.2-cln", "--mirror", str(mirror)]) == 0
    out = capsys.readouterr().out
    assert "59,715" in out and "128 processors" in out


def test_registry_name_without_mirror_says_how(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)
    monkeypatch.chdir(tmp_path)  # no resources/ here
    assert main(["info", "KTH-SP2-1996-2.1-cln"]) == 2
    assert "SCHEDLAB_TRACE_MIRROR" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["info"], ["nosuchcommand"]])
def test_usage_errors_exit_nonzero(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("schedlab: error: ") and err.count("\n") == 1


def test_cli_choices_match_the_library():
    # cli_sim repeats these so that `schedlab --help` does not import pandas
    from schedlab.cli import report as cli_report
    from schedlab.cli import sim as cli_sim
    from schedlab.report import scorecard
    from schedlab.traces import normalize

    assert cli_report.VERDICTS == scorecard.VERDICTS
    assert cli_sim.PROCS_RULES == normalize.PROCS_RULES
    assert cli_sim.CANCELLED_RULES == normalize.CANCELLED_RULES
    from schedlab.cli import report as cli_report
    from schedlab.report import scorecard

    assert cli_report.VERDICTS == scorecard.VERDICTS


def test_help_imports_no_heavy_modules():
    import subprocess
    import sys

    code = (
        "import sys; from schedlab.cli.main import build_parser; build_parser(); "
        "print(sorted(m for m in ('pandas', 'numpy', 'scipy', 'pyarrow') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
