"""The opponent's hand is never drawn face up.

Two checks over a whole game (both seats played by bots, the local seat's
moves still submitted through the session): every card face the renderer is
asked for is one the local seat may know at that moment, and the pixels of
each opponent hand slot are exactly the card back.
"""

from __future__ import annotations

import itertools
import random

import pygame

from client.rider.play import start_local_game
from client.settings import Settings
from net.bots import GreedyBot
from net.games.rider.evaluation import rider_score
from tests.client.conftest import knowable


def test_opponent_hand_is_only_ever_backs(app, clock):
    scene = start_local_game(app, Settings(), on_leave=lambda: None, seed=21)
    session = scene.session
    asked: list[str] = []
    real_face = scene.art.face

    def spy(card_id, size, lang):
        asked.append(card_id)
        return real_face(card_id, size, lang)

    scene.art.face = spy  # instrument the renderer; it still renders for real
    me = GreedyBot(random.Random(5), rider_score)
    checked_slots = 0
    frames = 0
    opp_known_to_me_ever = 0
    seen: set[str] = set()  # once public, a card stays known (a destroyed card flying to a pile)
    for _ in range(6000):
        if session.over:
            break
        if scene.legal:
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
        clock.advance(0.25)
        app.tick()
        seen |= knowable(scene)
        asked.clear()
        scene.draw(app.screen)
        frames += 1
        allowed = seen
        assert set(asked) <= allowed, f"drew faces the local seat cannot know: {set(asked) - allowed}"
        # the truth of the opponent's hand (the trusted table knows it; the scene must not show it)
        opp_hand = [session.table.truth.get(h) for h in session.state.players[scene.opp].hand]
        opp_known_to_me_ever += sum(1 for c in opp_hand if c and c not in allowed)
        if not scene.anims.items:
            slots = scene.hand_slots(scene.opp)
            if all(b.left >= a.right for a, b in itertools.pairwise(slots)):
                for rect in slots:
                    inner = rect.inflate(-6, -6)
                    expected = scene._felt(app.screen.get_size()).subsurface(rect).copy()
                    expected.blit(scene.art.back(rect.size), (0, 0))
                    back = expected.subsurface(inner.move(-rect.left, -rect.top))
                    drawn = app.screen.subsurface(inner)
                    assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(back, "RGB")
                    checked_slots += 1
    assert session.over, "the game should finish"
    assert frames > 30 and checked_slots > 30
    assert opp_known_to_me_ever > 0  # the opponent did hold cards the local seat could not know
