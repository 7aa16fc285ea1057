"""The README shows exactly two set-up commands, and CI runs the second one (.ci/run)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_has_two_setup_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    setups = [b for b in blocks if b.startswith("python3 -m venv .venv")]
    assert len(setups) == 2, setups
    play, test = setups
    assert play.endswith("python -m client") and "'.[test]'" not in play  # install and start the game
    assert "pip install -e '.[test]'" in test and test.endswith("python -m pytest -n 2")  # install and test
    assert readme.index(play) < readme.index(test)  # players first
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci, "'.ci/run' must run exactly the README's test command"
    assert ".venv/bin/fairtable" in readme  # how to start it again later
