"""Fault injection: interrupted runs and corrupt intermediates never cost a result.

In two scratch copies of the workflow, on the quick profile's Schroeder 2004 target (one trace,
eight points, an assembly: about a minute of CPU):

1. clean: one uninterrupted run; its results/ and resources/ files are the reference;
2. faulty:
   a. Ctrl-C (SIGINT to the run's process group) once a point has finished: no Python traceback;
   b. the run again, killed with SIGKILL once a point has finished: the lock stays behind;
   c. ``make quick`` (the Makefile's entry point): the stale lock is removed, saying so, and the run
      completes;
   d. a point's frame cut in half, the assembly forced: one line naming the frame, the point's
      done.json removed, exit 1; the next run rebuilds the point and the assembly;
   e. the trace's parquet cut in half: each job reading it says so in one line and removes it, exit
      1; the next run completes (the tables it keeps were made from the good log); the files the
      failed jobs removed are rebuilt when asked for, as any missing intermediate;
3. every file under results/ and resources/ of the faulty copy is byte-identical to the clean one.

Usage (from the repository root, the venv built): ``.venv/bin/python ci/fault_injection.py``;
``SCHEDLAB_TRACE_MIRROR`` must name the directory of the real logs. Exit status 0 when every step
holds; a failed step is reported and the scratch directory is kept.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv"
TARGET = "schroeder2004"
PROFILE = "workflow/profiles/quick"
TRACE = "results/traces/CTC-SP2-1996-3.1-cln/jobs.parquet"
TIMEOUT = 1800


class StepFailed(Exception):
    pass


def check(ok: bool, what: str, detail: str = "") -> None:
    if not ok:
        raise StepFailed(f"{what}\n{detail[-4000:]}")
    print(f"fault injection: ok: {what}", flush=True)


def scratch(dest: Path) -> Path:
    """A copy of the workflow with the Makefile and the venv (a link) of the repository."""
    dest.mkdir(parents=True)
    for d in ("workflow", "scripts", "config"):
        shutil.copytree(REPO / d, dest / d)
    for f in ("Snakefile", "Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy(REPO / f, dest / f)
    (dest / ".venv").symlink_to(VENV.resolve())
    return dest


def snakemake(wd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(VENV / "bin" / "snakemake"), "--profile", PROFILE, *args], cwd=wd,
                          capture_output=True, text=True, timeout=TIMEOUT)


def make_quick(wd: Path) -> subprocess.CompletedProcess:
    # -o: never reinstall the (shared) venv from the scratch copy
    return subprocess.run(["make", "-o", ".venv/.schedlab-installed", "quick",
                           f"SNAKEMAKE_ARGS={TARGET}"], cwd=wd, capture_output=True, text=True,
                          timeout=TIMEOUT)


def interrupt_after_a_point(wd: Path, sig: int) -> str:
    """Start the target, send ``sig`` to its process group once one more point has finished;
    the output."""
    proc = subprocess.Popen([str(VENV / "bin" / "snakemake"), "--profile", PROFILE, TARGET],
                            cwd=wd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True,
                            # SIGINT at its default even when this script runs in the background
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + TIMEOUT
    runs = wd / "results" / TARGET / "runs"
    before = set(runs.glob("*/done.json"))
    try:
        while not set(runs.glob("*/done.json")) - before:
            if proc.poll() is not None:
                raise StepFailed(f"the run ended before a point finished:\n{proc.stdout.read()}")
            if time.monotonic() > deadline:
                raise StepFailed("no point finished in time")
            time.sleep(0.05)
        os.killpg(proc.pid, sig)
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    check(not (wd / "results" / TARGET / "scorecard.parquet").exists(),
          f"signal {sig} landed mid-run")
    return out


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def digests(wd: Path) -> dict[str, str]:
    out = {}
    for top in ("results", "resources"):
        for p in sorted((wd / top).rglob("*")):
            if p.is_file() and not p.name.startswith("."):
                out[str(p.relative_to(wd))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def error_lines(r: subprocess.CompletedProcess) -> list[str]:
    """Our one-line job errors (each also shown from its job's log: counted once)."""
    return sorted({ln for ln in (r.stdout + r.stderr).splitlines() if ": error: " in ln})


def run(tmp: Path) -> None:
    clean = scratch(tmp / "clean")
    r = snakemake(clean, TARGET)
    check(r.returncode == 0, "clean run", r.stderr)
    reference = digests(clean)

    wd = scratch(tmp / "faulty")
    out = interrupt_after_a_point(wd, signal.SIGINT)
    check("Traceback" not in out, "Ctrl-C: no Python traceback", out)

    interrupt_after_a_point(wd, signal.SIGKILL)
    locks = wd / ".snakemake" / "locks"
    check(locks.is_dir() and any(locks.iterdir()), "SIGKILL leaves Snakemake's lock")
    r = make_quick(wd)
    check(r.returncode == 0 and "removed the stale Snakemake lock" in r.stderr,
          "make quick clears the stale lock and completes", r.stdout + r.stderr)

    frame = next((wd / "results" / TARGET / "runs").glob("*/*.parquet"))
    done = frame.parent / "done.json"
    cut_in_half(frame)
    r = snakemake(wd, "--forcerun", f"{TARGET}_assemble", "--", TARGET)
    errors = error_lines(r)
    check(r.returncode != 0 and len(errors) == 1 and "Traceback" not in r.stderr
          and str(frame.relative_to(wd)) in errors[0] and "bytes, but" in errors[0]
          and f"removed {done.relative_to(wd)}" in errors[0] and not done.exists(),
          "a truncated point frame: one line naming it, the point's done.json removed",
          r.stdout + r.stderr)
    r = snakemake(wd, TARGET)
    check(r.returncode == 0 and done.exists(), "the next run rebuilds the point", r.stderr)

    cut_in_half(wd / TRACE)
    r = snakemake(wd, TARGET)
    errors = error_lines(r)
    check(r.returncode != 0 and errors and "Traceback" not in r.stderr
          and all(f"error: {TRACE}: " in e for e in errors)
          and any(f"{TRACE}: unreadable parquet" in e and f"removed {TRACE}" in e for e in errors)
          and not (wd / TRACE).exists(),
          f"a truncated trace parquet: {len(errors)} job(s) name it in one line each, removed",
          r.stdout + r.stderr)
    r = snakemake(wd, TARGET)
    check(r.returncode == 0, "the next run completes", r.stderr)
    # Snakemake treats a missing intermediate whose consumers are up to date as a removed
    # temporary file: what the failed jobs removed is rebuilt when something needs it
    missing = sorted(set(reference) - set(digests(wd)))
    if missing:
        r = snakemake(wd, *missing, TARGET)
        check(r.returncode == 0, f"the removed intermediates are rebuilt when asked for: "
              f"{', '.join(missing)}", r.stderr)

    got = digests(wd)
    differ = sorted(k for k in set(got) | set(reference) if got.get(k) != reference.get(k))
    check(not differ, f"{len(got)} files identical to the clean run", "\n".join(differ))


def main() -> int:
    if not os.environ.get("SCHEDLAB_TRACE_MIRROR"):
        print("fault injection: set SCHEDLAB_TRACE_MIRROR to the directory of the real logs",
              file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="schedlab-faults-"))
    t0 = time.monotonic()
    try:
        run(tmp)
    except StepFailed as e:
        print(f"fault injection: FAILED: {e}\n(scratch kept: {tmp})", file=sys.stderr)
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"fault injection: all steps hold ({time.monotonic() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
