"""Bad input, layer by layer (issue 19): every case asserts the exit status (2), the one-line message
naming the file/line/field/option, and that no output (nor a temporary file) is left behind.

Layers: SWF reading, normalization, output paths and atomic writes (full disk simulated), strict
JSON, each CLI command, the trace registry and lock file, the workflow config (library checks and a
few `snakemake -n` dry runs in a scratch copy), relative months, trace_sha256.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import json
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml

from schedlab.cli.main import main
from schedlab.errors import ConfigError, RegistryError, SWFFormatError
from schedlab.io import OutputPathError, read_json, read_parquet, write_json, write_parquet

REPO = Path(__file__).resolve().parents[2]
HEADER = "; MaxProcs: 8\n; UnixStartTime: 0\n"
JOBS = [f"{i} {i * 60} 0 100 2 -1 -1 2 200 -1 1 {i % 2} 1 -1 1 -1 -1 -1" for i in range(1, 6)]


def swf(tmp_path: Path, jobs: list[str] = JOBS, header: str = HEADER, name: str = "t.swf") -> Path:
    p = tmp_path / name
    p.write_text(header + "\n".join(jobs) + "\n")
    return p


def replace_field(line: str, index: int, value: str) -> str:
    f = line.split()
    f[index] = value
    return " ".join(f)


def leftovers(directory: Path) -> list[str]:
    """Temporary files of atomic writes (``.<name>.*``) left in ``directory``."""
    return sorted(p.name for p in directory.glob(".*") if p.is_file())


def fails(capsys, argv: list[str], *expected: str, absent: Path | None = None) -> str:
    """Run the CLI: exit status 2, exactly one stderr line ``schedlab: error: ...`` containing each
    of ``expected``; ``absent`` (an output) does not exist and no temporary file is left."""
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.startswith("schedlab: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for text in expected:
        assert text in err, (text, err)
    if absent is not None:
        assert not absent.exists()
        if absent.parent.is_dir():
            assert leftovers(absent.parent) == []
    return err


# --- SWF reading: each bad value names file, line and field ---------------------------------------

# (job line 3 replaced by: field index, value) -> message; line 3 of the jobs is file line 5
BAD_VALUES = [
    (3, "1e30", "value 1e30 in field run_time is outside the 64-bit integer range"),
    (3, "9223372036854775807",
     "value 9223372036854775807 in field run_time is outside the 64-bit integer range"),
    (1, "-9223372036854775809",
     "value -9223372036854775809 in field submit_time is outside the 64-bit integer range"),
    (3, "nan", "non-finite value 'nan' in field run_time"),
    (3, "inf", "non-finite value 'inf' in field run_time"),
    (8, "-inf", "non-finite value '-inf' in field req_time"),
    (5, "NaN", "non-finite value 'NaN' in field avg_cpu_time"),
    (4, "-5", "negative processor count -5 in field alloc_procs (SWF allows only -1, unknown)"),
    (7, "-2", "negative processor count -2 in field req_procs"),
    # the malformed cases that were already handled
    (3, "x06", "non-numeric field 'x06'"),
    (3, "35.5", "non-integer value in field run_time"),
]


@pytest.mark.parametrize(("index", "value", "message"), BAD_VALUES)
def test_bad_field_value(tmp_path, capsys, index, value, message):
    jobs = [*JOBS[:2], replace_field(JOBS[2], index, value), *JOBS[3:]]
    src, out = swf(tmp_path, jobs), tmp_path / "out.parquet"
    fails(capsys, ["parse", str(src), str(out)], f"{src}:5: {message}", absent=out)


def test_bad_value_lenient_skips_and_counts(tmp_path):
    from schedlab.traces.swf import read_swf

    tr = read_swf(swf(tmp_path, [*JOBS[:2], replace_field(JOBS[2], 3, "inf"), *JOBS[3:]]),
                  lenient=True)
    assert tr.n_jobs == 4 and [s[0] for s in tr.skipped] == [5]


@pytest.mark.parametrize(("jobs", "header", "message"), [
    ([*JOBS, "6 400 0 100 2"], HEADER, ":8: expected 18 fields, found 5"),
    ([*JOBS[:3], replace_field(JOBS[3], 1, "10")], HEADER, ":6: submit time goes backwards"),
    ([], "; only a comment\n", ": no job lines"),
    (JOBS, "; MaxProcs: 1e23\n", ":1: header field MaxProcs is not an integer: '; MaxProcs: 1e23'"),
    (JOBS, "; UnixStartTime: 0\n; MaxNodes: 12.5\n", ":2: header field MaxNodes is not an integer"),
    (JOBS, "; MaxProcs: 99999999999999999999\n",
     ":1: header field MaxProcs is outside the 64-bit integer range"),
])
def test_malformed_file(tmp_path, capsys, jobs, header, message):
    src, out = swf(tmp_path, jobs, header), tmp_path / "out.parquet"
    fails(capsys, ["parse", str(src), str(out)], f"{src}{message}", absent=out)


def test_empty_truncated_and_missing_files(tmp_path, capsys):
    out = tmp_path / "out.parquet"
    empty = tmp_path / "empty.swf"
    empty.write_text("")
    fails(capsys, ["parse", str(empty), str(out)], f"{empty}: empty file", absent=out)
    gz = tmp_path / "t.swf.gz"
    gz.write_bytes(gzip.compress((HEADER + "\n".join(JOBS)).encode())[:40])
    fails(capsys, ["parse", str(gz), str(out)], f"{gz}: corrupt or truncated gzip", absent=out)
    fails(capsys, ["info", str(tmp_path / "missing.swf")], "missing.swf: no such trace file")


def test_header_text_value_is_unknown_not_an_error(tmp_path):
    from schedlab.traces.swf import read_swf

    tr = read_swf(swf(tmp_path, header="; MaxProcs: 8\n; MaxRuntime: N/A\n"))
    assert tr.header.int_field("MaxRuntime") is None and tr.header.machine_size == 8


def test_duplicate_job_ids_name_both_lines_and_renumber_on_request(tmp_path, capsys):
    dup = [*JOBS[:3], replace_field(JOBS[3], 0, "2"), JOBS[4]]
    src, out = swf(tmp_path, dup), tmp_path / "out.parquet"
    fails(capsys, ["parse", str(src), str(out)],
          f"{src}:6: job id 2 already used on line 4", "--renumber", absent=out)
    fails(capsys, ["simulate", str(src), "--scheduler", "easy"], f"{src}:6: job id 2")
    assert main(["parse", "--renumber", str(src), str(out)]) == 0
    assert "renumbered" in capsys.readouterr().out
    jobs, _ = read_parquet(out)
    assert jobs["job_id"].tolist() == [1, 2, 3, 4, 5]


# --- normalization -------------------------------------------------------------------------------

def test_no_job_left_after_normalization_is_an_error(tmp_path, capsys):
    src, out = swf(tmp_path, header="; MaxProcs: 1\n"), tmp_path / "sim.parquet"
    fails(capsys, ["simulate", str(src), "--scheduler", "fcfs", "--out", str(out)],
          f"{src}: no jobs left after normalization (5 in; dropped: too_wide 5; machine size 1)",
          absent=out)


def test_every_drop_rule_is_counted():
    from schedlab.traces.normalize import normalize
    from schedlab.traces.swf import parse_swf_text

    rows = [JOBS[0], replace_field(JOBS[1], 1, "-1"), replace_field(replace_field(JOBS[2], 4, "-1"),
                                                                    7, "-1"),
            replace_field(JOBS[3], 3, "-1"), replace_field(JOBS[4], 7, "64")]
    tr = parse_swf_text(HEADER + "\n".join(rows) + "\n", "t.swf", submit_order="keep")
    r = normalize(tr.jobs, tr.header).report
    assert (r["dropped_no_submit"], r["dropped_no_procs"], r["dropped_no_runtime"],
            r["dropped_too_wide"]) == (1, 1, 1, 1)
    assert r["jobs_dropped"] == 4 and r["jobs_out"] == 1


def test_machine_size_unknown_says_how(tmp_path, capsys):
    src = swf(tmp_path, header="")
    fails(capsys, ["simulate", str(src), "--scheduler", "easy"],
          "machine size unknown", "--procs N", "machine_size in the trace's registry entry")


# --- output paths: checked before any work; atomic writes, also on a full disk ------------------

def test_output_is_a_directory(tmp_path, capsys):
    src, d = swf(tmp_path), tmp_path / "adir"
    d.mkdir()
    fails(capsys, ["parse", str(src), str(d)], f"output {d}: is a directory")
    fails(capsys, ["simulate", str(src), "--scheduler", "easy", "--out", str(d)],
          f"--out {d}: is a directory")
    assert list(d.iterdir()) == []


def test_output_parent_is_a_file(tmp_path, capsys):
    src, f = swf(tmp_path), tmp_path / "afile"
    f.write_text("x")
    fails(capsys, ["parse", str(src), str(f / "sub" / "o.parquet")],
          f"{f} is a file, not a directory")
    assert f.read_text() == "x"


def test_output_directory_not_writable(tmp_path, capsys, monkeypatch):
    import os

    src, ro = swf(tmp_path), tmp_path / "ro"
    ro.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == ro else real(p, mode))
    fails(capsys, ["parse", str(src), str(ro / "o.parquet")], f"directory {ro} is not writable",
          absent=ro / "o.parquet")


def test_output_checked_before_the_simulation_runs(tmp_path, capsys, monkeypatch):
    import schedlab.cli.sim as cli_sim

    d = tmp_path / "adir"
    d.mkdir()
    monkeypatch.setattr(cli_sim, "run_simulation", lambda *a, **k: pytest.fail("simulated"))
    fails(capsys, ["simulate", str(swf(tmp_path)), "--scheduler", "easy", "--out", str(d)],
          "is a directory")


def _full_disk_after(n: int):
    """A writer that writes ``n`` bytes, then fails like a full disk."""
    def write(*args, **kwargs):
        dest = Path(args[1] if len(args) > 1 else args[0])
        dest.write_bytes(b"x" * n) if isinstance(dest, Path) else None
        raise OSError(errno.ENOSPC, "No space left on device")
    return write


def test_full_disk_parquet_leaves_nothing(tmp_path, capsys, monkeypatch):
    import pyarrow.parquet as pq

    src, out = swf(tmp_path), tmp_path / "o" / "jobs.parquet"

    def full(table, where, **kw):
        Path(where).write_bytes(b"PAR1 partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    def full_block(writer, table, **kw):  # parse writes its job table a block at a time
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq, "write_table", full)
    monkeypatch.setattr(pq.ParquetWriter, "write_table", full_block)
    fails(capsys, ["parse", str(src), str(out)],
          f"cannot write {out}: No space left on device; nothing written", absent=out)
    with pytest.raises(OutputPathError, match="No space left on device; nothing written"):
        write_parquet(out, pd.DataFrame({"a": [1]}))
    assert not out.exists() and leftovers(out.parent) == []


def test_full_disk_json_keeps_the_old_file(tmp_path, monkeypatch):
    dest = tmp_path / "summary.json"
    dest.write_text('{"old": 1}\n')
    real = Path.write_text

    def full(self, text, *a, **k):
        real(self, text[:5])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(OutputPathError, match=f"cannot write {dest}: No space left on device"):
        write_json(dest, {"new": 2})
    monkeypatch.undo()
    assert dest.read_text() == '{"old": 1}\n' and leftovers(tmp_path) == []


# --- strict JSON ---------------------------------------------------------------------------------

def _strict_load(text: str):
    def bad(c):
        raise AssertionError(f"non-standard JSON constant {c}")
    return json.loads(text, parse_constant=bad)


def test_json_is_strict_missing_metric_null_with_reason(tmp_path):
    dest = tmp_path / "s.json"
    write_json(dest, {"mean_wait": float("nan"), "util": np.float64("inf"), "jobs": 3,
                      "per": [1.0, np.nan]}, reasons={"mean_wait": "no job ran"})
    d = _strict_load(dest.read_text())
    assert d["mean_wait"] is None and d["util"] is None and d["per"] == [1.0, None]
    assert d["null_reasons"] == {"mean_wait": "no job ran", "util": "not computable (inf)",
                                 "per[1]": "not computable (nan)"}
    back = read_json(dest)  # readers that compute get the numbers back
    assert np.isnan(back["mean_wait"]) and back["util"] == np.inf and np.isnan(back["per"][1])
    assert "null_reasons" not in back


def test_parquet_metadata_is_strict_json(tmp_path):
    import pyarrow.parquet as pq

    p = tmp_path / "t.parquet"
    write_parquet(p, pd.DataFrame({"a": [1]}), {"load": float("nan")})
    raw = pq.read_schema(p).metadata[b"schedlab"].decode()
    assert _strict_load(raw)["load"] is None
    assert np.isnan(read_parquet(p)[1]["load"])


# --- every CLI command: one line, exit 2; a traceback only with --debug --------------------------

def test_debug_shows_the_traceback(tmp_path):
    with pytest.raises(SWFFormatError):
        main(["--debug", "info", str(swf(tmp_path, header="; MaxProcs: 1e23\n"))])
    with pytest.raises(SWFFormatError):
        main(["info", str(swf(tmp_path, header="; MaxProcs: 1e23\n")), "--debug"])


def test_no_traceback_in_a_subprocess(tmp_path):
    import sys

    src = swf(tmp_path, [*JOBS, JOBS[0]])
    r = subprocess.run([sys.executable, "-m", "schedlab.cli.main", "info", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"schedlab: error: {src}:8: job id 1 already used on line 3")


def test_parse_onto_a_directory(tmp_path, capsys):
    fails(capsys, ["parse", str(swf(tmp_path)), str(tmp_path)], f"output {tmp_path}: is a directory")


def test_parse_a_directory_as_trace(tmp_path, capsys):
    d = tmp_path / "d.swf"
    d.mkdir()
    fails(capsys, ["info", str(d)], f"{d}: is a directory, not a trace file")


@pytest.mark.parametrize(("argv", "message"), [
    (["synth", "OUT", "--seed", "-1"], "schedlab synth: argument --seed: must be >= 0, got -1"),
    (["synth", "OUT", "--kappa-L", "inf"],
     "schedlab synth: argument --kappa-L: expected a finite number, got 'inf'"),
    (["synth", "OUT", "--kappa-sigma", "0"], "argument --kappa-sigma: must be > 0, got 0"),
    (["synth", "OUT", "--n-jobs", "ten"], "argument --n-jobs: expected an integer, got 'ten'"),
    (["flurries", "t.swf", "--user-ratio", "nan"],
     "schedlab flurries: argument --user-ratio: expected a finite number, got 'nan'"),
    (["simulate", "t.swf", "--scheduler", "easy", "--procs", "0"],
     "argument --procs: must be >= 1, got 0"),
    (["simulate", "t.swf", "--scheduler", "nosuch"], "argument --scheduler: invalid choice"),
    (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
])
def test_bad_option_values(tmp_path, capsys, argv, message):
    out = tmp_path / "OUT"
    fails(capsys, [a.replace("OUT", str(out)).replace("t.swf", str(swf(tmp_path)))
                   for a in argv], message, absent=out)


def test_synth_onto_an_existing_file(tmp_path, capsys):
    f = tmp_path / "afile"
    f.write_text("keep")
    fails(capsys, ["synth", str(f), "--n-jobs", "10"], f"output directory {f}: exists and is not "
          "a directory")
    assert f.read_text() == "keep"


def test_flurry_settings_reject_nan():
    from schedlab.traces.flurry import FlurrySettings

    with pytest.raises(ConfigError, match="user_ratio must be a finite number"):
        FlurrySettings(user_ratio=float("nan"))


def test_mirror_that_does_not_exist_is_named(tmp_path, capsys, monkeypatch):
    fails(capsys, ["info", "KTH-SP2-1996-2.1-cln", "--mirror", "/nonexistent"],
          "--mirror /nonexistent: no such directory")
    fails(capsys, ["simulate", "KTH-SP2-1996-2.1-cln", "--scheduler", "easy", "--mirror",
                   "/nonexistent"], "--mirror /nonexistent: no such directory")
    monkeypatch.setenv("SCHEDLAB_TRACE_MIRROR", "/nonexistent")
    monkeypatch.chdir(tmp_path)
    fails(capsys, ["info", "KTH-SP2-1996-2.1-cln"],
          "trace mirror /nonexistent ($SCHEDLAB_TRACE_MIRROR): no such directory")


def _scorecard(**drop) -> pd.DataFrame:
    from schedlab.report.scorecard import scorecard_frame, value_row

    return scorecard_frame([value_row("p", "Table 1", "wait", "all", 10.0, 11.0)])


def test_scorecard_file_checks(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    fails(capsys, ["scorecard", "--file", str(empty)], f"--file {empty}: is a directory")
    junk = swf(tmp_path)
    fails(capsys, ["scorecard", "--file", str(junk)], f"--file {junk}: not a parquet file")
    other = tmp_path / "jobs.parquet"
    write_parquet(other, pd.DataFrame({"paper": ["p"], "verdict": ["match"]}))
    err = fails(capsys, ["scorecard", "--file", str(other)],
                f"--file {other}: not a scorecard: missing column(s) item, quantity")
    missing = err.split("missing column(s) ")[1].split(" (")[0].split(", ")
    assert "paper" not in missing and "verdict" not in missing and "item" in missing
    none = tmp_path / "none.parquet"
    write_parquet(none, _scorecard().iloc[0:0])
    fails(capsys, ["scorecard", "--file", str(none)], "the scorecard has no rows")
    ok = tmp_path / "ok.parquet"
    write_parquet(ok, _scorecard())
    assert main(["scorecard", "--file", str(ok), "--rows", "--color", "never"]) == 0
    assert "Table 1" in capsys.readouterr().out


# --- registry ------------------------------------------------------------------------------------

def registry_file(tmp_path: Path, text: str) -> Path:
    (tmp_path / "config").mkdir(exist_ok=True)
    p = tmp_path / "config" / "traces.yaml"
    p.write_text(text)
    return p


ENTRY = "    file: t.swf\n    kind: raw\n    description: a log\n    path: {path}\n"


def test_registry_binary_file(tmp_path, capsys):
    b = tmp_path / "reg.yaml"
    b.write_bytes(bytes(range(256)) * 4)
    fails(capsys, ["info", "X", "--registry", str(b)], f"{b}: not a text (UTF-8) YAML file")


def test_registry_duplicate_name_names_both_entries(tmp_path, capsys):
    src = swf(tmp_path)
    reg = registry_file(tmp_path, "traces:\n  A:\n" + ENTRY.format(path=src)
                        + "  A:\n" + ENTRY.format(path=src))
    fails(capsys, ["info", "A", "--registry", str(reg)],
          f"{reg}: duplicate key 'A' on line 7 (first on line 2)")


@pytest.mark.parametrize(("text", "message"), [
    ("traces:\n  A:\n    fiel: t.swf\n    kind: raw\n    description: d\n    path: x\n",
     "entry 'A': unknown key 'fiel' (did you mean 'file'?)"),
    ("traces:\n  A:\n" + ENTRY.format(path="x") + "    machine_sise: 4\n",
     "entry 'A': unknown key 'machine_sise' (did you mean 'machine_size'?)"),
    ("tracess:\n  A: {}\n", "top level: unknown key 'tracess' (did you mean 'traces'?)"),
])
def test_registry_unknown_key_names_the_closest(tmp_path, capsys, text, message):
    reg = registry_file(tmp_path, text)
    fails(capsys, ["info", "A", "--registry", str(reg)], f"{reg}: {message}")


def test_registry_path_that_does_not_exist_is_named(tmp_path, capsys, monkeypatch):
    from schedlab.errors import DownloadError
    from schedlab.traces.download import fetch_trace
    from schedlab.traces.registry import load_registry

    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "nope.swf"
    reg = registry_file(tmp_path, "traces:\n  A:\n" + ENTRY.format(path=missing))
    fails(capsys, ["info", "A", "--registry", str(reg)], f"trace A: path {missing} does not exist")
    out = tmp_path / "res" / "A.swf.gz"
    with pytest.raises(DownloadError, match=f"trace A: path {missing} does not exist"):
        fetch_trace(load_registry(reg), "A", out)
    assert not out.exists()


def test_registry_machine_size_fills_a_header_without_one(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)
    monkeypatch.chdir(tmp_path)
    src = swf(tmp_path, header="")
    reg = registry_file(tmp_path, "traces:\n  A:\n" + ENTRY.format(path=src)
                        + "    machine_size: 8\n")
    assert main(["simulate", "A", "--registry", str(reg), "--scheduler", "easy"]) == 0
    assert "8 processors" in capsys.readouterr().out


def _lock_setup(tmp_path: Path, monkeypatch):
    from schedlab.traces.registry import load_registry, record_lock

    monkeypatch.chdir(tmp_path)  # the project: the registry's lock file is beside it
    src = swf(tmp_path)
    reg = registry_file(tmp_path, "traces:\n  A:\n" + ENTRY.format(path=src))
    registry = load_registry(reg)
    record_lock(registry.lock_path, "A", hashlib.sha256(src.read_bytes()).hexdigest())
    return src, registry


def test_changed_local_trace_is_detected_and_can_be_accepted(tmp_path, monkeypatch):
    from schedlab.traces.registry import check_local_changes, read_lock

    src, registry = _lock_setup(tmp_path, monkeypatch)
    assert check_local_changes(registry) == []
    src.write_text(src.read_text().replace("5 300 0 100", "5 300 0 101"))
    with pytest.raises(RegistryError, match=r"trace A: .* changed since its sha256 was recorded in "
                       r".*traces.lock.tsv .*run with --config 'accept_trace_changes=\[A\]'"):
        check_local_changes(registry)
    stale = tmp_path / "resources" / "A.swf.gz"
    stale.parent.mkdir()
    stale.write_bytes(b"old copy")
    assert check_local_changes(registry, ["A"], resources=stale.parent) == ["A"]
    assert read_lock(registry.lock_path)["A"] == hashlib.sha256(src.read_bytes()).hexdigest()
    # the stored copy is the new file (newer: what was built from it is rebuilt)
    assert gzip.decompress(stale.read_bytes()) == src.read_bytes()
    assert check_local_changes(registry) == []
    with pytest.raises(RegistryError, match="no trace named 'B'"):
        check_local_changes(registry, ["B"])


def test_lock_written_atomically_and_guard_ignored(tmp_path, monkeypatch):
    _, registry = _lock_setup(tmp_path, monkeypatch)
    names = sorted(p.name for p in registry.lock_path.parent.iterdir())
    assert names == ["traces.lock.lck", "traces.lock.tsv", "traces.yaml"]
    r = subprocess.run(["git", "check-ignore", "-q", "config/traces.lock.lck"], cwd=REPO)
    assert r.returncode == 0, "config/traces.lock.lck must be git-ignored"


# --- workflow config -----------------------------------------------------------------------------

SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"


def base_config() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def check(extra: dict) -> dict:
    from schedlab.pipeline.config import check_config

    return check_config(base_config() | extra, SCHEMA, REPO / "config" / "papers")


@pytest.mark.parametrize(("extra", "message"), [
    ({"trace_mirorr": "/x"}, "config: unknown key 'trace_mirorr' (did you mean 'trace_mirror'?)"),
    ({"download": {"retires": 5}}, "config download: unknown key 'retires' (did you mean "
                                   "'retries'?)"),
    ({"download": {"retries": "many"}}, "config download.retries: 'many' is not of type"),
    ({"sim": {"machine_size": "x"}}, "config sim.machine_size: 'x' is not of type 'integer'"),
    ({"sim": {"machine_size": "0"}}, "config sim.machine_size: 0 is less than the minimum of 1"),
    ({"sim": {"procs": 3}}, "config sim: unknown key 'procs'"),
    ({"clean": {"flurry": {"user_ration": 3}}},
     "config clean.flurry: unknown key 'user_ration' (did you mean 'user_ratio'?)"),
    ({"papers": {"talby2005": {"min_month_job": 2}}},
     "config papers.talby2005: unknown key 'min_month_job' (did you mean 'min_month_jobs'?)"),
    ({"papers": {"talby": {}}}, "config papers: unknown key 'talby' (did you mean 'talby2005'?)"),
    ({"studies": {"tang": {}}}, "config studies: unknown key 'tang' (did you mean 'tang2013'?)"),
    ({"studies": {"talby2005": {"min_month_job": 2}}},
     "config studies.talby2005: unknown key 'min_month_job' (did you mean 'min_month_jobs'?)"),
    ({"quick": "yes"}, "config quick: 'yes' is not of type 'boolean'"),
])
def test_config_errors_name_key_and_closest(extra, message):
    with pytest.raises(ConfigError) as ei:
        check(extra)
    assert message in str(ei.value) and "\n" not in str(ei.value)


def test_config_text_coerced_where_the_schema_says_integer():
    c = check({"download": {"retries": "5", "timeout_s": "12.5"}, "sim": {"machine_size": "300"},
               "quick": "true"})
    assert c["download"] == {"retries": 5, "timeout_s": 12.5}
    assert c["sim"]["machine_size"] == 300 and c["quick"] is True


def test_every_used_config_key_is_declared():
    """config.yaml, the profiles' config files and the README's --config examples pass."""
    for f in [REPO / "config" / "config.yaml", *REPO.glob("workflow/profiles/*/*.yaml")]:
        data = yaml.safe_load(f.read_text()) or {}
        if f.name == "config.yaml" and f.parent.name != "config":
            continue  # a profile's snakemake settings, not workflow config
        check(data)
    check({"papers": {"cirne2001": {"scale": "paper"}}, "accept_trace_changes": ["A"],
           "clean": {"remove_flurries": True},
           "cirne2001_sa": str(REPO / "config" / "papers" / "cirne2001_sa.yaml"),
           "studies": {"perkovic2000": {"max_jobs": 2000}}, "study_traces": ["lublin_256"]})
    with pytest.raises(ConfigError, match=r"x.yaml: cannot read paper settings"):
        check({"cirne2001_sa": "x.yaml"})  # a custom Cirne SA file is read and checked up front


def test_study_overrides_are_checked_and_coerced_as_the_papers_are():
    """config ``studies.<paper>`` goes through the papers' one check (schema, text coerced)."""
    c = check({"studies": {"perkovic2000": {"max_jobs": "3000"}}})
    assert c["studies"]["perkovic2000"]["max_jobs"] == 3000
    with pytest.raises(ConfigError, match=r"^config studies.perkovic2000.max_jobs: 'x' is not of "
                                          "type"):
        check({"studies": {"perkovic2000": {"max_jobs": "x"}}})


def test_custom_registry_skips_papers_with_one_warning_line(tmp_path):
    from schedlab.papers import Env, load
    from schedlab.pipeline.config import PAPER_OVERRIDE_KEYS, papers_to_run
    from schedlab.traces.registry import load_registry

    default = load_registry(REPO / "config" / "traces.yaml")
    d = yaml.safe_load((REPO / "config" / "traces.yaml").read_text())
    keep = {"lublin_256", "CTC-SP2-1996-3.1-cln"}
    reg = load_registry(registry_file(tmp_path, yaml.safe_dump(
        {"traces": {k: v for k, v in d["traces"].items() if k in keep}})))
    env = Env(trace_local=lambda n: n in reg, machine_size=lambda n: None)
    papers = ["schroeder2004", "talby2005", "perkovic2000"]
    logs = {p: load(p).logs(load(p).settings({}, env)) for p in papers}  # the contract's logs(s)
    run, warning = papers_to_run(logs, reg)
    assert run == ["schroeder2004", "perkovic2000"]
    assert warning.count("\n") == 0 and warning.startswith("schedlab: warning: registry ")
    assert "talby2005 (needs " in warning and "SDSC-BLUE-2000-4.2-cln" in warning
    assert papers_to_run(logs, default) == (papers, None)
    assert "quick" in PAPER_OVERRIDE_KEYS


# --- Snakemake: the same errors before any job (dry runs in a scratch copy) ----------------------

@pytest.fixture(scope="module")
def wf(tmp_path_factory):
    wd = tmp_path_factory.mktemp("badinput") / "wf"
    wd.mkdir()
    for d in ("workflow", "scripts", "config"):
        shutil.copytree(REPO / d, wd / d)
    shutil.copy(REPO / "Snakefile", wd / "Snakefile")
    return wd


def dry_run(wd: Path, *args: str) -> subprocess.CompletedProcess:
    snakemake = str(Path(sys.executable).with_name("snakemake"))  # the venv's, as `make test` runs
    return subprocess.run([snakemake, "-n", "--cores", "1", "--directory", str(wd), "--snakefile",
                           str(wd / "Snakefile"), "results/traces/summary.parquet", *args],
                          capture_output=True, text=True, timeout=300, cwd=wd)


def error_lines(r: subprocess.CompletedProcess) -> list[str]:
    return [ln for ln in r.stderr.splitlines() if "error" in ln.lower()]


@pytest.mark.slow
def test_snakemake_config_errors_are_one_line(wf):
    r = dry_run(wf, "--config", "trace_mirorr=/x")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert error_lines(r) == ["schedlab: error: config: unknown key 'trace_mirorr' (did you mean "
                              "'trace_mirror'?)"]
    r = dry_run(wf, "--config", 'studies={"perkovic2000": {"max_jobs": "x"}}', "quick=True")
    assert r.returncode == 2
    assert len(error_lines(r)) == 1
    assert error_lines(r)[0].startswith("schedlab: error: config studies.perkovic2000.max_jobs: "
                                        "'x' is not of type")
    r = dry_run(wf, "--config", 'papers={"tang2013": {"fair_start": {"runtime": "actul"}}}')
    assert r.returncode == 2
    assert error_lines(r) == ["schedlab: error: config papers.tang2013.fair_start.runtime: 'actul' "
                              "is not one of ['estimate', 'actual']"]
    r = dry_run(wf, "--config", 'download={"retries": 5}', 'sim={"machine_size": 300}')
    assert r.returncode == 0, r.stderr[-2000:]


@pytest.mark.slow
def test_snakemake_registry_errors_are_one_line(wf, tmp_path):
    d = yaml.safe_load((wf / "config" / "traces.yaml").read_text())
    keep = {k: v for k, v in d["traces"].items() if k in ("lublin_256", "KTH-SP2-1996-2.1-cln")}
    (wf / "mine.yaml").write_text(yaml.safe_dump({"traces": keep}))
    r = dry_run(wf, "--config", "registry=mine.yaml")
    assert r.returncode == 0, r.stderr[-2000:]
    warnings = [ln for ln in r.stderr.splitlines() if "warning" in ln]
    assert len(warnings) == 1 and "talby2005 (needs" in warnings[0], warnings
    (wf / "dup.yaml").write_text("traces:\n  A:\n    file: a.swf\n  A:\n    file: b.swf\n")
    r = dry_run(wf, "--config", "registry=dup.yaml")
    assert r.returncode == 2
    assert error_lines(r) == ["schedlab: error: dup.yaml: duplicate key 'A' on line 4 (first on "
                              "line 2)"]


# --- months of a log without UnixStartTime; trace_sha256 ------------------------------------------

def test_months_relative_without_unix_start_time():
    from schedlab.papers.talby2005 import month_labels, month_seconds
    from schedlab.sim.metrics import RELATIVE_MONTHS_NOTE
    from schedlab.sim.metrics import month_labels as sim_month_labels

    day = 86400
    assert list(month_labels(np.array([0, 31 * day, 400 * day]), None, None)) == ["M01", "M02",
                                                                                  "M14"]
    assert list(month_labels(np.array([0]), 0, "UTC")) == ["1970-01"]  # a start, even 0: calendar
    assert month_seconds("M03", None) == pytest.approx(365.25 / 12 * day)
    assert list(sim_month_labels(pd.Series([0, 40 * day]), None, None)) == ["M01", "M02"]
    assert "no UnixStartTime" in RELATIVE_MONTHS_NOTE and "M01" in RELATIVE_MONTHS_NOTE


def test_parse_trace_records_sha256_of_a_path_trace(tmp_path, monkeypatch):
    from schedlab.traces.registry import read_lock

    src, registry = _lock_setup(tmp_path, monkeypatch)
    stored = tmp_path / "resources" / "A.swf.gz"
    stored.parent.mkdir()
    stored.write_bytes(gzip.compress(src.read_bytes(), mtime=0))
    out = tmp_path / "results" / "jobs.parquet"
    class Wildcards(dict):
        __getattr__ = dict.__getitem__

    sm = SimpleNamespace(input=[str(stored)], output=[str(out)], log=[], rule="parse_trace",
                         wildcards=Wildcards(trace="A"),
                         params=SimpleNamespace(registry=str(registry.source)))
    runpy.run_path(str(REPO / "scripts" / "parse_trace.py"), init_globals={"snakemake": sm})
    _, meta = read_parquet(out)
    assert meta["sha256"] == read_lock(registry.lock_path)["A"]
    assert meta["sha256"] == hashlib.sha256(src.read_bytes()).hexdigest()
