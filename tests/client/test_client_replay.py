"""The replay viewer (issue 32 item 2): a saved game on its own table, input by input, with the
verifier's verdict in the bar; opened from the end screen and from a record file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from twisted.internet.task import Clock

from client.app import App
from client.table.replay import ReplayScene, open_replay
from engine.core import hash_of
from net.transcript import load_raw
from tests.client.conftest import click, key
from tools import match


def _record(tmp_path: Path, game: str, *args: str) -> Any:
    path = tmp_path / f"{game}.json"
    assert match.main([game, *args, "--save", str(path), "--json"]) == 0
    return load_raw(path)


@pytest.mark.parametrize(("game", "args"), [
    ("tiny", ("--seats", "3", "--bots", "random", "--seed", "2")),
    ("rider", ("--bots", "greedy,random", "--seed", "7")),
    ("locke", ("--seats", "5", "--bots", "random", "--seed", "3")),
])
def test_every_game_replays_on_its_own_table_forward_back_and_by_jumps(tmp_path: Path, game: str,
                                                                        args: tuple[str, ...]) -> None:
    data = _record(tmp_path, game, *args)
    app = App((1280, 800), clock=Clock(), lang="en")
    scene = open_replay(app, data)
    assert app.scene is scene and scene.position == scene.replay.steps  # opens at the end
    game_of = scene.replay.game
    last = hash_of(game_of, scene.session.state)
    assert last == hash_of(game_of, scene.replay.frames[-1].state)
    key(app, pygame.K_HOME)
    assert scene.position == 0 and hash_of(game_of, scene.inner.session.state) == hash_of(game_of, scene.replay.first)
    for _ in range(3):
        key(app, pygame.K_RIGHT)
    assert scene.position == 3 and scene.inner.session.state is scene.replay.state_at(3)
    key(app, pygame.K_LEFT)
    assert scene.position == 2 and scene.inner.session.state is scene.replay.state_at(2)
    key(app, pygame.K_PAGEDOWN)
    assert scene.position == min(12, scene.replay.steps)
    key(app, pygame.K_END)
    assert scene.position == scene.replay.steps and scene.inner.legal == []  # a replay takes no input
    app.render()
    assert "the record verifies" in scene.status_text()
    key(app, pygame.K_v)  # another seat's side of the table
    # Locke's table holds no seat in a replay: no seat is "you" there (tests/client/test_client_locke_playtest.py),
    # and V (no button either) switches nothing
    assert scene.me == (0 if game == "locke" else 1) and scene.inner.me == (-1 if game == "locke" else 1)
    assert scene.position == scene.replay.steps


def test_play_moves_on_at_the_chosen_speed_and_stops_at_the_end(tmp_path: Path) -> None:
    clock = Clock()
    data = _record(tmp_path, "tiny", "--seats", "2", "--bots", "random,random", "--seed", "5")
    app = App((960, 600), clock=clock, lang="ja")
    scene = open_replay(app, data, position=0)
    key(app, pygame.K_SPACE)
    assert scene.playing
    for _ in range(3):
        clock.advance(1.0)
        app.tick()
    assert 2 <= scene.position <= 4
    speed = next(b for b in scene.buttons if b.label.startswith("x"))
    for _ in range(4):
        click(app, speed.rect.center)
        speed = next(b for b in scene.buttons if b.label.startswith("x"))
    assert speed.label == "x25"
    for _ in range(200):
        clock.advance(0.1)
        app.tick()
    assert scene.position == scene.replay.steps and not scene.playing
    app.render()
    assert "記録は検証済み" in scene.status_text()


def test_a_tampered_record_stops_at_its_failing_input_and_says_so(tmp_path: Path) -> None:
    data = _record(tmp_path, "tiny", "--seats", "3", "--bots", "random", "--seed", "2")
    inputs = [dict(item) for item in data["inputs"]]
    inputs[4]["hash"] = bytes(32)
    app = App((1280, 800), clock=Clock(), lang="en")
    scene = open_replay(app, {**data, "inputs": inputs})
    assert scene.replay.steps == 4 and scene.position == 4
    assert "the check fails at input 4" in scene.status_text()
    app.render()


def test_the_end_screen_opens_the_replay_of_the_game_just_played_and_close_comes_back(tmp_path: Path,
                                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from client.table.end_scene import EndScene
    from client.tiny import local_session, scene_for
    from client.table.end_scene import show_end
    from net.games import game_named

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    clock = Clock()
    app = App((1280, 800), clock=clock, lang="en")
    session = local_session(app, game_named("tiny"), 3, seed=4)
    scene = scene_for(app, session, None, None)
    app.switch(scene)
    for _ in range(400):
        if session.over:
            break
        if session.legal():
            session.submit(session.legal()[0])
        clock.advance(1.0)
        app.tick()
    assert session.over
    end = show_end(app, scene, session)
    assert isinstance(end, EndScene)
    click(app, end.replay_button.rect.center)
    replay = app.scene
    assert isinstance(replay, ReplayScene) and replay.position == replay.replay.steps and end.saved
    assert replay.replay.verdict.ok
    key(app, pygame.K_ESCAPE)
    assert app.scene is end


def test_the_screenshot_tool_renders_a_replay_and_refuses_a_file_that_is_no_record(tmp_path: Path) -> None:
    from tools import screenshot

    record = tmp_path / "tiny.json"
    assert match.main(["tiny", "--seats", "3", "--bots", "random", "--seed", "2", "--save", str(record)]) == 0
    out = tmp_path / "replay.png"
    assert screenshot.main(["replay", "--transcript", str(record), "--step", "3", "--out", str(out)]) == 0
    assert pygame.image.load(str(out)).get_size() == (1280, 800)
    junk = tmp_path / "junk.json"
    junk.write_text("{}", encoding="utf-8")
    assert screenshot.main(["replay", "--transcript", str(junk), "--out", str(out)]) == 2
    assert screenshot.main(["replay", "--out", str(out)]) == 2


def test_the_lobby_lists_saved_games_and_replays_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the lobby: *Replays* lists the saved games, newest first; one opens on its table and
    Close comes back to the lobby. With none saved, it says how to save one."""
    from client.lobby import LobbyScene
    from client.settings import Settings

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = App((1280, 800), clock=Clock(), lang="en")
    lobby = LobbyScene(app, Settings(name="Ann"), lan=False, resumable=False)
    app.switch(lobby)
    click(app, lobby.replays_button.rect.center)
    assert lobby.replay_files is None and "No saved games yet" in lobby.message
    folder = tmp_path / "data" / "fairtable" / "transcripts"
    folder.mkdir(parents=True)
    assert match.main(["tiny", "--seats", "3", "--bots", "random", "--seed", "2", "--save",
                       str(folder / "game-1.ft")]) == 0
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    click(app, lobby.replays_button.rect.center)
    assert lobby.replay_files == [folder / "game-1.ft"] and [b.label for b in lobby.replay_buttons] == ["game-1"]
    app.render()
    click(app, lobby.replay_buttons[0].rect.center)
    replay = app.scene
    assert isinstance(replay, ReplayScene) and replay.replay.verdict.ok
    key(app, pygame.K_ESCAPE)
    assert app.scene.name == "lobby"


@pytest.mark.parametrize("size", [(960, 600), (1280, 800), (1920, 1080)])
@pytest.mark.parametrize(("game", "args"), [
    ("tiny", ("--seats", "3", "--bots", "random", "--seed", "2")),
    ("rider", ("--bots", "greedy,random", "--seed", "7")),
    ("locke", ("--seats", "5", "--bots", "random", "--seed", "3")),
])
def test_the_replay_controls_cover_none_of_the_tables_own(tmp_path: Path, game: str, args: tuple[str, ...],
                                                          size: tuple[int, int]) -> None:
    """Seen on a Locke replay: the control bar lay over the seat rail and the Lobby / Settings
    buttons, its panel said "Watching", and its "Seat 1's side" button changed nothing (Locke's
    replay holds no seat)."""
    data = _record(tmp_path, game, *args)
    app = App(size, clock=Clock(), lang="en")
    scene = open_replay(app, data)
    app.render()
    theirs = [*getattr(scene.inner, "side_buttons", []), *getattr(scene.inner, "buttons", [])]
    hit = [(b.label, o.label) for b in scene.buttons for o in theirs if b.rect.colliderect(o.rect)]
    assert not hit
    assert scene.panel_rect.contains(scene.buttons[-1].rect)
    if game == "locke":
        lay = scene.inner.layout()
        assert not scene.panel_rect.colliderect(lay.rail) and not scene.panel_rect.colliderect(lay.side)
        assert "V" not in [b.payload for b in scene.buttons] and scene.inner.replaying
        modes = [b.payload[1] for b in scene.inner.side_buttons if isinstance(b.payload, tuple)]
        assert modes == ["since", "combat", "all"]  # no "Mine" filter where no seat is ours
        key(app, pygame.K_v)
        assert scene.me == 0


@pytest.mark.parametrize("game", ["locke", "rider"])
def test_the_tables_own_side_buttons_work_in_a_replay(tmp_path: Path, game: str) -> None:
    """Seen: a replay shows the table's Lobby / Settings / Help buttons, and a click on them did nothing."""
    args = {"locke": ("--seats", "5", "--bots", "random", "--seed", "3"),
            "rider": ("--bots", "greedy,random", "--seed", "7")}[game]
    data = _record(tmp_path, game, *args)
    app = App((1280, 800), clock=Clock(), lang="en")
    left: list[bool] = []
    scene = open_replay(app, data, on_leave=lambda: left.append(True))
    app.render()
    side = {b.payload: b for b in scene.inner.side_buttons if isinstance(b.payload, str)}
    click(app, side["help"].rect.center)
    assert scene.inner.help is not None
    key(app, pygame.K_ESCAPE)  # closes the help, not the replay
    assert scene.inner.help is None and not left
    click(app, side["lobby"].rect.center)
    assert left == [True]
