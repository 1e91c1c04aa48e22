"""The trace rules end to end in a scratch copy of the workflow: a new trace added by one registry
entry (a test-written SWF) flows through download_trace -> parse_trace -> trace_summary, and a bad
trace fails the rule with a message naming it, leaving no output."""

from __future__ import annotations

import subprocess
from pathlib import Path

from scratch_workflow import SNAKEMAKE, scratch_workflow

from schedlab.io import read_parquet

SWF = "; MaxProcs: 32\n; UnixStartTime: 1000000000\n; TimeZoneString: UTC\n" + "".join(
    f"{i} {i * 100} 0 {50 + i} 4 -1 -1 4 600 -1 1 {i % 4} 1 -1 1 -1 -1 -1\n" for i in range(1, 41)
)


def run(wd: Path, *targets: str, extra=(), traces: str = "available") -> subprocess.CompletedProcess:
    cmd = [SNAKEMAKE, *targets, "--cores", "1", "--directory", str(wd),
           "--snakefile", str(wd / "Snakefile"), *extra, "--config", f"traces={traces}"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=wd)


def test_new_trace_is_one_registry_entry(repo, tmp_path, monkeypatch):
    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)
    src = tmp_path / "MySite-2024-1.swf"
    src.write_text(SWF)
    entries = {"MySite-2024-1": {"file": "MySite-2024-1.swf", "path": str(src), "kind": "raw",
                                 "description": "a new site's log"}}
    wd = scratch_workflow(repo, tmp_path, entries)
    r = run(wd, "results/traces/summary.parquet", traces="[MySite-2024-1]")
    assert r.returncode == 0, r.stderr[-3000:]
    jobs, meta = read_parquet(wd / "results/traces/MySite-2024-1/jobs.parquet")
    assert len(jobs) == 40 and meta["swf_header"]["MaxProcs"] == 32
    summary, _ = read_parquet(wd / "results/traces/summary.parquet")
    assert summary["trace"].tolist() == ["MySite-2024-1"]
    assert summary.loc[0, "machine_size"] == 32
    assert (wd / "config/traces.lock.tsv").read_text().count("MySite-2024-1") == 1


def test_bad_trace_fails_rule_with_named_error(repo, tmp_path, monkeypatch):
    monkeypatch.delenv("SCHEDLAB_TRACE_MIRROR", raising=False)
    src = tmp_path / "Broken-1.swf"
    src.write_text(SWF + "41 5000 0 1 1 oops\n")
    entries = {"Broken-1": {"file": "Broken-1.swf", "path": str(src), "kind": "raw",
                            "description": "a malformed log"}}
    wd = scratch_workflow(repo, tmp_path, entries)
    r = run(wd, "results/traces/Broken-1/jobs.parquet")
    assert r.returncode != 0
    assert "rule parse_trace (trace=Broken-1): error:" in r.stderr
    assert ":44: expected 18 fields, found 6" in r.stderr
    assert not (wd / "results/traces/Broken-1/jobs.parquet").exists()


def test_bad_registry_fails_at_workflow_start(repo, tmp_path):
    entries = {"Bad": {"file": "bad.txt", "url": "http://x/bad", "kind": "raw", "description": "x"}}
    wd = scratch_workflow(repo, tmp_path, entries)
    r = run(wd, extra=["-n"])
    assert r.returncode != 0
    assert "entry 'Bad', field 'file'" in r.stdout + r.stderr
