"""What one game's scenario files need besides the common loop of ``python -m tools.scenario``.

A scenario file (docs/scenarios.md) sets up a position on a trusted local
table, gives inputs in order and checks what it expects. The loop is the
tool's (tools/scenario.py); each game says, in one :class:`ScenarioKind` of
its own package named by its registry entry (``GameEntry.scenario``), how its
position is built, how far the table goes on its own, how a raw input is
given and what ``expect`` may check. A file that cannot be used at all is an
:class:`~net.problems.InputProblem`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from net.local_table import LocalTable


def json_value(value: Any) -> Any:
    """What JSON cannot hold as it is (``json.dumps`` default): bytes (a state's running digests,
    commitments) as hex, any other value by its canonical data (docs/scenarios.md, "Output")."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    canonical = getattr(value, "__canonical__", None)
    if canonical is not None:
        return canonical()
    raise TypeError(f"cannot print {type(value).__name__} as JSON")


def _no_extra(table: LocalTable) -> dict[str, Any]:
    return {}


@dataclasses.dataclass(frozen=True)
class ScenarioKind:
    """One game's scenario format (see the module docstring)."""

    #: the file's ``format`` field, e.g. ``fairtable.<game>.scenario/1``
    format: str
    #: (scenario, folder of the file, seed) -> the table at the position
    build: Callable[[Mapping[str, Any], Path, int], LocalTable]
    #: True while the table may answer the pending input itself
    table_answers: Callable[[Any], bool]
    #: give one raw input (InputProblem when it cannot be used at all)
    submit: Callable[[LocalTable, Mapping[str, Any]], None]
    #: what differs from ``expect``, beyond the error
    check: Callable[[Mapping[str, Any], dict[str, Any], LocalTable], list[str]]
    #: extra result fields
    extra: Callable[[LocalTable], dict[str, Any]] = _no_extra
