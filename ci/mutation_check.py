"""Mutation check of the claim checks: a check whose verdict is made constant must fail a test.

For every claim check a paper registers (``@claim_check(paper)``,
:data:`schedlab.report.scorecard.CLAIM_CHECKS`) two mutants are made: the check always *holds*
(returns ``True``, or its own :class:`~schedlab.report.vocabulary.PhraseCheck` with ``holds=True``)
and always *fails* (``False``, or ``holds=False``). The paper's claims tests
(``tests/papers/test_checks_<paper>.py``) run against each mutant; a mutant is *killed* when they
fail (a failing test or an error while collecting them) and *survives* when they pass. Every mutant
must be killed: a check no test can tell from a constant is not tested.

How a mutant takes effect. The check's function object itself is changed: its code object is
replaced by one that returns the constant verdict. So every way the code reaches the check sees the
mutant: the registry, the checks module's attribute, a name imported with ``from .checks import
...`` into a scoring module, and a reference a test module keeps in a list of cases. A ``bool``
check (return annotation without ``PhraseCheck``) returns the constant without being evaluated; a
check annotated to return a ``PhraseCheck`` is evaluated and its result returned with ``holds``
replaced (phrase, threshold, source and detail stay the check's own, so only the verdict changes);
when such a check returns a plain bool on some branch, the mutant returns the constant there.

Speed. The schedlab modules and pytest's plugins are imported once; every run of the tests (the unmutated baseline
first, then one per mutant) is a forked child of that process which applies its mutant and runs
pytest in-process (``-x``: the first failure kills). No interpreter starts per mutant, and no
mutant outlives its child, so mutants never leak into each other. POSIX only (``os.fork``).

Usage::

    python ci/mutation_check.py                     # the five papers (``make mutation``)
    python ci/mutation_check.py --paper talby2005   # one paper (repeatable)

Prints per paper: checks, mutants, killed, survived, and names every survivor. Exit status 0 when
every mutant is killed, 1 when one survives (or its run errs), 2 on bad input (an unknown paper, a
missing test file, claims tests that fail without any mutant).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import pkgutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: pytest's options in every run: quiet, stop at the first failure, no cache written, a summary
#: line naming the failing test (the mutant's killer).
PYTEST_ARGS = ("-q", "-x", "-p", "no:cacheprovider", "-o", "addopts=", "-rfE")
#: pytest exit codes that kill a mutant: tests failed (1), collection interrupted by an error (2).
KILLING_EXIT_CODES = (1, 2)


class UsageError(Exception):
    """Bad input to the tool: printed in one line, exit status 2."""


@dataclass(frozen=True)
class Mutant:
    """One check made constant: ``holds`` True (always holds) or False (always fails)."""

    paper: str
    check: str
    holds: bool
    kind: str  #: ``bool`` (a constant) or ``PhraseCheck`` (the check's own result, verdict replaced)

    @property
    def label(self) -> str:
        return f"{self.check} -> {'holds' if self.holds else 'fails'} ({self.kind})"


@dataclass
class PaperResult:
    """The outcome of one paper's mutants."""

    paper: str
    checks: int
    killed: list[Mutant] = field(default_factory=list)
    survived: list[Mutant] = field(default_factory=list)
    errors: list[tuple[Mutant, str]] = field(default_factory=list)

    @property
    def mutants(self) -> int:
        return len(self.killed) + len(self.survived) + len(self.errors)


def kind_of(fn: Callable[..., Any]) -> str:
    """``PhraseCheck`` when ``fn``'s return annotation names it, else ``bool``."""
    return "PhraseCheck" if "PhraseCheck" in str(fn.__annotations__.get("return", "")) else "bool"


def _mutant_body(*args: Any, _mutant_call: Callable[..., Any], **kwargs: Any) -> Any:
    """The code every mutant runs: the constant verdict from ``_mutant_call`` (a keyword-only
    default set on the mutated function, so the code needs no globals of the check's module)."""
    return _mutant_call(*args, **kwargs)


def mutate(fn: Callable[..., Any], holds: bool, kind: str | None = None) -> None:
    """Make the function object ``fn`` return the verdict ``holds`` for good (see the module
    docstring); ``kind`` defaults to :func:`kind_of`. Irreversible: done in a child process."""
    if not isinstance(fn, FunctionType):
        raise TypeError(f"{fn!r} is not a plain function")
    if fn.__closure__:
        raise TypeError(f"{fn.__qualname__} is a closure: its code cannot be replaced")
    kind = kind or kind_of(fn)
    if kind == "bool":
        def verdict(*args: Any, **kwargs: Any) -> bool:
            return holds
    else:
        original = FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__)
        original.__kwdefaults__ = fn.__kwdefaults__

        def verdict(*args: Any, **kwargs: Any) -> Any:
            out = original(*args, **kwargs)
            if dataclasses.is_dataclass(out) and hasattr(out, "holds"):
                return dataclasses.replace(out, holds=holds)  # type: ignore[type-var]
            return holds
    fn.__code__ = _mutant_body.__code__
    fn.__defaults__ = None
    fn.__kwdefaults__ = {"_mutant_call": verdict}


def import_modules(names: Sequence[str]) -> None:
    """Import ``names`` (a package: every module under it, ``__main__`` excepted), so that every
    claim check is registered before the mutants are listed."""
    for name in names:
        mod = importlib.import_module(name)
        for info in pkgutil.walk_packages(getattr(mod, "__path__", []), f"{name}."):
            if not info.name.endswith(".__main__"):
                importlib.import_module(info.name)


def warm_pytest() -> None:
    """One pytest session over an empty directory in this process: the plugins and what they
    import at the end of a session (hypothesis' plugin imports hypothesis, ~2 s) are loaded once
    here instead of in every child. No test module is imported."""
    import pytest
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        with tempfile.TemporaryDirectory(prefix="mutation_check_warm_") as empty:
            pytest.main([*PYTEST_ARGS, "--rootdir", empty, empty])
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def registered_checks(paper: str) -> dict[str, Callable[..., Any]]:
    from schedlab.report.scorecard import CLAIM_CHECKS
    return dict(sorted(CLAIM_CHECKS.get(paper, {}).items()))


def mutants_of(paper: str) -> list[Mutant]:
    """Two mutants per registered check of ``paper``: holds, then fails."""
    return [Mutant(paper, name, holds, kind_of(fn))
            for name, fn in registered_checks(paper).items() for holds in (True, False)]


def rootdir(tests: Sequence[Path]) -> Path:
    """pytest's root: the repository, or the test files' common directory when one lies outside
    it (so that test ids stay readable)."""
    paths = [Path(t).resolve() for t in tests]
    if all(p.is_relative_to(REPO) for p in paths):
        return REPO
    return Path(os.path.commonpath([p.parent for p in paths]))


def run_tests(tests: Sequence[Path], mutant: Mutant | None, log: Path) -> int:
    """pytest's exit code for ``tests`` in a forked child, with ``mutant`` applied there first;
    the child's output goes to ``log``. A child that dies without an exit code gives -signal."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            if mutant is not None:
                mutate(registered_checks(mutant.paper)[mutant.check], mutant.holds, mutant.kind)
            import pytest
            code = int(pytest.main([*PYTEST_ARGS, "--rootdir", str(rootdir(tests)),
                                    *map(str, tests)]))
        except BaseException:  # report anything in the log, exit with pytest's "internal error"
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def killer(log: Path) -> str:
    """The test that failed first (pytest's ``FAILED``/``ERROR`` summary line), or ''."""
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return line.split(" ", 1)[1].split(" - ", 1)[0]
    return ""


def _tail(log: Path, lines: int = 15) -> str:
    text = log.read_text(encoding="utf-8", errors="replace").rstrip().splitlines()
    return "\n".join(text[-lines:])


def check_paper(paper: str, tests: Sequence[Path], workdir: Path,
                progress: Callable[[str], None] = lambda _: None) -> PaperResult:
    """Run ``tests`` unmutated (they must pass) and against every mutant of ``paper``."""
    checks = registered_checks(paper)
    if not checks:
        raise UsageError(f"no claim checks registered for paper {paper!r}")
    missing = [str(t) for t in tests if not Path(t).is_file()]
    if missing:
        raise UsageError(f"{paper}: claims test file not found: {', '.join(missing)}")
    log = workdir / f"{paper}.log"
    code = run_tests(tests, None, log)
    if code != 0:
        raise UsageError(f"{paper}: the claims tests fail without any mutant (pytest exit {code}); "
                         f"last lines:\n{_tail(log)}")
    result = PaperResult(paper, len(checks))
    for m in mutants_of(paper):
        code = run_tests(tests, m, log)
        if code in KILLING_EXIT_CODES:
            result.killed.append(m)
        elif code == 0:
            result.survived.append(m)
        else:
            result.errors.append((m, f"pytest exit {code}: {_tail(log, 3)}"))
        progress(f"{paper}: {m.label}: " + (f"killed by {killer(log)}" if code in KILLING_EXIT_CODES
                                             else "survived" if code == 0 else "error"))
    return result


def table(results: Sequence[PaperResult]) -> str:
    """The result table (paper, checks, mutants, killed, survived, killed %) and the survivors."""
    head = f"{'paper':<16}{'checks':>7}{'mutants':>9}{'killed':>8}{'survived':>10}{'killed %':>10}"
    lines = [head]
    for r in results:
        pct = 100.0 * len(r.killed) / r.mutants if r.mutants else 0.0
        lines.append(f"{r.paper:<16}{r.checks:>7}{r.mutants:>9}{len(r.killed):>8}"
                     f"{len(r.survived) + len(r.errors):>10}{pct:>9.1f}%")
    n = sum(r.mutants for r in results)
    k = sum(len(r.killed) for r in results)
    lines.append(f"{'all':<16}{sum(r.checks for r in results):>7}{n:>9}{k:>8}{n - k:>10}"
                 f"{(100.0 * k / n if n else 0.0):>9.1f}%")
    for r in results:
        lines += [f"survived: {r.paper}.{m.label}" for m in r.survived]
        lines += [f"error: {r.paper}.{m.label}: {why}" for m, why in r.errors]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="mutation_check", description=__doc__.split("\n\n")[0])
    ap.add_argument("--paper", action="append", default=None,
                    help="a paper whose checks to mutate (repeatable; default: the five papers)")
    ap.add_argument("--tests", nargs="+", type=Path, default=None,
                    help="the claims test files to run (default: tests/papers/test_checks_<paper>.py;"
                         " with one --paper only)")
    ap.add_argument("--import", dest="modules", action="append", default=None,
                    help="a module or package that registers the checks (repeatable; default: "
                         "every module of schedlab)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print each mutant's outcome and the test that killed it")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.monotonic()
    try:
        if not hasattr(os, "fork"):
            raise UsageError("needs os.fork (a POSIX system)")
        import_modules(args.modules or ["schedlab"])
        warm_pytest()
        if args.paper:
            papers = args.paper
        else:
            from schedlab.papers import PAPERS
            papers = list(PAPERS)
        if args.tests and len(papers) != 1:
            raise UsageError("--tests needs exactly one --paper")
        progress = print if args.verbose else (lambda _: None)
        with tempfile.TemporaryDirectory(prefix="mutation_check_") as tmp:
            results = [check_paper(p, args.tests or
                                   [REPO / "tests" / "papers" / f"test_checks_{p}.py"],
                                   Path(tmp), progress) for p in papers]
    except UsageError as e:
        print(f"mutation_check: {e}", file=sys.stderr)
        return 2
    print(table(results))
    print(f"mutation_check: {time.monotonic() - start:.0f} s wall")
    return 0 if all(not r.survived and not r.errors for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
