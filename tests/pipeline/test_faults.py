"""Faults: hostile names, corrupt intermediates, hostile YAML and interruptions never cost a
result. Each test is one fault: a trace named like another rule's output,
intermediates trusted as they are, YAML bombs and foreign files, writes outside the project, SIGINT.

The end-to-end fault injection (kill a quick run and resume, truncate a point output and a trace
parquet and rerun, compare with a clean run) is ci/fault_injection.py.
"""

from __future__ import annotations

import ast
import os
import re
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import yaml

from schedlab.errors import ConfigError, RegistryError
from schedlab.io import read_json, write_parquet

REPO = Path(__file__).resolve().parents[2]
SWF_TEXT = "; MaxProcs: 8\n" + "".join(
    f"{i} {i * 60} 0 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n" for i in range(1, 6))


# --- failure 1: a trace named like another rule's output --------------------------------------------

def test_reserved_names_from_the_outputs():
    from schedlab.pipeline.namespaces import reserved_names

    outputs = [("fit_models", "results/models/{trace}"),
               ("models_tables", "results/models/cirne2001/tables"),
               ("models_tables", "results/models/cirne2001/scorecard.parquet"),
               ("parse_trace", "results/traces/{trace,[^/]+}/jobs.parquet"),
               ("trace_summary", "results/traces/summary.parquet"),
               ("fit_models", "logs/fit_models/{trace}.log"),
               ("other", "logs/fit_models/all.log"),
               ("simulate", "results/sim/{trace}/{scheduler}/summary.json")]
    got = reserved_names(outputs)
    assert set(got) == {"cirne2001", "summary.parquet", "all"}
    assert (got["cirne2001"].trace_rule, got["cirne2001"].rule) == ("fit_models", "models_tables")
    assert got["summary.parquet"].trace_output == "results/traces/{trace}/jobs.parquet"


def test_trace_named_like_an_output_or_a_paper_is_refused_in_one_line():
    from schedlab.pipeline.namespaces import check_trace_names

    outputs = [("fit_models", "results/models/{trace}"),
               ("models_tables", "results/models/cirne2001/tables")]
    check_trace_names(["KTH", "lublin_256"], outputs, ["talby2005"], "reg.yaml")
    with pytest.raises(RegistryError) as e:
        check_trace_names(["KTH", "cirne2001", "talby2005"], outputs, ["talby2005"], "reg.yaml")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("reg.yaml: trace name(s) reserved")
    assert ("'cirne2001' (rule fit_models's results/models/{trace} would be results/models/"
            "cirne2001, where rule models_tables writes results/models/cirne2001/tables)") in msg
    assert "'talby2005' (a paper's name" in msg and "KTH" not in msg


def _summary(wd: Path, *args: str) -> tuple[set[str], subprocess.CompletedProcess]:
    """The output and log files of the workflow's DAG (``snakemake --summary``)."""
    from scratch_workflow import SNAKEMAKE

    r = subprocess.run([SNAKEMAKE, "--summary", "--cores", "1", "--directory", str(wd),
                        "--snakefile", str(wd / "Snakefile"), *args], cwd=wd, capture_output=True,
                       text=True, timeout=900)
    files: set[str] = set()
    for line in r.stdout.splitlines()[1:]:
        cols = line.split("\t")
        files.add(cols[0])
        if len(cols) > 3 and cols[3] != "-":
            files.update(f.strip() for f in cols[3].split(","))
    return files, r


def _nested(files: set[str]) -> list[tuple[str, str]]:
    """Pairs (a, b) of files where b lies inside a (a directory output and a file of another job)."""
    parents = ((f, "/".join(f.split("/")[:i])) for f in files for i in range(1, f.count("/") + 1))
    return sorted((p, f) for f, p in parents if p in files)


@pytest.mark.slow
def test_every_output_name_as_a_trace_name(repo, tmp_path):
    """A trace registered under every name the default DAG's outputs use (each path component of
    every output and log file, and the papers' names): the names whose trace outputs would be
    another rule's are refused in one line; with the rest registered, no output of the DAG lies
    inside another's."""
    from scratch_workflow import scratch_workflow

    from schedlab.papers import PAPERS

    reference = scratch_workflow(repo, tmp_path / "ref", {})
    files, r = _summary(reference)
    assert r.returncode == 0 and len(files) > 100, r.stderr[-2000:]
    assert _nested(files) == []
    known = set(yaml.safe_load((repo / "config" / "traces.yaml").read_text())["traces"])
    names = {c for f in files for c in f.split("/")} | set(PAPERS)
    names = sorted(n for n in names if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", n))
    names = [n for n in names if n not in known]
    src = tmp_path / "t.swf"
    src.write_text(SWF_TEXT)
    entry = {"file": "t.swf", "kind": "other", "description": "named like an output",
             "path": str(src), "study": True, "machine_size": 8}

    wd = scratch_workflow(repo, tmp_path / "all", dict.fromkeys(names, entry))
    _, r = _summary(wd)
    errors = [ln for ln in r.stderr.splitlines() if "error" in ln]
    assert r.returncode == 2 and len(errors) == 1 and "Traceback" not in r.stderr, r.stderr[-3000:]
    refused = set(re.findall(r"'([^']+)' \(", errors[0]))
    assert {"cirne2001", "summary.parquet", *PAPERS} <= refused <= set(names)

    allowed = [n for n in names if n not in refused]
    wd = scratch_workflow(repo, tmp_path / "rest", dict.fromkeys(allowed, entry))
    targets = [f"results/{kind}" for n in allowed for kind in
               (f"sim/{n}/easy/summary.json", f"models/{n}", f"synthetic/cirne2001-{n}/1.parquet")]
    files, r = _summary(wd, *targets, "--config", "traces=all")
    assert r.returncode == 0, r.stderr[-3000:]
    assert all(any(f"/{n}/" in f or f.endswith(f"/{n}") for f in files) for n in allowed)
    assert _nested(files) == []


# --- failures 3 and 4: intermediates verified, not trusted ---------------------------------------------

def _toy_point(tmp_path: Path) -> tuple[Path, Path]:
    """A finished point of a one-frame paper, written by the runner under ``tmp_path/results``."""
    from schedlab.papers import Point
    from schedlab.papers.runner import run_point

    toy = SimpleNamespace(run_point=lambda s, p, i: {"jobs": pd.DataFrame({"a": range(5000)})})
    done = tmp_path / "results" / "toy" / "runs" / "p1" / "done.json"
    run_point(toy, "toy", {}, Point(id="p1"), {}, {}, done)
    return done, done.parent / "jobs.parquet"


def test_done_json_records_size_and_sha256_of_each_frame(tmp_path):
    from schedlab.io import file_record
    from schedlab.papers.runner import read_point

    done, frame = _toy_point(tmp_path)
    assert read_json(done)["files"] == {"jobs": file_record(frame)}
    assert read_point(done)["jobs"]["a"].tolist() == list(range(5000))


def test_truncated_or_changed_frame_is_named(tmp_path):
    from schedlab.io import CorruptFileError
    from schedlab.papers.runner import read_point

    done, frame = _toy_point(tmp_path)
    data = frame.read_bytes()
    frame.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptFileError) as e:
        read_point(done)["jobs"]
    assert str(e.value).startswith(f"{frame}: {len(data) // 2:,} bytes, but {done} records "
                                   f"{len(data):,} (truncated")
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    frame.write_bytes(bytes(flipped))
    with pytest.raises(CorruptFileError, match=r"sha256 differs from the one .*done.json records"):
        read_point(done)["jobs"]
    done.write_text('{"frames": ["jobs"], "fi')
    with pytest.raises(CorruptFileError, match=r"done.json: unreadable JSON, truncated or corrupt"):
        read_point(done)


def _consumer(inputs: list[str], read) -> SimpleNamespace:
    """A fake Snakemake job whose main reads its inputs with ``read``."""
    return SimpleNamespace(input=inputs, log=[], rule="consumer", wildcards={}, config={},
                           main=lambda sm: [read(f) for f in sm.input])


def _run_job(job: SimpleNamespace, capsys) -> tuple[int, str]:
    from schedlab.pipeline import smk

    with pytest.raises(SystemExit) as e:
        smk.run(job.main, job)
    return e.value.code, capsys.readouterr().err


def test_consumer_of_a_truncated_frame_removes_the_point_so_it_is_rebuilt(tmp_path, monkeypatch,
                                                                        capsys):
    from schedlab.papers.runner import read_point

    monkeypatch.chdir(tmp_path)
    done, frame = _toy_point(Path("."))
    frame_size = frame.stat().st_size
    frame.write_bytes(frame.read_bytes()[:100])
    rel = "results/toy/runs/p1/done.json"
    code, err = _run_job(_consumer([rel], lambda f: read_point(f)["jobs"]), capsys)
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("rule consumer: error: results/toy/runs/p1/jobs.parquet: 100 bytes, "
                          f"but {rel} records {frame_size:,} (truncated")
    assert err.rstrip().endswith(f"removed {rel}: Snakemake rebuilds it when a job needs it (run "
                                 "the same command again)")
    assert not done.exists()  # Snakemake reruns the point


def test_truncated_trace_parquet_is_named_and_removed(tmp_path, monkeypatch, capsys):
    from schedlab.io import read_parquet

    monkeypatch.chdir(tmp_path)
    jobs = Path("results/traces/T/jobs.parquet")
    write_parquet(jobs, pd.DataFrame({"job_id": range(1000)}), {"trace": "T"})
    jobs.write_bytes(jobs.read_bytes()[: jobs.stat().st_size // 2])
    code, err = _run_job(_consumer([str(jobs)], read_parquet), capsys)
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert f"error: {jobs}: unreadable parquet, truncated or corrupt (" in err
    assert f"removed {jobs}: Snakemake rebuilds it" in err and not jobs.exists()
    # a bad file that is not an output of the run (not under results/) is never removed
    other = Path("resources/x.parquet")
    other.parent.mkdir()
    other.write_bytes(b"PAR1 not really")
    code, err = _run_job(_consumer([str(other)], read_parquet), capsys)
    assert code == 1 and other.exists()
    assert f"rebuild it with `snakemake --forcerun {other}`" in err


# --- failure 5 and foreign files: bounded YAML, short messages --------------------------------------

def _laughs(levels: int = 9) -> list[str]:
    lines = ['x0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"x{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return lines


def _limited(code: str, cwd: Path) -> subprocess.CompletedProcess:
    """Python ``code`` in a child with 1.5 GB of address space (a bomb must not need more)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))

    env = os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          timeout=120, preexec_fn=limit, env=env)


def test_billion_laughs_registry_is_one_line_in_bounded_memory(tmp_path):
    reg = tmp_path / "bomb.yaml"
    reg.write_text("\n".join([*_laughs(), "traces:",
                              "  A: {file: a.swf, kind: raw, description: d, path: x, notes: *a8}"])
                   + "\n")
    r = _limited(f"from schedlab.cli.main import main; raise SystemExit(main(['info', 'A', "
                 f"'--registry', {str(reg)!r}]))", tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr[-2000:]
    assert r.stderr.startswith(f"schedlab: error: {reg}: trace registry holds more than 1,000,000 "
                               "values once YAML aliases (*name) are expanded")


def test_billion_laughs_config_is_refused_before_validation():
    from schedlab.pipeline.config import check_config

    bomb = yaml.safe_load("\n".join(_laughs()) + "\n")["x8"]
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    with pytest.raises(ConfigError, match=r"^config papers: holds more than 1,000,000 values"):
        check_config(config | {"papers": {"tang2013": {"published": {"Table 2": bomb}}}},
                     REPO / "workflow/schemas/config.schema.yaml", REPO / "config/papers")


def test_yaml_aliases_that_stay_small_are_accepted(tmp_path):
    from schedlab.pipeline.limits import count_values
    from schedlab.traces.registry import load_yaml_unique

    p = tmp_path / "ok.yaml"
    p.write_text("a: &x {k: 1, v: [1, 2]}\nb: *x\nc: *x\n")
    data = load_yaml_unique(p, "paper settings", ConfigError)
    assert data["c"] == {"k": 1, "v": [1, 2]} and count_values(data) == 1 + 6 + 3 * 6
    loop = []
    loop.append(loop)
    assert count_values(loop) is None
    assert count_values(yaml.safe_load("\n".join(_laughs(6)) + "\n"), limit=10**9) > 9**5


def test_a_foreign_file_as_registry_is_not_echoed(tmp_path, capsys):
    from schedlab.cli.main import main

    foreign = tmp_path / "passwd"
    foreign.write_text("".join(f"user{i}:x:{i}:{i}::/home/user{i}:/bin/sh\n" for i in range(500)))
    assert main(["info", "A", "--registry", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 300, err[:500]
    assert "user1:x:1:1" in err and "user499" not in err and "characters) is not of type" in err


def test_an_oversized_yaml_file_is_refused_unread(tmp_path, capsys):
    from schedlab.cli.main import main
    from schedlab.pipeline.limits import MAX_YAML_BYTES

    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(MAX_YAML_BYTES + 1)  # sparse: costs no disk
    assert main(["info", "A", "--registry", str(big)]) == 2
    assert f"{big}: {MAX_YAML_BYTES + 1:,} bytes; a trace registry file is at most" in \
        capsys.readouterr().err


# --- failure 8: nothing written beside a registry outside the project --------------------------------

def test_registry_outside_the_project_keeps_its_lock_under_results(tmp_path, monkeypatch):
    from schedlab.traces.download import fetch_trace
    from schedlab.traces.registry import load_registry, read_lock

    outside, project = tmp_path / "elsewhere", tmp_path / "project"
    outside.mkdir()
    project.mkdir()
    (outside / "t.swf").write_text(SWF_TEXT)
    reg = outside / "mine.yaml"
    reg.write_text(yaml.safe_dump({"traces": {"A": {"file": "t.swf", "kind": "other",
                                                    "description": "d",
                                                    "path": str(outside / "t.swf")}}}))
    monkeypatch.chdir(project)
    registry = load_registry(reg)
    fetch_trace(registry, "A", Path("resources/traces/A.swf.gz"))
    assert sorted(p.name for p in outside.iterdir()) == ["mine.yaml", "t.swf"]
    assert registry.lock_path.parent == Path("results/registry-locks")
    assert list(read_lock(registry.lock_path)) == ["A"]
    assert load_registry(reg).expected_sha256("A") == read_lock(registry.lock_path)["A"]
    # inside the project the lock stays beside the registry (config/traces.lock.tsv)
    (project / "config").mkdir()
    inside = project / "config" / "traces.yaml"
    inside.write_text(reg.read_text())
    assert load_registry(inside).lock_path == inside.with_name("traces.lock.tsv")


# --- interruptions: SIGINT ends a job with one line and exit status 130 --------------------------------

def test_sigint_ends_a_job_script_without_traceback(tmp_path):
    job = textwrap.dedent("""
        import sys, time
        from types import SimpleNamespace
        from schedlab.pipeline import smk

        def main(sm):
            print("running", flush=True)
            time.sleep(60)

        smk.run(main, SimpleNamespace(rule="slow", wildcards={"trace": "T"}, log=[], config={}))
    """)
    assert _interrupted(job, "running") == (130, "rule slow (trace=T): interrupted\n")


def _interrupted(job: str, first_line: str, *args: str) -> tuple[int, str]:
    """Run ``job`` (Python code), send SIGINT once it has printed ``first_line``: (status, stderr)."""
    env = os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)}
    # SIGINT at its default in the child: a suite started in the background (`make test &`)
    # ignores SIGINT, which Python would then never turn into KeyboardInterrupt
    proc = subprocess.Popen([sys.executable, "-c", job, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline() == first_line + "\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


def test_sigint_while_a_job_script_imports_ends_it_without_traceback(tmp_path):
    # a Ctrl-C landing while the script loads pandas or numba (before smk.run) is quiet too
    job = textwrap.dedent("""
        import sys, time
        from types import SimpleNamespace
        from schedlab.pipeline import smk

        snakemake = SimpleNamespace(rule="slow", wildcards={}, log=[sys.argv[1]], config={})
        smk.quiet_interrupt(snakemake)
        print("importing", flush=True)
        time.sleep(60)  # stands for the script's slow imports
    """)
    log = tmp_path / "job.log"
    assert _interrupted(job, "importing", str(log)) == (130, "rule slow: interrupted\n")
    assert log.read_text() == "rule slow: interrupted\n"


def test_every_adapter_script_is_quiet_on_ctrl_c_before_its_slow_imports():
    for script in sorted((REPO / "scripts").glob("*.py")):
        body = ast.parse(script.read_text()).body
        first = [ast.unparse(node) for node in body[1:3]]  # after the docstring
        assert first == ["from schedlab.pipeline import smk", "smk.quiet_interrupt(snakemake)"], script


# --- failure 6: every number has a maximum ---------------------------------------------------------

def _numbers(schema, path=()):
    """(path, schema) of every integer/number in a schema."""
    if not isinstance(schema, dict):
        return
    types = schema.get("type")
    types = [types] if isinstance(types, str) else list(types or [])
    if "integer" in types or "number" in types:
        yield ".".join(path), schema
    for k, sub in (schema.get("properties") or {}).items():
        yield from _numbers(sub, (*path, k))
    for k, sub in (schema.get("$defs") or {}).items():
        yield from _numbers(sub, (*path, "$defs", k))
    for key, part in (("additionalProperties", "*"), ("items", "[]")):
        yield from _numbers(schema.get(key), (*path, part))
    for sub in (*schema.get("anyOf", ()), *schema.get("oneOf", ())):
        yield from _numbers(sub, path)


def test_every_number_of_every_schema_has_a_maximum():
    schemas = sorted((REPO / "workflow" / "schemas").rglob("*.schema.yaml"))
    assert len(schemas) >= 8
    count = 0
    for f in schemas:
        for path, s in _numbers(yaml.safe_load(f.read_text())):
            count += 1
            assert "maximum" in s or "exclusiveMaximum" in s, f"{f.name}: {path} has no maximum"
            assert "minimum" in s or "exclusiveMinimum" in s, f"{f.name}: {path} has no minimum"
    assert count > 120


@pytest.mark.parametrize(("extra", "message"), [
    ({"sim": {"machine_size": 1e23}},
     "config sim.machine_size: 1e+23 is greater than the maximum of 100000000"),
    ({"download": {"retries": "1000000"}},
     "config download.retries: 1000000 is greater than the maximum of 100"),
    ({"download": {"timeout_s": 1e300}}, "config download.timeout_s: 1e+300 is greater than"),
    ({"clean": {"flurry": {"max_gap_days": 10**30}}}, "config clean.flurry.max_gap_days: 1"),
    ({"papers": {"cirne2001": {"single_target": {"experiments": 1e12}}}},
     "config papers.cirne2001.single_target.experiments: 1000000000000 is greater than the "
     "maximum of 10000000"),
    ({"papers": {"perkovic2000": {"max_jobs": 10**10}}},
     "config papers.perkovic2000.max_jobs: 10000000000 is greater than the maximum"),
    ({"papers": {"cirne2001": {"models": {"synthetic": {"seeds": [-1]}}}}},
     "config papers.cirne2001.models.synthetic.seeds.0: -1 is less than the minimum of 0"),
])
def test_unbounded_numbers_are_refused_in_one_line(extra, message):
    from schedlab.pipeline.config import check_config

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    with pytest.raises(ConfigError) as e:
        check_config(config | extra, REPO / "workflow/schemas/config.schema.yaml",
                     REPO / "config/papers")
    assert message in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_study_overrides_are_bounded_by_the_paper_schemas():
    """config ``studies`` is checked against the paper's schema: every number has a range."""
    from schedlab.pipeline.config import check_config

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    with pytest.raises(ConfigError, match=r"^config studies.perkovic2000.max_jobs: 1000000000000 "
                                          "is greater than the maximum"):
        check_config(config | {"studies": {"perkovic2000": {"max_jobs": 10**12}}},
                     REPO / "workflow/schemas/config.schema.yaml", REPO / "config/papers")


@pytest.mark.slow
def test_huge_machine_size_is_one_line_before_any_job(repo, tmp_path):
    from scratch_workflow import SNAKEMAKE, scratch_workflow

    wd = scratch_workflow(repo, tmp_path, {})
    (wd / "big.yaml").write_text("sim: {machine_size: 1.0e+23}\n")  # a float YAML reads as integer
    r = subprocess.run([SNAKEMAKE, "-n", "--cores", "1", "--directory", str(wd), "--snakefile",
                        str(wd / "Snakefile"), "results/traces/summary.parquet", "--configfile",
                        "big.yaml"], cwd=wd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert [ln for ln in r.stderr.splitlines() if "error" in ln] == [
        "schedlab: error: config sim.machine_size: 1e+23 is greater than the maximum of 100000000"]


# --- interruptions: the stale lock of a killed run ----------------------------------------------------

def test_stale_snakemake_lock_is_cleared_saying_so(tmp_path):
    from schedlab.pipeline.locks import clear_stale_lock, main

    assert clear_stale_lock(tmp_path) is None  # no lock: nothing to say
    locks = tmp_path / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    (locks / "0.input.lock").write_text("results/x\n")
    (locks / "0.output.lock").write_text("results/y\n")
    assert main([str(tmp_path)]) == 0
    assert list(locks.iterdir()) == []
    (locks / "0.input.lock").write_text("results/x\n")
    line = clear_stale_lock(tmp_path, proc=tmp_path / "no-proc")
    assert "clear it with: .venv/bin/snakemake --unlock" in line and any(locks.iterdir())


def test_lock_of_a_live_run_stays(tmp_path):
    from schedlab.pipeline.locks import _is_snakemake, clear_stale_lock

    assert _is_snakemake(["/x/.venv/bin/python", "/x/.venv/bin/snakemake", "--profile", "p"])
    assert _is_snakemake(["python", "-m", "snakemake", "-n"])
    assert _is_snakemake(["python", "/w/.snakemake/scripts/tmpab12.paper_point.py"])
    assert not _is_snakemake(["python", "-m", "pytest", "tests/snakemake_things.py"])
    locks = tmp_path / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    (locks / "0.input.lock").write_text("results/x\n")
    # a process working in the directory whose command line is Snakemake's
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "snakemake"],
                            cwd=tmp_path)
    try:
        from schedlab.pipeline.locks import snakemake_processes

        for _ in range(100):  # until /proc shows the new process (a loaded machine may lag)
            if live.pid in snakemake_processes(tmp_path):
                break
            time.sleep(0.1)
        line = clear_stale_lock(tmp_path)
    finally:
        live.kill()
        live.wait()
    assert line.startswith("make: a Snakemake run is working here (pid ") and str(live.pid) in line
    assert (locks / "0.input.lock").exists()
    assert "removed the stale Snakemake lock" in clear_stale_lock(tmp_path)


def test_every_numeric_command_option_has_a_maximum(tmp_path, capsys):
    import argparse

    from schedlab.cli.main import build_parser, main

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    numeric = [(cmd, a) for cmd, p in sub.choices.items() for a in p._actions
               if getattr(a.type, "__name__", "") in ("int", "float")]
    assert {(cmd, a.dest) for cmd, a in numeric} >= {("simulate", "procs"), ("synth", "n_jobs")}
    for _, action in numeric:
        with pytest.raises(argparse.ArgumentTypeError, match="must be <="):
            action.type(str(10**30))
    src = tmp_path / "t.swf"
    src.write_text(SWF_TEXT)
    assert main(["simulate", str(src), "--scheduler", "easy", "--procs", str(10**23)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --procs: must be <= 1e+08, got 1000" in err
