"""Every Locke input, public event and decision is worded, in English and Japanese.

The words live in Locke's gettext domain (client/locke/locale); client/locke/words.py
fills them in. A new action class, event kind or decision prompt of the engine fails here until it
has words in both languages (engine kinds are read from the engine's sources and from bot games).
"""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from client.fonts import coverage
from client.i18n import known, tr
from client.locke.events import EVENT_ARGS
from client.locke.words import Namer
from engine.core.hidden import Knowledge
from engine.core.inputs import PlacementPick, SealedPick
from engine.core.pending import Decision
from engine.locke.combat.actions import ACTIONS as COMBAT_ACTIONS
from engine.locke.actions import ACTIONS
from net.games import game_named
from net.games.locke import components
from net.local_table import LocalTable
from tests.client.words import read_domain

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "locke"
LOCALE = Path(__file__).resolve().parents[2] / "client" / "locke" / "locale"
SAMPLE = {int: 1, str: "", bool: True}


def _namer(lang: str) -> Namer:
    return Namer(lang, ["Ann", "Bob", "Cy", "Di", "Ed"], 0, components(), Knowledge(0))


def _sample(cls: Any, flag: bool) -> Any:
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind = f.type if isinstance(f.type, type) else {"int": int, "str": str, "bool": bool}.get(str(f.type), tuple)
        values[f.name] = flag if kind is bool else SAMPLE.get(kind, ())
    values["seat"] = 1
    return cls(**values)


def _bot_games(count: int = 4) -> tuple[list[tuple[Any, ...]], set[str]]:
    entry = game_named("locke")
    events: list[tuple[Any, ...]] = []
    prompts: set[str] = set()
    for seed in range(count):
        seats = 5 + seed
        setup = entry.local(entry.local_record(seats, None, None), None)
        bots = [entry.bot("random", random.Random(seed * 31 + s)) for s in range(seats)]
        table = LocalTable(setup.game, setup.state, list(setup.knowledge), bots, seed)
        while table.pending is not None:
            if isinstance(table.pending, Decision):
                prompts.add(table.pending.prompt)
            table.step()
        events += list(table.state.events)
    return events, prompts


@pytest.mark.parametrize("flag", [True, False])
def test_every_locke_input_has_words_in_both_languages(flag: bool) -> None:
    for cls in (*ACTIONS, *COMBAT_ACTIONS):
        action = _sample(cls, flag)
        en, ja = _namer("en").action(action), _namer("ja").action(action)
        assert en and ja and en != ja, cls.__name__
        assert "lk_" not in en + ja and cls.KIND not in en, (cls.__name__, en)
    for pick in (SealedPick(0, "locke.silhouette", "locke"), PlacementPick(0, "ambush:0", "ambush-a", "P:1:2")):
        assert _namer("en").action(pick) != _namer("ja").action(pick)


def _logged_kinds() -> set[str]:
    """Every event kind a ``log(state, "kind", ...)`` call of the engine names, found by walking each
    module's syntax tree (a regex missed calls whose state is itself a call, ``log(advance(s), ...)``)."""
    kinds = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "log"
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                kinds.add(str(node.args[1].value))
    return kinds


def test_every_event_kind_the_engine_logs_has_words() -> None:
    logged = _logged_kinds()
    assert {"cb-flash", "genocide", "nova"} <= logged  # logged through nested calls
    events, _prompts = _bot_games()
    logged |= {str(e[0]) for e in events}
    assert logged and not logged - set(EVENT_ARGS), sorted(logged - set(EVENT_ARGS))
    for kind in EVENT_ARGS:
        en, ja = tr("en", f"lk_ev_{kind}"), tr("ja", f"lk_ev_{kind}")
        assert en and ja and en != ja and en != f"lk_ev_{kind}", kind
    for entry in events:  # every real event fills its words: no field left, no key shown
        for lang in ("en", "ja"):
            text = _namer(lang).event(entry)
            assert text and "{" not in text and "lk_" not in text, (entry, text)


def test_every_decision_met_in_play_says_what_is_decided() -> None:
    _events, prompts = _bot_games()
    missing = sorted(p for p in prompts if not known(f"lk_wait_{p.removeprefix('locke.')}"))
    assert not missing


def test_the_font_draws_every_locke_word_and_card_name() -> None:
    c = components()
    texts = [t for pair in read_domain(LOCALE, "locke").values() for t in pair]
    for family in (c.characters, c.silhouettes, c.planets, c.bases, c.combat_cards):
        texts += [t for card in family for t in (card.name_en, card.name_ja)]
    chars = {ch for t in texts for ch in t if ch.strip()}
    for bold in (False, True):
        assert not sorted(ch for ch in chars if ord(ch) not in coverage(bold)), bold


def test_card_zones_in_the_log_are_words_in_both_languages() -> None:
    """A deal or a shuffle names its zone in words ("shadow die, Seat 2"), never the engine's id ("die")."""
    for lang, expected in (("en", "shadow die"), ("ja", "影のダイス")):
        named = Namer(lang, ["Ann", "Bob", "Cy", "Di", "Ed"], 0, components(), Knowledge(0)).zone("die:1")
        assert expected in named and "die:" not in named, named
    # Japanese punctuation in Japanese (seen: "影のダイス, ランダムボット（席3）")
    ja = Namer("ja", ["Ann", "Bob", "Cy", "Di", "Ed"], 0, components(), Knowledge(0))
    assert ja.zone("die:1") == "Bob（席2）の影のダイス" and ", " not in ja.zone("planet:stock"), ja.zone("planet:stock")
    for zone in ("ambush", "base", "characters", "chars", "combat", "dice", "die", "kept", "keybases", "planet"):
        assert known(f"lk_zone_{zone}"), zone
    namer = Namer("en", ["Ann", "Bob", "Cy", "Di", "Ed"], 0, components(), Knowledge(0))
    assert namer.zone("planet:stock") == "planet cards: draw pile" and namer.zone("chars:E") == "character cards: Evil"


def test_the_rail_names_the_kept_cards_a_seat_has_turned_face_up() -> None:
    """Issue 27 item 2: revealed items on the seat rail. A kept planet card used face up names its
    card; one used face down names only what it was used as; never another hidden card."""
    from client.locke.views import rail_lines
    from client.locke.words import Namer
    from engine.core.hidden import Knowledge
    from tests.engine.locke.flow_helpers import bot_table

    for seed in range(40):
        table = bot_table(6, seed)
        for _ in range(20_000):
            if table.pending is None or table.step() is None:
                break
            s = table.state
            shown = [(i, p) for i, p in enumerate(s.seats) if p.shown]
            if shown:
                seat, p = shown[0]
                namer = Namer("en", [f"P{i}" for i in range(s.n)], (seat + 1) % s.n, table.game.components,
                              Knowledge((seat + 1) % s.n))
                line = next(x for x in rail_lines(s, seat, namer) if x.startswith("Face up: "))
                opened, used = dict(s.open_cards), dict(s.wild)
                for h in p.shown:
                    assert namer.card(used.get(h) or opened[h]) in line
                assert "a hidden card" not in line
                return
    raise AssertionError("no seat turned a kept card face up in 40 random games")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_characters_side_is_said_once(lang: str) -> None:
    """Seen in a real window: our panel read "Character: Ran (Evil/Good) (Evil/Good)" (the English
    name says its side already)."""
    import re

    from client.locke.views import character_line

    namer = _namer(lang)
    for character in namer.components.characters:
        line = character_line(namer, character.id)
        assert not re.search(r"(（[^）]*）|\([^)]*\))\s*\1", line), line
        assert namer.word(character.attribute) in line, line


def test_every_roll_says_what_it_is_for_in_both_languages() -> None:
    """Seen: bare "Dice: 3 + 6 + 3" lines in the log, with nothing saying what was rolled for.
    Every roll of a few bot games, and every roll purpose written in the engine's sources, has words."""
    import re

    from engine.core.pending import DiceRolled

    purposes: set[str] = set()
    entry = game_named("locke")
    for seed in range(3):
        setup = entry.local(entry.local_record(5 + seed, None, None), None)
        bots = [entry.bot("random", random.Random(seed * 7 + s)) for s in range(5 + seed)]
        table = LocalTable(setup.game, setup.state, list(setup.knowledge), bots, seed)
        while table.pending is not None:
            done = table.step()
            if isinstance(done, DiceRolled):
                purposes.add(done.purpose)
    for path in ENGINE.rglob("*.py"):  # the purposes written out in the engine (an f-string's head left out)
        purposes.update(re.findall(r'Chance\(\s*(?:purpose=)?"(locke\.[a-z_.-]+)"', path.read_text()))
        purposes.update(re.findall(r'PURPOSE: ClassVar\[str\] = "(locke\.[a-z_.-]+)"', path.read_text()))
    purposes -= {"locke.chart.", "locke.check."}  # the heads of f-strings
    assert len(purposes) > 20, purposes
    en, ja = _namer("en"), _namer("ja")
    missing = [p for p in sorted(purposes) if not en.dice_purpose(p) or not ja.dice_purpose(p)
               or re.search(r"[a-z]{3,}", ja.dice_purpose(p))]
    assert missing == []
    line = en.logged(DiceRolled(-1, "locke.chart.prison", (4, 6)), None)
    assert line == "Dice (“prison” chart): 4 + 6", line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_disclosure_in_the_log_names_whom_it_was_shown_to(lang: str) -> None:
    """Playtest: "Hidden markers disclosed to some players" left a newcomer asking who saw them."""
    from engine.core.pending import PlacementDisclosed

    namer = _namer(lang)
    line = namer.logged(PlacementDisclosed(-1, "ambush:2", (5, 6), (1, 3)), None)
    assert namer.seat(1) in line and namer.seat(3) in line and "some players" not in line
