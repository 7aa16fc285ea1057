"""Rider deck construction: the deck file format and the deck-building rules.

Why a separate module: a deck is checked long before any game starts (the deck
editor, ``python -m tools.deck check``, the lobby), and the check must name
*every* broken rule at once so a player can fix a deck in one pass instead of
one error at a time. The rule ids (``rider.deck.N``) are explained in
docs/rules/rider-decks.md.

Pure functions over parsed data: no file access here (see net/games/rider/deck_tool.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from engine.core.errors import DeckError
from engine.rider.cards import FREE, CardSet

DECK_FORMAT = "fairtable.rider.deck/1"
DECK_SIZE = 24
LEVEL1_COUNT = 4
LEVEL4_COUNT = 4
MAX_LEVEL0 = 1
MAX_SPECIAL = 1
MIN_LEVEL1_ATTRIBUTES = 2

#: Rule ids with a one-line summary, in the order check_deck reports them.
RULES: Mapping[str, str] = MappingProxyType(
    {
        "rider.deck.1": f"a deck has exactly {DECK_SIZE} cards",
        "rider.deck.2": "at most 2 copies of a card name, unless the card allows more",
        "rider.deck.3": f"exactly {LEVEL1_COUNT} Lv.1 cards",
        "rider.deck.4": f"exactly {LEVEL4_COUNT} Lv.4 cards",
        "rider.deck.5": f"at most {MAX_LEVEL0} Lv.0 card",
        "rider.deck.6": f"at most {MAX_SPECIAL} special-placement card",
        "rider.deck.7": f"the Lv.1 cards carry at least {MIN_LEVEL1_ATTRIBUTES} different non-Free attributes",
        "rider.deck.8": "every card comes from the deck's card set, with a positive whole-number count",
    }
)

_DECK_KEYS = ("format", "name", "cardset", "cards", "description")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def check_deck(cardset: CardSet, counts: Mapping[str, int]) -> list[str]:
    """Every deck-construction rule ``counts`` breaks, as messages; empty means legal.

    Each message starts with its rule id in brackets and says what to change.
    Unknown card ids are reported (rule 8) and still count towards the deck
    size, but are left out of the rules that need to know the card.
    """
    problems: list[str] = []
    known: dict[str, int] = {}
    total = 0
    bad_counts: list[str] = []
    unknown: list[str] = []
    for card_id in sorted(counts):
        n = counts[card_id]
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            bad_counts.append(f"{card_id}={n!r}")
            continue
        if n == 0:
            continue
        total += n
        if card_id in cardset.cards:
            known[card_id] = n
        else:
            unknown.append(card_id)

    if total != DECK_SIZE:
        change = f"remove {total - DECK_SIZE}" if total > DECK_SIZE else f"add {DECK_SIZE - total}"
        problems.append(f"[rider.deck.1] the deck has {_plural(total, 'card')}; it must have exactly {DECK_SIZE}: {change}.")

    by_name: dict[str, int] = {}
    limit: dict[str, int] = {}
    for card_id, n in known.items():
        card = cardset.cards[card_id]
        by_name[card.name_en] = by_name.get(card.name_en, 0) + n
        limit[card.name_en] = max(limit.get(card.name_en, 0), card.max_copies)
    for name in sorted(by_name):
        if by_name[name] > limit[name]:
            problems.append(
                f"[rider.deck.2] {by_name[name]} copies of {name!r}; at most {limit[name]} are allowed: "
                f"remove {by_name[name] - limit[name]}."
            )

    level1 = {i: n for i, n in known.items() if cardset.cards[i].levels == (1,)}
    for rule, level, wanted in (("rider.deck.3", 1, LEVEL1_COUNT), ("rider.deck.4", 4, LEVEL4_COUNT)):
        have = sum(n for i, n in known.items() if cardset.cards[i].levels == (level,))
        if have != wanted:
            change = f"remove {have - wanted}" if have > wanted else f"add {wanted - have}"
            problems.append(
                f"[{rule}] the deck has {_plural(have, f'Lv.{level} card')}; it needs exactly {wanted}: "
                f"{change} Lv.{level} {'card' if abs(have - wanted) == 1 else 'cards'}."
            )

    level0 = sum(n for i, n in known.items() if cardset.cards[i].is_level0)
    if level0 > MAX_LEVEL0:
        problems.append(
            f"[rider.deck.5] the deck has {level0} Lv.0 cards; at most {MAX_LEVEL0} is allowed: "
            f"remove {level0 - MAX_LEVEL0}."
        )
    special = sum(n for i, n in known.items() if cardset.cards[i].special_placement is not None)
    if special > MAX_SPECIAL:
        problems.append(
            f"[rider.deck.6] the deck has {special} special-placement cards; at most {MAX_SPECIAL} is allowed: "
            f"remove {special - MAX_SPECIAL}."
        )

    attributes = sorted({cardset.cards[i].attribute for i in level1} - {FREE})
    if len(attributes) < MIN_LEVEL1_ATTRIBUTES:
        shown = ", ".join(attributes) if attributes else "none"
        problems.append(
            f"[rider.deck.7] the Lv.1 cards carry {len(attributes)} non-Free "
            f"{'attribute' if len(attributes) == 1 else 'attributes'} ({shown}); they need at least "
            f"{MIN_LEVEL1_ATTRIBUTES} different ones: swap a Lv.1 card for one of another attribute."
        )

    if unknown:
        problems.append(
            f"[rider.deck.8] {_plural(len(unknown), 'card id')} not in card set {cardset.id!r}: "
            f"{', '.join(unknown)}; fix the ids or load the card set the deck was built for."
        )
    if bad_counts:
        problems.append(
            f"[rider.deck.8] counts must be whole numbers of at least 1: {', '.join(bad_counts)}; fix those counts."
        )
    return problems


def deck_from_data(data: Any) -> tuple[Mapping[str, str], str, Mapping[str, int]]:
    """Parse a deck file (docs/rider-cardset-format.md) into ``(name, cardset_id, counts)``.

    ``name`` maps "en" and "ja" to the deck's names; ``counts`` maps card ids
    (sorted) to copies. This checks the file's shape only; the deck-building
    rules are :func:`check_deck`'s job. Raises :class:`DeckError` listing every
    problem found.
    """
    if not isinstance(data, Mapping):
        raise DeckError(["a deck file must hold one JSON object; see docs/rider-cardset-format.md"])
    if data.get("format") != DECK_FORMAT:
        raise DeckError([f"not a Rider deck: the 'format' field must be {DECK_FORMAT!r} (found {data.get('format')!r})"])
    problems: list[str] = []
    for key in sorted(k for k in data if k not in _DECK_KEYS):
        problems.append(f"unknown field {key!r} in the deck file; allowed fields are {', '.join(_DECK_KEYS)}")
    name = data.get("name")
    if not (isinstance(name, Mapping) and all(isinstance(name.get(k), str) and name[k].strip() for k in ("en", "ja"))):
        problems.append("the deck needs a name in English and Japanese: \"name\": {\"en\": ..., \"ja\": ...}")
    cardset_id = data.get("cardset")
    if not isinstance(cardset_id, str) or not cardset_id:
        problems.append("the deck must name its card set: \"cardset\": \"<card set id>\"")
    counts: dict[str, int] = {}
    entries = data.get("cards")
    if not isinstance(entries, list):
        problems.append("\"cards\" must be a list of {\"id\": ..., \"count\": ...} entries")
        entries = []
    for index, entry in enumerate(entries):
        where = f"cards[{index}]"
        if not isinstance(entry, Mapping) or set(entry) != {"id", "count"}:
            problems.append(f"{where} must be exactly {{\"id\": <card id>, \"count\": <copies>}}, found {entry!r:.60}")
            continue
        card_id, count = entry["id"], entry["count"]
        if not isinstance(card_id, str) or not card_id:
            problems.append(f"{where}: \"id\" must be a card id (text)")
            continue
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            problems.append(f"{where}: \"count\" of {card_id} must be a whole number of at least 1, found {count!r}")
            continue
        if card_id in counts:
            problems.append(f"{where}: {card_id} is listed twice; list each card once with its total count")
            continue
        counts[card_id] = count
    description = data.get("description")
    if description is not None and not (
        isinstance(description, Mapping) and all(isinstance(description.get(k), str) for k in ("en", "ja"))
    ):
        problems.append("\"description\", when present, must be {\"en\": ..., \"ja\": ...}")
    if problems:
        raise DeckError(problems)
    names = cast(Mapping[str, str], name)  # shape checked above
    return (
        MappingProxyType({"en": names["en"], "ja": names["ja"]}),
        cast(str, cardset_id),
        MappingProxyType(dict(sorted(counts.items()))),
    )


def expand(counts: Mapping[str, int]) -> tuple[str, ...]:
    """The deck as a sorted tuple of card ids, one entry per copy (deterministic order).

    Raises :class:`DeckError` for a negative or non-integer count.
    """
    bad = [f"{i}={n!r}" for i, n in counts.items() if not isinstance(n, int) or isinstance(n, bool) or n < 0]
    if bad:
        raise DeckError([f"[rider.deck.8] counts must be whole numbers of at least 0: {', '.join(sorted(bad))}"])
    return tuple(card_id for card_id in sorted(counts) for _ in range(counts[card_id]))
