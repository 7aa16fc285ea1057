"""Dispatch ``python -m tools.bench SUITE ...`` to ``tools.bench.SUITE.main``."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import tools.bench


def suites() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(tools.bench.__path__) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    available = suites()
    if not argv or argv[0] not in available:
        print(f"usage: python -m tools.bench {{{','.join(available)}}} [--json]", file=sys.stderr)
        print("Pick one of the suites above; each prints its figures (add --json for machine-readable output).", file=sys.stderr)
        return 2
    module = importlib.import_module(f"tools.bench.{argv[0]}")
    return int(module.main(argv[1:]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
