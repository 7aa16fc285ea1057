"""Benchmarks: ``python -m tools.bench SUITE [--json]``.

Each suite is a module ``tools.bench.<suite>`` with ``main(argv) -> int``.
Speed targets live here, never in the test suite, so tests do not flake on a
busy machine.
"""
