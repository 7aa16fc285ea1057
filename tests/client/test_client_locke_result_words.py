"""Chart results, equip lines and hits in the Locke log say what happened, in English and Japanese.

A newcomer playtest saw chart results as raw ids ("actually there chart for X: arrives round 3";
Japanese showing the English id), an equip line "X equips: 1 henchmen, suit ." and hits that never
said their damage. The words come from Locke's catalogues (client/locke/locale) through
client/locke/words.py; the chart ids come from the engine (engine/locke/charts.py), so a chart entry
added without words fails the first test here.
"""

from __future__ import annotations

import re

import pytest

from client.i18n import tr

from client.locke.words import Namer
from engine.core.hidden import Knowledge
from engine.locke.charts import chart_ids, entry_ids
from engine.locke.combat.actions import Equip
from net.games.locke import components

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def _namer(lang: str) -> Namer:
    return Namer(lang, NAMES, 0, components(), Knowledge(0))


def _shown_ids() -> list[str]:
    """Every chart id and every result id a chart can resolve to (the damage table's cells are
    never shown: the hit line reads them as odds and rolls)."""
    ids: list[str] = []
    for chart in chart_ids():
        ids.append(chart)
        if chart != "damage":
            ids += entry_ids(chart)
    return list(dict.fromkeys(ids))


def test_every_chart_result_the_engine_can_produce_has_words_in_both_languages() -> None:
    """Architecture check: a chart or entry id without catalogue words shows its English id in the
    Japanese log (and hyphens made spaces in English); a new one fails here."""
    en, ja = _namer("en"), _namer("ja")
    ids = _shown_ids()
    assert len(ids) > 100
    missing = []
    for ident in ids:
        english, japanese = en.card(ident), ja.card(ident)
        if not english or english == japanese or re.search(r"[a-z]{3,}", japanese):
            missing.append(f"{ident}: {english!r} / {japanese!r}")
    assert missing == []


@pytest.mark.parametrize(("chart", "entry", "english", "japanese"), [
    ("actually-there", "arrives-round-3", "arrives in round 3", "3ラウンド目から参加"),
    ("transformation", "esp-level-plus-1", "ESP level +1", "ESP能力レベル＋1"),
    ("random-combat", "police-jammer-2", "3 police with an ESP jammer (level 2)", "警官隊3人"),
])
def test_a_chart_line_names_the_chart_the_roller_and_the_result(chart: str, entry: str, english: str,
                                                               japanese: str) -> None:
    line_en = _namer("en").event(("chart-entry", chart, entry, 1))
    line_ja = _namer("ja").event(("chart-entry", chart, entry, 1))
    assert english in line_en and "Bob (Seat 2)" in line_en and entry not in line_en, line_en
    assert japanese in line_ja and not re.search(r"[a-z]{3,}", line_ja.replace("Bob", "")), line_ja


def test_a_chart_is_named_as_a_name() -> None:
    """Seen: "You (Seat 1) roll on the actually there chart" (the chart's name read as words)."""
    namer = Namer("en", NAMES, 0, components(), Knowledge(0))
    assert namer.event(("chart-entry", "actually-there", "not-there", 0)).startswith(
        "You (Seat 1) roll on the “actually there” chart:")
    assert "「実はそこにいた」チャート" in _namer("ja").event(("chart-entry", "actually-there", "not-there", 1))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_equip_line_lists_only_what_was_brought(lang: str) -> None:
    """Seen: "Heuristic bot (Seat 4) equips: 1 henchmen, suit ." (an empty suit, a plural for one)."""
    namer = _namer(lang)
    one = namer.event(("cb-equip", 3, 1, "", False, -1, 0, []))
    assert one == {"en": "Di (Seat 4) equips: 1 henchman.", "ja": "Di（席4）の装備：手下1人。"}[lang]
    two = namer.event(("cb-equip", 3, 2, "", False, -1, 0, []))
    assert ("2 henchmen" if lang == "en" else "手下2人") in two
    suit = namer.event(("cb-equip", 3, 0, "energy-suit", True, -1, 0, []))
    assert namer.card("energy-suit") in suit and ("henchm" not in suit and "手下" not in suit)
    for line in (one, two, suit):
        assert " ." not in line and "，" not in line and ", ." not in line


def test_the_equip_button_says_henchman_once_and_no_card_as_itself() -> None:
    """Seen: "Equip: 1 henchmen" and "Equip: Henchman as Henchman" (the Henchman planet card used as one)."""
    action = Equip(0, henchmen=1, suit="", field=False)
    assert _namer("en").action(action).endswith("1 henchman"), _namer("en").action(action)
    knowledge = Knowledge(0).learn([(5, "henchman"), (6, "slum")])
    namer = Namer("en", NAMES, 0, components(), knowledge)
    words = namer.action(Equip(0, henchmen=0, suit="", field=False, cards=(5,), kinds=("henchman",)))
    assert words.count("Henchman") == 1 and " as " not in words, words
    other = namer.action(Equip(0, henchmen=0, suit="", field=False, cards=(6,), kinds=("henchman",)))
    assert " as Henchman" in other, other


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_hit_says_its_damage_and_the_durability_left(lang: str) -> None:
    namer = _namer(lang)
    line = namer.event(("cb-hit", 1, 0, ["2-1@4", "2-1@6"], 4, 2, "weapon"))
    if lang == "en":
        assert line == ("Bob (Seat 2) hits You (Seat 1) with its weapon: 2 damage (odds 2:1, roll 4, 6); "
                        "durability 4 → 2."), line
    else:
        assert "2ダメージ" in line and "耐久力4→2" in line and "2:1" in line, line
    out = namer.event(("cb-hit", "alarm", 1, ["50-1-or-more@3"], 2, 0, "weapon"))
    assert ("none left" if lang == "en" else "残りなし") in out and ("2 damage" if lang == "en" else "2ダメージ") in out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_hit_without_damage_says_why(lang: str) -> None:
    """Seen: "Player (2) hits You (Seat 1)." after "Dice: 5 + 4", durability still 4/4, no word why."""
    line = _namer(lang).event(("cb-hit", 1, 0, ["1-2-or-less@9"], 4, 4, "weapon"))
    if lang == "en":
        assert "no damage" in line and "1:2 or less" in line and "9" in line and "stays 4" in line, line
    else:
        assert "ダメージなし" in line and "1:2以下" in line and "出目9" in line and "4のまま" in line, line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_hit_on_an_obstacles_members_lists_each(lang: str) -> None:
    line = _namer(lang).event(("cb-hit", 3, "police", ["1-1@4", "1-1@8", "1-1@5"], [1, 1, 1], [0, 1, 0], "weapon"))
    assert ("1, 1, 1 → 0, 1, 0" if lang == "en" else "1, 1, 1→0, 1, 0") in line, line
    assert ("2 damage" if lang == "en" else "2ダメージ") in line, line


def test_claim_lines_say_what_happened_once_per_seat_and_kind() -> None:
    """Seen: "you: declaration checked at the end (when its cards are revealed)" and "declaration proven
    now (zero-knowledge proof…)" twice for one attack (its level claim and its card claim)."""
    from client.locke.claimlog import claim_entries

    names = ("Ann", "Bo", "Cy")
    twice = claim_entries("en", [(0, True), (0, True), (1, False)], names, me=1)
    assert [e.text.split(" ")[0] for e in twice] == ["Ann", "You"], [e.text for e in twice]
    assert "2 claims" in twice[0].text and "declaration" not in twice[0].text
    assert twice[1].text.startswith("You (Seat 2) made a claim") and "end of the game" in twice[1].text
    ja = claim_entries("ja", [(0, True), (0, True)], names, me=1)
    assert len(ja) == 1 and "2件" in ja[0].text, ja


def test_rail_panel_and_buttons_read_as_plain_words() -> None:
    """Seen: "card seen by seats 2", "your ambush @ Earth 1", "Show 0 information cards"."""
    from engine.locke.actions import InfoCheck

    en = _namer("en")
    assert en.action(InfoCheck(0, ())) == "Show no information cards"
    assert en.action(InfoCheck(0, (3,))) == "Show 1 information card"
    assert en.action(InfoCheck(0, (3, 4))) == "Show 2 information cards"
    from client.i18n import tr
    assert tr("en", "lk_rail_seen_by", seats="seat 2") == "card seen by seat 2"
    assert tr("en", "lk_thing_at", thing="your ambush", cell="Earth 1") == "your ambush at Earth 1"


def test_our_own_possessive_is_your() -> None:
    """Seen: "You (Seat 1)'s illusion fails"."""
    en = _namer("en")
    assert en.event(("cb-illusion-failed", 0)).startswith("Your illusion"), en.event(("cb-illusion-failed", 0))
    assert en.event(("cb-illusion-failed", 1)).startswith("Bob (Seat 2)'s"), en.event(("cb-illusion-failed", 1))


def test_the_missing_packages_message_reads_as_a_sentence() -> None:
    """Seen: "start it with the command that put there"."""
    from client.__main__ import NOT_INSTALLED_HELP

    assert "that put there" not in NOT_INSTALLED_HELP and ".venv/bin/fairtable" in NOT_INSTALLED_HELP


def test_the_client_doc_says_how_to_run_a_second_window_as_the_readme_does() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "client.md").read_text(encoding="utf-8")
    assert "XDG_DATA_HOME" not in doc and "FAIRTABLE_PROFILE=2" in doc


def _engine_reason_ids() -> set[str]:
    """Ids the engine puts in the log as what a base card did (``said(s, "...")``, ``_effect(.., "...")``)
    or why a seat rests or is hit (``cause="..."``), found by walking every engine module's syntax tree."""
    import ast
    from pathlib import Path

    ids: set[str] = set()
    for path in (Path(__file__).resolve().parents[2] / "engine" / "locke").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in ("said", "_effect") and args:
                ids.add(args[-1])
            ids |= {str(k.value.value) for k in node.keywords
                    if k.arg == "cause" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)}
    return ids


def test_every_reason_the_engine_logs_has_words_in_japanese() -> None:
    """Seen in bot games: "カーンの聖母がAに効果：asked male", "動けません：autograph" (base-card outcomes
    and restraint causes shown as their English ids). A new one without words fails here."""
    ids = _engine_reason_ids()
    assert {"asked-male", "autograph", "trap-chart", "combat"} <= ids
    ja = _namer("ja")
    missing = sorted(f"{i}: {ja.card(i)}" for i in ids if re.search(r"[a-z]{3,}", ja.card(i)))
    assert missing == []
    assert "{" not in ja.card("controlled-by-2") and "Cy" in ja.card("controlled-by-2")


def test_a_heal_says_one_point_not_the_restraints_id() -> None:
    """Seen: "Aの耐久をdahlia回復しました" (the restraint's id read as the amount)."""
    for lang, words in (("en", "1 point"), ("ja", "1回復")):
        line = _namer(lang).event(("healed", 1, "dahlia"))
        assert words in line and "dahlia" not in line, line


def test_a_combat_without_a_cell_and_a_race_retirement_read_as_words() -> None:
    """Seen in bot games: "A combat starts at  (random combat: prison)" and "レースから退場（three sixes）"."""
    for lang in ("en", "ja"):
        namer = _namer(lang)
        start = namer.event(("cb-start", "random-combat:prison", "", 1, 2))
        assert "  " not in start and "at  " not in start and ("off the board" in start or "盤の外" in start), start
        retired = namer.event(("astro-race-retired", 1, "three-sixes"))
        assert "three sixes)" not in retired and not (lang == "ja" and re.search(r"[a-z]{3,}", retired)), retired


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_another_seats_hidden_placement_reads_as_what_they_decide(lang: str) -> None:
    """Seen: "Player (2) (Seat 4) is deciding: a player places hidden markers"."""
    from client.i18n import tr
    from client.locke.views import banner
    from engine.core.pending import Placement

    pending = Placement("place", "ambush:3", 3, ("P:1:1", "P:1:2"), ("ambush-a", "ambush-b"))
    text = banner(None, pending, _namer(lang), False)  # type: ignore[arg-type]
    assert text == tr(lang, "lk_decides", who="Di (Seat 4)" if lang == "en" else "Di（席4）",
                      what=tr(lang, "lk_sys_place")), text
    assert ("a player" not in text and "their hidden markers" in text) if lang == "en" else "プレイヤーが" not in text


def test_a_log_line_that_opens_with_an_obstacle_starts_with_a_capital() -> None:
    """Seen: "police's weapon check: bazooka." as a log line."""
    line = _namer("en").event(("cb-weapon-check", "police", "bazooka"))
    assert line[:1].isupper(), line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_suit_is_named_once_and_a_suit_of_unsaid_kind_in_words(lang: str) -> None:
    """Seen: "Equip: suit Hell-diver suit (H-suit)" and "Equip: suit suit" (N225's suit of a kind not said)."""
    namer = _namer(lang)
    named = namer.action(Equip(0, henchmen=0, suit="hell-diver-suit", field=False))
    card = namer.card("hell-diver-suit")
    assert named.count("suit" if lang == "en" else "スーツ") == card.count("suit" if lang == "en" else "スーツ"), named
    unsaid = namer.action(Equip(0, henchmen=0, suit="suit", field=False))
    assert unsaid == tr(lang, "lk_act_locke.cb.equip", list=tr(lang, "lk_eq_suit_unsaid")), unsaid
    assert "suit suit" not in unsaid and "スーツスーツ" not in unsaid
    logged = namer.event(("cb-equip", 3, 0, "suit", False, -1, 0, []))
    assert tr(lang, "lk_eq_suit_unsaid") in logged, logged


def test_japanese_lists_use_the_japanese_separator() -> None:
    """Seen: "装備：スーツヘルダイバースーツ, Heuristic bot（席2）にジャマー" (an English comma in Japanese)."""
    from client.locke.claimlog import claim_entries

    namer = Namer("ja", NAMES, 0, components(), Knowledge(0), (0, 1))
    both = namer.action(Equip(0, henchmen=1, suit="energy-suit", field=False, jammer=1))
    assert "、" in both and ", " not in both, both
    picks = claim_entries("ja", [(1, False), (2, False)], tuple(NAMES), me=0)[0].text
    assert "、" in picks and ", " not in picks, picks
