"""Rider's deck tool: check, show and list Rider decks and cards (run as ``python -m tools.deck``).

    python -m tools.deck check FILE [--cardset FILE]   name every broken deck rule
    python -m tools.deck show FILE [--cardset FILE] [--lang en|ja]
    python -m tools.deck list [--cardset FILE] [--lang en|ja]

Exit status: 0 = legal deck / done, 1 = the deck breaks deck-building rules,
2 = the input could not be checked at all (missing file, broken JSON, not a
deck, card set not found or invalid, bad command line).

It is Rider's own tool: its registry entry names this module as its
``deck_tool`` (net/games/rider/__init__.py), which is how ``tools.deck``
(the command), ``tools.match``, ``tools.peer`` and ``tools.scenario`` read a
``--deck``/``--cardset`` file of a game with decks. This is the only place
that reads deck and card-set files; the rules live in engine/rider/deck.py. It also holds :func:`rules_text`, which writes a card's
rules text from its effect data, so the shipped set's texts can be tested to
say exactly what the data does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import assets
from engine.core.errors import DeckError
from engine.rider.cards import Card, CardSet, Effect, Placement, cardset_from_data
from engine.rider.deck import check_deck, deck_from_data, expand
from net.problems import InputProblem


SHIPPED_CARDSET = "rider/cardset.json"

ATTRIBUTE_NAMES = {
    "flame": ("Flame", "炎"), "tide": ("Tide", "潮"), "gale": ("Gale", "風"),
    "stone": ("Stone", "岩"), "spark": ("Spark", "雷"), "free": ("Free", "フリー"),
}
MARK_NAMES = {"sword": ("Sword", "剣"), "feather": ("Feather", "羽"), "rock": ("Rock", "岩")}


# ---------------------------------------------------------------- rules text

def _cards_en(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _side_en(on: str) -> str:
    return {
        "attack": "When this card's column attacks",
        "defend": "When this card's column is attacked",
        "both": "When this card's column attacks or is attacked",
    }[on]


def _side_ja(on: str) -> str:
    return {
        "attack": "このカードのある列が攻撃する時",
        "defend": "このカードのある列が攻撃される時",
        "both": "このカードのある列が攻撃する時と攻撃される時",
    }[on]


def _placement_text(p: Placement) -> tuple[str, str]:
    if p.type == "skip":
        to = p.from_level + 2
        return (
            (f"Special placement: may also be placed as Lv.{to} on a column whose highest level is "
            f"Lv.{p.from_level} (the attribute rule still applies)."),
            f"特殊配置：最も高いレベルがLv.{p.from_level}の列にも、Lv.{to}として配置できる（属性の条件は通常どおり）。",
        )
    if p.type == "any_attribute":
        return (
            "Special placement: may level up a column of any attribute.",
            "特殊配置：属性に関係なく、どの列にもレベルアップできる。",
        )
    return (
        f"Special placement: may be placed only while your opponent has {p.min_lost} or more Lv.1 cards in Lost.",
        f"特殊配置：相手のロストにLv.1カードが{p.min_lost}枚以上ある時にだけ配置できる。",
    )


def _effect_text(e: Effect) -> tuple[str, str]:
    t = e.type
    if t == "draw":
        return f"On level up: draw {_cards_en(e.count)}.", f"レベルアップ時：カードを{e.count}枚引く。"
    if t == "destroy_top":
        return (
            (f"On level up: choose one of your opponent's face-up columns whose top card is Lv.{e.max_level} "
            "or lower, if there is one, and destroy that top card (a Lv.1 goes to Lost)."),
            (f"レベルアップ時：相手の表向きの列のうち、一番上のカードがLv.{e.max_level}以下の列があれば1つ選び、"
            "その一番上のカードを破壊する（Lv.1はロストへ送られる）。"),
        )
    if t == "destroy_level0":
        return "On level up: destroy one of your opponent's Lv.0 cards.", "レベルアップ時：相手のLv.0カードを1枚破壊する。"
    if t == "recover":
        return (
            f"On level up: put one card of Lv.{e.max_level} or lower from your discard pile into your hand.",
            f"レベルアップ時：自分の捨て山からLv.{e.max_level}以下のカードを1枚手札に加える。",
        )
    if t == "opponent_discards":
        return (
            f"On level up: your opponent discards {_cards_en(e.count)} of their choice from their hand.",
            f"レベルアップ時：相手は手札を{e.count}枚選んで捨てる。",
        )
    if t == "peek":
        return (
            f"On level up: look at the top {_cards_en(e.count)} of your deck, then leave them in the same order.",
            f"レベルアップ時：自分のデッキの上から{e.count}枚を見て、同じ順番のまま戻す。",
        )
    if t == "flip_facedown":
        return (
            "On level up: turn one of your face-down Lv.1 columns face up.",
            "レベルアップ時：自分の裏向きのLv.1の列を1つ表向きにする。",
        )
    if t == "rescue_lost":
        return (
            "On level up: move one Lv.1 card from your Lost pile to your discard pile.",
            "レベルアップ時：自分のロストのLv.1カードを1枚、捨て山に移す。",
        )
    if t == "can_attack":
        return (
            "This card's column may attack even without a Lv.4 card.",
            "このカードのある列は、Lv.4カードが無くても攻撃できる。",
        )
    if t == "full_power":
        return f"{_side_en(e.on)}, this card uses its full power.", f"{_side_ja(e.on)}、このカードはフルパワーを使う。"
    if t == "power_bonus":
        return f"{_side_en(e.on)}, the column gets +{e.amount} power.", f"{_side_ja(e.on)}、列のパワー+{e.amount}。"
    if t == "guard":
        return (
            f"This card's column cannot be attacked by a column with less than {e.min_attack} power.",
            f"このカードのある列は、パワーが{e.min_attack}未満の列からは攻撃されない。",
        )
    if t == "double_attack":
        return (
            "This card's column may attack up to twice per turn.",
            "このカードのある列は、1ターンに2回まで攻撃できる。",
        )
    if t == "extra_copies":
        return f"A deck may contain up to {e.max} copies of this card.", f"このカードはデッキに{e.max}枚まで入れられる。"
    raise ValueError(f"no rules text for effect type {t!r}")


def rules_text(card: Card) -> tuple[str, str]:
    """The (English, Japanese) rules text that states exactly what ``card``'s data does."""
    lines: list[tuple[str, str]] = []
    if card.special_placement is not None:
        lines.append(_placement_text(card.special_placement))
    lines.extend(_effect_text(e) for e in card.effects)
    if not lines:
        lines.append(("No special effect.", "特殊効果なし。"))
    return "\n".join(en for en, _ in lines), "\n".join(ja for _, ja in lines)


# ---------------------------------------------------------------- loading

def _read_json(path: Path, what: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputProblem(f"{what} {path} does not exist; check the path.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputProblem(f"cannot read {what} {path} ({exc}); check that it is a readable UTF-8 text file.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputProblem(
            f"{what} {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix the file (see docs/rider-cardset-format.md for the format)."
        ) from None


def load_cardset(path: str | None) -> CardSet:
    """The card set in ``path``, or the shipped one when ``path`` is None."""
    if path is None:
        data = assets.load_json(SHIPPED_CARDSET)
        where = f"the shipped card set ({SHIPPED_CARDSET})"
    else:
        data = _read_json(Path(path), "card set file")
        where = f"card set file {path}"
    try:
        return cardset_from_data(data)
    except DeckError as exc:
        raise InputProblem(f"{where} is not a valid card set: " + "; ".join(exc.problems)) from None


def load_deck(path: str, cardset_path: str | None) -> tuple[Mapping[str, str], CardSet, Mapping[str, int]]:
    """Parse a deck file and the card set it names; :class:`InputProblem` if either is unusable."""
    data = _read_json(Path(path), "deck file")
    try:
        name, cardset_id, counts = deck_from_data(data)
    except DeckError as exc:
        raise InputProblem(f"deck file {path} is not a valid deck file:\n  " + "\n  ".join(exc.problems)) from None
    cardset = load_cardset(cardset_path)
    if cardset.id != cardset_id:
        hint = "pass --cardset FILE with that card set" if cardset_path is None else "pass the matching --cardset FILE"
        raise InputProblem(
            f"deck file {path} was built for card set {cardset_id!r}, which is unknown here "
            f"(the loaded card set is {cardset.id!r}); {hint}, or change the deck's \"cardset\" field."
        )
    return name, cardset, counts


def deck_cards(path: str, cardset_path: str | None, *, check: bool = True) -> tuple[str, ...]:
    """The cards of the deck in ``path``, one entry per copy; with ``check``, :class:`InputProblem`
    naming every deck-building rule it breaks."""
    _, cardset, counts = load_deck(path, cardset_path)
    if check:
        problems = check_deck(cardset, counts)
        if problems:
            raise InputProblem(f"deck {path} breaks the deck rules: " + "; ".join(problems) + "; fix it with "
                               "python -m tools.deck check")
    return expand(counts)


# ---------------------------------------------------------------- output

def card_line(card: Card, lang: str) -> str:
    """One line describing a card, in English or Japanese."""
    ja = lang == "ja"
    level = "Lv." + "-".join(str(v) for v in card.levels)
    attr = ATTRIBUTE_NAMES[card.attribute][1 if ja else 0]
    mark = MARK_NAMES[card.mark][1 if ja else 0]
    name = card.name_ja if ja else card.name_en
    text = (card.text_ja if ja else card.text_en).replace("\n", " ")
    return f"{card.id}  {level:<7} {attr:<6} {mark:<7} {card.power}/{card.full_power}  {name}: {text}"


def _cmd_check(args: argparse.Namespace) -> int:
    _, cardset, counts = load_deck(args.file, args.cardset)
    problems = check_deck(cardset, counts)
    if not problems:
        print("ok")
        return 0
    print(f"{args.file}: the deck breaks {len(problems)} deck-building "
          f"{'rule' if len(problems) == 1 else 'rules'} (see docs/rules/rider-decks.md):")
    for problem in problems:
        print(f"  {problem}")
    return 1


def _cmd_show(args: argparse.Namespace) -> int:
    name, cardset, counts = load_deck(args.file, args.cardset)
    ja = args.lang == "ja"
    print(name["ja"] if ja else name["en"])
    for card_id, n in counts.items():
        card = cardset.cards.get(card_id)
        print(f"  {n} x " + (card_line(card, args.lang) if card else f"{card_id}  (not in card set {cardset.id!r})"))
    print(f"  {len(expand(counts))} {'枚' if ja else 'cards'}")
    problems = check_deck(cardset, counts)
    print("ok" if not problems else "\n".join(problems))
    return 0 if not problems else 1


def _cmd_list(args: argparse.Namespace) -> int:
    cardset = load_cardset(args.cardset)
    print(cardset.name_ja if args.lang == "ja" else cardset.name_en)
    for card in cardset.cards.values():
        print(card_line(card, args.lang))
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.deck", description="Check, show and list Rider decks and cards.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="name every deck-building rule a deck file breaks")
    check.add_argument("file")
    check.add_argument("--cardset", help="card set JSON file (default: the shipped set)")
    show = sub.add_parser("show", help="print a deck's cards and whether it is legal")
    show.add_argument("file")
    show.add_argument("--cardset", help="card set JSON file (default: the shipped set)")
    show.add_argument("--lang", choices=("en", "ja"), default="en")
    list_ = sub.add_parser("list", help="print every card of a card set, one per line")
    list_.add_argument("--cardset", help="card set JSON file (default: the shipped set)")
    list_.add_argument("--lang", choices=("en", "ja"), default="en")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    command = {"check": _cmd_check, "show": _cmd_show, "list": _cmd_list}[args.command]
    try:
        return command(args)
    except InputProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

