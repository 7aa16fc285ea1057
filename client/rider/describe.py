"""Actions and waits in words, for the log panel, prompts and status line.

The log never names a card the local seat may not know: hidden cards are
"a card"; a card is named once it is public (placed, discarded, revealed)
or when it is the local seat's own (its own draws).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from engine.core.actions import Action
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
from client.i18n import STRINGS, tr
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

Namer = Callable[[str], str]


@dataclasses.dataclass(frozen=True)
class LogEntry:
    """One log line; ``proof`` is "local", "verified" or "" (no randomness or reveal)."""

    text: str
    proof: str = ""
    turn_marker: bool = False


def _ja(lang: str) -> bool:
    return lang == "ja"


def seat_label(seat: int, names: Sequence[str], me: int, lang: str) -> str:
    n = seat + 1
    if seat == me:
        return f"あなた（席{n}）" if _ja(lang) else f"You (Seat {n})"
    return f"{names[seat]}（席{n}）" if _ja(lang) else f"{names[seat]} (Seat {n})"


def _lv(level: int) -> str:
    return f"Lv.{level}"


def _targets(targets: tuple[str, ...], name: Namer, lang: str) -> str:
    parts = []
    for t in targets:
        if not t:
            continue
        if t in COLUMN_INDEX:
            parts.append(f"列{t}" if _ja(lang) else f"column {t}")
        else:
            parts.append(name(t))
    if not parts:
        return ""
    joined = "、".join(parts) if _ja(lang) else ", ".join(parts)
    return f"（対象：{joined}）" if _ja(lang) else f" (target: {joined})"


def option_text(action: Action, name: Namer, lang: str) -> str:
    """What choosing ``action`` does, as a button label."""
    ja = _ja(lang)
    if isinstance(action, LevelUp):
        what = "Lv.0" if action.level == 0 else _lv(action.level)
        base = (f"{name(action.card)} を列{action.column}に{what}として置く" if ja
                else f"Place {name(action.card)} on column {action.column} as {what}")
        return base + _targets(action.targets, name, lang)
    if isinstance(action, Renew):
        return f"{name(action.card)} で列{action.column}を新生" if ja else f"Renew column {action.column} with {name(action.card)}"
    if isinstance(action, OpenColumn):
        return (f"{name(action.card)} を捨てて列{action.column}を開く" if ja
                else f"Discard {name(action.card)} and open column {action.column}")
    if isinstance(action, Pass):
        if action.card is None:
            return "パス" if ja else "Pass"
        return f"パス（{name(action.card)} を捨てる）" if ja else f"Pass, discarding {name(action.card)}"
    if isinstance(action, Discard):
        return f"{name(action.card)} を捨てる" if ja else f"Discard {name(action.card)}"
    if isinstance(action, Attack):
        return f"列{action.column}で列{action.target}を攻撃" if ja else f"Attack column {action.target} with column {action.column}"
    if isinstance(action, EndAttacks):
        return "ターン終了" if ja else "End turn"
    return action.KIND


def setup_text(cards: Sequence[str], name: Namer, lang: str) -> str:
    return " / ".join(f"{col}: {name(c)}" for col, c in zip("ABC", cards))


def reason_text(reason: str, winner: int | None, names: Sequence[str], me: int, lang: str) -> str:
    """The engine's end reason for people (seats numbered from 1, both languages).

    Known endings are recognised by their rule id; anything else is shown as
    the engine wrote it."""
    ja = _ja(lang)
    if "rider.9" in reason and winner is not None:
        loser = seat_label(1 - winner, names, me, lang)
        return (f"{loser}の Lv.1 カードが3枚ロストに送られた（ルール rider.9）" if ja
                else f"three Lv.1 cards of {loser} are in the Lost pile (rule rider.9)")
    forfeit = re.match(r"seat (\d+) forfeited", reason)
    if forfeit is not None and int(forfeit.group(1)) < len(names):  # a networked table's forfeit
        who = seat_label(int(forfeit.group(1)), names, me, lang)
        return f"{who}の不戦敗（期限内に応答なし）" if ja else f"{who} forfeited: it did not answer before the deadline"
    resigned = re.match(r"seat (\d+) resigned", reason)
    if resigned is not None and int(resigned.group(1)) < len(names):  # a networked table's signed resignation
        who = seat_label(int(resigned.group(1)), names, me, lang)
        return (f"{who}が対局をやめた（署名付きのメッセージで降参）" if ja
                else f"{who} gave the game up with a signed message (left the table or conceded)")
    if "rider.10" in reason:
        return "300ターンに達したため引き分け（ルール rider.10）" if ja else "the turn limit of 300 was reached (rule rider.10)"
    return reason


def _mark(mark: str, lang: str) -> str:
    return tr(lang, f"mark_{mark}_rps") if f"mark_{mark}_rps" in STRINGS else mark


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
    return tr(lang, "log_contest_win", winner=seat_label(winner, names, me, lang),
              loser=seat_label(1 - winner, names, me, lang), wmark=_mark(marks[winner], lang),
              lmark=_mark(marks[1 - winner], lang))


def rps_text(choices: Sequence[str], post: RiderState, *, names: Sequence[str], me: int, lang: str) -> str:
    """Who won a plain rock-paper-scissors round and why (the engine's winner:
    the seat whose first turn began), or that it was a tie."""
    picks = [tr(lang, f"rps_{c}") if f"rps_{c}" in STRINGS else str(c) for c in choices]
    if post.turn == 0:
        return tr(lang, "log_rps_tie", pick=picks[0])
    winner = post.active
    return tr(lang, "log_rps_win", winner=seat_label(winner, names, me, lang),
              loser=seat_label(1 - winner, names, me, lang), wpick=picks[winner], lpick=picks[1 - winner])


def pending_text(pending: Pending | None, names: Sequence[str], me: int, lang: str) -> tuple[int | None, str]:
    """(seat waited for or None, what is awaited) for the status line."""
    ja = _ja(lang)
    if pending is None:
        return None, "ゲーム終了" if ja else "the game is over"
    if isinstance(pending, Decision):
        kind = pending.prompt.split(".")[-1]
        words = {
            "setup": ("place three Lv.1 cards face down", "Lv.1を3枚裏向きに置く"),
            "main": ("level up, renew, open a column, or pass", "レベルアップ・新生・列を開く・パス"),
            "attack": ("attack or end the turn", "攻撃するかターンを終了する"),
            "discard": ("discard a card (an effect demands it)", "カードを1枚捨てる（効果による）"),
        }.get(kind, (kind, kind))
        return pending.seat, words[1] if ja else words[0]
    if isinstance(pending, SealedChoice):
        if pending.purpose == "rider.battle_mark":
            return None, ("両者が表にする Lv.1 を秘密に選ぶ" if ja else "both players secretly choose a Lv.1 to flip")
        return None, ("両者が秘密にジャンケン" if ja else "both players secretly pick rock, paper or scissors")
    if isinstance(pending, Chance):
        return None, (f"ダイス：{pending.purpose}" if ja else f"dice for {pending.purpose}")
    if isinstance(pending, HiddenOp):
        owner = int(pending.zone.split(":")[1]) if ":" in pending.zone else None
        op = {"shuffle": ("shuffling a deck", "デッキをシャッフル中"), "deal": ("dealing cards", "カードを配布中"),
              "show_to": ("showing cards", "カードを見せています"), "reveal": ("revealing a card", "カードを公開中")}[pending.op]
        return owner, op[1] if ja else op[0]
    return None, str(pending)


def describe(pre: RiderState, action: Action, post: RiderState, *, me: int, names: Sequence[str], lang: str,
             name: Namer, knowledge: Knowledge, table: dict[str, Info], proof: str) -> list[LogEntry]:
    """Log lines for one applied input (``proof`` tags dice, shuffles and reveals)."""
    ja = _ja(lang)
    out: list[LogEntry] = []
    who = seat_label(action.seat, names, me, lang) if action.seat >= 0 else ""
    if isinstance(action, SetUp):
        out.append(LogEntry(f"{who}が Lv.1 を3枚裏向きに置いた" if ja else f"{who} placed three Lv.1 cards face down"))
    elif isinstance(action, LevelUp):
        what = "Lv.0" if action.level == 0 else _lv(action.level)
        out.append(LogEntry((f"{who}が {name(action.card)} を列{action.column}に{what}として置いた" if ja else
                             f"{who} levelled up column {action.column} with {name(action.card)} as {what}")
                            + _targets(action.targets, name, lang)))
    elif isinstance(action, Renew):
        out.append(LogEntry(f"{who}が {name(action.card)} で列{action.column}を新生した" if ja
                            else f"{who} renewed column {action.column} with {name(action.card)}"))
    elif isinstance(action, OpenColumn):
        out.append(LogEntry(f"{who}が {name(action.card)} を捨てて列{action.column}を開いた" if ja
                            else f"{who} discarded {name(action.card)} to open column {action.column}"))
    elif isinstance(action, Pass):
        extra = "" if action.card is None else (f"（{name(action.card)} を捨てた）" if ja else f", discarding {name(action.card)}")
        out.append(LogEntry(f"{who}がパスした{extra}" if ja else f"{who} passed{extra}"))
    elif isinstance(action, Discard):
        out.append(LogEntry(f"{who}が {name(action.card)} を捨てた" if ja else f"{who} discarded {name(action.card)}"))
    elif isinstance(action, Attack):
        att = pre.players[action.seat].columns[COLUMN_INDEX[action.column]]
        dfn = pre.players[1 - action.seat].columns[COLUMN_INDEX[action.target]]
        battle = resolve_attack(table, att, dfn)
        destroyed = [c for c in dfn.cards if c not in battle.defender.cards]
        gone = "、".join(f"{_lv(lv)} {name(c)}" for c, lv in reversed(destroyed)) if ja else \
            " and ".join(f"{_lv(lv)} {name(c)}" for c, lv in reversed(destroyed))
        if ja:
            text = f"{who}が列{action.column}（パワー{battle.attack_power}）で列{action.target}（パワー{battle.defence_power}）を攻撃"
            text += f"：{gone}を破壊" if destroyed else "：破壊なし"
        else:
            text = (f"{who} attacked column {action.target} with {battle.attack_power} power "
                    f"(defence {battle.defence_power}); ")
            text += f"destroyed {gone}" if destroyed else "destroyed nothing"
        out.append(LogEntry(text))
    elif isinstance(action, EndAttacks):
        pass  # the next turn marker says it
    elif isinstance(action, CardsShuffled):
        owner = seat_label(int(action.zone.split(":")[1]), names, me, lang)
        out.append(LogEntry(f"{owner}のデッキをシャッフル" if ja else f"{owner}'s deck was shuffled", proof))
    elif isinstance(action, CardsDealt):
        seat = int(action.zone.split(":")[1])
        owner = seat_label(seat, names, me, lang)
        n = len(action.handles)
        if seat == me:
            cards = [knowledge.card(h) for h in action.handles]
            listed = ", ".join(name(c) for c in cards if c) if n <= 2 else ""
            text = (f"{owner}が{n}枚引いた" + (f"：{listed}" if listed else "")) if ja else \
                (f"{owner} drew {n} card{'s' if n != 1 else ''}" + (f": {listed}" if listed else ""))
        else:
            text = f"{owner}が{n}枚引いた" if ja else f"{owner} drew {n} card{'s' if n != 1 else ''}"
        out.append(LogEntry(text, proof))
    elif isinstance(action, CardsRevealed):
        seat = int(action.zone.split(":")[1])
        owner = seat_label(seat, names, me, lang)
        listed = ", ".join(name(c) for c in action.cards)
        out.append(LogEntry(f"{owner}のカードが表に：{listed}" if ja else f"{owner} turned face up: {listed}", proof))
        contest = contest_text(pre, post, names=names, me=me, lang=lang, table=table)
        if contest:
            out.append(LogEntry(contest))
    elif isinstance(action, CardsShownTo):
        seat = int(action.zone.split(":")[1])
        owner = seat_label(seat, names, me, lang)
        seen = [knowledge.card(h) for h in action.handles] if seat == me else []
        listed = ", ".join(name(c) for c in seen if c)
        if listed:
            text = f"{owner}がデッキの上を見た：{listed}" if ja else f"{owner} looked at the top of their deck: {listed}"
        else:
            text = (f"{owner}がデッキの上{len(action.handles)}枚を見た" if ja
                    else f"{owner} looked at the top {len(action.handles)} cards of their deck")
        out.append(LogEntry(text, proof))
    elif isinstance(action, SealedChoicesRevealed):
        if action.purpose == "rider.battle_mark":
            text = ("バトルマーク勝負：" if ja else "Battle-mark contest: ") + ", ".join(
                f"{seat_label(i, names, me, lang)} {'列' if ja else 'column '}{c}" for i, c in enumerate(action.choices))
        else:
            text = rps_text(action.choices, post, names=names, me=me, lang=lang)
        out.append(LogEntry(text, proof))
    elif isinstance(action, DiceRolled):
        out.append(LogEntry(f"ダイス {action.purpose}: {list(action.faces)}", proof))
    if post.turn != pre.turn and not post.reason:
        active = seat_label(post.active, names, me, lang)
        out.append(LogEntry(f"ターン{post.turn}：{active}" if ja else f"Turn {post.turn}: {active}", turn_marker=True))
    if post.reason and not pre.reason:
        why = reason_text(post.reason, post.winner, names, me, lang)
        if post.winner is None:
            out.append(LogEntry(f"引き分け：{why}" if ja else f"Draw: {why}", turn_marker=True))
        else:
            w = seat_label(post.winner, names, me, lang)
            out.append(LogEntry(f"{w}の勝ち：{why}" if ja else f"{w} won: {why}", turn_marker=True))
    return out
