"""``python -m tools.screenshot SCENE --out FILE.png``: render a scene headlessly.

Scenes: ``rider`` (a mid-game Rider table), ``locke`` (a mid-game local Super
Human Locke table: ``--seats`` 5-10, ``--moment`` planet, base or combat),
``lobby``, ``end``, ``host`` (the
lobby hosting a table on 127.0.0.1, showing its invite code), ``net`` (a
mid-game networked table against an in-process bot peer over TCP on
127.0.0.1, through the real peer driver and session), ``replay`` (a saved
record on its game's table in the replay viewer: ``--transcript F``,
``--step N``, ``--seat S``), ``watch`` (a lobby watching, without a seat, two in-process
bot peers play Rider over TCP on 127.0.0.1: the watcher's table, the public view). Used for
visual review and documentation; runs without a display (SDL dummy driver).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("scene", choices=("rider", "locke", "lobby", "end", "host", "net", "replay", "watch"))
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--seats", type=int, default=5, help="(locke) seats at the table, 5-10")
    parser.add_argument("--moment", choices=("planet", "base", "combat"), default="planet",
                        help="(locke) what the table shows: a planet-phase turn, the base phase, a combat")
    parser.add_argument("--hover", action="store_true", help="(rider) show the card preview of a hand card")
    parser.add_argument("--transcript", help="(replay) a saved record: a networked transcript or a local record")
    parser.add_argument("--step", type=int, help="(replay) the position shown, in inputs (default: the last)")
    parser.add_argument("--seat", type=int, default=1, help="(replay) whose side of the table, counted from 1")
    args = parser.parse_args(argv)
    if args.scene == "replay" and not args.transcript:
        print("replay needs --transcript FILE (a record saved by the client or by tools.match --save)", file=sys.stderr)
        return 2
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"--size must look like 1280x800, not {args.size!r}", file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    from twisted.internet.task import Clock

    from client.app import App
    from client.lobby import LobbyScene
    from client.settings import Settings

    clock = Clock()
    reactor: Any = None
    if args.scene in ("host", "net", "watch"):
        from twisted.internet import reactor as the_reactor

        reactor = the_reactor
        app = App((w, h), clock=reactor, lang=args.lang)
    else:
        app = App((w, h), clock=clock, lang=args.lang)
    if args.scene == "locke" and not 5 <= args.seats <= 10:
        print(f"--seats must be 5 to 10 for Locke, not {args.seats}", file=sys.stderr)
        return 2
    if args.scene == "lobby":
        app.switch(LobbyScene(app, Settings(lang=args.lang)))
    elif args.scene == "replay":
        from client.table.replay import open_replay
        from net.replay import ReplayError
        from net.transcript import TranscriptError, load_raw

        try:
            open_replay(app, load_raw(args.transcript), position=args.step, me=max(0, args.seat - 1))
        except (ReplayError, TranscriptError, OSError, ValueError) as exc:
            print(f"cannot replay {args.transcript}: {exc}", file=sys.stderr)
            return 2
    elif args.scene == "locke":
        from client.locke.demo import play_to_moment

        play_to_moment(app, clock, seats=args.seats, seed=args.seed, moment=args.moment)
    elif args.scene == "host":
        lobby = LobbyScene(app, Settings(lang=args.lang), lan=False, host_interface="127.0.0.1")
        app.switch(lobby)
        lobby._host()
        for _ in range(50):
            reactor.iterate(0.002)
            app.tick()
    elif args.scene == "watch":
        from client.rider.demo import watched_midgame

        watched_midgame(app, reactor, seed=args.seed)
    elif args.scene == "net":
        from client.rider.demo import play_networked_to_midgame

        scene, _remote = play_networked_to_midgame(app, reactor, seed=args.seed)
        if args.hover:
            slots = scene.hand_slots(scene.me)
            if slots:
                pos = slots[len(slots) // 2].center
                app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    else:
        from client.rider.demo import play_to_midgame

        scene = play_to_midgame(app, clock, seed=args.seed)
        if args.scene == "end":
            from client.rider.play import end_words
            from client.table.end_scene import show_end

            while not scene.session.over:
                if scene.legal:
                    scene.session.submit(scene.legal[0])
                    scene.refresh()
                clock.advance(1.0)
                app.tick()
            scene.anims.clear()
            show_end(app, scene, scene.session, words=end_words(scene.session))
        elif args.hover:
            slots = scene.hand_slots(scene.me)
            if slots:
                pos = slots[len(slots) // 2].center
                app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.render()
    pygame.image.save(app.screen, args.out)
    print(f"wrote {args.out} ({w}x{h}, {args.scene}, {args.lang})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
