"""The Rider engine stays a pure reducer: no I/O, clock, randomness or floats,
and no imports from net/ or client/ (architecture brief, "The engine is a pure reducer")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "rider"
FORBIDDEN = {"random", "time", "os", "secrets", "datetime", "socket", "pygame", "twisted", "net", "client", "io", "pathlib"}
FILES = sorted(ENGINE.glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_module_imports_nothing_impure_and_has_no_floats(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots = {(node.module or "").split(".")[0]}
        else:
            roots = set()
            if isinstance(node, ast.Constant):
                assert not isinstance(node.value, float), f"{path.name}:{node.lineno} float literal"
            if isinstance(node, ast.Name):
                assert node.id not in ("open", "hash", "set_seed"), f"{path.name}:{node.lineno} uses {node.id}()"
        assert not roots & FORBIDDEN, f"{path.name}:{getattr(node, 'lineno', '?')} imports {roots & FORBIDDEN}"


def test_the_scan_sees_the_engine() -> None:
    assert {"game.py", "rules.py", "effects.py", "legal.py", "state.py"} <= {p.name for p in FILES}
