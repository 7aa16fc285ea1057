"""Every word of the client's catalogues, read from the .po sources (for tests).

The client loads the compiled .mo files through the standard library
(client/i18n.py); tests read the sources with Babel, so they see exactly
what translators edit.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

import client.locke  # noqa: F401  (registers Locke's words)
import client.rider  # noqa: F401  (registers Rider's words)
import client.tiny  # noqa: F401  (registers Tiny's words)
from client.i18n import LANGS, domains


def read_domain(folder: Path, domain: str) -> dict[str, tuple[str, ...]]:
    """One domain's words: key -> the text in each language of LANGS (empty where missing)."""
    texts: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        with (folder / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as source:
            for message in read_po(source):
                if message.id:
                    texts.setdefault(str(message.id), {})[lang] = str(message.string or "")
    return {key: tuple(by_lang.get(lang, "") for lang in LANGS) for key, by_lang in texts.items()}


def all_words() -> dict[str, tuple[str, ...]]:
    """Every registered domain's words together (ids are unique across domains)."""
    merged: dict[str, tuple[str, ...]] = {}
    for domain, folder in domains().items():
        merged.update(read_domain(folder, domain))
    return merged
