"""The shipped Rider card set and decks, loaded through :mod:`assets`."""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Any

import assets
from engine.rider.cards import CardSet, cardset_from_data

CARDSET = "rider/cardset.json"
DECKS = "rider/decks"


@dataclasses.dataclass(frozen=True)
class DeckInfo:
    """A deck file: its key (file stem), names, and raw data for the engine."""

    key: str
    name_en: str
    name_ja: str
    data: Any

    def name(self, lang: str) -> str:
        from client.i18n import pick

        return pick(lang, self.name_en, self.name_ja)

    def description(self, lang: str) -> str:
        """The deck file's own description in ``lang`` (English where it has no Japanese; "" without one)."""
        from client.i18n import pick

        about = self.data.get("description") if isinstance(self.data, dict) else None
        if not isinstance(about, dict):
            return ""
        return pick(lang, str(about.get("en", "")), str(about.get("ja", "")))


@functools.lru_cache(maxsize=1)
def cardset() -> CardSet:
    return cardset_from_data(assets.load_json(CARDSET))


def shipped_decks() -> list[DeckInfo]:
    """Every ``*.deck.json`` in assets/rider/decks, sorted by file name."""
    folder = assets.path(DECKS)
    if not folder.is_dir():
        return []
    decks = []
    for file in sorted(folder.glob("*.deck.json")):
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        name = data.get("name", {}) if isinstance(data, dict) else {}
        key = file.name[: -len(".deck.json")]
        decks.append(DeckInfo(key, str(name.get("en", key)), str(name.get("ja", key)), data))
    return decks
