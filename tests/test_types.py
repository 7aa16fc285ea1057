"""Type checks in the test command: ``mypy --strict`` over engine/, net/, client/ and tools/.

The configuration is pyproject.toml's ``[tool.mypy]`` (strict, no stale
ignores), so a type error anywhere fails the suite and with it CI
(.ci/run runs the README's test command). The second test shows the check
can fail: it breaks one line of a copy of a real module and expects mypy,
under the same configuration, to say so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def mypy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.slow
def test_the_whole_project_passes_mypy_strict(tmp_path: Path) -> None:
    done = mypy("--cache-dir", str(tmp_path / "cache"), cwd=ROOT)
    assert done.returncode == 0, f"mypy --strict found type errors:\n{done.stdout}{done.stderr}"


def test_mypy_fails_on_a_deliberately_broken_copy(tmp_path: Path) -> None:
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine" / "core", copy / "core", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "__init__.py").write_text("")
    inputs = copy / "core" / "inputs.py"
    text = inputs.read_text(encoding="utf-8")
    assert "    seat: int\n" in text
    inputs.write_text(text.replace("    seat: int\n", "    seat: int = 'nobody'\n", 1), encoding="utf-8")
    done = mypy("--cache-dir", str(tmp_path / "cache"), "engine", cwd=tmp_path)
    assert done.returncode != 0 and "inputs.py" in done.stdout and "incompatible types" in done.stdout.lower(), \
        done.stdout + done.stderr
