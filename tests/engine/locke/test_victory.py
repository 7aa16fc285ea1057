"""Judging the end of a Locke game (engine/locke/victory.py).

Rule references: KMC 6.3.2 (alignment conditions, the all-Good-and-Evil-dead
note), 6.4 (endings and grades A-D), table 2.1 (own conditions), 11.1.3
(overrides), 11.8.1 (Marian/Francis examples), 11.8.2 (S-Strohheim), chapter
4 (Nova), rulings C7-C10, N22-N25.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.encoding import encode
from engine.core.errors import IllegalAction, MalformedAction
from engine.locke.victory import EndFacts, Kill, SeatFacts, grade, judge, refusal_override
from tests.engine.locke.test_components import components

ALIGN = {"good": "good", "evil": "evil", "special": "special", "evil-good": "evil"}


def seats(*spec: Any) -> tuple[SeatFacts, ...]:
    """spec items: (character, alive) or (character, alive, {field: value})."""
    out = []
    for i, item in enumerate(spec):
        char, alive = item[0], item[1]
        extra = dict(item[2]) if len(item) > 2 else {}
        card = components().character(char)
        align = extra.pop("alignment", ALIGN[card.attribute])
        level = extra.pop("esp_level", card.level)
        out.append(SeatFacts(i, char, align, alive, level, **extra))
    return tuple(out)


def verdicts(ending: str, table: tuple[SeatFacts, ...], **kw: Any) -> dict[str, tuple[bool, str]]:
    got = judge(components(), EndFacts(ending, table, **kw))  # type: ignore[arg-type]
    return {table[v.seat].character: (v.won, v.grade) for v in got}


def test_grades_of_6_4() -> None:
    assert [grade(True, True), grade(True, False), grade(False, True), grade(False, False)] == ["A", "B", "C", "D"]


def test_good_destroys_the_four_key_bases() -> None:
    """KMC 6.4/9.3.1: Good wins, Evil loses; a dead Good still wins (B)."""
    t = seats(("locke-1", True), ("yamaki-1", False), ("riot", True), ("nagato", False), ("jessica", True),
              ("dr-wong", True))
    v = verdicts("key-bases", t, key_bases_destroyed=4, fourth_destruction_present=(0, 2))
    assert v["locke-1"] == (True, "A") and v["yamaki-1"] == (True, "B")
    assert v["riot"] == (False, "C") and v["nagato"] == (False, "D")
    assert v["jessica"] == (False, "C")   # not in a party
    assert v["dr-wong"] == (False, "C")   # 2 of 6 dead


def test_nova_everyone_dead_good_wins_example_5_of_11_8_1() -> None:
    """KMC ch. 4 Nova and 11.8.1 example 5: no Locke among the players, game
    ended by Nova: Marian wins at grade B; Lag loses because Rema died."""
    t = seats(("yamaki-1", False), ("marian", False), ("lag", False), ("rema", False), ("riot", False))
    v = verdicts("nova", t, key_bases_destroyed=4)
    assert v["marian"] == (True, "B") and v["yamaki-1"] == (True, "B")
    assert v["lag"] == (False, "D") and v["rema"] == (False, "D")
    assert v["riot"] == (False, "D")


def test_good_wins_with_no_evil_alive() -> None:
    t = seats(("locke-2", True), ("riot", False), ("cornelia", False), ("elmi", True), ("nia", False))
    v = verdicts("last-alive", t)
    assert v["locke-2"] == (True, "A") and v["nia"] == (True, "B")
    assert v["riot"] == (False, "D")
    assert v["elmi"] == (True, "A")  # 3 of 4 others dead


def test_evil_wins_with_no_good_alive() -> None:
    t = seats(("locke-2", False), ("riot", True), ("cornelia", False), ("lord-leon", True), ("nia", False))
    v = verdicts("declaration", t, declarer=1)
    assert v["riot"] == (True, "A") and v["cornelia"] == (True, "B")
    assert v["locke-2"] == (False, "D")
    assert v["lord-leon"] == (False, "C")  # Riot is at level 6


def test_converted_e_g_plays_for_good() -> None:
    """KMC 6.3.2: an E/G converted by a Locke is Good until it comes back to life."""
    t = seats(("locke-2", False), ("riot", False), ("amazona", True, {"alignment": "good"}),
              ("octavius", False), ("nia", False))
    v = verdicts("last-alive", t)
    assert v["amazona"] == (True, "A") and v["locke-2"] == (True, "B")
    assert v["riot"] == (False, "D")


def test_all_good_and_evil_dead_both_lose_specials_by_their_own() -> None:
    """KMC 6.3.2 note: with every Good and Evil dead (and key bases standing)
    only Specials meeting their condition win."""
    t = seats(("locke-1", False), ("riot", False), ("nagato", False), ("elmi", True), ("dr-wong", True),
              ("lord-leon", True, {"esp_level": 6}))
    v = verdicts("declaration", t, declarer=3)
    assert v["locke-1"] == (False, "D") and v["riot"] == (False, "D") and v["nagato"] == (False, "D")
    assert v["elmi"] == (True, "A")       # 3 of 5 others dead
    assert v["dr-wong"] == (True, "A")    # 3 of 6 dead
    assert v["lord-leon"] == (False, "C")  # Elmi lives at level 6


@pytest.mark.parametrize(("lockes", "good_wins", "marian_wins"), [
    ((("locke-1", False),), True, False),                  # ex. 1 (and Good still wins by other means)
    ((("raiza", False),), True, False),                    # ex. 2: Raiza is a Locke (C3)
    ((("raiza", True), ("locke-3", False)), True, True),   # ex. 3
    ((), True, True),                                      # ex. 4: no Locke in play
])
def test_marian_and_francis_examples_of_11_8_1(lockes: tuple[Any, ...], good_wins: bool, marian_wins: bool) -> None:
    t = seats(*lockes, ("marian", True), ("francis", False), ("yamaki-1", True), ("riot", False), ("nagato", False))
    v = verdicts("last-alive", t)
    assert v["yamaki-1"][0] is good_wins
    assert v["marian"][0] is marian_wins and v["francis"][0] is marian_wins


def test_marian_loses_with_good() -> None:
    t = seats(("marian", True), ("locke-1", True), ("riot", True), ("nagato", True), ("elmi", True))
    assert verdicts("guard", t)["marian"] == (False, "C")


def test_lose_if_alive_conditions_count_every_card_of_a_name() -> None:
    """Table 2.1 + C7: Riot loses while any Grunberg, Ran or Nia lives; Nia
    while any Grunberg lives; the other Grunberg is its own person."""
    t = seats(("riot", True), ("grunberg-s", True), ("locke-1", False), ("nia", False), ("nagato", True))
    v = verdicts("last-alive", t)
    assert v["riot"] == (False, "C")          # Evil side met, but S-Grunberg lives
    assert v["nagato"] == (True, "A")
    assert v["grunberg-s"] == (True, "A")     # Locke and Nia dead, no Ran
    t2 = seats(("nia", True), ("grunberg-e", False), ("locke-1", True), ("riot", False), ("elmi", True))
    assert verdicts("last-alive", t2)["nia"] == (True, "A")
    t3 = seats(("nia", True), ("grunberg-e", True, {"alignment": "evil"}), ("locke-1", True), ("riot", False),
               ("grunberg-s", True))
    assert verdicts("guard", t3)["nia"] == (False, "C")


def test_lag_and_rema_need_each_other_alive() -> None:
    t = seats(("lag", True), ("rema", False), ("riot", False), ("nagato", False), ("elmi", True))
    v = verdicts("last-alive", t)
    assert v["lag"] == (False, "C") and v["rema"] == (True, "B")


def test_ran_needs_nia_alive_only_if_she_plays() -> None:
    t = seats(("ran-g", True), ("riot", False), ("nagato", False), ("elmi", True), ("jessica", True))
    assert verdicts("last-alive", t)["ran-g"] == (True, "A")


@pytest.mark.parametrize(("other_level", "wins"), [(4, True), (5, False), (6, False)])
def test_lord_leon_counts_current_levels_of_the_living(other_level: int, wins: bool) -> None:
    """C10: no other living character at current level 5 or more; the dead do not count."""
    t = seats(("lord-leon", True, {"esp_level": 6}), ("locke-1", True, {"esp_level": other_level}),
              ("riot", False, {"esp_level": 6}), ("nagato", False), ("jessica", True, {"esp_level": 1}))
    assert verdicts("declaration", t, declarer=0)["lord-leon"][0] is wins


@pytest.mark.parametrize(("dead", "wins"), [(2, False), (3, True), (5, True)])
def test_elmi_needs_half_the_others_dead(dead: int, wins: bool) -> None:
    """Table 2.1: half or more of the other players; 5 others, 3 is half or more."""
    others = [("locke-1", True), ("riot", True), ("nagato", True), ("nia", True), ("jessica", True)]
    others = [(c, i >= dead) for i, (c, _) in enumerate(others)]
    t = seats(("elmi", True), *others)
    assert verdicts("guard", t)["elmi"][0] is wins


@pytest.mark.parametrize(("dead_others", "wong_alive", "wins"), [(2, True, False), (3, True, True), (2, False, True)])
def test_dr_wong_counts_all_players_himself_included(dead_others: int, wong_alive: bool, wins: bool) -> None:
    """Table 2.1: half or more of all participants (6): Dr. Wong's own death counts."""
    others = [(c, i >= dead_others) for i, c in enumerate(("locke-1", "riot", "nagato", "nia", "jessica"))]
    t = seats(("dr-wong", wong_alive), *others)
    v = verdicts("guard", t)
    assert v["dr-wong"] == (wins, grade(wins, wong_alive))


@pytest.mark.parametrize(("partner", "partner_alive", "jessica_alive", "wins"), [
    ("locke-1", True, True, True),       # single man
    ("yamaki-2", True, True, False),     # married
    ("elmi", True, True, False),         # unknown sex/marital never counts (C6)
    ("nia", True, True, False),          # a woman
    ("locke-1", False, True, False),     # partner dead
    ("locke-1", True, False, False),     # Jessica dead
])
def test_jessica_survives_in_a_party_with_a_single_man(partner: str, partner_alive: bool, jessica_alive: bool,
                                                       wins: bool) -> None:
    """Table 2.1 + N24."""
    t = seats(("jessica", jessica_alive, {"party": 7}), (partner, partner_alive, {"party": 7}),
              ("riot", False), ("nagato", False), ("lag", True, {"party": 3}))
    assert verdicts("guard", t)["jessica"][0] is wins


def test_jessica_needs_the_same_party() -> None:
    t = seats(("jessica", True, {"party": 1}), ("locke-1", True, {"party": 2}), ("riot", False), ("nagato", False),
              ("lag", True))
    assert verdicts("guard", t)["jessica"] == (False, "C")


@pytest.mark.parametrize(("kw", "wins"), [
    ({"last_combat": (0, 2)}, True),
    ({"fourth_destruction_present": (0,)}, True),
    ({"last_combat": (1, 2)}, False),
    ({}, False),
])
def test_hijiri_present_at_the_finale(kw: dict[str, Any], wins: bool) -> None:
    """Table 2.1 + N24: the last combat of the game, or the fourth destruction."""
    t = seats(("hijiri-yuki", True), ("locke-1", True), ("riot", True), ("nagato", True), ("lag", True))
    assert verdicts("guard", t, **kw)["hijiri-yuki"][0] is wins


def test_king_editorial_room_author_wins_alone() -> None:
    """KMC 6.4: Yuki Hijiri alone wins; everyone else loses whatever else holds."""
    t = seats(("hijiri-yuki", True), ("locke-1", True), ("riot", False), ("nagato", False), ("elmi", False))
    v = verdicts("king-room", t, king_room_by=0)
    assert v == {"hijiri-yuki": (True, "A"), "locke-1": (False, "C"), "riot": (False, "D"), "nagato": (False, "D"),
                 "elmi": (False, "D")}
    with pytest.raises(IllegalAction):
        verdicts("king-room", t, king_room_by=1)


def test_s_strohheim_kills_a_locke() -> None:
    """KMC 11.8.2: S-Strohheim wins by killing a Locke himself; the victim's
    card is recorded (N25), so a later transformation changes nothing; a
    random Locke counts (C8); a non-Locke does not."""
    t = seats(("strohheim-s", True), ("yamaki-2", True), ("riot", True), ("nagato", True), ("elmi", True))
    kill = Kill(killer=0, killer_character="strohheim-s", victim=1, victim_character="locke-3")
    assert verdicts("guard", t, kills=(kill,))["strohheim-s"] == (True, "A")
    rnd = Kill(killer=0, killer_character="strohheim-s", victim=None, victim_character="locke-2")
    assert verdicts("guard", t, kills=(rnd,))["strohheim-s"] == (True, "A")
    other = Kill(killer=0, killer_character="strohheim-s", victim=2, victim_character="riot")
    assert verdicts("guard", t, kills=(other,))["strohheim-s"] == (False, "C")
    by_someone_else = Kill(killer=2, killer_character="riot", victim=1, victim_character="locke-3")
    assert verdicts("guard", t, kills=(by_someone_else,))["strohheim-s"] == (False, "C")


def test_s_strohheim_win_stays_after_his_own_transformation() -> None:
    """KMC 11.8.2 "stays won whatever happens" (N25)."""
    t = seats(("nagato", False), ("yamaki-2", True), ("riot", True), ("lag", True), ("elmi", True))
    kill = Kill(killer=0, killer_character="strohheim-s", victim=None, victim_character="raiza")
    got = judge(components(), EndFacts("guard", t, kills=(kill,)))
    assert got[0].won and got[0].grade == "B" and "locked" in got[0].code
    # Killing as someone else wins nothing for the S-Strohheim card he holds now.
    t2 = seats(("strohheim-s", True), ("yamaki-2", True), ("riot", True), ("lag", True), ("elmi", True))
    k2 = Kill(killer=0, killer_character="nagato", victim=None, victim_character="raiza")
    assert not judge(components(), EndFacts("guard", t2, kills=(k2,)))[0].won


def test_verdicts_encode_and_explain() -> None:
    t = seats(("locke-1", True), ("riot", False), ("nagato", False), ("elmi", True), ("jessica", True))
    got = judge(components(), EndFacts("last-alive", t))
    assert [v.seat for v in got] == [0, 1, 2, 3, 4]
    assert got[0].code == "good:no-evil-alive+personal:none"
    assert "Locke" in got[0].reason
    encode(got)


def test_bad_facts_are_refused() -> None:
    c = components()
    ok = seats(("locke-1", True), ("riot", False), ("nagato", False), ("elmi", True), ("jessica", True))
    with pytest.raises(IllegalAction):   # a Locke cannot be Evil
        judge(c, EndFacts("guard", (SeatFacts(0, "locke-1", "evil", True, 6),) + ok[1:]))
    with pytest.raises(IllegalAction):   # an E/G may be Good, Riot may not
        judge(c, EndFacts("guard", ok[:1] + (SeatFacts(1, "riot", "good", False, 6),) + ok[2:]))
    with pytest.raises(IllegalAction):
        judge(c, EndFacts("nova", ok, key_bases_destroyed=4))   # someone alive after Nova
    with pytest.raises(IllegalAction):
        judge(c, EndFacts("key-bases", ok, key_bases_destroyed=3))
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("declaration", ok))                   # no declarer
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("guard", ok, declarer=0))
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("moon", ok))  # type: ignore[arg-type]
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("guard", ok[1:]))                     # seats not numbered from 0
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("guard", ok, last_combat=(9,)))
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("guard", ok, kills=(Kill(0, "locke-1", 0, "riot"),)))
    with pytest.raises(MalformedAction):
        judge(c, EndFacts("guard", ok, key_bases_destroyed=5))


# ---------------------------------------------------------------- overrides


def test_overrides_of_11_1_3() -> None:
    c = components()
    elmi = seats(("elmi", True), ("locke-1", False), ("riot", False), ("nagato", False), ("nia", True),
                 ("jessica", True))
    assert refusal_override(c, elmi, (), 0) == "elmi"
    assert refusal_override(c, elmi, (), 4) is None   # Nia has no override
    wong = seats(("dr-wong", True), ("locke-1", False), ("riot", False), ("nagato", False), ("nia", True),
                 ("jessica", True))
    assert refusal_override(c, wong, (), 0) == "dr-wong"
    wong_short = seats(("dr-wong", True), ("locke-1", False), ("riot", False), ("nagato", True), ("nia", True),
                       ("jessica", True), ("lag", True))
    assert refusal_override(c, wong_short, (), 0) is None   # 2 of 7
    stro = seats(("strohheim-s", True), ("locke-1", False), ("riot", True), ("nagato", True), ("nia", True))
    unseen = Kill(0, "strohheim-s", 1, "locke-1", killer_saw_card=False)
    seen = Kill(0, "strohheim-s", 1, "locke-1", killer_saw_card=True)
    assert refusal_override(c, stro, (unseen,), 0) is None   # he must have seen the card
    assert refusal_override(c, stro, (seen,), 0) == "strohheim-s"


def test_lord_leon_override_needs_it_plain_n22() -> None:
    c = components()
    base = [("lord-leon", True, {"esp_level": 6}), ("locke-1", False, {"esp_level": 6})]
    shown = seats(*base, ("riot", True, {"esp_level": 4, "seen_by": (0,)}),
                  ("nia", True, {"esp_level": 4, "face_up": True}),
                  ("jessica", True, {"esp_level": 1, "level_publicly_at_most_4": True}))
    assert refusal_override(c, shown, (), 0) == "lord-leon"
    hidden = seats(*base, ("riot", True, {"esp_level": 4, "seen_by": (3,)}),
                   ("nia", True, {"esp_level": 4, "face_up": True}), ("jessica", True, {"esp_level": 1}))
    assert refusal_override(c, hidden, (), 0) is None
    too_high = seats(*base, ("riot", True, {"esp_level": 5, "face_up": True}),
                     ("nia", True, {"esp_level": 4, "face_up": True}), ("jessica", True, {"esp_level": 1,
                                                                                        "face_up": True}))
    assert refusal_override(c, too_high, (), 0) is None
    dead = seats(("lord-leon", False), ("riot", True))
    with pytest.raises(IllegalAction):
        refusal_override(c, dead, (), 0)


# ---------------------------------------------------------------- properties

CHARS = [ch.id for ch in components().characters]


@st.composite
def random_end(draw: st.DrawFn) -> EndFacts:
    n = draw(st.integers(5, 10))
    chars = draw(st.lists(st.sampled_from(CHARS), min_size=n, max_size=n, unique=True))
    table = []
    for i, ch in enumerate(chars):
        attr = components().character(ch).attribute
        align = draw(st.sampled_from(["evil", "good"])) if attr == "evil-good" else ALIGN[attr]
        table.append(SeatFacts(i, ch, align, draw(st.booleans()), draw(st.integers(0, 7)),  # type: ignore[arg-type]
                               party=draw(st.sampled_from([None, 1, 2]))))
    kb = draw(st.integers(0, 4))
    return EndFacts("guard", tuple(table), key_bases_destroyed=kb,
                    last_combat=tuple(draw(st.lists(st.integers(0, n - 1), max_size=3))))


@given(random_end())
def test_good_and_evil_never_both_win_and_grades_follow(facts: EndFacts) -> None:
    """KMC 6.3.2: the Good and Evil conditions exclude each other; every grade
    is KMC 6.4's function of (won, alive)."""
    got = judge(components(), facts)
    assert len(got) == len(facts.seats)
    sides = {(facts.seats[v.seat].alignment, v.alignment_met) for v in got}
    assert not ({("good", True), ("evil", True)} <= sides)
    for v in got:
        assert v.grade == grade(v.won, facts.seats[v.seat].alive)
        assert v.won == (v.alignment_met and v.personal_met)
