"""Architecture checks of the seam between a seat and a game (docs/architecture.md, "The seam").

1. No module outside a game's own packages names a game: not in an import,
   an identifier or a string that is not a docstring. A game's own packages
   are engine/<game>/, net/games/<game>/ (or net/games/<game>.py) and
   client/<game>/. The registry's list of shipped games and its default
   game are the one exception, and so are the tools whose job is one named
   game (ALLOWED, each with its reason).
2. Only the drivers (net/seam.py, net/local_table.py, net/session/) and a
   game's own packages tell a sealed pick or a placement pick from an action:
   everything else forwards seat inputs unchanged.
3. Nothing probes a game for an optional part with getattr/hasattr: the
   capabilities are Protocols (engine/core/capabilities.py), found once.

Each check runs on the real tree and, to show it can fail, on a source
snippet that breaks it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("engine", "net", "client", "tools")
GAME = re.compile(r"(?<![a-z])(rider|locke|tiny)(?![a-z])", re.IGNORECASE)
#: Modules that may name a game, and why.
ALLOWED = {
    "net/games/__init__.py": "the registry's list of shipped games (BUILTIN) and its DEFAULT_GAME",
    "tools/chart.py": "Super Human Locke's chart tool: resolving a Locke chart roll is its whole job",
    "tools/screenshot.py": "renders a named game's table (`tools.screenshot GAME`)",
}
ALLOWED_FOLDERS = {
    "tools/bench/": "benchmarks measure named games' engines, sessions and tables against their targets",
}
DRIVERS = ("net/seam.py", "net/local_table.py", "net/session/")
CAPABILITIES = {"open_cards", "check_private", "claims", "claim_holds"}


def own_package(path: str) -> bool:
    """Whether ``path`` (relative, with /) belongs to one game's own packages."""
    match = re.match(r"(engine|client)/(\w+)/|net/games/(\w+)(/|\.py$)", path)
    if match is None:
        return False
    name = match.group(2) or match.group(3)
    return GAME.fullmatch(name) is not None


def docstring_ids(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def names_a_game(source: str) -> list[str]:
    """Where ``source`` names a game outside docstrings and comments: (line, what)."""
    tree = ast.parse(source)
    docs = docstring_ids(tree)
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            what = node.value if GAME.search(node.value) else None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            what = next((m for m in modules if GAME.search(m)), None)
        elif isinstance(node, ast.Name) and GAME.search(node.id):
            what = node.id
        elif isinstance(node, ast.Attribute) and GAME.search(node.attr):
            what = node.attr
        if what is not None:
            found.append(f"{getattr(node, 'lineno', 0)}: {what[:60]}")
    return found


def tells_picks_apart(source: str) -> list[str]:
    """Where ``source`` tests whether something is a SealedPick or a PlacementPick."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2 and re.search(r"\b(SealedPick|PlacementPick)\b", ast.unparse(node.args[1])):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def probes_capabilities(source: str) -> list[str]:
    """Where ``source`` asks getattr/hasattr for one of a game's optional parts."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in CAPABILITIES:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def modules() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for top in TOPS for p in sorted((ROOT / top).rglob("*.py"))}


def test_no_module_outside_a_games_own_packages_names_a_game() -> None:
    found = {path: hits for path, source in modules().items()
             if not own_package(path) and path not in ALLOWED and not path.startswith(tuple(ALLOWED_FOLDERS))
             and (hits := names_a_game(source))}
    assert found == {}, f"generic modules name a game (move the code into the game's package): {found}"


def test_only_the_drivers_and_a_games_own_packages_tell_picks_from_actions() -> None:
    found = {path: hits for path, source in modules().items()
             if not own_package(path) and not path.startswith(DRIVERS) and path != "engine/core/inputs.py"
             and (hits := tells_picks_apart(source))}
    assert found == {}, f"only a driver branches on the kind of a seat input (net/seam.py): {found}"


def test_nothing_probes_a_game_for_its_optional_parts() -> None:
    found = {path: hits for path, source in modules().items() if (hits := probes_capabilities(source))}
    assert found == {}, f"use engine/core/capabilities.py, not getattr: {found}"


def test_the_checks_fail_on_code_that_breaks_them() -> None:
    assert own_package("client/rider/intents.py") and own_package("net/games/tiny.py")
    assert not own_package("client/table/scene.py") and not own_package("net/games/__init__.py")
    broken = '"""Rider is fine in a docstring."""\nfrom engine.rider.game import RiderGame\nx = "locke"\n'
    assert sorted(names_a_game(broken)) == ["2: engine.rider.game", "3: locke"]
    assert tells_picks_apart("if isinstance(choice, (SealedPick, Action)):\n    pass\n") == \
        ["1: isinstance(choice, (SealedPick, Action))"]
    assert probes_capabilities("opener = getattr(game, 'open_cards', None)\n") == \
        ["1: getattr(game, 'open_cards', None)"]
