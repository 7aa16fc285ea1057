"""No import cycles in engine/, net/, client/ or tools/: type-hint-only imports are the one exception.

An AST walk collects every import of every module of those packages (one
graph, so a loop through two packages counts too), at module level
and inside functions alike (a function-level import that works around a cycle
is still a cycle), leaving out only those under ``if TYPE_CHECKING:``. A
``from package import name`` counts as importing the submodule when ``name``
is one, else the package. Then every strongly connected group of more than
one module is a cycle and fails the test, naming its modules.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The packages whose imports must point one way (docs/architecture.md, "Layers").
TOPS = ("engine", "net", "client", "tools")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, name: str, modules: set[str]) -> set[str]:
    """Modules of ``modules`` that ``path`` (module ``name``) imports, outside TYPE_CHECKING blocks."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    one(other)
                continue
            one(child)

    def one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != name}


def import_graph(*tops: str) -> dict[str, set[str]]:
    paths = {module_name(p): p for top in tops for p in sorted((ROOT / top).rglob("*.py"))}
    names = set(paths)
    return {name: imports_of(path, name, names) for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_the_checker_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    """The check itself can fail: a function-level import that closes a loop is a cycle,
    one under TYPE_CHECKING is not."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def late():\n    from pkg.a import thing\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    (package / "d.py").write_text("from pkg import c\n")
    paths = {".".join(p.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): p
             for p in package.glob("*.py")}
    graph = {name: imports_of(path, name, set(paths)) for name, path in paths.items()}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]


def test_engine_net_client_and_tools_have_no_import_cycle() -> None:
    found = cycles(import_graph(*TOPS))
    assert found == [], f"import cycles (only TYPE_CHECKING imports may close a loop): {found}"


@pytest.mark.parametrize("first", ["net.transcript", "net.verifier", "net.session.conviction", "net.session.core",
                                   "net.session.intake", "net.session.desync", "net.session.play"])
def test_each_module_imports_first_in_a_fresh_interpreter(first: str) -> None:
    """Importing a module first is where a cycle breaks at run time (a name not defined yet)."""
    done = subprocess.run([sys.executable, "-c", f"import {first}; import net.verifier, net.session"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_cycle_slipped_into_a_copy_of_the_real_tree_is_found(tmp_path: Path) -> None:
    """The check on a deliberately broken copy of engine/ and net/: a function-level import
    from the seam module back into the local table closes a loop, and the checker names it."""
    for top in ("engine", "net"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__"))
    seam = tmp_path / "net" / "seam.py"
    seam.write_text(seam.read_text(encoding="utf-8") + "\n\ndef late() -> None:\n    from net.local_table import LocalTable\n",
                    encoding="utf-8")
    paths = {".".join(p.relative_to(tmp_path).with_suffix("").parts).removesuffix(".__init__"): p
             for top in ("engine", "net") for p in sorted((tmp_path / top).rglob("*.py"))}
    graph = {name: imports_of(path, name, set(paths)) for name, path in paths.items()}
    found = cycles(graph)
    assert found == [["net.local_table", "net.seam"]], found
