"""The independent Locke judge (net/games/locke/judge.py): one test per rule, each citing its
source (KMC = a KMC rulebook section as docs/rules/locke.md retells it; rulings =
docs/rules/locke-rulings.md), and its use by tools.verify and tools.match."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from engine.core.game import Outcome, SeatResult
from engine.locke.state import NO_SEAT, LockeState, Seat
from net import verifier
from net.games import game_named
from net.games.locke import components
from net.games.locke.judge import Judged, disagreements, judge, level_now
from net.local_table import LocalTable
from tools import match

LOCKE = game_named("locke")


def final(cards: list[str], *, dead: tuple[int, ...] = (), ending: str = "declaration", by: int = NO_SEAT,
          key_bases: int = 0, last_combat: tuple[int, ...] = (), present: tuple[int, ...] = (),
          **seat_fields: dict[int, Any]) -> LockeState:
    """A finished game's state with every character card open: seat i holds ``cards[i]``
    (handle 100 + i); ``seat_fields`` name a Seat field and map seats to its value."""
    seats = []
    for i in range(len(cards)):
        extra = {name: values[i] for name, values in seat_fields.items() if i in values}
        seats.append(Seat(character=100 + i, alive=i not in dead, **extra))
    kill_log = tuple((i, 100 + i, v, 100 + v, "") for i, p in enumerate(seats) for v in p.kills)
    return LockeState(n=len(cards), queue=(), seats=tuple(seats), phase="over", ending=ending, ended_by=by,
                      key_bases_destroyed=key_bases, last_combat=last_combat, present=present,
                      open_cards=tuple((100 + i, c) for i, c in enumerate(cards)), kill_log=kill_log)


def grades(state: LockeState) -> list[str]:
    return [j.grade for j in judge(components(), state)]


def test_good_wins_with_no_evil_alive_and_a_good_alive_kmc_6_3_2() -> None:
    # KMC 6.3.2 (Good): no living Evil; KMC 6.4 grades A alive, B dead, C/D losers
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "lord-leon"], dead=(1, 2, 3, 4))
    assert grades(state) == ["A", "B", "D", "D", "D"]


def test_good_loses_while_an_evil_lives_and_evil_wins_with_no_good_alive_kmc_6_3_2() -> None:
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "cornelia"], dead=(1,))
    assert grades(state)[:3] == ["C", "D", "C"]
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "cornelia"], dead=(0, 1, 3))
    assert grades(state) == ["D", "D", "A", "B", "A"]  # E/G Cornelia is Evil unless converted


def test_a_converted_e_g_counts_as_good_kmc_6_3_2() -> None:
    state = final(["locke-1", "cornelia", "nagato", "octavius", "elmi"], dead=(0, 2, 3),
                  converted={1: True})
    assert grades(state)[:4] == ["B", "A", "D", "D"]  # dead Locke wins too: a Good lives, no Evil


def test_four_key_bases_win_for_good_even_dead_and_fail_evil_ruling_n23() -> None:
    # KMC 6.4 / ch. 4 Nova, ruling N23: every Good wins (B when dead), Evil loses
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "strohheim-e"], dead=(0, 1, 2, 3, 4),
                  ending="nova", key_bases=4)
    assert grades(state) == ["B", "B", "D", "D", "D"]
    # three fell, a key base stands and no Good lives: Good fails, Evil wins (KMC 6.3.2)
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "strohheim-e"], dead=(0, 1), key_bases=3)
    assert grades(state) == ["D", "D", "A", "A", "A"]


def test_with_every_good_and_evil_dead_only_specials_meeting_their_own_condition_win_kmc_6_3_2() -> None:
    state = final(["locke-1", "nagato", "dr-wong", "jessica", "octavius"], dead=(0, 1, 3, 4), ending="last-alive")
    assert grades(state) == ["D", "D", "A", "D", "D"]  # Dr. Wong: 4 of 5 dead


def test_elmi_counts_the_others_and_dr_wong_everyone_ruling_c11() -> None:
    # 6 seats, 3 dead among the other five of Elmi: 3/5 >= 1/2; Dr. Wong alive: 3/6 >= 1/2
    state = final(["elmi", "dr-wong", "locke-1", "nagato", "octavius", "yamaki-1"], dead=(2, 3, 4))
    assert grades(state)[:2] == ["A", "A"]
    # 2 dead of 6: Elmi 2/5 < 1/2 loses, Dr. Wong 2/6 < 1/2 loses
    state = final(["elmi", "dr-wong", "locke-1", "nagato", "octavius", "yamaki-1"], dead=(2, 3))
    assert grades(state)[:2] == ["C", "C"]
    # Elmi dead herself: 2 of the other 5 dead still loses for her; Dr. Wong counts her: 3/6 wins
    state = final(["elmi", "dr-wong", "locke-1", "nagato", "octavius", "yamaki-1"], dead=(0, 2, 3))
    assert grades(state)[:2] == ["D", "A"]


def test_francis_loses_only_with_a_locke_in_play_and_every_locke_dead_rulings_c3_c9() -> None:
    cast = ["francis", "locke-2", "nagato", "octavius", "elmi"]
    assert grades(final(cast, dead=(2, 3)))[0] == "A"
    assert grades(final(cast, dead=(1, 2, 3)))[0] == "C"
    # Raiza counts as a Locke (C3)
    assert grades(final(["francis", "raiza", "nagato", "octavius", "elmi"], dead=(1, 2, 3)))[0] == "C"
    # no Locke in play: Francis does not lose on this account (C9)
    assert grades(final(["francis", "yamaki-1", "nagato", "octavius", "elmi"], dead=(2, 3)))[0] == "A"


def test_lord_leon_reads_current_levels_ruling_c10() -> None:
    cast = ["lord-leon", "locke-1", "nagato", "octavius", "yamaki-1"]
    assert grades(final(cast, dead=(1,)))[0] == "C"  # Nagato lives at level 5
    # a public change sets Nagato's level to 3: no other living character at 5 or more
    state = final(cast, dead=(1,), mods={2: (("level", "set", 3, "game"),)})
    assert grades(state)[0] == "A"
    assert level_now(components().character("nagato"), (("level", "add", -1, "game"),), 0) == 4
    assert level_now(components().character("nagato"), (), 1) == 0  # an ESP proof (seed 002 prison 12+)


def test_name_groups_mean_every_card_of_that_name_ruling_c7() -> None:
    # Riot loses if any Grunberg, Ran or Nia lives: the Special Grunberg counts
    cast = ["riot", "grunberg-s", "locke-1", "nagato", "octavius"]
    assert grades(final(cast, dead=(2,)))[0] == "C"
    assert grades(final(cast, dead=(1, 2)))[0] == "A"
    # Ran (G) loses if Nia is dead
    assert grades(final(["ran-g", "nia", "nagato", "octavius", "elmi"], dead=(1, 2, 3)))[0] == "C"


def test_hijiri_must_be_present_at_the_finale_ruling_n24() -> None:
    cast = ["hijiri-yuki", "locke-1", "nagato", "octavius", "elmi"]
    assert grades(final(cast, dead=(2, 3)))[0] == "C"
    assert grades(final(cast, dead=(2, 3), last_combat=(0, 2)))[0] == "A"
    assert grades(final(cast, dead=(2, 3), key_bases=4, ending="key-bases", present=(0, 1)))[0] == "A"


def test_jessica_must_live_in_a_party_with_a_living_single_man_rulings_n24_c6() -> None:
    cast = ["jessica", "locke-1", "nagato", "octavius", "elmi"]
    assert grades(final(cast, dead=(2,)))[0] == "C"  # alone
    assert grades(final(cast, dead=(2,), leader={0: 1}))[0] == "A"  # rides with Locke 1, a single man
    assert grades(final(cast, dead=(2,), leader={0: 4}))[0] == "C"  # Elmi's sex is unknown (C6)
    assert grades(final(cast, dead=(0, 2), leader={0: 1}))[0] == "D"


def test_s_strohheim_wins_by_killing_a_locke_himself_ruling_n25() -> None:
    cast = ["strohheim-s", "locke-1", "nagato", "octavius", "yamaki-1"]
    assert grades(final(cast, dead=(1,)))[0] == "C"
    assert grades(final(cast, dead=(1,), kills={0: (1,)}))[0] == "A"
    assert grades(final(cast, dead=(2,), kills={0: (2,)}))[0] == "C"  # Nagato is no Locke


def test_s_strohheim_kills_stay_won_and_a_random_locke_counts_kmc_11_8_2_rulings_c8_n25() -> None:
    cast = ["strohheim-s", "locke-1", "nagato", "octavius", "yamaki-1"]
    state = final(cast)
    random_locke = state._replace(kill_log=((0, 100, NO_SEAT, NO_SEAT, "locke-2"),))
    assert grades(random_locke)[0] == "A"
    # he killed Locke 1 as S-Strohheim, then became Nagato (card 200, a former character now open)
    later = final(["nagato", "locke-1", "octavius", "yamaki-1", "elmi"], dead=(1,))
    later = later._replace(kill_log=((0, 200, 1, 101, ""),), open_cards=later.open_cards + ((200, "strohheim-s"),))
    assert grades(later)[0] == "A"
    # killed as Nagato: no win for the S-Strohheim he became afterwards
    swapped = final(cast, dead=(1,))._replace(kill_log=((0, 200, 1, 101, ""),),
                                              open_cards=final(cast).open_cards + ((200, "nagato"),))
    assert grades(swapped)[0] == "C"


def test_the_king_editorial_room_wins_for_its_destroyer_alone_kmc_6_4() -> None:
    state = final(["hijiri-yuki", "locke-1", "nagato", "octavius", "elmi"], dead=(2, 3), ending="king-room", by=0)
    assert grades(state) == ["A", "C", "D", "D", "C"]


def test_an_accepted_declaration_wins_nothing_by_itself_ruling_n23() -> None:
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "elmi"], ending="declaration", by=0)
    assert grades(state)[:2] == ["C", "C"]


def test_the_judge_needs_the_final_reveal_and_names_what_it_does_not_know() -> None:
    state = final(["locke-1", "yamaki-1", "nagato", "octavius", "elmi"])
    hidden = state._replace(open_cards=state.open_cards[1:])
    with pytest.raises(ValueError, match="final reveal"):
        judge(components(), hidden)


# --- against the engine ---------------------------------------------------------------------------


def _finished(seats: int, seed: int, bot: str = "random") -> LocalTable:
    setup = LOCKE.local(LOCKE.local_record(seats, None, None), None)
    agents = [LOCKE.bot(bot, random.Random(f"{seed}/bot/{i}")) for i in range(seats)]
    table = LocalTable(setup.game, setup.state, setup.knowledge, agents, seed, record_hashes=False)
    table.run(300_000)
    return table


@pytest.mark.parametrize("seats,seed", [(5, 1), (7, 2), (10, 3)])
def test_the_judge_agrees_with_the_engine_on_seeded_games(seats: int, seed: int) -> None:
    table = _finished(seats, seed)
    assert table.outcome() is not None
    assert disagreements(table.game, table.state) == []


def test_a_disagreement_names_the_seat_and_both_verdicts() -> None:
    table = _finished(5, 1)
    outcome = table.outcome()
    assert outcome is not None
    flipped = [SeatResult.graded(r.seat, won=not r.won, alive=r.grade in ("A", "C"), reason=r.reason)
               for r in outcome.seats]
    wrong = table.state._replace(result=Outcome.judged(outcome.reason, flipped))
    problems = disagreements(table.game, wrong)
    assert len(problems) == 5 and problems[0].startswith("seat 0: the engine says")


def test_tools_verify_runs_the_judge_on_a_locke_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "locke.ft"
    assert match.main(["locke", "--seats", "5", "--seed", "1", "--json", "--save", str(record)]) == 0
    from net.transcript import load_raw

    data = load_raw(record)
    agreed = verifier.verify(data)
    assert agreed.ok and agreed.judged and "independent judge agrees" in str(agreed)
    lying = dataclasses.replace(LOCKE, judge=lambda game, state: ["seat 0: the engine says won A, the judge says lost C"])
    monkeypatch.setattr(verifier, "game_for_rules", lambda rules_id: lying)
    verdict = verifier.verify(data)
    assert not verdict.ok and verdict.reason == "judge" and "seat 0" in verdict.detail


def test_judged_results_are_plain_data() -> None:
    j = judge(components(), final(["locke-1", "yamaki-1", "nagato", "octavius", "elmi"]))[0]
    assert isinstance(j, Judged) and j.reason.startswith("locke-1 (good)")
