"""``python -m tools.bench client [--json]``: client frame time, idle CPU, memory.

Figures (targets from the client issue):

- frame time of the Rider table scene drawing a full mid-game position at
  1280x800, every frame a complete redraw plus ``display.flip`` (median
  target <= 8 ms, p95 reported); the first, cache-cold frame is reported too;
- CPU used while the window sits idle (the real reactor and LoopingCall,
  nothing moving) as a percentage of one core (target <= 5%); the same for
  a networked table waiting for our move over TCP on 127.0.0.1 (the remote
  bot peer runs in the same process, so it is an upper bound);
- peak resident memory of the process (and the Python heap peak while
  drawing, from tracemalloc);
- a 10-seat local Super Human Locke table (client/locke/): the frame time of
  a mid-game combat at 1280x800 and the CPU while it waits for our decision
  (same targets), and a whole game with nine
  bots at the "fast" bot speed, our seat answered at once by clicks on its
  own controls (client/locke/demo.py): the time not spent waiting
  for us (computing plus the bots' pauses on the clock; target under 3
  minutes), our decisions, the answers Auto gave, and the median clicks per
  decision (target <= 2).

Runs headless (SDL dummy video driver), so it measures our drawing code,
not a GPU or compositor.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
import tracemalloc
from typing import Any

TARGET_MEDIAN_MS = 8.0
TARGET_IDLE_CPU = 5.0


def frame_times(frames: int) -> dict[str, Any]:
    import pygame
    from twisted.internet.task import Clock

    from client.app import App
    from client.rider.demo import play_to_midgame

    clock = Clock()
    app = App((1280, 800), clock=clock)
    scene = play_to_midgame(app, clock, seed=11)
    scene.art._faces.clear()
    scene._background = None
    start = time.perf_counter()
    scene.draw(app.screen)
    pygame.display.flip()
    first = (time.perf_counter() - start) * 1000
    # no sound while tracing: CPython 3.11's tracemalloc crashes when SDL's audio thread makes a
    # Python thread state under it (a segfault in traceback_new, seen with any audio driver)
    app.sound.enabled = False
    if pygame.mixer.get_init():
        pygame.mixer.quit()
    tracemalloc.start()
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        scene.draw(app.screen)
        pygame.display.flip()
        times.append((time.perf_counter() - t0) * 1000)
    _, heap_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    times.sort()
    return {
        "frames": frames,
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 3),
        "first_frame_ms": round(first, 2),
        "draw_heap_peak_kib": heap_peak // 1024,
    }


TARGET_LOCKE_SECONDS = 180.0
TARGET_LOCKE_CLICKS = 2.0


def _idle_on_reactor(app: Any, scene: Any, seconds: float) -> float:
    """CPU (% of one core) while the table ``scene`` waits for our decision on the real reactor,
    iterated the way ``reactor.run`` does (it is run later by :func:`idle_cpu` and cannot restart)."""
    from twisted.internet import reactor

    app.clock = reactor
    scene.session.clock = reactor
    app.start()

    def spin(wall: float) -> None:
        end = time.perf_counter() + wall
        while time.perf_counter() < end:
            reactor.runUntilCurrent()
            wait = reactor.timeout()
            reactor.doIteration(min(wait if wait is not None else 0.1, max(0.0, end - time.perf_counter())))

    spin(1.0)  # settle into idle first
    cpu0, wall0 = time.process_time(), time.perf_counter()
    spin(seconds)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    app.stop()
    scene.session.leave()
    return round(100 * cpu / wall, 2)


def locke_table(frames: int, seed: int = 1, idle_seconds: float = 3.0) -> dict[str, Any]:
    """The Locke figures of the module docstring (10 seats)."""
    import random

    import pygame
    from twisted.internet.task import Clock

    from client.app import App
    from client.locke import start_local
    from client.locke.demo import choose_by_clicks, play_to_moment
    from client.locke.scene import LockeScene
    from client.settings import Settings
    from net.games import game_named

    clock = Clock()
    app = App((1280, 800), clock=clock)
    scene = play_to_moment(app, clock, seats=10, seed=11, moment="combat")
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        scene.draw(app.screen)
        pygame.display.flip()
        times.append((time.perf_counter() - t0) * 1000)
    idle = _idle_on_reactor(app, scene, idle_seconds)
    clock = Clock()
    app = App((1280, 800), clock=clock)
    settings = Settings(name="Bench", game="locke", seats=10, bot_speed="fast", auto_answer=True)
    app.use_prefs(settings)
    opened = start_local(app, settings, game_named("locke"), on_leave=lambda: None, seed=seed)
    if not isinstance(opened, LockeScene):
        raise RuntimeError(f"the Locke UI opened {opened!r}, not a Locke table")
    scene = opened
    rng = random.Random(seed)
    clicks: list[int] = []
    start = time.perf_counter()
    while app.scene is scene and not scene.session.over:
        if scene.legal and scene._auto_call is None:
            clicks.append(choose_by_clicks(app, scene, rng.choice(scene.legal)))
            continue
        calls: list[Any] = list(clock.getDelayedCalls())
        due = [c.getTime() - clock.seconds() for c in calls]
        clock.advance(max(0.0, min(due, default=0.05)))
        app.tick()
    computing = time.perf_counter() - start
    return {
        "seats": 10,
        "frame_median_ms": round(statistics.median(times), 3),
        "frame_p95_ms": round(sorted(times)[int(len(times) * 0.95) - 1], 3),
        "idle_cpu_percent": idle,
        "game_inputs": scene.session.moves,
        "computing_s": round(computing, 1),
        "bot_pauses_s": round(clock.seconds(), 1),
        "not_waiting_for_us_s": round(computing + clock.seconds(), 1),
        "our_decisions": len(clicks),
        "auto_answers": scene.auto_answers,
        "clicks": sum(clicks),
        "median_clicks": statistics.median(clicks) if clicks else 0,
    }


def idle_cpu(seconds: float) -> dict[str, Any]:
    from twisted.internet import reactor
    from twisted.internet.task import Clock

    from client.app import App
    from client.rider.demo import play_to_midgame

    # build the position with a private clock, then run it on the real reactor
    setup_clock = Clock()
    app = App((1280, 800), clock=setup_clock)
    scene = play_to_midgame(app, setup_clock, seed=11)
    app.clock = reactor
    from client.rider.session import RiderSession

    assert isinstance(scene.session, RiderSession)
    scene.session.clock = reactor
    frames_before = app.frames_drawn
    result: dict[str, Any] = {}

    def measure() -> None:
        result["cpu0"] = time.process_time()
        result["wall0"] = time.perf_counter()
        result["frames0"] = app.frames_drawn
        reactor.callLater(seconds, finish)  # type: ignore[attr-defined,arg-type,unused-ignore]

    def finish() -> None:
        result["cpu1"] = time.process_time()
        result["wall1"] = time.perf_counter()
        result["frames1"] = app.frames_drawn
        app.stop()

    app.start()
    reactor.callLater(1.0, measure)  # type: ignore[attr-defined,arg-type,unused-ignore]  # settle into idle first
    reactor.run()  # type: ignore[attr-defined,misc,unused-ignore]
    cpu = result["cpu1"] - result["cpu0"]
    wall = result["wall1"] - result["wall0"]
    return {
        "seconds": round(wall, 2),
        "cpu_percent": round(100 * cpu / wall, 2),
        "frames_drawn_while_idle": result["frames1"] - result["frames0"],
        "frames_drawn_before": result["frames0"] - frames_before,
    }


def networked_idle_cpu(seconds: float) -> dict[str, Any]:
    """CPU while a networked table waits for our move: the client's frame loop,
    the session poll, both peers' ticks and catch-up nudges (the remote bot
    peer runs in this process too, so this is an upper bound for one peer).
    Uses the real reactor, iterated the way ``reactor.run`` does (it is run
    later by :func:`idle_cpu`, and a reactor cannot be restarted)."""
    from twisted.internet import reactor

    from client.app import App
    from client.rider.demo import play_networked_to_midgame

    app = App((1280, 800), clock=reactor)
    scene, remote = play_networked_to_midgame(app, reactor, seed=11)
    app.start()

    def spin(wall: float) -> None:
        end = time.perf_counter() + wall
        while time.perf_counter() < end:
            reactor.runUntilCurrent()
            wait = reactor.timeout()
            reactor.doIteration(min(wait if wait is not None else 0.1, max(0.0, end - time.perf_counter())))

    spin(1.0)  # settle into idle first
    frames0, cpu0, wall0 = app.frames_drawn, time.process_time(), time.perf_counter()
    spin(seconds)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    frames = app.frames_drawn - frames0
    waiting = bool(scene.legal)
    app.stop()
    from client.table.net_session import NetSession

    assert isinstance(scene.session, NetSession)
    scene.session.leave()
    remote.leave("benchmark over")
    spin(0.2)
    return {"seconds": round(wall, 2), "cpu_percent": round(100 * cpu / wall, 2), "frames_drawn_while_idle": frames,
            "waiting_for_us": waiting}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench client", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    frame = frame_times(args.frames)
    locke = locke_table(min(args.frames, 100), idle_seconds=args.idle_seconds)
    net_idle = networked_idle_cpu(args.idle_seconds)
    idle = idle_cpu(args.idle_seconds)
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report = {
        "suite": "client",
        "window": "1280x800",
        "frame": frame,
        "idle": idle,
        "networked_idle": net_idle,
        "locke": locke,
        "peak_rss_mib": round(rss_mib, 1),
        "targets": {"median_frame_ms": TARGET_MEDIAN_MS, "idle_cpu_percent": TARGET_IDLE_CPU,
                    "locke_seconds": TARGET_LOCKE_SECONDS, "locke_median_clicks": TARGET_LOCKE_CLICKS},
        "meets_targets": frame["median_ms"] <= TARGET_MEDIAN_MS and idle["cpu_percent"] <= TARGET_IDLE_CPU
        and net_idle["cpu_percent"] <= TARGET_IDLE_CPU and locke["frame_median_ms"] <= TARGET_MEDIAN_MS
        and locke["idle_cpu_percent"] <= TARGET_IDLE_CPU
        and locke["not_waiting_for_us_s"] <= TARGET_LOCKE_SECONDS and locke["median_clicks"] <= TARGET_LOCKE_CLICKS,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"frame (1280x800 mid-game, full redraw): median {frame['median_ms']} ms, p95 {frame['p95_ms']} ms "
              f"(target median <= {TARGET_MEDIAN_MS} ms); first cold frame {frame['first_frame_ms']} ms")
        print(f"idle: {idle['cpu_percent']}% of one core over {idle['seconds']} s, "
              f"{idle['frames_drawn_while_idle']} frames drawn (target <= {TARGET_IDLE_CPU}%)")
        print(f"networked table waiting for our move (both peers in this process): {net_idle['cpu_percent']}% "
              f"of one core over {net_idle['seconds']} s, {net_idle['frames_drawn_while_idle']} frames drawn "
              f"(target <= {TARGET_IDLE_CPU}%)")
        print(f"locke (10 seats, 1280x800 mid-game combat): median {locke['frame_median_ms']} ms, p95 "
              f"{locke['frame_p95_ms']} ms, idle waiting for us {locke['idle_cpu_percent']}% of one core; a whole game ({locke['game_inputs']} inputs) with nine bots at the fast "
              f"speed: {locke['not_waiting_for_us_s']} s not waiting for us ({locke['computing_s']} s computing, "
              f"{locke['bot_pauses_s']} s bot pauses; target < {TARGET_LOCKE_SECONDS:.0f} s); our decisions "
              f"{locke['our_decisions']} by {locke['clicks']} clicks (median {locke['median_clicks']} per decision, "
              f"target <= {TARGET_LOCKE_CLICKS:.0f}), {locke['auto_answers']} answered by Auto")
        print(f"memory: peak RSS {report['peak_rss_mib']} MiB; Python heap peak while drawing "
              f"{frame['draw_heap_peak_kib']} KiB")
    return 0 if report["meets_targets"] else 1


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
