"""Actions: immutable value objects that are the only way to change a state.

An action names its kind, the seat that gives it, and plain fields. It turns
into canonical data with :meth:`Action.to_data` (for logs, signing and the
wire) and back with an :class:`ActionCodec`, which checks every field's type so
that hostile input is refused with :class:`MalformedAction` before any rule
runs.

Inputs that answer chance or hidden-card requests are actions too, given by
:data:`SYSTEM`: the table driver (local or networked) feeds them to the
engine after fulfilling the request.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from engine.core.errors import MalformedAction

#: The pseudo-seat that feeds outcomes of chance and hidden-card operations.
SYSTEM = -1


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every input. Subclasses are frozen dataclasses with ``KIND``."""

    KIND: ClassVar[str] = ""
    seat: int

    def to_data(self) -> dict[str, Any]:
        """Canonical data: ``{"kind": KIND, <field>: <value>, ...}``."""
        data: dict[str, Any] = {"kind": self.KIND}
        for field in dataclasses.fields(self):
            data[field.name] = getattr(self, field.name)
        return data

    def __canonical__(self) -> dict[str, Any]:
        return self.to_data()


A = TypeVar("A", bound=Action)


class ActionCodec:
    """Decodes canonical data into the action classes of one game."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self._by_kind: dict[str, type[Action]] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        for cls in classes:
            if not cls.KIND or cls.KIND in self._by_kind:
                raise ValueError(f"action kind {cls.KIND!r} is empty or repeated")
            if any(f.name == "kind" for f in dataclasses.fields(cls)):  # to_data's own key would be overwritten
                raise ValueError(f"action {cls.KIND!r} has a field named 'kind', which its canonical data uses")
            self._by_kind[cls.KIND] = cls
            self._hints[cls.KIND] = typing.get_type_hints(cls)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(sorted(self._by_kind))

    def defaults(self, kind: str) -> dict[str, Any]:
        """The fields of ``kind`` that have a default, with it (scenario files may leave them
        out; the wire never does: :meth:`decode` wants every field)."""
        cls = self._by_kind.get(kind)
        if cls is None:
            return {}
        found: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING:
                found[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                found[f.name] = f.default_factory()
        return found

    def decode(self, data: Any) -> Action:
        """Build an action from canonical data or raise :class:`MalformedAction`."""
        if not isinstance(data, Mapping):
            raise MalformedAction("an action must be a map")
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in self._by_kind:
            raise MalformedAction(f"unknown action kind {kind!r}")
        cls = self._by_kind[kind]
        names = [f.name for f in dataclasses.fields(cls)]
        given = set(data) - {"kind"}
        if given != set(names):
            missing = sorted(set(names) - given)
            extra = sorted(given - set(names))
            raise MalformedAction(f"{kind}: missing fields {missing}, unexpected fields {extra}")
        hints = self._hints[kind]
        values = {name: _coerce(data[name], hints[name], f"{kind}.{name}") for name in names}
        try:
            return cls(**values)
        except (TypeError, ValueError) as exc:
            raise MalformedAction(f"{kind}: {exc}") from None


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """Check ``value`` against a type hint; lists become tuples."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _coerce(value, option, where)
            except MalformedAction:
                continue
        raise MalformedAction(f"{where}: {value!r} does not match {hint}")
    if hint is type(None):
        if value is None:
            return None
        raise MalformedAction(f"{where}: expected nothing, got {value!r}")
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise MalformedAction(f"{where}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise MalformedAction(f"{where}: expected an integer, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise MalformedAction(f"{where}: expected text, got {value!r}")
    if hint is bytes:
        if isinstance(value, bytes):
            return value
        raise MalformedAction(f"{where}: expected bytes, got {value!r}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise MalformedAction(f"{where}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(v, args[0], where) for v in value)
        if len(args) != len(value):
            raise MalformedAction(f"{where}: expected {len(args)} items, got {len(value)}")
        return tuple(_coerce(v, a, where) for a, v in zip(args, value))
    if hint is Any:
        return value
    raise MalformedAction(f"{where}: unsupported field type {hint}")
