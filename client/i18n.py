"""The words a player reads, in English and Japanese, from gettext catalogues.

Card names and texts come with a game's card data; everything else is here,
keyed by a stable id, in standard gettext catalogues translators' tools read:
``<folder>/<lang>/LC_MESSAGES/<domain>.po``, compiled to the ``.mo`` beside
it (``python -m tools.catalogues``) and loaded through the standard
library's :mod:`gettext`. The client's own words are the ``fairtable``
domain (client/locale); each game's client package registers its own domain
when it is imported (:func:`register_words`: client/rider/locale,
client/tiny/locale, ...), so nothing generic holds a game's words. An id
lives in one domain only (tests/client/test_catalogues.py checks it).
:func:`tr` formats with named fields and falls back to English (never to a
key) if a translation is missing.
"""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Any

from client.agreement import you_agree
from net.seats import seat_number

LANGS = ("en", "ja")
#: The client's own catalogue domain (client/locale).
DOMAIN = "fairtable"

#: Per language, the loaded catalogues, in the order their domains registered.
_CATALOGUES: dict[str, list[gettext.GNUTranslations]] = {lang: [] for lang in LANGS}
#: Registered domains and their folders (a second registration of the same domain is no change).
_DOMAINS: dict[str, Path] = {}
_LOOKED_UP: dict[tuple[str, str], str | None] = {}
#: (lang, key) -> the words tr shows (with the English fallback), filled as they are asked for.
_WORDS: dict[tuple[str, str], str] = {}


def register_words(domain: str, folder: Path) -> None:
    """Load ``domain``'s catalogues from ``folder`` (``<lang>/LC_MESSAGES/<domain>.mo``) for every
    language. A game's client package calls this once, when it is imported. ValueError when the
    domain is registered from another folder or a catalogue is missing (a broken install)."""
    known = _DOMAINS.get(domain)
    if known is not None:
        if known != folder:
            raise ValueError(f"the word catalogue {domain!r} is registered from {known} already, not {folder}")
        return
    loaded = []
    for lang in LANGS:
        path = folder / lang / "LC_MESSAGES" / f"{domain}.mo"
        try:
            with path.open("rb") as source:
                loaded.append((lang, gettext.GNUTranslations(source)))
        except OSError as exc:
            raise ValueError(f"the {lang} words of {domain!r} are missing ({exc}); reinstall the game, or run "
                             "python -m tools.catalogues in a checkout") from None
    _DOMAINS[domain] = folder
    for lang, catalogue in loaded:
        _CATALOGUES[lang].append(catalogue)
    _LOOKED_UP.clear()
    _WORDS.clear()


def domains() -> dict[str, Path]:
    """Every registered domain and its folder (for tests and tools)."""
    return dict(_DOMAINS)


def _lookup(lang: str, key: str) -> str | None:
    """``key``'s words in ``lang`` (a registered catalogue's), or None when no catalogue has them."""
    if (lang, key) in _LOOKED_UP:
        return _LOOKED_UP[(lang, key)]
    found = None
    for catalogue in _CATALOGUES.get(lang, ()):
        text = catalogue.gettext(key)
        if text != key:
            found = text
            break
    _LOOKED_UP[(lang, key)] = found
    return found


def known(key: str) -> bool:
    """Whether some registered catalogue has words for ``key`` (a key built from data may not)."""
    return _lookup(LANGS[0], key) is not None


register_words(DOMAIN, Path(__file__).resolve().parent / "locale")


def progress_text(lang: str, event: Any) -> str:
    """A peer driver progress event (:class:`net.peer.progress.Progress`) in
    ``lang``: its stable id picks the words; an id this client does not know
    shows the driver's English line."""
    key = f"progress_{event.id}"
    if not known(key):
        return str(event.text)
    problem = event.fields.get("problem")  # a stable problem id (a wrong online code ...) may have its own words
    if isinstance(problem, str) and known(f"{key}_{problem}"):
        key = f"{key}_{problem}"
    fields = dict(event.fields)  # seat_n and *_text already count seats from 1 (net.seats)
    if fields.get("host") is True and "who" in fields:  # the driver's English "the host"
        fields["who"] = tr(lang, "progress_the_host")
    if isinstance(fields.get("kind"), str) and known(f"link_kind_{fields['kind']}"):  # direct, relayed, ...
        fields["kind"] = tr(lang, f"link_kind_{fields['kind']}")
    if isinstance(fields.get("code"), str) and "where" in fields:  # an online join: where is its code
        fields["where"] = tr(lang, "progress_where_code", code=fields["code"])
    if "status" in fields:
        fields["status"] = tr(lang, f"link_{fields['status']}") if known(f"link_{fields['status']}") \
            else fields["status"]
    seats = fields.get("seats")
    if isinstance(seats, list):
        names = fields.get("names")
        if event.id == "stalling" and isinstance(names, list) and len(names) == len(seats):
            fields["who"] = ", ".join(f"{n} ({tr(lang, 'seat_list', n=seat_number(s))})" for s, n in zip(seats, names))
        else:
            fields["who"] = ", ".join(tr(lang, "seat_list", n=seat_number(s)) for s in seats) or "-"
    try:  # formatted here: a field may be called "key", like tr's own argument
        return _words(lang, key).format(**fields)
    except (KeyError, IndexError, ValueError):  # a field this version does not know: the English line
        return str(event.text)


def other_lang(lang: str) -> str:
    """The language the L key switches to."""
    return LANGS[(LANGS.index(lang) + 1) % len(LANGS)] if lang in LANGS else LANGS[0]


def pick(lang: str, en: str, ja: str) -> str:
    """Bilingual *data* (a card's name and text, a deck's name: they come with the
    card set in both languages) in ``lang``; English where there is no Japanese."""
    return ja if lang == "ja" and ja else en


def _words(lang: str, key: str) -> str:
    """``key``'s words in ``lang``, else in English, else the key itself (a missing catalogue entry)."""
    text = _WORDS.get((lang, key))
    if text is None:
        text = _WORDS[(lang, key)] = _lookup(lang, key) or _lookup(LANGS[0], key) or key
    return text


def tr(lang: str, key: str, **fields: Any) -> str:
    """The words ``key`` in ``lang`` with ``fields`` filled in; an English verb after the
    viewer's own seat agrees with "you" (client/agreement.py)."""
    text = _WORDS.get((lang, key)) or _words(lang, key)
    if not fields:
        return text
    return you_agree(text.format(**fields))
