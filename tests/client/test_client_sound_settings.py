"""Issue 15 item 8: sound cues (your turn, a player joins or leaves, an attack,
the end) that work with SDL's dummy audio driver and without a mixer, a mute
setting, and a settings panel (animation and bot speed, fullscreen, sound,
language) whose choices apply at once and persist in the settings file."""

from __future__ import annotations

import json
import random

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App
from client.rider.demo import play_to_midgame
from client.rider.play import start_local_game
from client.settings import BOT_SPEEDS, Settings, settings_path
from client.sound import CUES, Sounds, synthesise
from engine.rider.actions import Attack
from net.games import game_named
from tests.client.conftest import click


def test_the_cues_are_synthesised_and_play_on_the_dummy_driver() -> None:
    sounds = Sounds()
    assert sounds.available, sounds.unavailable  # SDL_AUDIODRIVER=dummy still gives a mixer
    for cue, notes in CUES.items():
        assert sounds.play(cue)
        assert sounds.length(cue) == pytest.approx(sum(seconds for _, seconds in notes), abs=0.02)
    assert sounds.asked == list(CUES)
    data = synthesise(((440.0, 0.01),), 8000, 2)
    assert len(data) == 80 * 2 * 2 and data != bytes(len(data))  # 80 stereo 16-bit samples, not silence
    with pytest.raises(KeyError):
        sounds.play("fanfare")


def test_no_mixer_means_silence_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame.mixer

    def broken(*args: object, **kwargs: object) -> None:
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    sounds = Sounds()
    assert not sounds.play("turn") and not sounds.available
    assert "no audio device" in sounds.unavailable and sounds.asked == ["turn"]


def test_muted_sounds_play_nothing() -> None:
    sounds = Sounds(enabled=False)
    assert not sounds.play("end") and sounds.asked == ["end"]


def game_to_an_attack(app: App, clock: Clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    session = scene.session
    me = game_named("rider").bot("greedy", random.Random(2))
    for _ in range(4000):
        if any(isinstance(a, Attack) for a in scene.legal) or session.over:
            break
        if scene.legal:
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
        clock.advance(1.0)
        app.tick()
    return scene


def test_the_table_cues_our_turn_an_attack_and_the_end(app, clock):  # type: ignore[no-untyped-def]
    scene = game_to_an_attack(app, clock)
    asked = app.sound.asked
    assert "turn" in asked
    turns = asked.count("turn")
    attack = next(a for a in scene.legal if isinstance(a, Attack))
    scene.session.submit(attack)
    scene.refresh()
    assert app.sound.asked[-1] == "attack"
    assert app.sound.asked.count("turn") == turns  # the same turn goes on: no second "your move"
    session = scene.session
    me = game_named("rider").bot("greedy", random.Random(3))
    while not scene.ended:
        if scene.legal:
            session.submit(me.choose(session.game, session.state, session.me, session.knowledge, scene.legal))
            scene.refresh()
        clock.advance(1.0)
        app.tick()
    assert app.sound.asked[-1] == "end"


def test_a_muted_table_asks_for_cues_but_plays_none(app, clock):  # type: ignore[no-untyped-def]
    app.prefs.sound = False
    app.use_prefs(app.prefs)
    played: list[str] = []
    volumes: list[float] = []
    real = app.sound._sounds
    app.sound.available  # noqa: B018 - open the mixer
    for cue, sound in list(real.items()):
        real[cue] = type("Probe", (), {"play": lambda self, c=cue: played.append(c),
                                       "set_volume": lambda self, v: volumes.append(v)})()
    scene = play_to_midgame(app, clock, seed=11)
    assert "turn" in app.sound.asked and played == []
    app.prefs.sound = True
    app.use_prefs(app.prefs)
    scene._cued_turn = None
    scene.refresh()
    assert played == ["turn"] and volumes == [1.0]
    app.prefs.volume = "quiet"  # the volume setting reaches every cue
    app.use_prefs(app.prefs)
    scene._cued_turn = None
    scene.refresh()
    assert volumes[-1] == 0.3


def open_settings(app: App, scene):  # type: ignore[no-untyped-def]
    button = next(b for b in scene.side_buttons if b.payload == "settings")
    click(app, button.rect.center)
    assert scene.settings_panel is not None
    return scene.settings_panel


def option(panel, field: str, value: object) -> pygame.Rect:  # type: ignore[no-untyped-def]
    from client.settings_panel import ROWS

    index = [r[0] for r in ROWS].index(field)
    choice = panel.choices[index][2]
    return next(b.rect for b in choice.buttons if b.payload == value)


def test_the_settings_panel_applies_and_saves_each_choice(app, clock):  # type: ignore[no-untyped-def]
    scene = start_local_game(app, app.prefs, on_leave=lambda: None, seed=4)
    panel = open_settings(app, scene)
    app.render()
    click(app, option(panel, "sound", False).center)
    assert not app.sound.enabled
    click(app, option(panel, "bot_speed", "fast").center)
    assert scene.session.bot_delay == BOT_SPEEDS["fast"] and scene.session.system_delay < BOT_SPEEDS["fast"]
    click(app, option(panel, "anim_speed", "off").center)
    assert app.prefs.anim_factor == 0
    click(app, option(panel, "lang", "ja").center)
    assert app.lang == "ja" and panel.close_button.label == "閉じる"
    assert scene.log[0].text != "Click a card in your hand, then a highlighted column. Drag works too."
    click(app, option(panel, "fullscreen", True).center)
    assert app.prefs.fullscreen  # saved even where the desktop cannot switch (the dummy driver can)
    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert saved["sound"] is False and saved["bot_speed"] == "fast" and saved["anim_speed"] == "off"
    assert saved["lang"] == "ja" and saved["fullscreen"] is True
    loaded = Settings.load()
    assert (loaded.sound, loaded.bot_speed, loaded.anim_speed, loaded.lang) == (False, "fast", "off", "ja")
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    assert scene.settings_panel is None
    app.set_fullscreen(False)


def test_animations_off_and_fast(app, clock):  # type: ignore[no-untyped-def]
    scene = play_to_midgame(app, clock, seed=11)
    action = next(a for a in scene.legal if a.KIND == "rider.level_up")
    app.prefs.anim_speed = "off"
    scene.session.submit(action)
    assert scene.anims.items == []  # no animation at all: the new position shows at once
    scene2 = play_to_midgame(app, clock, seed=11)
    app.prefs.anim_speed = "fast"
    action = next(a for a in scene2.legal if a.KIND == "rider.level_up")
    scene2.session.submit(action)
    assert scene2.anims.items and all(a.duration <= 0.2 for a in scene2.anims.items)  # half the normal 0.3 s


def test_a_broken_or_foreign_settings_file_keeps_the_defaults(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "client.json"
    path.write_text(json.dumps({"sound": "loud", "name": ["x"], "bot_speed": "fast", "fullscreen": 1}), "utf-8")
    loaded = Settings.load(path)
    assert loaded.sound is True and loaded.name == "Player" and loaded.bot_speed == "fast"
    assert loaded.fullscreen is False  # 1 is not a bool
