"""Drawing the Rider table: fields, piles, hands, the bar, the side panel, previews.

These functions are the drawing half of
:class:`client.rider.table_scene.RiderTableScene` (its ``draw`` calls
:func:`draw`): each takes the scene and reads its state, never changing
it, so skipping a frame is always safe. What is drawn comes from the public
state plus the local seat's own knowledge only; the other seat's hand is
drawn from its count, as card backs. Prompts, controls, the why-not
notice, the log and the chat are drawn by the table layer
(client/table/prompts.py, controls.py, log_panel.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from client import theme
from client.rider.cardart import HEADER, draw_mark
from client.i18n import tr
from client.rider.badges import column_head, draw_attack_badge, draw_placed_level, may_attack
from client.rider.describe import pending_text
from client.table.controls import draw_notice, glow
from client.table.log_panel import draw_chat, draw_log
from client.table.prompts import draw_prompt
from client.table.status import ALARMS, status_colour
from client.table.words import clock_text, player_label
from client.text import ELLIPSIS, draw_text, draw_wrapped, fits, line_height, render, wrap
from client.widgets import panel
from engine.core.inputs import SealedPick
from engine.rider.actions import Attack
from engine.rider.state import COLUMNS, Column, RiderState

if TYPE_CHECKING:
    from client.rider.table_scene import RiderTableScene

def felt(scene: RiderTableScene, size: tuple[int, int]) -> pygame.Surface:
    if scene._background is not None and scene._background.get_size() == size:
        return scene._background
    surf = pygame.Surface(size)
    surf.fill(theme.BG)
    L = scene.layout
    board = L.board
    for y in range(board.height):
        t = y / max(1, board.height - 1)
        mid = 1 - abs(t - 0.5) * 2
        c = tuple(int(a + (b - a) * mid) for a, b in zip(theme.BG_FELT_DARK, theme.BG_FELT))
        pygame.draw.line(surf, c, (0, y), (board.width, y))
    for area in L.areas.values():
        for rect in area.columns:
            pygame.draw.rect(surf, (34, 70, 60), rect, border_radius=12)
            pygame.draw.rect(surf, (52, 92, 80), rect, width=1, border_radius=12)
        for rect in (area.deck, area.discard, area.lost):
            pygame.draw.rect(surf, (22, 48, 42), rect.inflate(6, 6), border_radius=8)
    pygame.draw.rect(surf, (16, 26, 30), L.bar)
    pygame.draw.line(surf, (70, 110, 96), L.bar.topleft, L.bar.topright)
    pygame.draw.line(surf, (70, 110, 96), L.bar.bottomleft, L.bar.bottomright)
    for area in L.areas.values():
        pygame.draw.rect(surf, (20, 36, 34), area.hand)
    pygame.draw.rect(surf, theme.PANEL, L.side)
    pygame.draw.line(surf, theme.PANEL_EDGE, L.side.topleft, L.side.bottomleft, 2)
    scene._background = surf
    return surf


def draw(scene: RiderTableScene, surface: pygame.Surface) -> None:
    surface.blit(felt(scene, surface.get_size()), (0, 0))
    hidden = scene.anims.hidden()
    state = scene.session.state
    for seat in (scene.opp, scene.me):
        draw_field(scene, surface, seat, state, hidden)
        draw_piles(scene, surface, seat, state, hidden)
    if scene.setup is not None:
        draw_setup_columns(scene, surface)
    draw_opp_hand(scene, surface, state, hidden)
    draw_my_hand(scene, surface, hidden)
    draw_bar(scene, surface, state)
    if not scene.layout.collapsed:
        draw_side(scene, surface, state)
    else:
        draw_strip(scene, surface, state)
    scene.anims.draw(surface, scene.now)
    if scene.drag is not None and scene.drag["pos"] != scene.drag["start"]:
        handle = scene.drag["key"][1]
        card = str(handle) if scene.drag["key"][0] == "setup_card" else dict(scene.my_hand()).get(handle)
        if card:
            img = scene.art.face(card, scene.layout.hand_card, scene.app.lang)
            surface.blit(img, img.get_rect(center=scene.drag["pos"]))
    if scene.layout.collapsed and scene.panel_open:
        rect = scene.side_rect()
        pygame.draw.rect(surface, theme.PANEL, rect)
        pygame.draw.line(surface, theme.PANEL_EDGE, rect.topleft, rect.bottomleft, 2)
        draw_side(scene, surface, state)
    if scene.notice is not None and scene.prompt is None:
        text, details, _ = scene.notice
        draw_notice(surface, scene.notice_rect(text, details), text, details)
    if scene.prompt is not None:
        draw_prompt(surface, scene.prompt, lambda card, size: scene.art.face(card, size, scene.app.lang))
    elif scene.hover_card is not None and scene.drag is None and scene.help is None and scene.settings_panel is None:
        draw_preview(scene, surface, scene.hover_card)
    if scene.help is not None:
        scene.help.draw(surface)
    if scene.settings_panel is not None:
        scene.settings_panel.draw(surface)


def draw_field(scene: RiderTableScene, surface: pygame.Surface, seat: int, state: RiderState, hidden: set[object]) -> None:
    L = scene.layout
    lang = scene.app.lang
    player = state.players[seat]
    side = "mine" if seat == scene.me else "theirs"
    targets = scene.intents.targets(scene.selected) if scene.selected is not None else set()
    sources = scene.intents.sources()
    table = scene.session.game.table
    for i, letter in enumerate(COLUMNS):
        col: Column = player.columns[i]
        area = scene.area(seat).columns[i]
        key = (side, letter)
        if key == scene.selected:
            glow(surface, area, theme.HILITE, 4)
        elif key in targets:
            glow(surface, area, theme.TARGET, 4)
        elif scene.selected is None and key in sources:
            glow(surface, area, theme.ACCENT, 2)
        attacks = may_attack(table, col)
        badge_w = 44 if attacks else 0
        draw_text(surface, column_head(letter, table, col, lang), (area.left + 10, area.top + 1), 14, theme.TEXT,
                  bold=True, max_width=area.width - 20 - badge_w)
        if attacks:
            draw_attack_badge(surface, (area.right - 10, area.top + 2), lang)
        if col.facedown is not None:
            rect = L.cascade(area, 0)
            if ("col", seat, i, 0) not in hidden:
                surface.blit(scene.art.back(rect.size), rect)
                draw_text(surface, tr(lang, "facedown"), (rect.centerx, rect.bottom - max(8, rect.h // 11)), 12,
                          theme.CARD_BACK_EDGE, anchor="midbottom", max_width=rect.width - 12)
        elif not col.cards and col.zero is None:  # (a lone Lv.0 card would sit on the placeholder)
            rect = L.cascade(area, 0)
            pygame.draw.rect(surface, (60, 100, 88), rect, width=2, border_radius=10)
            empty = "setup_drop" if scene.setup is not None and seat == scene.me else "empty_column"
            draw_wrapped(surface, tr(lang, empty), rect.inflate(-12, 0).move(0, rect.height // 2 - 12), 13,
                         theme.TEXT_DIM, centre=True)
        for idx, (cid, level) in enumerate(col.cards):
            if ("col", seat, i, idx) in hidden:
                continue
            rect = L.cascade(area, idx)
            surface.blit(scene.art.face(cid, rect.size, lang), rect)
            if table[cid].levels == (2, 3):
                # the level it was placed as, hung off the left edge so it hides nothing on the card
                header_h = int(rect.h * HEADER)
                tag = pygame.Rect(0, 0, 26, 16)
                tag.midright = (rect.left + 3, rect.top + header_h // 2)
                tag.left = max(tag.left, area.left + 2)
                draw_placed_level(surface, tag, level)
        if col.zero is not None and ("zero", seat, i) not in hidden:
            rect = L.zero_slot(area)
            surface.blit(scene.art.face(col.zero, rect.size, lang), rect)


def draw_piles(scene: RiderTableScene, surface: pygame.Surface, seat: int, state: RiderState, hidden: set[object]) -> None:
    lang = scene.app.lang
    player = state.players[seat]
    area = scene.area(seat)
    if player.deck:
        surface.blit(scene.art.back(area.deck.size), area.deck)
    else:
        pygame.draw.rect(surface, (60, 100, 88), area.deck, width=1, border_radius=8)
    pile_label(scene, surface, area.deck, tr(lang, "deck_pile"), len(player.deck), theme.TEXT)
    for pile, rect, colour in (("discard", area.discard, theme.TEXT), ("lost", area.lost, theme.BAD)):
        cards = getattr(player, pile)
        if cards and ("pile", seat, pile) not in hidden:
            surface.blit(scene.art.face(cards[-1], rect.size, lang), rect)
        elif not cards:
            pygame.draw.rect(surface, (60, 100, 88), rect, width=1, border_radius=8)
        pile_label(scene, surface, rect, tr(lang, "discard_pile" if pile == "discard" else "lost_pile"), len(cards),
                         colour)


def pile_label(scene: RiderTableScene, surface: pygame.Surface, rect: pygame.Rect, label: str, count: int, colour: theme.Colour) -> None:
    # under the card, so the top card and the label never cover each other
    tag = scene.layout.pile_label(rect)
    draw_text(surface, f"{label} {count}", tag.center, 13, colour, bold=True, anchor="center",
              max_width=tag.width - 2)


def draw_opp_hand(scene: RiderTableScene, surface: pygame.Surface, state: RiderState, hidden: set[object]) -> None:
    # Only backs, from the count: the opponent's hand is never drawn face up.
    hand = state.players[scene.opp].hand
    for rect, handle in zip(scene.hand_slots(scene.opp), hand):
        if ("hand", handle) in hidden:
            continue
        surface.blit(scene.art.back(rect.size), rect)
    lang = scene.app.lang
    who = player_label(scene.opp, scene.session.names, scene.me, lang)
    area = scene.layout.area(scene.opp).hand
    room = min(320, area.width // 3) - 24  # the backs start after this (see hand_slots)
    draw_text(surface, f"{who} · {tr(lang, 'hand')} {len(hand)}", (area.left + 14, area.centery), 15, theme.TEXT,
              bold=True, anchor="midleft", max_width=room)


def draw_setup_tray(scene: RiderTableScene, surface: pygame.Surface) -> None:
    """The Lv.1 cards to choose from, each with its battle mark large and its copies left."""
    picker = scene.setup
    assert picker is not None
    lang = scene.app.lang
    dragging = scene.drag["key"] if scene.drag is not None and scene.drag["pos"] != scene.drag["start"] else None
    for rect, card in scene.setup_slots():
        left = picker.remaining(card)
        if ("setup_card", card) == dragging and left <= 1:
            continue
        surface.blit(scene.art.face(card, rect.size, lang), rect)
        scene._mark_badge(surface, rect, card)
        if ("setup_card", card) == scene.selected:
            glow(surface, rect, theme.HILITE, 3)
        elif left > 0:
            glow(surface, rect, theme.ACCENT, 2)
        else:
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 140))
            surface.blit(shade, rect)
        tag = pygame.Rect(0, 0, 34, 18)
        tag.bottomright = (rect.right - 4, rect.bottom - 4)
        pygame.draw.rect(surface, theme.TEXT_DARK, tag, border_radius=6)
        draw_text(surface, f"×{left}", tag.center, 12, theme.TEXT, bold=True, anchor="center")
    area = scene.layout.near.hand
    draw_text(surface, tr(lang, "setup_tray"), (area.left + 14, area.top + 10), 14, theme.TEXT_DIM,
              max_width=max(60, scene.setup_slots()[0][0].left - area.left - 24) if picker.cards else None)


def mark_badge(scene: RiderTableScene, surface: pygame.Surface, rect: pygame.Rect, card: str) -> None:
    """A card's battle mark, large, on the corner of its art (what the contest plays)."""
    mark = scene.session.game.cardset.card(card).mark
    r = max(9, min(16, rect.width // 8))
    centre = (rect.right - r - 6, rect.top + int(rect.height * HEADER) + r + 4)
    pygame.draw.circle(surface, theme.TEXT_DARK, centre, r + 2)
    pygame.draw.circle(surface, (250, 246, 236), centre, r)
    draw_mark(surface, mark, centre, r * 0.8, theme.TEXT_DARK)


def draw_setup_columns(scene: RiderTableScene, surface: pygame.Surface) -> None:
    """Our columns at the set-up: the card chosen for each (face down once placed), or a drop hint."""
    picker = scene.setup
    assert picker is not None
    lang = scene.app.lang
    for i, letter in enumerate(COLUMNS):
        area = scene.area(scene.me).columns[i]
        rect = scene.layout.cascade(area, 0)
        if scene.setup_target(letter):
            glow(surface, area, theme.TARGET, 4)
        card = picker.slots[letter]
        if card is None:
            continue
        surface.blit(scene.art.face(card, rect.size, lang), rect)
        scene._mark_badge(surface, rect, card)
        band = pygame.Rect(rect.left, rect.bottom - 26, rect.width, 22)
        panel(surface, band, fill=theme.CARD_BACK, edge=theme.CARD_BACK_EDGE, radius=6, alpha=230)
        draw_text(surface, tr(lang, "setup_goes_facedown"), band.center, 12, theme.CARD_BACK_EDGE, bold=True,
                  anchor="center", max_width=band.width - 8)


def draw_my_hand(scene: RiderTableScene, surface: pygame.Surface, hidden: set[object]) -> None:
    if scene.setup is not None:
        draw_setup_tray(scene, surface)
        return
    lang = scene.app.lang
    sources = scene.intents.sources()
    deciding = bool(scene.legal)
    area = scene.layout.near.hand
    for rect, (handle, card) in zip(scene.hand_slots(scene.me), scene.my_hand()):
        key = ("hand", handle)
        if key in hidden or (scene.drag is not None and scene.drag["key"] == key and scene.drag["pos"] != scene.drag["start"]):
            continue
        if key == scene.selected:
            rect = rect.move(0, -18)
        img = scene.art.face(card, rect.size, lang) if card else scene.art.back(rect.size)
        surface.blit(img, rect)
        if key == scene.selected:
            glow(surface, rect, theme.HILITE, 3)
        elif key in sources:
            glow(surface, rect, theme.ACCENT, 2)
        elif deciding:
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            shade.fill((0, 0, 0, 90))
            surface.blit(shade, rect)
    draw_text(surface, f"{tr(lang, 'hand')} {len(scene.my_hand())}", (area.left + 14, area.top + 10), 14,
              theme.TEXT_DIM)


#: The bar's text sizes: the turn number, our move's status line, the hint under it (largest; it
#: shrinks to HINT_MIN and wraps onto HINT_ROWS lines before anything would be cut).
TURN_SIZE, STATUS_SIZE, HINT_SIZE, HINT_MIN, HINT_ROWS = 18, 16, 13, 10, 2


def bar_text_room(scene: RiderTableScene, state: RiderState) -> tuple[int, int]:
    """Where the bar's status text starts (after the turn number) and how wide it may be
    (up to the bar's buttons)."""
    lang, bar = scene.app.lang, scene.layout.bar
    x = bar.left + 16
    if state.turn:
        x += render(tr(lang, "turn", n=state.turn), TURN_SIZE, theme.TEXT, True).get_width() + 18
    buttons_w = sum(b.rect.width + 10 for b in scene.bar_buttons)
    return x, bar.width - (x - bar.left) - buttons_w - 24


def bar_hint(scene: RiderTableScene, lang: str) -> str:
    """What to do now, under our move's status line (the set-up placement, a card, a target...)."""
    if scene.setup is not None and scene.setup.early:  # arranging while the other seat places
        who = player_label(scene.opp, scene.session.names, scene.me, lang)
        return tr(lang, "hint_setup_ready" if scene.setup_ready else "hint_setup_early", who=who)
    if scene.setup is not None:
        return tr(lang, "hint_setup")
    if scene.selected is not None and scene.selected[0] == "hand":
        return tr(lang, "hint_card")
    if scene.selected is not None and scene.selected[0] == "mine":
        return tr(lang, "hint_target")
    if any(isinstance(a, Attack) for a in scene.legal):
        return tr(lang, "hint_attack")
    sealed = next((a for a in scene.legal if isinstance(a, SealedPick)), None)
    if sealed is not None:  # the battle-mark flip or rock-paper-scissors: a button, not a card
        return tr(lang, "hint_flip" if sealed.purpose == "rider.battle_mark" else "hint_rps")
    return tr(lang, "hint_select")


def hint_layout(text: str, room: int, bar_h: int) -> tuple[tuple[str, ...], int]:
    """The hint's rows and size: the largest size (HINT_SIZE down to HINT_MIN) at which it
    wraps into at most HINT_ROWS rows that, under the status line, fit the bar's height.
    Past HINT_MIN it is cut (the row ends with an ellipsis); tests check no hint gets there."""
    for size in range(HINT_SIZE, HINT_MIN - 1, -1):
        rows = wrap(text, size, room)
        if len(rows) <= HINT_ROWS and line_height(STATUS_SIZE) + len(rows) * line_height(size) <= bar_h - 4 \
                and all(render(r, size, theme.TEXT_DIM).get_width() <= room for r in rows):
            return rows, size
    rows = wrap(text, HINT_MIN, room)
    if len(rows) > HINT_ROWS:
        rows = (*rows[:HINT_ROWS - 1], rows[HINT_ROWS - 1] + ELLIPSIS)
    return rows, HINT_MIN


def early_setup_status(scene: RiderTableScene, lang: str) -> tuple[str, theme.Colour] | None:
    """The status line over our early set-up (we arrange while the other seat places first): who
    places, or for how long they have been silent, short enough that the hint under it (what to
    do now) keeps its place; None outside an early set-up, or once the other seat is stalling
    (then the table's note offers the claim). The table's long note took the whole bar here,
    cut at 960x600, and the set-up's instructions were gone."""
    session = scene.session
    if scene.setup is None or not scene.setup.early or scene.legal or session.problem \
            or session.forfeit_seat() is not None:
        return None
    who = player_label(scene.opp, session.names, scene.me, lang)
    silent = session.silence()
    if silent is not None:
        return tr(lang, "setup_early_silent", who=who, quiet=clock_text(silent[1])), theme.WARN
    return tr(lang, "setup_early_status", who=who), theme.TEXT


def draw_bar(scene: RiderTableScene, surface: pygame.Surface, state: RiderState) -> None:
    lang = scene.app.lang
    bar = scene.layout.bar
    seat, what = pending_text(scene.session.pending, scene.session.names, scene.me, lang)
    if scene.session.problem:
        buttons_w = sum(b.rect.width + 10 for b in scene.bar_buttons)
        draw_wrapped(surface, scene._problem_text(lang), pygame.Rect(bar.left + 16, bar.top + 6, bar.width - 32 - buttons_w,
                                                                bar.height - 8), 14, theme.BAD)
        return
    early = early_setup_status(scene, lang)
    note = "" if early is not None else scene.session.table_note(lang)
    if early is not None:
        status, colour = early
    elif note and not scene.legal:
        alarm = scene.session.peer_status(scene.opp) in ALARMS or scene.session.silence() is not None
        status, colour = note, theme.WARN if alarm else theme.TEXT
    elif scene.legal:
        status = tr(lang, "waiting_you", what=what)
        colour = theme.ACCENT
    elif seat is not None:
        status = tr(lang, "waiting_for", who=player_label(seat, scene.session.names, scene.me, lang), what=what)
        colour = theme.TEXT
    else:
        status = tr(lang, "waiting_system", what=what)
        colour = theme.TEXT_DIM
    x, room = bar_text_room(scene, state)
    left = f"{tr(lang, 'turn', n=state.turn)}" if state.turn else ""
    if left:
        draw_text(surface, left, (bar.left + 16, bar.centery), TURN_SIZE, theme.TEXT, bold=True, anchor="midleft")
    if note and not scene.legal and not fits(status, 16, room):  # a long note wraps onto two lines
        lines = wrap(status, 14, room)[:2]
        step = line_height(14)
        for i, line in enumerate(lines):
            draw_text(surface, line, (x, bar.centery + int((i - len(lines) / 2) * step) + step // 2), 14, colour,
                      anchor="midleft", max_width=room)
    elif not scene.legal and scene.setup is None:
        draw_text(surface, status, (x, bar.centery), 16, colour, anchor="midleft", max_width=room)
    else:  # our move, or our early set-up: the status and what to do
        hint_rows, hint_size = hint_layout(bar_hint(scene, lang), room, bar.height)
        step = line_height(hint_size)
        top = bar.centery - (line_height(STATUS_SIZE) + len(hint_rows) * step) // 2
        draw_text(surface, status, (x, top), STATUS_SIZE, colour, bold=True, max_width=room)
        for i, row in enumerate(hint_rows):
            draw_text(surface, row, (x, top + line_height(STATUS_SIZE) + i * step), hint_size, theme.TEXT_DIM,
                      max_width=room)
    for b in scene.bar_buttons:
        b.draw(surface)


def draw_side(scene: RiderTableScene, surface: pygame.Surface, state: RiderState) -> None:
    lang = scene.app.lang
    side = scene.side_rect()
    x = side.left + 16
    y = 14
    draw_text(surface, tr(lang, "peers"), (x, y), 16, theme.TEXT_DIM, bold=True)
    y += 26
    for seat in (scene.me, scene.opp):
        label = player_label(seat, scene.session.names, scene.me, lang)
        status_key = scene.session.peer_status(seat)
        colour = status_colour(status_key)
        status = tr(lang, status_key)
        pygame.draw.circle(surface, colour, (x + 6, y + 10), 5)
        draw_text(surface, label, (x + 18, y), 15, theme.TEXT, bold=state.active == seat and state.turn > 0,
                  max_width=side.width - 50)
        draw_text(surface, status, (x + 18, y + 20), 13, theme.TEXT_DIM, max_width=side.width - 50)
        lost = len(state.players[seat].lost)
        draw_text(surface, f"{tr(lang, 'lost_pile')} {lost}/3", (side.right - 16, y), 13,
                  theme.BAD if lost else theme.TEXT_DIM, anchor="topright")
        y += 46
    pygame.draw.line(surface, theme.PANEL_EDGE, (x, y), (side.right - 16, y))
    y += 8
    draw_text(surface, tr(lang, "log"), (x, y), 16, theme.TEXT_DIM, bold=True)
    y += 26
    chat = scene.chat_rect()
    bottom = chat.top - 8 if chat is not None else side.bottom - 90
    log_rect = pygame.Rect(x, y, side.width - 32, bottom - y)
    draw_log(scene, surface, log_rect)  # the log and the chat are drawn by the table layer
    draw_chat(scene, surface)
    draw_wrapped(surface, tr(lang, "shortcuts"), pygame.Rect(x, side.bottom - 92, side.width - 32, 40), 11,
                 theme.TEXT_DIM)
    for b in scene.side_buttons:
        b.draw(surface)


def draw_strip(scene: RiderTableScene, surface: pygame.Surface, state: RiderState) -> None:
    """The collapsed side panel: its toggle, each seat's Lost count and status dot."""
    strip = scene.layout.side
    y = strip.top + 64
    for seat in (scene.me, scene.opp):
        colour = status_colour(scene.session.peer_status(seat))
        pygame.draw.circle(surface, colour, (strip.centerx, y), 6)
        lost = len(state.players[seat].lost)
        draw_text(surface, f"{lost}/3", (strip.centerx, y + 10), 13, theme.BAD if lost else theme.TEXT_DIM,
                  bold=True, anchor="midtop")
        y += 44
    for b in scene.side_buttons:
        b.draw(surface)


def preview_target(scene: RiderTableScene, pos: tuple[int, int]) -> pygame.Rect:
    """What the cursor at ``pos`` points at (the control, else the card face): the hover
    preview must leave it in view."""
    control = scene._control_at(pos)
    if control is not None:
        return control.rect
    for rect, _card in reversed(scene.faces):
        if rect.collidepoint(pos):
            return rect
    return pygame.Rect(pos[0] - 4, pos[1] - 4, 8, 8)


def preview_rects(scene: RiderTableScene, pos: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
    """Where the hover preview of a card goes for a mouse at ``pos``: the
    card, and the caption with its full name (both inside the board),
    beside, above or below what the cursor points at and never over it
    (where no side has room: the side that covers the least of it)."""
    w, h = scene.layout.preview
    board = scene.layout.board
    room = board.inflate(-16, -16)
    cap_h = 28
    avoid = preview_target(scene, pos)
    block = pygame.Rect(0, 0, min(room.width, w + 80), h + 6 + cap_h)
    mx, my = pos
    gap = 12
    candidates = []
    for side in ("right", "left", "above", "below"):
        b = block.copy()
        if side in ("right", "left"):  # beside it: free to slide up or down
            b.left = avoid.right + gap if side == "right" else avoid.left - gap - b.width
            b.centery = my
            b.top = max(room.top, min(b.top, room.bottom - b.height))
        else:  # above or below it: free to slide sideways
            b.top = avoid.top - gap - b.height if side == "above" else avoid.bottom + gap
            b.centerx = mx
            b.left = max(room.left, min(b.left, room.right - b.width))
        fits = room.contains(b)
        b.clamp_ip(room)
        clash = b.clip(avoid)
        candidates.append((not fits, clash.width * clash.height, b))
    best = min(candidates, key=lambda c: (c[0], c[1]))[2]
    rect = pygame.Rect(0, 0, w, h)
    rect.midtop = best.midtop
    caption = pygame.Rect(0, 0, block.width, cap_h)
    caption.midtop = (rect.centerx, rect.bottom + 6)
    return rect, caption


def draw_preview(scene: RiderTableScene, surface: pygame.Surface, card: str) -> None:
    rect, caption = preview_rects(scene, scene.hover_pos)
    pygame.draw.rect(surface, (0, 0, 0), rect.move(5, 7), border_radius=14)
    lang = scene.app.lang
    surface.blit(scene.art.face(card, rect.size, lang), rect)
    # the full name, always (small cards elide it)
    name = scene._name(card)
    run = render(name, 15, theme.TEXT, True)
    cap = pygame.Rect(0, 0, min(caption.width, run.get_width() + 24), caption.height)
    cap.center = caption.center
    panel(surface, cap, fill=(20, 24, 32), edge=theme.ACCENT, radius=8)
    draw_text(surface, name, cap.center, 15, theme.TEXT, bold=True, anchor="center", max_width=cap.width - 12)

