"""Architecture rules: no import circles and no module over 600 lines in ``src/schedlab``; every paper
package follows the template (``schedlab.papers._template``): the same step modules, an ``__init__``
that only binds names, and tests named ``tests/papers/test_<module>_<paper>.py`` after its modules.

The import graph is read from the source with :mod:`ast`: every ``import`` / ``from ... import``
of a ``schedlab`` module, at any depth (function-local imports count: they hide a circle, they do
not remove it), except those under ``if TYPE_CHECKING:`` (never run). ``from pkg import name``
is an edge to ``pkg.name`` when that is a module, else to ``pkg``. Run as a script
(``python tests/test_architecture.py [SRC]``) it prints every circle (strongly connected
component) and every long module.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MAX_LINES = 600
TESTS = SRC.parent / "tests"
#: Test files of tests/papers named after a module of schedlab.papers, not of one paper.
SHARED_PAPER_TESTS = {"test_contract.py", "test_engine_options.py", "test_settings.py",
                      "test_studies.py", "test_template.py"}
#: Test file stems that name no module of a paper: the whole paper through the runner, and the
#: golden schedules saved from an earlier implementation.
WHOLE_PAPER_TESTS = {"paper", "golden"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` outside ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                stack.extend(child.orelse)
            else:
                stack.append(child)


def import_graph(root: Path = SRC, package: str = "schedlab") -> dict[str, set[str]]:
    """Module -> the ``package`` modules it imports (see the module docstring)."""
    files = {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        is_pkg = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in files)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".")[: len(mod.split(".")) - node.level + is_pkg]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if sub in files:
                        edges.add(sub)
                    elif target in files:
                        edges.add(target)
        edges.discard(mod)
        graph[mod] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def long_modules(root: Path = SRC, package: str = "schedlab") -> dict[str, int]:
    """Module -> line count, for modules over :data:`MAX_LINES`."""
    out = {}
    for p in sorted((root / package).rglob("*.py")):
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out[module_name(p, root)] = n
    return out


#: The only environment variables the library reads: the user-facing paths of the trace registry
#: and the trace mirror (documented in README.md), each in one place. Every setting of the engine,
#: the papers and the pipeline travels as data.
ENVIRONMENT_READS = {("schedlab.traces.entries", "MIRROR_ENV"): "SCHEDLAB_TRACE_MIRROR",
                     ("schedlab.traces.registry", "REGISTRY_ENV"): "SCHEDLAB_REGISTRY"}
_OS_ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def environment_uses(root: Path = SRC, package: str = "schedlab") -> list[tuple[str, str]]:
    """``(module, what)`` for every use of the process environment in ``package``: ``what`` is
    the constant named by a read ``os.environ.get(NAME)`` / ``os.environ[NAME]`` /
    ``os.getenv(NAME)`` (an assignment to ``os.environ[NAME]`` is no read), else the source text
    of the use (a write, an import from ``os``, ...)."""
    out = []
    for path in sorted((root / package).rglob("*.py")):
        mod = module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parent = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "os":
                if any(a.name in _OS_ENVIRONMENT for a in node.names):
                    out.append((mod, ast.unparse(node)))
            elif (isinstance(node, ast.Attribute) and node.attr in _OS_ENVIRONMENT
                  and isinstance(node.value, ast.Name) and node.value.id == "os"):
                out.append((mod, _environment_read(node, parent)))
    return sorted(out)


def _environment_read(node: ast.Attribute, parent: dict) -> str:
    up = parent.get(node)
    call = parent.get(up) if isinstance(up, ast.Attribute) and up.attr == "get" else up
    if node.attr == "getenv" or (isinstance(up, ast.Attribute) and up.attr == "get"):
        if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Name):
            return call.args[0].id
    elif (isinstance(up, ast.Subscript) and isinstance(up.ctx, ast.Load)
          and isinstance(up.slice, ast.Name)):
        return up.slice.id
    return ast.unparse(call if isinstance(call, ast.Call | ast.Subscript | ast.Assign) else up)


def test_environment_uses_finds_reads_writes_and_imports(tmp_path):
    pkg = tmp_path / "schedlab"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "reads.py").write_text("import os\nA = os.environ.get(NAME)\nB = os.environ[KEY]\n"
                                  "C = os.getenv(OTHER, 'x')\n")
    (pkg / "writes.py").write_text("import os\ndef f(v):\n    os.environ['X'] = v\n")
    (pkg / "imports.py").write_text("from os import environ\n")
    assert environment_uses(tmp_path) == [
        ("schedlab.imports", "from os import environ"), ("schedlab.reads", "KEY"),
        ("schedlab.reads", "NAME"), ("schedlab.reads", "OTHER"),
        ("schedlab.writes", "os.environ['X']")]


def test_the_library_reads_no_settings_from_the_environment(repo):
    """Settings travel as data; the only exceptions are :data:`ENVIRONMENT_READS`, user-facing
    paths that README.md documents."""
    import importlib

    assert environment_uses() == sorted(ENVIRONMENT_READS)
    readme = (repo / "README.md").read_text()
    for (mod, name), variable in ENVIRONMENT_READS.items():
        assert getattr(importlib.import_module(mod), name) == variable
        assert variable in readme, variable


def package_modules(package: Path) -> set[str]:
    """The module names of a package directory (``__init__`` left out)."""
    return {p.stem for p in package.glob("*.py") if p.stem != "__init__"}


def init_statements_beyond_bindings(init: Path) -> list[str]:
    """The statements of a package ``__init__`` other than its docstring, imports and names bound
    to literals (``title``, ``summary``, ``__all__``), as ``line: statement`` strings."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    out = []
    for i, node in enumerate(tree.body):
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Assign):
            try:
                ast.literal_eval(node.value)
                continue
            except ValueError:
                pass
        out.append(f"{node.lineno}: {ast.unparse(node).splitlines()[0]}")
    return out


def misnamed_paper_tests(tests: Path, papers: dict[str, set[str]]) -> list[str]:
    """The files of ``tests`` (tests/papers) not named ``test_<module>_<paper>.py`` with
    ``<module>`` a module of ``papers[<paper>]`` (or one of :data:`WHOLE_PAPER_TESTS`), a shared
    test (:data:`SHARED_PAPER_TESTS`) or a helper ``<paper>_cases.py``."""
    out = []
    for f in sorted(tests.glob("*.py")):
        if f.name in SHARED_PAPER_TESTS or f.name == "__init__.py":
            continue
        if not f.name.startswith("test_"):
            if f.stem.removesuffix("_cases") not in papers or not f.stem.endswith("_cases"):
                out.append(f"{f.name}: a helper is named <paper>_cases.py")
            continue
        stem = f.stem.removeprefix("test_")
        paper = next((p for p in papers if stem.endswith(f"_{p}")), None)
        module = stem.removesuffix(f"_{paper}") if paper else None
        if paper is None or module not in papers[paper] | WHOLE_PAPER_TESTS:
            out.append(f"{f.name}: not test_<module>_<paper>.py of a module of a paper")
    return out


def test_import_graph_sees_function_local_imports(tmp_path):
    pkg = tmp_path / "schedlab"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text("from . import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    from .a import x\n")
    g = import_graph(tmp_path)
    assert g["schedlab.sub.a"] == {"schedlab.sub.b"}
    assert g["schedlab.sub.c"] == set()
    assert cycles(g) == [["schedlab.sub.a", "schedlab.sub.b"]]
    assert cycles({**g, "schedlab.sub.b": set()}) == []


def test_long_modules_finds_a_module_over_the_limit(tmp_path):
    pkg = tmp_path / "schedlab"
    pkg.mkdir()
    (pkg / "short.py").write_text("x = 1\n" * MAX_LINES)
    (pkg / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert long_modules(tmp_path) == {"schedlab.long": MAX_LINES + 1}


def test_no_import_circles():
    assert cycles(import_graph()) == []


def test_no_long_modules():
    assert long_modules() == {}


def test_no_flat_library_modules_but_the_ground():
    """Flat modules are the ground every stage uses: the error types and the atomic file I/O."""
    flat = sorted(p.name for p in (SRC / "schedlab").glob("*.py"))
    assert flat == ["__init__.py", "errors.py", "io.py"]
    assert import_graph()["schedlab.io"] <= {"schedlab.errors"}


def test_papers_are_served_by_the_generic_rule_family():
    """Issue 25: one rule family serves the papers; a paper's .smk holds only its own steps (no
    point/assemble rules, no scripts of its own)."""
    from schedlab.papers import PAPERS as NAMES
    from schedlab.papers import follows_contract, load

    assert all(follows_contract(load(p)) for p in NAMES)
    scripts = {p.name for p in (SRC.parent / "scripts").glob("*.py")}
    assert not [s for s in scripts if s.startswith(NAMES)]
    for smk in (SRC.parent / "workflow" / "rules").glob("*.smk"):
        if smk.stem in NAMES:
            assert "script:" not in smk.read_text(), smk


def _paper_packages() -> dict[str, Path]:
    from schedlab.papers import PAPERS

    root = SRC / "schedlab" / "papers"
    return {p: root / p for p in (*PAPERS, "_template")}


def test_every_paper_has_the_template_modules():
    from schedlab.papers import MODULES

    template = package_modules(SRC / "schedlab" / "papers" / "_template")
    assert template == set(MODULES)
    missing = {p: sorted(template - package_modules(d)) for p, d in _paper_packages().items()}
    assert {p: m for p, m in missing.items() if m} == {}


def test_paper_inits_only_bind_names():
    found = {p: init_statements_beyond_bindings(d / "__init__.py")
             for p, d in _paper_packages().items()}
    assert {p: s for p, s in found.items() if s} == {}


def test_paper_tests_are_named_after_the_modules():
    papers = {p: package_modules(d) for p, d in _paper_packages().items()}
    assert misnamed_paper_tests(TESTS / "papers", papers) == []
    # every paper's claim checks and whole run are tested (the checks both ways: report.scorecard)
    names = {f.name for f in (TESTS / "papers").glob("test_*.py")}
    assert [p for p in papers if p != "_template" and {f"test_checks_{p}.py",
                                                      f"test_paper_{p}.py"} - names] == []


def test_the_template_checks_fail_on_purpose(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Doc."""\nfrom .a import f\ntitle = "x"\n'
                                     "def g():\n    return 1\n")
    (pkg / "a.py").write_text("")
    assert package_modules(pkg) == {"a"}
    assert init_statements_beyond_bindings(pkg / "__init__.py") == ["4: def g():"]
    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ("test_a_pkg.py", "test_b_pkg.py", "test_pkg_a.py", "pkg_cases.py", "helpers.py",
                 "test_paper_pkg.py"):
        (tests / name).write_text("")
    assert [m.split(":")[0] for m in misnamed_paper_tests(tests, {"pkg": {"a"}})] == [
        "helpers.py", "test_b_pkg.py", "test_pkg_a.py"]


if __name__ == "__main__":
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else SRC
    found = cycles(import_graph(src))
    print(f"import circles: {len(found)}")
    for comp in found:
        print("  " + " <-> ".join(comp))
    long = long_modules(src)
    print(f"modules over {MAX_LINES} lines: {len(long)}")
    for mod, n in sorted(long.items(), key=lambda kv: -kv[1]):
        print(f"  {n:5d}  {mod}")


#: Imported only where a figure is drawn or a model fitted, never by a point job: each costs a
#: point job (hundreds of them in a default run) 0.3-1.8 s of start-up.
HEAVY_FOR_A_POINT = ("matplotlib", "seaborn", "scipy.stats", "scipy.cluster", "statsmodels")


def test_a_point_job_imports_no_plotting_or_fitting_library():
    """What ``scripts/paper_point.py`` imports (every paper's package and the runner) stays off
    the plotting and fitting libraries; a package importing one at module level fails this."""
    import subprocess
    code = ("import sys; from schedlab.papers import PAPERS, load; "
            "from schedlab.papers.runner import run_point; [load(p) for p in PAPERS]; "
            f"print(','.join(m for m in {HEAVY_FOR_A_POINT!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
