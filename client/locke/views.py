"""What the seat rail, the private panel, the combat overlay and the banner say, as lines of words.

Why pure functions of (state, our knowledge, names): the scene draws these
lines and the tests read them; nothing here can look at another seat's
hidden card, because the only private source is our own
:class:`~engine.core.hidden.Knowledge` (the same one ``LockeGame.view``
reads), and a character is named for another seat only when its card is
public (``state.open_cards``) or we were shown it.
"""

from __future__ import annotations

from typing import Any

from client.i18n import known, tr
from client.locke.words import Namer
from engine.core.game import Outcome
from engine.core.pending import Chance, Decision, HiddenOp, Placement, SealedChoice
from engine.locke import kit, stats
from engine.locke.combat.model import Fight
from engine.locke.state import NO_SEAT, LockeState, Seat


def known_character(state: LockeState, seat: int, namer: Namer) -> tuple[str | None, bool]:
    """(the character card of ``seat`` if we may know it, whether it is public)."""
    public = dict(state.open_cards).get(state.seats[seat].character)
    if public:
        return public, True
    known = namer.knowledge.card(state.seats[seat].character) if namer.knowledge is not None else None
    return (known or None), False


def seat_state(s: Seat) -> str:
    """A seat's state word key (dead, resting, arrested, partner, normal)."""
    if not s.alive:
        return "lk_state_dead"
    if s.leader != NO_SEAT:
        return "lk_state_partner"
    return f"lk_state_{s.status}" if known(f"lk_state_{s.status}") else "lk_state_normal"


def rail_lines(state: LockeState, seat: int, namer: Namer, outcome: Outcome | None = None) -> list[str]:
    """A seat's rail entry after its name: its grade once the game is judged, silhouette and state,
    where, public figures, identity."""
    lang, s = namer.lang, state.seats[seat]
    judged = [r for r in (outcome.seats if outcome is not None else ()) if r.seat == seat and r.grade]
    graded = [tr(lang, "lk_rail_grade_won" if judged[0].won else "lk_rail_grade_lost", grade=judged[0].grade)] \
        if judged else []
    face = namer.card(s.silhouette) if s.silhouette else "?"
    where = tr(lang, "lk_rail_where", cell=namer.cell(s.place)) if s.place else tr(lang, "lk_rail_off")
    if s.leader != NO_SEAT:
        where += " · " + tr(lang, "lk_rail_with", who=namer.seat(s.leader))
    lines = graded + [f"{face} · {tr(lang, seat_state(s))} · {where}"]
    facts = tr(lang, "lk_rail_facts", damage=s.damage, kept=len(s.kept), info=s.info)
    if s.proofs:
        facts += " · " + tr(lang, "lk_rail_proofs", n=s.proofs)
    lines.append(facts)
    if s.mods:
        lines.append(tr(lang, "lk_rail_mods", mods=namer.join(_mod(m, namer) for m in s.mods)))
    if s.shown:  # kept planet cards it has turned face up by using them (items, a fixed wildcard)
        opened, used_as = dict(state.open_cards), dict(state.wild)
        cards = [namer.card(used_as.get(h) or opened[h]) if (h in used_as or h in opened) else namer.handle(h)
                 for h in s.shown]
        lines.append(tr(lang, "lk_rail_shown", cards=namer.join(cards)))
    if s.controller >= 0:
        lines.append(tr(lang, "lk_rail_ctl", n=s.controller + 1))
    if s.seen_by:
        lines.append(tr(lang, "lk_rail_seen_by", seats=namer.join(tr(lang, "seat_list", n=n + 1) for n in s.seen_by)))
    if seat != namer.me:
        card, public = known_character(state, seat, namer)
        if card:
            lines.append(tr(lang, "lk_rail_is" if public else "lk_rail_seen", character=namer.card(card)))
    return lines


def _mod(mod: Any, namer: Namer) -> str:
    stat, op, value = str(mod[0]), str(mod[1]), int(mod[2])
    word = namer.word(stat)
    if op == "add":
        return f"{word} {value:+d}"
    if op == "zero":
        return f"{word} 0"
    return f"{word} ={value}" if op == "set" else f"{word} +{value}"


def character_line(namer: Namer, card: str) -> str:
    """Our panel's first line: the character card and its side; a name that says its side
    already ("Ran (Evil/Good)") is not followed by it again."""
    name, attribute = namer.card(card), namer.word(namer.components.character(card).attribute)
    key = "lk_panel_character_named" if f"({attribute})" in name else "lk_panel_character"
    return tr(namer.lang, key, name=name, attribute=attribute)


def panel_lines(state: LockeState, namer: Namer, hand: tuple[int, ...] = ()) -> list[str]:
    """Our private panel: character and its stats now, abilities, items, die, kept cards,
    combat hand, what we were shown, our hidden markers."""
    lang, me, know = namer.lang, namer.me, namer.knowledge
    assert know is not None
    s = state.seats[me]
    lines: list[str] = []
    card = know.card(s.character)
    if card:
        character = namer.components.character(card)
        lines.append(character_line(namer, card))
        now = stats.now(character, s.mods, s.proofs)
        lines.append(tr(lang, "lk_panel_stats", level=now.level, power=now.power,
                        durability=max(0, now.durability - s.damage), max=now.durability, mind=now.mind))
        usable = kit.now(character, s.mods)  # after Hijiri's whim: the rolled ones, not the printed (N275)
        abilities = namer.join(namer.card(g.id) for g in usable.abilities) or tr(lang, "lk_none")
        lines.append(tr(lang, "lk_panel_abilities", list=abilities))
        items = namer.join(namer.card(g.id) for g in usable.items) or tr(lang, "lk_none")
        lines.append(tr(lang, "lk_panel_items", list=items))
    else:  # dealt but unknown here: a watcher's or a replay's view of another seat's card
        lines.append(tr(lang, "lk_panel_unknown" if s.character < 0 else "lk_panel_face_down"))
    die = know.card(s.die)
    if die:
        name = namer.card(die)
        label = tr(lang, "lk_panel_die", die="").strip(" :：")
        # the die's card name says what it is already ("shadow die 2"): not "Shadow die: shadow die 2"
        lines.append(name[:1].upper() + name[1:] if label and name.lower().startswith(label.lower())
                     else tr(lang, "lk_panel_die", die=name))
    if s.base_player:
        lines.append(tr(lang, "lk_panel_base_player"))
    kept = namer.join(namer.handle(h) for h in s.kept) or tr(lang, "lk_none")
    lines.append(tr(lang, "lk_panel_kept", list=kept))
    if hand:
        lines.append(tr(lang, "lk_panel_hand", list=namer.join(namer.handle(h) for h in hand)))
    mine = my_placements(state, namer)
    if mine:
        lines.append(tr(lang, "lk_panel_ambush",
                        list=namer.join(tr(lang, "lk_thing_at", thing=namer.thing(t), cell=namer.cell(c))
                                       for c, t in mine.items())))
    shown = [n for n in know.notes if n.topic.startswith(("shown:", "disclosed:"))]
    if shown:
        words = []
        for note in shown[-4:]:
            for item in note.data:
                if isinstance(item, (tuple, list)) and len(item) == 2:
                    words.append(namer.card(str(item[1])) if isinstance(item[0], int) else
                                 f"{namer.cell(item[0])}: {namer.card(str(item[1]))}")
        if words:
            lines.append(tr(lang, "lk_panel_shown", list=namer.join(words)))
    return lines


def my_placements(state: LockeState, namer: Namer) -> dict[str, str]:
    """Cell -> thing of every hidden placement our knowledge knows (ours, or disclosed to us)."""
    know = namer.knowledge
    out: dict[str, str] = {}
    if know is None:
        return out
    for placement in state.placements:
        for cell, handle in zip(placement[2], placement[3]):
            content = know.card(handle)
            if content and content != "":
                if content.lower() != "empty" and not content.startswith("-"):
                    out[str(cell)] = content
    return out


def my_hand(state: LockeState, me: int) -> tuple[int, ...]:
    """Our combat hand's handles (empty outside a combat)."""
    fight = state.combat.detail if state.combat is not None else None
    if not isinstance(fight, Fight):
        return ()
    return next((f.hand for f in fight.fighters if f.seat == me), ())


def combat_lines(state: LockeState, namer: Namer) -> list[str]:
    """The combat overlay: where and which round, each fighter (hands as counts), the attack in
    flight, the initiative order, then the latest combat events."""
    combat = state.combat
    if combat is None:
        return []
    lang = namer.lang
    fight = combat.detail if isinstance(combat.detail, Fight) else Fight()
    lines = [tr(lang, "lk_cb_title", cell=namer.cell(combat.cell), round=max(1, fight.round))]
    for i, f in enumerate(fight.fighters):
        label = f"{i + 1}. "
        if f.seat >= 0:
            extra = (tr(lang, "lk_cb_out") if f.state != "in" else "") + (tr(lang, "lk_cb_fainted") if f.fainted else "")
            label += tr(lang, "lk_cb_fighter", who=namer.seat(f.seat), cards=len(f.hand), spent=f.spent, extra=extra)
            if f.seat == namer.me >= 0 and f.hand:  # our own hand face up (our knowledge); others' only as counts
                label += tr(lang, "lk_cb_hand", cards=namer.join(namer.handle(h) for h in f.hand))
        elif f.ob is not None:
            label += tr(lang, "lk_cb_obstacle", name=namer.card(f.ob.id), level=f.ob.level, fp=f.ob.firepower,
                        dur=sum(f.members) if f.members else f.ob.durability)
            if f.faces:  # an obstacle fights with cards dealt face up
                label += tr(lang, "lk_cb_hand", cards=namer.join(namer.card(c) for c in f.faces))
        lines.append(f"{label} [{tr(lang, 'lk_cb_side', n=f.party + 1)}]")
    strike = fight.strike
    if strike is not None and 0 <= strike.attacker < len(fight.fighters) and 0 <= strike.target < len(fight.fighters):
        lines.append(tr(lang, "lk_cb_strike", attacker=_fighter(fight, strike.attacker, namer),
                        target=_fighter(fight, strike.target, namer), level=strike.level, fp=strike.firepower))
    if fight.order:
        lines.append(tr(lang, "lk_cb_order", order=" → ".join(str(i + 1) for i in fight.order)))
    return lines + combat_events(state, namer)


def combat_events(state: LockeState, namer: Namer) -> list[str]:
    """The running combat's latest events (plays, dice, hits, the damage chart), oldest first: the
    tail of :func:`combat_lines`, which a short combat box drops from its oldest end."""
    if state.combat is None:
        return []
    start = max((i for i, e in enumerate(state.events) if e and e[0] == "cb-start"), default=0)
    return [namer.event(e) for e in state.events[start:][-6:]]


def fighters_of(state: LockeState) -> tuple[int | str, ...]:
    """The running combat's fighters by index: a seat, or an obstacle's id (public)."""
    fight = state.combat.detail if state.combat is not None else None
    if not isinstance(fight, Fight):
        return ()
    return tuple(f.seat if f.seat >= 0 else (f.ob.id if f.ob is not None else "") for f in fight.fighters)


def _fighter(fight: Fight, index: int, namer: Namer) -> str:
    f = fight.fighters[index]
    if f.seat >= 0:
        return namer.seat(f.seat)
    return namer.card(f.ob.id) if f.ob is not None else tr(namer.lang, "lk_obstacle")


def wait_words(prompt: str, lang: str, namer: Namer) -> str:
    """What a decision prompt asks, in words (``lk_wait_<prompt>``; else the prompt's name)."""
    short = prompt.removeprefix("locke.")
    key = f"lk_wait_{short}"
    return tr(lang, key) if known(key) else namer.word(short)


def banner(state: LockeState, pending: Any, namer: Namer, mine: bool) -> str:
    """Who is deciding what now (the banner over the board)."""
    lang = namer.lang
    if pending is None:
        return tr(lang, "lk_over")
    if isinstance(pending, Decision):
        what = wait_words(pending.prompt, lang, namer)
        if mine or pending.seat == namer.me:
            return tr(lang, "lk_you_decide", what=what)
        return tr(lang, "lk_decides", who=namer.seat(pending.seat), what=what)
    if isinstance(pending, Placement) and pending.op == "place":
        if pending.seat == namer.me:
            return tr(lang, "lk_you_decide", what=tr(lang, "lk_sys_place_you"))
        return tr(lang, "lk_decides", who=namer.seat(pending.seat), what=tr(lang, "lk_sys_place"))
    if isinstance(pending, SealedChoice):
        return tr(lang, "lk_you_decide" if mine else "lk_table_does", what=tr(lang, "lk_sys_sealed"))
    if isinstance(pending, Chance):
        return tr(lang, "lk_table_does", what=tr(lang, "lk_sys_dice"))
    if isinstance(pending, HiddenOp):
        return tr(lang, "lk_table_does", what=tr(lang, "lk_sys_cards"))
    return tr(lang, "lk_table_does", what=tr(lang, "lk_sys_cards"))


def turn_line(state: LockeState, namer: Namer) -> str:
    """The phase, the turn count and whose turn it is."""
    lang = namer.lang
    phase = tr(lang, f"lk_phase_{state.phase}") if known(f"lk_phase_{state.phase}") else state.phase
    if state.current < 0:
        return phase
    if state.phase == "over":  # nobody plays any more: the turn the game ended at, no "X plays"
        return tr(lang, "lk_turn_line_over", phase=phase, turn=state.turn)
    who = namer.seat(state.current)
    if who == tr(lang, "seat_you", n=state.current + 1):  # our own turn (a watcher's table names every seat)
        return tr(lang, "lk_turn_line_yours", phase=phase, turn=state.turn)
    return tr(lang, "lk_turn_line", phase=phase, turn=state.turn, who=who)
