"""ci/mutation_check.py: a mutant reaches the check however the code holds it (registry, module
attribute, a name imported from the module, a case list built at import), a tested check's mutants
are killed and an untested one's survive."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from schedlab.report.vocabulary import PhraseCheck, about

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "ci" / "mutation_check.py"


def _tool():
    """The tool as a module (registered in sys.modules: its dataclasses need it)."""
    if "mutation_check" not in sys.modules:
        spec = importlib.util.spec_from_file_location("mutation_check", TOOL)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["mutation_check"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["mutation_check"]


def test_a_bool_mutant_is_a_constant_for_every_reference():
    def positive(x: float) -> bool | None:
        return x > 0

    kept = positive  # a reference taken before the mutation, as a case list keeps one
    tool = _tool()
    assert tool.kind_of(positive) == "bool"
    tool.mutate(positive, holds=False)
    assert kept(5.0) is False and positive(5.0) is False and positive() is False


def test_a_phrase_mutant_keeps_the_phrase_and_replaces_only_the_verdict():
    def near_ten(x: float) -> PhraseCheck:
        return about(x, 10.0)

    before = near_ten(100.0)
    tool = _tool()
    assert tool.kind_of(near_ten) == "PhraseCheck"
    tool.mutate(near_ten, holds=True)
    after = near_ten(100.0)
    assert before.holds is False and after.holds is True
    assert (after.phrase, after.threshold, after.source, after.detail) == \
        (before.phrase, before.threshold, before.source, before.detail)


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _run(tmp: Path, tests: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(tmp)])}
    return subprocess.run([sys.executable, str(TOOL), "--paper", "dummy_mutation", "--import",
                           "dummy_checks", "--import", "dummy_scoring", "--tests", str(tests), "-v"],
                          capture_output=True, text=True, env=env, cwd=tmp, check=False)


def _dummy_paper(tmp: Path) -> None:
    """Paper ``dummy_mutation``: three checks, and a scoring module holding one under its own name
    (as ``from .checks import ...`` does)."""
    _write(tmp, "dummy_checks.py", """
        from schedlab.report.scorecard import claim_check
        from schedlab.report.vocabulary import PhraseCheck, about

        @claim_check("dummy_mutation")
        def positive(x: float) -> bool | None:
            return x > 0

        @claim_check("dummy_mutation")
        def near_ten(x: float) -> PhraseCheck:
            return about(x, 10.0)

        @claim_check("dummy_mutation")
        def untested(x: float) -> bool | None:
            return x < 0
        """)
    _write(tmp, "dummy_scoring.py", """
        from dummy_checks import positive

        def verdict(x):
            return positive(x)
        """)


@pytest.mark.slow
def test_tested_checks_are_killed_and_an_untested_one_survives(tmp_path):
    _dummy_paper(tmp_path)
    tests = _write(tmp_path, "test_dummy.py", """
        import dummy_checks as K
        from dummy_scoring import verdict

        # results computed while the module is imported, as a case list may
        CASES = [(K.near_ten(10.5).holds, True), (K.near_ten(20.0).holds, False)]

        def test_positive_through_the_scoring_module():
            assert verdict(1.0) is True
            assert verdict(-1.0) is False

        def test_near_ten():
            assert [got for got, _ in CASES] == [want for _, want in CASES]

        def test_untested_is_called_but_nothing_is_asserted():
            K.untested(1.0)
        """)
    out = _run(tmp_path, tests)
    assert out.returncode == 1, out.stdout + out.stderr
    rows = {line.split()[0]: line.split()[1:] for line in out.stdout.splitlines() if line}
    assert rows["dummy_mutation"][:4] == ["3", "6", "4", "2"]
    # the bool mutant reached the scoring module's own name for the check
    assert ("dummy_mutation: positive -> holds (bool): killed by "
            "test_dummy.py::test_positive_through_the_scoring_module") in out.stdout
    survivors = sorted(line for line in out.stdout.splitlines() if line.startswith("survived:"))
    assert survivors == ["survived: dummy_mutation.untested -> fails (bool)",
                         "survived: dummy_mutation.untested -> holds (bool)"]


@pytest.mark.slow
def test_claims_tests_failing_unmutated_are_refused(tmp_path):
    _dummy_paper(tmp_path)
    tests = _write(tmp_path, "test_dummy.py", """
        import dummy_checks as K

        def test_wrong():
            assert K.positive(-1.0) is True
        """)
    out = _run(tmp_path, tests)
    assert out.returncode == 2
    assert out.stderr.startswith("mutation_check: dummy_mutation: the claims tests fail without")
