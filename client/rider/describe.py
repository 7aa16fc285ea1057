"""Actions and waits in words, for the log panel, prompts and status line.

The log never names a card the local seat may not know: hidden cards are
"a card"; a card is named once it is public (placed, discarded, revealed)
or when it is the local seat's own (its own draws).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.inputs import SeatInput
from engine.core.hidden import Knowledge
from engine.core.pending import (
    CardsDealt,
    CardsRevealed,
    CardsShownTo,
    CardsShuffled,
    Chance,
    Decision,
    DiceRolled,
    HiddenOp,
    Pending,
    SealedChoice,
    SealedChoicesRevealed,
)
from client.i18n import known, tr
from client.rider.cardart import attribute_name
from client.table.end_scene import table_reason
from client.table.log import LogEntry
from client.table.words import player_label
from engine.rider.actions import (
    Attack,
    Discard,
    EndAttacks,
    LevelUp,
    OpenColumn,
    Pass,
    Renew,
    SetUp,
)
from engine.rider.rules import Info, resolve_attack
from engine.rider.state import COLUMN_INDEX, RiderState
from net.seats import for_people

Namer = Callable[[str], str]


def _lv(level: int) -> str:
    return f"Lv.{level}"


def _targets(targets: tuple[str, ...], name: Namer, lang: str) -> str:
    parts = [tr(lang, "target_column", column=t) if t in COLUMN_INDEX else name(t) for t in targets if t]
    if not parts:
        return ""
    return tr(lang, "targets", targets=tr(lang, "list_sep").join(parts))


def option_text(action: SeatInput, name: Namer, lang: str) -> str:
    """What choosing ``action`` does, as a button label."""
    if isinstance(action, LevelUp):
        what = "Lv.0" if action.level == 0 else _lv(action.level)
        return tr(lang, "opt_level_up", card=name(action.card), column=action.column, what=what) + \
            _targets(action.targets, name, lang)
    if isinstance(action, Renew):
        return tr(lang, "opt_renew", card=name(action.card), column=action.column)
    if isinstance(action, OpenColumn):
        return tr(lang, "opt_open", card=name(action.card), column=action.column)
    if isinstance(action, Pass):
        return tr(lang, "pass") if action.card is None else tr(lang, "opt_pass_discard", card=name(action.card))
    if isinstance(action, Discard):
        return tr(lang, "opt_discard", card=name(action.card))
    if isinstance(action, Attack):
        return tr(lang, "opt_attack", column=action.column, target=action.target)
    if isinstance(action, EndAttacks):
        return tr(lang, "end_attacks")
    return action.KIND if isinstance(action, Action) else str(action)


def setup_text(cards: Sequence[str], name: Namer, lang: str) -> str:
    return " / ".join(f"{col}: {name(c)}" for col, c in zip("ABC", cards))


def reason_text(reason: str, winner: int | None, names: Sequence[str], me: int, lang: str) -> str:
    """The engine's end reason for people (seats numbered from 1, both languages).

    Known endings are recognised by their rule id; anything else is shown as
    the engine wrote it."""
    if "rider.9" in reason and winner is not None:
        return tr(lang, "reason_lost3", loser=player_label(1 - winner, names, me, lang))
    ended = table_reason(reason, names, me, lang)  # a forfeit, a signed resignation, a local Concede
    if ended is not None:
        return ended
    if "rider.10" in reason:
        return tr(lang, "reason_turn_limit")
    return for_people(reason)


def _mark(mark: str, lang: str) -> str:
    return tr(lang, f"mark_{mark}_rps") if known(f"mark_{mark}_rps") else mark


def contest_text(pre: RiderState, post: RiderState, *, names: Sequence[str], me: int, lang: str,
                 table: dict[str, Info]) -> str:
    """Who won the battle-mark contest and why, once the second flipped card is
    face up ("" for any other reveal). The winner is the engine's: the seat whose
    first turn began (rider.1); a tie leaves turn 0 and goes to rock-paper-scissors."""
    if pre.turn != 0 or not all(post.marks):
        return ""
    cols = [post.players[s].columns[COLUMN_INDEX[post.marks[s]]] for s in (0, 1)]
    before = [pre.players[s].columns[COLUMN_INDEX[pre.marks[s]]] for s in (0, 1)] if all(pre.marks) else []
    if not all(c.cards for c in cols) or (before and all(c.cards for c in before)):
        return ""  # a flip is still to come, or the contest was decided earlier
    marks = [table[c.cards[0][0]].card.mark for c in cols]
    if post.turn == 0:
        return tr(lang, "log_contest_tie", mark=_mark(marks[0], lang))
    winner = post.active
    return tr(lang, "log_contest_win", winner=player_label(winner, names, me, lang),
              loser=player_label(1 - winner, names, me, lang), wmark=_mark(marks[winner], lang),
              lmark=_mark(marks[1 - winner], lang))


def rps_text(choices: Sequence[str], post: RiderState, *, names: Sequence[str], me: int, lang: str) -> str:
    """Who won a plain rock-paper-scissors round and why (the engine's winner:
    the seat whose first turn began), or that it was a tie."""
    picks = [tr(lang, f"rps_{c}") if known(f"rps_{c}") else str(c) for c in choices]
    if post.turn == 0:
        return tr(lang, "log_rps_tie", pick=picks[0])
    winner = post.active
    return tr(lang, "log_rps_win", winner=player_label(winner, names, me, lang),
              loser=player_label(1 - winner, names, me, lang), wpick=picks[winner], lpick=picks[1 - winner])


def pending_text(pending: Pending | None, names: Sequence[str], me: int, lang: str) -> tuple[int | None, str]:
    """(seat waited for or None, what is awaited) for the status line."""
    if pending is None:
        return None, tr(lang, "wait_over")
    if isinstance(pending, Decision):
        kind = pending.prompt.split(".")[-1]
        return pending.seat, tr(lang, f"wait_{kind}") if known(f"wait_{kind}") else kind
    if isinstance(pending, SealedChoice):
        return None, tr(lang, "wait_mark" if pending.purpose == "rider.battle_mark" else "wait_rps")
    if isinstance(pending, Chance):
        return None, tr(lang, "wait_dice", purpose=pending.purpose)
    if isinstance(pending, HiddenOp):
        owner = int(pending.zone.split(":")[1]) if ":" in pending.zone else None
        return owner, tr(lang, f"wait_{pending.op}")
    return None, str(pending)


def describe(pre: RiderState, action: Action, post: RiderState, *, me: int, names: Sequence[str], lang: str,
             name: Namer, knowledge: Knowledge, table: dict[str, Info], proof: str) -> list[LogEntry]:
    """Log lines for one applied input (``proof`` tags dice, shuffles and reveals)."""
    out: list[LogEntry] = []
    who = player_label(action.seat, names, me, lang) if action.seat >= 0 else ""
    sep = tr(lang, "list_sep")
    if isinstance(action, SetUp):
        out.append(LogEntry(tr(lang, "log_setup", who=who)))
    elif isinstance(action, LevelUp):
        what = "Lv.0" if action.level == 0 else _lv(action.level)
        out.append(LogEntry(tr(lang, "log_level_up", who=who, card=name(action.card), column=action.column, what=what)
                            + _targets(action.targets, name, lang)))
    elif isinstance(action, Renew):
        out.append(LogEntry(tr(lang, "log_renew", who=who, card=name(action.card), column=action.column)))
    elif isinstance(action, OpenColumn):
        out.append(LogEntry(tr(lang, "log_open", who=who, card=name(action.card), column=action.column)))
    elif isinstance(action, Pass):
        if action.card is None:
            out.append(LogEntry(tr(lang, "log_pass", who=who)))
        else:
            out.append(LogEntry(tr(lang, "log_pass_discard", who=who, card=name(action.card))))
    elif isinstance(action, Discard):
        out.append(LogEntry(tr(lang, "log_discard", who=who, card=name(action.card))))
    elif isinstance(action, Attack):
        att = pre.players[action.seat].columns[COLUMN_INDEX[action.column]]
        dfn = pre.players[1 - action.seat].columns[COLUMN_INDEX[action.target]]
        battle = resolve_attack(table, att, dfn)
        destroyed = [c for c in dfn.cards if c not in battle.defender.cards]
        gone = tr(lang, "destroyed_sep").join(f"{_lv(lv)} {name(c)}" for c, lv in reversed(destroyed))
        out.append(LogEntry(tr(lang, "log_attack" if destroyed else "log_attack_none", who=who, column=action.column,
                               target=action.target, atk=battle.attack_power, dfn=battle.defence_power, gone=gone)))
    elif isinstance(action, EndAttacks):
        pass  # the next turn marker says it
    elif isinstance(action, CardsShuffled):
        owner = player_label(int(action.zone.split(":")[1]), names, me, lang)
        out.append(LogEntry(tr(lang, "log_shuffled", owner=owner), proof))
    elif isinstance(action, CardsDealt):
        seat = int(action.zone.split(":")[1])
        owner = player_label(seat, names, me, lang)
        n = len(action.handles)
        text = tr(lang, "log_drew_one" if n == 1 else "log_drew", owner=owner, n=n)
        if seat == me and n <= 2:  # our own draws are named (the other seat's never are)
            listed = sep.join(name(c) for h in action.handles if (c := knowledge.card(h)))
            if listed:
                text = tr(lang, "log_drew_list", text=text, cards=listed)
        out.append(LogEntry(text, proof))
    elif isinstance(action, CardsRevealed):
        seat = int(action.zone.split(":")[1])
        owner = player_label(seat, names, me, lang)
        out.append(LogEntry(tr(lang, "log_revealed", owner=owner, cards=sep.join(name(c) for c in action.cards)), proof))
        contest = contest_text(pre, post, names=names, me=me, lang=lang, table=table)
        if contest:
            out.append(LogEntry(contest))
    elif isinstance(action, CardsShownTo):
        seat = int(action.zone.split(":")[1])
        owner = player_label(seat, names, me, lang)
        seen = [knowledge.card(h) for h in action.handles] if seat == me else []
        listed = sep.join(name(c) for c in seen if c)
        if listed:
            text = tr(lang, "log_peeked", owner=owner, cards=listed)
        else:
            text = tr(lang, "log_peeked_n", owner=owner, n=len(action.handles))
        out.append(LogEntry(text, proof))
    elif isinstance(action, SealedChoicesRevealed):
        if action.purpose == "rider.battle_mark":
            picks = sep.join(tr(lang, "log_mark_pick", who=player_label(i, names, me, lang), column=c)
                             for i, c in enumerate(action.choices))
            text = tr(lang, "log_marks", picks=picks)
        else:
            text = rps_text(action.choices, post, names=names, me=me, lang=lang)
        out.append(LogEntry(text, proof))
    elif isinstance(action, DiceRolled):
        out.append(LogEntry(tr(lang, "log_dice", purpose=action.purpose, faces=list(action.faces)), proof))
    if post.turn != pre.turn and not post.reason:
        out.append(LogEntry(tr(lang, "log_turn", n=post.turn, who=player_label(post.active, names, me, lang)),
                            turn_marker=True))
    if post.reason and not pre.reason:
        why = reason_text(post.reason, post.winner, names, me, lang)
        if post.winner is None:
            out.append(LogEntry(tr(lang, "log_draw_end", why=why), turn_marker=True))
        else:
            out.append(LogEntry(tr(lang, "log_won", who=player_label(post.winner, names, me, lang), why=why),
                                turn_marker=True))
    return out


def why_text(lang: str, why: Any, name: Any, who: str = "") -> tuple[str, str]:
    """(message, details line) for an engine refusal (:class:`engine.rider.why.Why`):
    the message in ``lang`` with card ids as names (``name(card_id)``) and
    attributes in words; the rule id only in the details line."""
    fields = why.fields()
    for k in ("card",):
        if k in fields and fields[k]:
            fields[k] = name(str(fields[k]))
    for k in ("attribute", "top_attribute"):
        if k in fields:
            fields[k] = attribute_name(str(fields[k]), lang)
    skip = fields.get("skip", 0)
    fields["skip_note"] = tr(lang, "why_skip_note", skip=skip) if skip else ""
    fields.setdefault("who", who)
    key = f"why_{why.key}"
    text = tr(lang, key, **fields) if known(key) else why.key
    return text, tr(lang, "why_details", rule=why.rule) if why.rule else ""
