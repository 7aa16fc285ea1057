"""The driver's progress reports as structured events with stable ids.

A :class:`Progress` names what happened (``id``, from :data:`TEMPLATES`),
carries the facts as plain fields (``seat``/``seats`` are indices counted
from 0, names, addresses; :func:`progress` adds ``seat_n``, the number a
person reads, see ``net.seats``) and the English line ``tools.peer`` prints. A user interface shows its own
words for the id and fields (the client translates them); the English text
is for logs and as a fallback for an id it does not know. Ids are stable:
add new ones, never rename or reuse one.

``host=True`` says that ``who`` is the host (a window names it in its own words) and
``code`` that ``where`` is an online join's wormhole code (the English ``where`` reads
"wormhole code <code>").

Some fields are English text from elsewhere (a session event, a refusal
reason, what the table waits for); they are marked ``*_text`` so a
translator knows they come as they are. Such texts are recorded counting
seats from 0; :func:`progress` renumbers them for people (``net.seats.for_people``)
once, so the fields and the English line both count from 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from net.seats import for_people, seat_number

#: id -> English template (``str.format`` with the event's fields).
TEMPLATES: Mapping[str, str] = {
    "hosting": "hosting {game} for {seats} seats on {host}:{port} (your key {key}); waiting for {waiting} player(s)",
    "joining": "joining the table at {where} (host key {key})",
    "joining_listen": "joining the table at {where} (host key {key}); accepting direct links on {host}:{port}",
    "link": "peer {peer} is {status}",
    "link_seat": "peer {peer} (seat {seat_n}) is {status}",
    "refused": "refused {peer}: {reason_text}",
    "seat_taken": "{who} takes seat {seat_n} (of {size} seats; seat 1 is the host)",
    "seated": "seated as seat {seat_n}; waiting for the host to start game {game}",
    "table_roster": "the host's table has {taken} of {size} seats taken; waiting for {waiting} more player(s)",
    "seat_freed": "{who} left before the start: seat {seat_n} is free again; waiting for {waiting} player(s)",
    "host_lost": "the link to the host is down; waiting for it to come back (the table is kept until the start)",
    "start_held": "every seat is taken, but the link to {who} is down: the game starts when they are back, or "
                  "their seat is freed for someone else after {seconds} s",
    "table_full_held": "every seat of the host's table is taken; the game starts once every player is connected",
    "starting": "every seat is taken; starting game {game}",
    "playing": "playing game {game} as seat {seat_n}: {names_text}",
    "resuming": "resuming game {game} as seat {seat_n}: {names_text}",
    "rejected": "warning: {event_text}",
    "stalling": "waiting: {event_text}",
    "stopped": "STOPPED: {event_text}",
    "finished": "{event_text}",
    "step": "step {step}: waiting for {who_text} to {what_text}",
    "resigned": "{name} (seat {seat_n}) resigned: the game is over",
    "left_game": "{name} (seat {seat_n}) left the game; the others play on and a stand-in plays its character",
    "stepped_out": "you left the game; this program passes the others' messages on until they finish (keep it "
                   "running till then)",
    "claiming": "claiming the game as a forfeit by seat {seat_n}",
    "abandoning": "signing that the game is abandoned (nobody wins): seats {seats_text} stayed silent past the "
                  "abandonment deadline",
    "misconduct": "warning: {event_text}",
    "transcript": "transcript saved to {path} (check it with python -m tools.verify)",
    "online_code": "online invite {n}: {code} (give it to one friend only; it works once)",
    "online_joined": "a friend came in with code {code} (key {peer})",
    "online_watch_code": "online watch code {n}: {code} (for one person who wants to watch; it works once)",
    "online_withdrawn": "code {code} was withdrawn: {why_text}",
    "online_joining": "opening the wormhole with code {code} (mailbox {mailbox})",
    "online_link": "the wormhole link to {who} is {kind}",
    "online_resuming": "meeting {who} again on a code derived from our keys (nobody needs to type anything)",
    "online_problem": "{problem_text}",
    # --- watchers (net/peer/watching.py) ---
    "watch_asked": "asked the host to watch its table; waiting for its game to start",
    "watching": "watching game {game} (no seat; every message is checked): {names_text}",
    "watcher_in": "{who} is watching the table",
    "watcher_out": "{who} stopped watching",
    "watch_chat": "{who} (watching) says: {line}",
    "watch_refused": "warning: ignored {what} from {who}: {why_text}",
    # --- why a table ended before or without its game (Peer.ending; the client words these too) ---
    "end_own_table": "this code is for your own table: the host and this window use the same identity key "
                     "({key}), as two windows on one computer do. To play against yourself, start the second "
                     "window with its own profile (its own key and settings): {command}",
    "end_host_closed": "the host closed the table before the game started; ask the host for a new invite code to play",
    "end_join_failed": "cannot join the table: {problem_text}",
    "end_host_gone": "the host at {where} has been out of reach for {seconds} s before the game started, so the "
                     "table is gone. Ask the host whether the table is still open, then join again with its "
                     "invite code",
    "end_not_seated": "no seat at the table within the time allowed: the host at {where} did not seat us. Check "
                      "that the host is still running, that you used its current invite code, and that this "
                      "machine can reach that address",
    "end_not_watching": "the host at {where} did not let us watch within the time allowed. Check that the host "
                        "is still running, that you used its current invite code, and that its table lets people "
                        "watch",
    "end_cannot_play": "cannot play at this table: {problem_text}",
    "end_refused": "the host refused us: {reason_text}",
    "end_host_left": "the host left the table at step {step}, so there is nothing more to watch; its saved "
                     "game can be replayed once the players share it",
    "end_no_start": "no game started within {seconds} s",
    "end_unfinished": "the game did not finish within {seconds} s (step {step}, waiting for {who_text} to "
                      "{what_text}); the journal keeps everything: resume later",
}


@dataclasses.dataclass(frozen=True)
class Progress:
    """One progress report: a stable id, its facts, and the English line."""

    id: str
    fields: Mapping[str, Any]
    text: str

    def __str__(self) -> str:
        return self.text


def progress(event_id: str, **fields: Any) -> Progress:
    """The event ``event_id`` with ``fields``, its English text filled in (seats counted from 1)."""
    people = {k: for_people(v) if k.endswith("_text") and isinstance(v, str) else v for k, v in fields.items()}
    if isinstance(fields.get("seat"), int):
        people["seat_n"] = seat_number(fields["seat"])
    return Progress(event_id, people, TEMPLATES[event_id].format(**people))
