"""The Locke log's filters: since our last decision (the summary), ours, the combats, everything.

Why: a Locke game logs thousands of lines, most of them other seats' routine
("No declaration", "Do nothing", dice). The summary a player needs before
deciding is what happened since their last decision without that routine;
and the issue asks for a log one can filter (mine, combat, all). Each log
source of the scene gets tags when it is added (:func:`tags_of`); the side
panel draws the entries a filter keeps (:func:`draw_entries`, in the style
of client/table/log_panel.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from client import theme
from client.locke.events import EVENT_ARGS
from client.table.log import LogEntry
from client.table.log_panel import draw_proof_tag
from client.fonts import font
from client.text import line_height, render, wrap
from engine.core.pending import CellsOpened
from engine.locke.actions import Declare, Nop

#: The filters, in the order of their buttons (catalogue keys ``lk_log_<filter>``).
FILTERS = ("since", "mine", "combat", "all")


def tags_of(action: Any, events: Sequence[Sequence[Any]], me: int, in_combat: bool) -> frozenset[str]:
    """What a logged input (and the public events it caused) is about: "mine", "combat", "quiet"."""
    tags: set[str] = set()
    seat = getattr(action, "seat", -1)
    if seat == me >= 0:  # a seat-less view (me -1) has nothing of its own; the table's inputs are seat -1 too
        tags.add("mine")
    for entry in events:
        types = EVENT_ARGS.get(str(entry[0]), "")
        if me >= 0 and any(t in "sS" and i + 1 < len(entry) and entry[i + 1] == me for i, t in enumerate(types)):
            tags.add("mine")
        if str(entry[0]).startswith(("cb-", "combat")):
            tags.add("combat")
    kind = str(getattr(action, "KIND", ""))
    if in_combat or kind.startswith("locke.cb."):
        tags.add("combat")
    if seat != me and not events and (isinstance(action, Nop) or (isinstance(action, Declare) and not action.declare)):
        tags.add("quiet")
    if isinstance(action, CellsOpened) and not any(action.contents) and not events:
        tags.add("quiet")  # a hidden ambush looked for and not there
    return frozenset(tags)


def keeps(mode: str, tags: frozenset[str], index: int, mark: int) -> bool:
    """Whether filter ``mode`` shows a source with ``tags`` at ``index`` (``mark``: our last decision)."""
    if mode == "since":
        return index >= mark and "quiet" not in tags
    if mode in ("mine", "combat"):
        return mode in tags
    return True


def draw_entries(surface: pygame.Surface, rect: pygame.Rect, entries: Sequence[LogEntry], scroll: int, lang: str,
                 size: int = 13) -> int:
    """The newest entries that fit ``rect``, scrolled back by ``scroll`` (three lines a step).
    Returns where the last line drawn ends: inside ``rect``, a line is never cut at the bottom
    (a glyph is a little taller than the line step)."""
    step = line_height(size)
    glyph = font(size).get_linesize()
    lines: list[tuple[str, theme.Colour, str, bool]] = []
    for entry in entries[-300:]:
        colour = theme.ACCENT if entry.turn_marker else theme.TEXT
        for j, line in enumerate(wrap(entry.text, size, rect.width - 60, entry.turn_marker)):
            lines.append((line, colour, entry.proof if j == 0 else "", entry.turn_marker))
    fit = max(1, (rect.height - max(0, glyph - step)) // step)
    end = max(0, len(lines) - min(scroll * 3, max(0, len(lines) - fit)))
    y = rect.top
    clip = surface.get_clip()
    surface.set_clip(rect)
    for line, colour, proof, bold in lines[max(0, end - fit):end]:
        surface.blit(render(line, size, colour, bold), (rect.left, y))
        if proof:
            draw_proof_tag(surface, rect.right, y + 2, step - 4, proof, lang)
        y += step
    surface.set_clip(clip)
    return y - step + glyph if y > rect.top else rect.top
