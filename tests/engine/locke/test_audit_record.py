"""Every claim of a Locke game can be judged from the public record alone (issue 12 item 4,
issue 13 item 7): what a networked table's end-of-game audit will rely on.

A trusted local table judges each claim at once from the truth it holds; a networked table
will judge it when the cards it is about are opened. So along a whole game we collect every
card the public state ever showed (``open_cards``; handles are never reused) and require
that, after the final reveal, no claim is left that nobody could judge. Rulings N171-N173.
"""

from __future__ import annotations

import pytest

from engine.core.claims import unjudged_claims
from tests.engine.locke.flow_helpers import bot_table


@pytest.mark.parametrize("players", range(5, 11))
def test_every_claim_is_judged_from_what_the_table_saw(players: int) -> None:
    table = bot_table(players, 7)
    seen: dict[int, str] = {}
    steps = 0
    while table.pending is not None and steps < 400_000:
        table.step()
        steps += 1
        for handle, card in table.state.open_cards:
            seen.setdefault(handle, card)
    assert table.state.phase == "over"
    left = unjudged_claims(table.state.claims, seen.get)
    assert left == (), [(c.what, c.seat, c.rule) for c in left[:5]]
    assert len(table.state.claims) > 50  # a real game makes plenty of claims


@pytest.mark.slow
@pytest.mark.xdist_group("locke300")
def test_a_played_disintegration_is_judged_from_the_final_record() -> None:
    """KMC 2.2.2 (N180-N183): in the 300 random-bot games every claim a disintegration made (the
    power held, the attacker's level) and every broken-or-holding jammer or field (N184) of a
    character card is about a card the final reveal opens, so it is judged from the public record
    alone. A jammer or field *card*'s claims are judged when it is shown at its break (N201,
    ``cb_shown``; a spent card is shuffled back later and loses its handle's identity), or, while
    it is still held face down at the end, from the final reveal: those are checked here too, and
    so is the kind claim of every until-broken card (jammer, field, E-suit, P-suit, Nike, N201)
    still held at the end, which the final reveal judges."""
    from engine.locke.combat import claims as cc
    from engine.locke.combat.kept import FACE_DOWN
    from tests.engine.locke.flow_helpers import game
    from tests.engine.locke.three_hundred import played_games

    checked = suits = 0
    for played in played_games():
        state = played.table.state
        held = {h for p in state.seats for h in p.kept + p.shown}
        ours = [c for c in state.claims if (c.rule in ("locke.2.2.2", "locke.10.7.3") or c.what == cc.BROKEN)
                and (c.what != cc.BROKEN or c.value[1] != "planet" or c.about[0] in held)]
        kinds = [c for c in state.claims if c.what == cc.PLANET and c.value in FACE_DOWN and c.about[0] in held]
        suits += sum(1 for c in kinds if c.value in ("energy-suit", "nike"))
        ours += kinds
        if not ours:
            continue
        opened = dict(state.open_cards)
        assert unjudged_claims(tuple(ours), opened.get) == (), (played.players, played.seed)
        assert all(game().claim_holds(c, tuple(opened[h] for h in c.about)) for c in ours)
        checked += len(ours)
    assert checked > 0 and suits > 0
