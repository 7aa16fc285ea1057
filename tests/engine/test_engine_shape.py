"""Architecture checks over engine/ (issue 24's measures, kept from coming back): no
function-level import (they hide import cycles), no ``assert isinstance`` as input
checking (asserts vanish under ``python -O``; the engine raises typed errors), no rules
object typed ``Any``, and in Locke no string-keyed step tables, packed step parameters,
or globals other modules fill at import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = sorted((ROOT / "engine").rglob("*.py"))
LOCKE = [p for p in ENGINE if "locke" in p.parts]
#: Module-level names of the step tables and hooks the rebuild replaced (engine/locke/registry.py).
RETIRED = ("PENDING", "HANDLERS", "AUTO", "MAKERS", "CONTINUATIONS", "HOOKS", "ORIGINAL_ROLLS", "REROLLABLE",
           "ROLLERS")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def test_no_function_level_imports_in_the_engine() -> None:
    found = [_where(p, sub) for p in ENGINE for node in ast.walk(_tree(p))
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
             for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom))]
    assert not found, f"imports inside functions (put the code in the right layer instead): {found}"


def test_no_assert_isinstance_checks_input() -> None:
    found = [_where(p, node) for p in ENGINE for node in ast.walk(_tree(p))
             if isinstance(node, ast.Assert) and isinstance(node.test, ast.Call)
             and ast.unparse(node.test.func) == "isinstance"]
    assert not found, f"assert isinstance (gone under python -O; type the parameter or raise): {found}"


def test_the_rules_object_is_typed() -> None:
    found = [_where(p, node) for p in ENGINE for node in ast.walk(_tree(p))
             if isinstance(node, ast.arg) and node.arg == "g" and node.annotation is not None
             and ast.unparse(node.annotation) == "Any"]
    assert not found, f"g: Any (use engine.locke.steps.Rules): {found}"


def test_no_retired_step_tables_or_hooks_in_locke() -> None:
    found = [f"{_where(p, node)} {name}" for p in LOCKE for node in _tree(p).body
             if isinstance(node, (ast.Assign, ast.AnnAssign))
             for name in [ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)]
             if name in RETIRED]
    assert not found, f"string-keyed step tables or hooks (a step class carries its code): {found}"


def test_no_module_writes_into_another_modules_globals() -> None:
    """``fate.CONTINUATIONS[...] = f`` or ``other.TABLE.update(...)`` at import time."""
    found = []
    for path in LOCKE:
        for node in _tree(path).body:
            target = None
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], (ast.Subscript, ast.Attribute)):
                target = node.targets[0]
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
                target = node.value.func.value
            if target is not None and "." in ast.unparse(target):
                found.append(f"{_where(path, node)} {ast.unparse(node)[:60]}")
    assert not found, f"import-time writes into another module: {found}"


def test_no_untyped_step_is_left() -> None:
    from engine.locke import state

    assert not hasattr(state, "Step"), "engine/locke/state.py still defines the untyped Step"
    texts = [p.read_text(encoding="utf-8") for p in LOCKE]
    assert not any("Step(\"" in t for t in texts), "a Step(\"kind\", ...) construction is left"


@pytest.mark.parametrize("path", LOCKE, ids=lambda p: str(p.relative_to(ROOT)))
def test_docstrings_point_only_at_files_in_the_repository(path: Path) -> None:
    import re

    text = path.read_text(encoding="utf-8")
    for pointer in re.findall(r"\b((?:engine|net|client|tools|docs|assets|tests)/[\w/.-]+\.(?:py|md|json))", text):
        assert (ROOT / pointer).exists(), f"{path.relative_to(ROOT)} points at {pointer}, which is not in the repo"
    assert "notes/" not in text and "/work/" not in text and "LOCKE-PLAN" not in text, path
